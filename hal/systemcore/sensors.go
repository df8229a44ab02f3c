package systemcore

import (
	"errors"
	"fmt"
	"math"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/nt4"
)

// The built-in IMU's topics (WPILib's IMU.cpp at 06fb36ba8e^): double[]
// values, the acceleration in g, the gyro rates in °/s, the quaternion
// w, x, y, z.
const (
	IMUAccelTopic = "/imu/rawaccel"
	IMUGyroTopic  = "/imu/rawgyro"
	IMUQuatTopic  = "/imu/quat"
)

// BatteryTopic is the battery voltage, a double in V (mrc/NtNetComm.h's
// ROBOT_BATTERY_VOLTAGE_PATH, read by Power.cpp's HAL_GetVinVoltage at
// eb23d827e3^).
const BatteryTopic = "/sys/battery"

// imu reads the built-in IMU's topics.
type imu struct {
	l   *link
	buf [4]float64
}

// OpenBuiltInIMU opens Systemcore's built-in IMU; it can be opened once.
func (b *Backend) OpenBuiltInIMU() (hal.Pigeon, error) {
	if b.link == nil {
		return nil, errNoServer
	}
	b.link.mu.Lock()
	defer b.link.mu.Unlock()
	if b.link.imu {
		return nil, fmt.Errorf("the built-in IMU: %w", hal.ErrInUse)
	}
	b.link.imu = true
	return &imu{l: b.link}, nil
}

var errIMUShape = errors.New("not a double[] of the expected length")

// vec reads a double[] topic of n numbers into dst.
func (m *imu) vec(topic string, n int, dst []float64) error {
	ok := false
	err := m.l.get(topic, func(t *nt4.ClientTopic) {
		var got []float64
		if got, ok = t.Value.Doubles(m.buf[:0], 4); ok && len(got) == n {
			copy(dst, got)
		} else {
			ok = false
		}
	})
	if err != nil {
		return err
	}
	if !ok {
		return m.l.topicErr(errShape, topic, func() error { return fmt.Errorf("%s: %w", topic, errIMUShape) })
	}
	return nil
}

// Read gives the orientation (w, x, y, z), the angular velocity in rad/s
// and the acceleration in m/s², converted as WPILib's IMU.cpp converts
// them (°→rad, g→9.80665 m/s²).
func (m *imu) Read() (q [4]float64, gyro, accel [3]float64, err error) {
	if err = m.vec(IMUQuatTopic, 4, q[:]); err != nil {
		return
	}
	if err = m.vec(IMUGyroTopic, 3, gyro[:]); err != nil {
		return
	}
	if err = m.vec(IMUAccelTopic, 3, accel[:]); err != nil {
		return
	}
	for i := range gyro {
		gyro[i] *= math.Pi / 180
		accel[i] *= hal.Gravity
	}
	return
}

// Vin is the battery voltage the system server reports.
func (b *Backend) Vin() (float64, error) {
	if b.link == nil {
		return 0, fmt.Errorf("the battery voltage: no system server (system_server: off): %w", hal.ErrUnsupported)
	}
	v, ok := 0.0, false
	err := b.link.get(BatteryTopic, func(t *nt4.ClientTopic) {
		if t.Value.Raw != nil {
			v, ok = t.Value.Double()
		}
	})
	if err != nil {
		return 0, err
	}
	if !ok || math.IsNaN(v) {
		return 0, b.link.topicErr(errNoValue, BatteryTopic, func() error { return fmt.Errorf("%s: no number yet: %w", BatteryTopic, hal.ErrTimeout) })
	}
	return v, nil
}
