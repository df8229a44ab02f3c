package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister("pigeon_imu", newPigeonIMU) }

// pigeonIMU reads a CTRE Pigeon IMU, on the CAN bus (`id`, `can_bus`) or cabled to
// the Talon SRX named by `talon`, through hal.Pigeon: like the Talon its
// protocol is closed, and a real robot needs CTRE Phoenix behind that
// interface. Its name/imu IMUState holds the orientation (reordered from
// the HAL's w, x, y, z to x, y, z, w), the angular velocity and the
// linear acceleration; all three are provided, with unknown covariances
// (all zero, as sensor_msgs/Imu has it).
type pigeonIMU struct {
	name  string
	p     hal.Pigeon
	state interfaces.IMUState
	rErr  opError
}

var _ Device = (*pigeonIMU)(nil)

func newPigeonIMU(d *config.Device, env *Env) (Device, error) {
	id, talonID, bus := -1, -1, d.CANBus()
	switch {
	case d.Has("id"):
		id = d.Int("id")
	case d.Has("talon"):
		t := d.Ref("talon")
		if t == nil {
			return nil, fmt.Errorf("talon %q is not a device of this file", d.Str("talon"))
		}
		talonID, bus = t.Int("id"), t.CANBus() // it talks through the Talon, on the Talon's bus
	default:
		return nil, fmt.Errorf("needs id or talon")
	}
	p, err := hal.OpenPigeon(env.HAL, bus, id, talonID)
	if err != nil {
		if id >= 0 {
			return nil, fmt.Errorf("Pigeon at CAN id %d: %w", id, err)
		}
		return nil, fmt.Errorf("Pigeon on the Talon SRX at CAN id %d: %w", talonID, err)
	}
	g := &pigeonIMU{name: d.Name, p: p, rErr: newOpError(d, "read")}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.IMU, &g.state); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *pigeonIMU) Name() string { return g.name }

func (g *pigeonIMU) Read(now, dt time.Duration) error {
	q, gyro, accel, err := g.p.Read()
	if err != nil {
		return g.rErr.wrap(err)
	}
	for _, v := range [...]float64{q[0], q[1], q[2], q[3], gyro[0], gyro[1], gyro[2], accel[0], accel[1], accel[2]} {
		if !interfaces.Finite(v) {
			return g.rErr.wrap(errNotFinite)
		}
	}
	g.state.Orientation = [4]float64{q[1], q[2], q[3], q[0]}
	g.state.AngularVelocity = gyro
	g.state.LinearAcceleration = accel
	return nil
}

// Write does nothing: the Pigeon takes no commands.
func (g *pigeonIMU) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: the Pigeon has no outputs.
func (g *pigeonIMU) Halt() error { return nil }
