package sim

import (
	"fmt"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/urdf"
)

func init() { registerPart("built_in_accel", part{provider: "Sim.OpenAccelerometer"}) }

// The roboRIO has one built-in accelerometer, so the sim is one: the
// driver opens it from the backend, and no entry needs wiring.
var _ hal.BuiltInAccelerometer = (*Sim)(nil)

// OpenAccelerometer opens the simulated roboRIO's accelerometer, at a
// range of 2, 4 or 8 g: it feels gravity, 1 g along z, and, with a
// drivetrain, the base's acceleration (the roboRIO lying flat at the
// base's origin), each axis clamped to the range.
func (s *Sim) OpenAccelerometer(rangeG int) (hal.Accelerometer, error) {
	if rangeG != 2 && rangeG != 4 && rangeG != 8 {
		return nil, fmt.Errorf("accelerometer range %d g: not 2, 4 or 8: %w", rangeG, hal.ErrNoDevice)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.accelOpen {
		return nil, inUse("built-in accelerometer", 0)
	}
	s.accelOpen = true
	return &accelerometer{s: s, limit: float64(rangeG)}, nil
}

type accelerometer struct {
	s     *Sim
	limit float64
}

func (a *accelerometer) Read() (x, y, z float64, err error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	v := [3]float64{0, 0, 1}
	if b := a.s.base; b != nil {
		m := b.imu(mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, urdf.Vec3{})
		for i := range v {
			v[i] += m.LinearAcceleration[i] / hal.Gravity
		}
	}
	for i := range v {
		v[i] = max(-a.limit, min(a.limit, v[i]))
	}
	return v[0], v[1], v[2], nil
}
