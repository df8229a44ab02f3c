package devices

import (
	"errors"

	"github.com/frcd/frcd/config"
)

// opError is the error a device returns from Read, Write or Halt when the
// HAL fails: `talon "x": write: <cause>`, wrapping the cause for
// errors.Is. Each device holds one per operation and refills it, so that
// returning it does not allocate; it is valid until that operation's next
// call.
type opError struct {
	op  string
	err error
}

func newOpError(d *config.Device, op string) opError { return opError{op: d.String() + ": " + op} }

func (e *opError) Error() string {
	if e.err == nil {
		return e.op
	}
	return e.op + ": " + e.err.Error()
}

func (e *opError) Unwrap() error { return e.err }

// wrap returns nil for a nil err, else e carrying err.
func (e *opError) wrap(err error) error {
	if err == nil {
		return nil
	}
	e.err = err
	return e
}

// errNotFinite is the cause a sensor's Read gives when the HAL hands it a
// reading that is not a number (a simulated dropout, say): the state is
// left as it was.
var errNotFinite = errors.New("reading is not a finite number")

// first returns the first non-nil error.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
