package sim

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
)

func init() { registerPart("pigeon2", part{sensor: pigeon2Sensor}) }

// pigeon2Sensor puts an emulated Pigeon 2 on the CAN bus at its id: an
// IMU like a Pigeon's, whose stand-in frames go out under the FRC gyro
// device type.
func pigeon2Sensor(s *Sim, d *config.Device, _ *joint) {
	m := &imuDev{name: d.Name, canID: d.Int("id"), talonID: -1, bus: d.CANBus(), frame: d.Str("frame_id")}
	b := s.busFor(m.bus)
	m.can = &pigeonCAN{bus: b, id: m.canID}
	m.can.slots[0] = b.addSlot(frc.FRCID(frc.DevGyro, frc.MfrCTRE, 0x50, m.canID))
	m.can.slots[1] = b.addSlot(frc.FRCID(frc.DevGyro, frc.MfrCTRE, 0x51, m.canID))
	s.canNodes[d.Name] = &m.can.node
	s.imus = append(s.imus, m)
	s.sensors[d.Name] = sensorRef{imu: m}
}
