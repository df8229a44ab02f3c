package sim

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
)

func init() {
	registerPart("systemcore_imu", part{sensor: systemcoreIMUSensor, provider: "Sim.OpenBuiltInIMU"})
}

// systemcoreIMUSensor is Systemcore's built-in IMU: an IMU like a
// Pigeon's, on no bus (the backend opens it, no entry needs wiring).
func systemcoreIMUSensor(s *Sim, d *config.Device, _ *joint) {
	m := &imuDev{name: d.Name, canID: -1, talonID: -1, frame: d.Str("frame_id")}
	s.imus = append(s.imus, m)
	s.sensors[d.Name] = sensorRef{imu: m}
}

var _ hal.BuiltInIMUs = (*Sim)(nil)

// builtInIMUKey marks the built-in IMU open among the Pigeons.
var builtInIMUKey = canKey{"(built-in IMU)", -1}

// OpenBuiltInIMU opens the simulated controller's built-in IMU: the
// motion Sim.SetIMU gives the configured one (identity and still when
// none is configured), read as a Pigeon's is.
func (s *Sim) OpenBuiltInIMU() (hal.Pigeon, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pigeonOpen[builtInIMUKey] {
		return nil, inUse("built-in IMU", 0)
	}
	s.pigeonOpen[builtInIMUKey] = true
	p := &pigeon{s: s}
	for _, m := range s.imus {
		if m.nav == nil && m.canID < 0 && m.talonID < 0 && m.can == nil {
			p.imu = m
			break
		}
	}
	return p, nil
}
