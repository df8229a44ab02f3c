package devices

import (
	"errors"
	"reflect"

	"github.com/frcd/frcd/config"
)

// opError makes the errors a device returns from Read, Write or Halt when
// the HAL fails: `talon "x": write: <cause>`, wrapping the cause for
// errors.Is. Each device holds one per operation. The errors it returns
// are immutable, since the loop's snapshot hands them to other goroutines
// (the ROS bridge formats them while the loop runs on): one is made per
// distinct cause and kept, so that a device failing every cycle with the
// same cause (a silent CAN device's timeout) does not allocate.
type opError struct {
	op   string
	seen []*failure // the errors made so far, one per cause (at most maxCauses)
}

// maxCauses bounds an opError's kept errors: causes beyond are new errors
// each time (a HAL that builds its errors per call allocates anyway).
const maxCauses = 8

// failure is one immutable device error.
type failure struct {
	op  string
	err error
}

func (f *failure) Error() string { return f.op + ": " + f.err.Error() }

func (f *failure) Unwrap() error { return f.err }

func newOpError(d *config.Device, op string) opError { return opError{op: d.String() + ": " + op} }

// wrap returns nil for a nil err, else the device's error for that cause.
func (e *opError) wrap(err error) error {
	if err == nil {
		return nil
	}
	comparable := reflect.TypeOf(err).Comparable()
	if comparable {
		for _, f := range e.seen {
			if f.err == err {
				return f
			}
		}
	}
	f := &failure{op: e.op, err: err}
	if comparable && len(e.seen) < maxCauses {
		e.seen = append(e.seen, f)
	}
	return f
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
