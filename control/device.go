package control

import "time"

// Device is what the loop drives: devices.Device has this shape. Read is
// called in order; Write and Halt in reverse order.
type Device interface {
	Name() string
	Read(now, dt time.Duration) error
	Write(now, dt time.Duration) error
	Halt() error
}
