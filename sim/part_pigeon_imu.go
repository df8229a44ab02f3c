package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("pigeon_imu", part{sensor: pigeonSensor}) }

// pigeonSensor puts an emulated Pigeon IMU on the CAN bus at its id, or
// cabled to the Talon SRX its talon key names (its frames then go out
// through the Talon).
func pigeonSensor(s *Sim, d *config.Device, _ *joint) {
	m := &imuDev{name: d.Name, canID: -1, talonID: -1, frame: d.Str("frame_id")}
	if d.Has("id") {
		m.canID, m.bus = d.Int("id"), d.CANBus()
		m.can = s.pigeonCAN(m.bus, m.canID)
		s.canNodes[d.Name] = &m.can.node
	} else if t := d.Ref("talon"); t != nil {
		m.talonID, m.bus = t.Int("id"), t.CANBus()
		m.can = s.pigeonOnTalon(m.bus, m.talonID)
	}
	s.imus = append(s.imus, m)
	s.sensors[d.Name] = sensorRef{imu: m}
}
