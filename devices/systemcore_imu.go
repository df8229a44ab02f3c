package devices

import (
	"fmt"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(systemcoreIMUDriver) }

// systemcoreIMUDriver declares the type: its keys and facts, driver and
// HAL needs.
var systemcoreIMUDriver = Driver{Type: systemcoreIMUType, New: newSystemcoreIMU, Needs: hal.CapIMU}

var systemcoreIMUType = &config.Type{
	Name: "systemcore_imu", Class: "SystemcoreIMU", Group: "sensor",
	Summary: "Systemcore's built-in IMU, read through WPILib's 2027 HAL.",
	Doc: "State: an IMU handle (orientation, angular velocity, linear acceleration), published as sensor_msgs/Imu like a " +
		"pigeon_imu's. WPILib's HAL gives the quaternion (HAL_GetIMUQuaternion), the gyro rates in rad/s " +
		"(HAL_GetIMUGyroRates) and the acceleration in m/s² (HAL_GetIMUAcceleration); docs/systemcore.md has the WPILib " +
		"version they were read from. Systemcore has one, so a file has at most one.",
	Place:   config.LinkSensor,
	Example: "{name: base_imu, type: systemcore_imu, frame_id: base_link}",
	Keys:    []config.Key{config.FrameIDKey, config.RequiredKey},
	Check: func(d *config.Device, c *config.Checker) {
		c.Once(d, "built-in IMU", d.TypePos)
	},
}

// newSystemcoreIMU binds the built-in IMU through hal.BuiltInIMUs: the
// same reading, reordering and checks as a pigeon_imu (pigeonIMU).
func newSystemcoreIMU(d *config.Device, env *Env) (Device, error) {
	p, err := hal.OpenBuiltInIMU(env.HAL)
	if err != nil {
		return nil, fmt.Errorf("built-in IMU: %w", err)
	}
	g := &pigeonIMU{name: d.Name, p: p, rErr: newOpError(d, "read")}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.IMU, &g.state); err != nil {
		return nil, err
	}
	return g, nil
}
