package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister("built_in_accel", newBuiltInAccel) }

// builtInAccel reads the roboRIO's built-in accelerometer (a backend that
// is a hal.BuiltInAccelerometer) at its `range`. Its name/imu IMUState
// holds the linear acceleration in m/s², gravity included; orientation and
// angular velocity are not provided (their covariances' first element is
// -1, as sensor_msgs/Imu marks them).
type builtInAccel struct {
	name  string
	a     hal.Accelerometer
	state interfaces.IMUState
	rErr  opError
}

var _ Device = (*builtInAccel)(nil)

func newBuiltInAccel(d *config.Device, env *Env) (Device, error) {
	b, ok := env.HAL.(hal.BuiltInAccelerometer)
	if !ok {
		return nil, fmt.Errorf("this backend has no built-in accelerometer (a roboRIO's): %w", hal.ErrUnsupported)
	}
	a, err := b.OpenAccelerometer(d.Int("range"))
	if err != nil {
		return nil, fmt.Errorf("built-in accelerometer: %w", err)
	}
	dev := &builtInAccel{name: d.Name, a: a, rErr: newOpError(d, "read")}
	dev.state.OrientationCovariance[0] = -1
	dev.state.AngularVelocityCovariance[0] = -1
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.IMU, &dev.state); err != nil {
		return nil, err
	}
	return dev, nil
}

func (b *builtInAccel) Name() string { return b.name }

func (b *builtInAccel) Read(now, dt time.Duration) error {
	x, y, z, err := b.a.Read()
	if err != nil {
		return b.rErr.wrap(err)
	}
	if !interfaces.Finite(x) || !interfaces.Finite(y) || !interfaces.Finite(z) {
		return b.rErr.wrap(errNotFinite)
	}
	b.state.LinearAcceleration = [3]float64{x * hal.Gravity, y * hal.Gravity, z * hal.Gravity}
	return nil
}

// Write does nothing: the accelerometer takes no commands.
func (b *builtInAccel) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: the accelerometer has no outputs.
func (b *builtInAccel) Halt() error { return nil }
