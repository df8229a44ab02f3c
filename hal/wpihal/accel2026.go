//go:build cgo && roborio

package wpihal

/*
#include "hal2026.h"
*/
import "C"

import (
	"fmt"

	"github.com/frcd/frcd/hal"
)

var _ hal.BuiltInAccelerometer = (*Backend)(nil)

// accelRanges are HAL_AccelerometerRange's values by range in g.
var accelRanges = map[int]C.int32_t{2: 0, 4: 1, 8: 2}

// OpenAccelerometer sets the roboRIO's accelerometer to a range of 2, 4 or
// 8 g and makes it active, as WPILib's BuiltInAccelerometer does
// (HAL_SetAccelerometerActive, HAL_SetAccelerometerRange).
func (b *Backend) OpenAccelerometer(rangeG int) (hal.Accelerometer, error) {
	if b.isClosed() {
		return nil, b.closedErr()
	}
	r, ok := accelRanges[rangeG]
	if !ok {
		return nil, fmt.Errorf("wpihal: accelerometer range %d g: not 2, 4 or 8: %w", rangeG, hal.ErrNoDevice)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.accelOpen {
		return nil, fmt.Errorf("wpihal: built-in accelerometer: %w", hal.ErrInUse)
	}
	b.accelOpen = true
	C.frcd_accel_open(r)
	return &accelerometer{b: b}, nil
}

type accelerometer struct{ b *Backend }

// Read is HAL_GetAccelerometerX, Y and Z, in g.
func (a *accelerometer) Read() (x, y, z float64, err error) {
	if a.b.isClosed() {
		return 0, 0, 0, a.b.closedErr()
	}
	var v [3]C.double
	C.frcd_accel_read(&v[0])
	return float64(v[0]), float64(v[1]), float64(v[2]), nil
}
