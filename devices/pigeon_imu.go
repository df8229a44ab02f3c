package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(pigeonImuDriver) }

// pigeonImuDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var pigeonImuDriver = Driver{Type: pigeonImuType, New: newPigeonIMU, CAN: &CANTraffic{Of: pigeonCAN}, Needs: hal.CapPigeon}

var pigeonImuType = &config.Type{
	Name: "pigeon_imu", Class: "PigeonIMU", Group: "sensor",
	Summary: "A CTRE Pigeon IMU, on the CAN bus or on a Talon SRX's gadgeteer port.",
	Doc:     "State: an IMU handle (orientation, angular velocity, linear acceleration). Exactly one of `id` or `talon` must be given.",
	Place:   config.LinkSensor,
	Example: "{name: pigeon, type: pigeon_imu, frame_id: base_link, talon: left_front_wheel_joint}",
	Schema:  map[string]any{"oneOf": []any{map[string]any{"required": []string{"id"}}, map[string]any{"required": []string{"talon"}}}},
	Keys: []config.Key{
		config.FrameIDKey,
		{Name: "id", Kind: config.Int, Resource: config.CANGyro, Scope: "can_bus", Doc: "The CAN id of the Pigeon, when it is on the CAN bus."},
		{Name: "talon", Kind: config.String, Ref: []config.Role{config.PigeonHostRole}, Doc: "The name of the Talon SRX the Pigeon is plugged into."},
		config.CANBusKey, config.RequiredKey,
	},
	Check: func(d *config.Device, c *config.Checker) {
		switch {
		case d.Has("id") && d.Has("talon"):
			c.Errorf(d.KeyPos("talon"), "%s: give either id (on CAN) or talon (on a Talon SRX), not both", d)
		case !d.Has("id") && !d.Has("talon"):
			c.Errorf(d.Pos, "%s: needs id (its CAN id) or talon (the Talon SRX it is plugged into)", d)
		}
	},
	Facts: config.Facts{CAN: true, CANWith: "id"},
}

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

// pigeonCAN is the CAN device a Pigeon puts on its bus: its own, or, cabled
// to a Talon SRX, its frames under the Talon's type and number.
func pigeonCAN(d *config.Device) (*CANKind, int, string, bool) {
	if d.Has("id") {
		return canPigeon, d.Int("id"), d.CANBus(), true
	}
	talon := d.Ref("talon")
	if talon == nil {
		return nil, 0, "", false
	}
	return canPigeonOnTalon, talon.Int("id"), talon.CANBus(), true
}
