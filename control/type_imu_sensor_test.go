package control_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
)

// TestIMUSensorControllerChecks: an IMU sensor controller names an IMU
// (sensor_name required, and a navX or Pigeon, not a motor
// controller), one per IMU; its publish_rate is in range.
func TestIMUSensorControllerChecks(t *testing.T) {
	const joints = "joints:\n  - {name: navx, type: navx, frame_id: base_link, interface: spi, id: 4}\n  - {name: m, type: talon, id: 1}\ncontrollers:\n"
	for _, c := range []struct{ name, ctl, want string }{
		{"fine", "  a: {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 20}\n", ""},
		{"every IMU, as ros_controllers' is written", "  a: {type: imu_sensor_controller/ImuSensorController, publish_rate: 20}\n", ""},
		{"two of every IMU", "  a: {type: imu_sensor_controller/ImuSensorController}\n  b: {type: imu_sensor_controller/ImuSensorController}\n",
			"a second IMU sensor controller of every IMU"},
		{"not an IMU", "  a: {type: imu_sensor_controller/ImuSensorController, sensor_name: m}\n", `sensor_name "m" is a talon`},
		{"two of one IMU", "  a: {type: imu_sensor_controller/ImuSensorController, sensor_name: navx}\n" +
			"  b: {type: imu_sensor_controller/ImuSensorController, sensor_name: navx}\n", "a second IMU sensor controller of navx"},
		{"rate out of range", "  a: {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 5000}\n", "publish_rate"},
	} {
		_, list := config.Parse("robot.yaml", []byte(joints+c.ctl))
		got := fmt.Sprint(list)
		if c.want == "" && list.Errors() > 0 || c.want != "" && (list.Errors() == 0 || !strings.Contains(got, c.want)) {
			t.Errorf("%s: %d errors %q, want one saying %q", c.name, list.Errors(), got, c.want)
		}
	}
}
