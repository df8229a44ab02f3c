package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(builtInAccelDriver) }

// builtInAccelDriver declares the type: its keys and facts, driver and
// HAL needs.
var builtInAccelDriver = Driver{Type: builtInAccelType, New: newBuiltInAccel, Needs: hal.CapAccel}

// builtInAccelType is the roboRIO's built-in accelerometer (frc_control's
// built_in_accel).
var builtInAccelType = &config.Type{
	Name: "built_in_accel", Class: "BuiltInAccelerometer", Group: "special",
	Summary: "The roboRIO's built-in 3-axis accelerometer.",
	Doc: "State: an IMU handle with the linear acceleration only, in m/s² along the roboRIO's x, y, z, gravity included " +
		"(9.8 along z lying flat); its orientation and angular velocity are marked not provided (covariance -1, as " +
		"sensor_msgs/Imu has it). frame_id names the frame it is read in: the link the roboRIO is mounted on. " +
		"A roboRIO has one, so a file has at most one; a Linux coprocessor has none.",
	Place:   config.YAMLOnly,
	Example: "{name: rio_accel, type: built_in_accel, frame_id: base_link}",
	Keys: []config.Key{
		{Name: "frame_id", Kind: config.String, Required: true, Doc: "The tf2 frame of the accelerometer: the URDF link the roboRIO is mounted on."},
		{Name: "range", Kind: config.Int, Default: 8, HasRange: true, Min: 2, Max: 8, Unit: "g", Doc: "The measuring range: 2, 4 or 8 g (WPILib's BuiltInAccelerometer.Range)."},
	},
	Check: func(d *config.Device, c *config.Checker) {
		if r := d.Int("range"); r != 2 && r != 4 && r != 8 {
			c.Errorf(d.ValuePos("range"), "%s: range %d g: the accelerometer measures 2, 4 or 8 g", d, r)
		}
		c.Once(d, "built-in accelerometer", d.TypePos)
	},
}

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
	a, err := hal.OpenAccelerometer(env.HAL, d.Int("range"))
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
