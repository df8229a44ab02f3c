package devices

import (
	"fmt"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(pigeon2Driver) }

// pigeon2Driver declares the type: its keys and facts, driver, CAN traffic
// and HAL needs.
var pigeon2Driver = Driver{Type: pigeon2Type, New: newPigeon2, CAN: &CANTraffic{Kind: canPigeon2, NumberKey: "id"}, Needs: phoenix6.Cap}

var pigeon2Type = &config.Type{
	Name: "pigeon2", Class: "Pigeon2", Group: "sensor",
	Summary: "A CTRE Pigeon 2.0 IMU on the CAN bus, through CTRE's Phoenix 6.",
	Doc: "State: an IMU handle (orientation, angular velocity, linear acceleration), published as sensor_msgs/Imu like a pigeon_imu's. " +
		"On /diagnostics: its temperature, supply and faults (an error for a sensor that failed at boot or a hardware fault, a warning for a boot while moving, a saturated gyro, undervoltage or sticky faults).",
	Place: config.LinkSensor,
	Keys: []config.Key{
		config.FrameIDKey,
		{Name: "id", Kind: config.Int, Required: true, Resource: config.CANGyro, Scope: "can_bus", Doc: "The CAN id of the Pigeon 2."},
		config.CANBusKey, config.RequiredKey,
	},
	Facts: config.Facts{CAN: true},
}

// pigeon2 is a Pigeon 2: read as a pigeon_imu is (pigeonIMU), with its
// health on /diagnostics.
type pigeon2 struct {
	*pigeonIMU
	h  phoenix6.Healthy
	id int
}

var _ hal.Reporter = pigeon2{}

// Report gives the Pigeon 2's health for /diagnostics (p6Report).
func (g pigeon2) Report(dst []hal.Report) []hal.Report {
	h, err := g.h.Health()
	return append(dst, p6Report(fmt.Sprintf("%s (Pigeon 2 %d)", g.name, g.id), h, err))
}

// newPigeon2 binds a Pigeon 2 through phoenix6.Provider's phoenix6.Pigeon2: the same
// reading, reordering and checks as a pigeon_imu (pigeonIMU).
func newPigeon2(d *config.Device, env *Env) (Device, error) {
	p6, err := phoenix6.Open(env.HAL)
	if err != nil {
		return nil, err
	}
	p, err := p6.OpenPigeon2(d.CANBus(), d.Int("id"))
	if err != nil {
		return nil, fmt.Errorf("Pigeon 2 at CAN id %d: %w", d.Int("id"), err)
	}
	if err := phoenix6.SetSignalRates(p); err != nil {
		return nil, fmt.Errorf("Pigeon 2 at CAN id %d: setting its signals' update frequencies: %w", d.Int("id"), err)
	}
	g := &pigeonIMU{name: d.Name, p: p, rErr: newOpError(d, "read")}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.IMU, &g.state); err != nil {
		return nil, err
	}
	return pigeon2{pigeonIMU: g, h: p, id: d.Int("id")}, nil
}
