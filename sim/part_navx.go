package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("navx", part{sensor: navxSensor}) }

// navxSensor puts an emulated navX-MXP (navx.go) on its roboRIO port or
// Linux bus, feeling its link's motion.
func navxSensor(s *Sim, d *config.Device, _ *joint) {
	m := &imuDev{name: d.Name, nav: newNavX(), iface: d.Str("interface"), port: roboRIOPort(d), canID: -1, talonID: -1, frame: d.Str("frame_id")}
	s.imus = append(s.imus, m)
	s.sensors[d.Name] = sensorRef{imu: m}
}
