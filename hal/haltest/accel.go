package haltest

import (
	"fmt"

	"github.com/frcd/frcd/hal"
)

// Accelerometer is the fake built-in accelerometer: Read returns X, Y, Z
// (g) and Err; Range is what it was opened with.
type Accelerometer struct {
	X, Y, Z float64
	Err     error
	Range   int
	Open    bool
}

var _ hal.BuiltInAccelerometer = (*Backend)(nil)

// OpenAccelerometer opens Accel at a range of 2, 4 or 8 g.
func (b *Backend) OpenAccelerometer(rangeG int) (hal.Accelerometer, error) {
	if rangeG != 2 && rangeG != 4 && rangeG != 8 {
		return nil, fmt.Errorf("accelerometer range %d g: %w", rangeG, hal.ErrNoDevice)
	}
	if b.Accel.Open {
		return nil, fmt.Errorf("built-in accelerometer: %w", hal.ErrInUse)
	}
	b.Accel.Open, b.Accel.Range = true, rangeG
	return &b.Accel, nil
}

// Read returns X, Y, Z and Err.
func (a *Accelerometer) Read() (x, y, z float64, err error) { return a.X, a.Y, a.Z, a.Err }

var _ hal.BuiltInIMUs = (*Backend)(nil)

// OpenBuiltInIMU opens the fake built-in IMU: the Pigeon at key -1 of
// Pigeons, identity and still unless a test set it.
func (b *Backend) OpenBuiltInIMU() (hal.Pigeon, error) {
	if err := b.claim("built-in IMU", 0, 1); err != nil {
		return nil, err
	}
	p := b.Pigeons[-1]
	if p == nil {
		p = &Pigeon{Q: [4]float64{1, 0, 0, 0}}
		b.Pigeons[-1] = p
	}
	return p, nil
}
