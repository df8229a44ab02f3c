package daemon

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"
)

// PanicError is a panic recovered on the loop or on one of the daemon's
// goroutines: Run makes every output neutral, then returns it.
type PanicError struct {
	Where string // "the loop", "the ROS bridge", ...
	Value any    // what was passed to panic
	Stack []byte // the panicking goroutine's stack
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic in %s: %v", e.Where, e.Value) }

// newPanic records a recovered panic with the stack that raised it; call
// it in the deferred function that recovered.
func newPanic(where string, v any) *PanicError {
	return &PanicError{Where: where, Value: v, Stack: debug.Stack()}
}

// Recover, deferred at the top of a goroutine, reports a panic on it to the
// daemon instead of letting it end the process with the outputs as they
// were: Run makes every output neutral and returns the panic. The first
// panic is kept; the goroutine ends.
func (d *Daemon) Recover(where string) {
	if v := recover(); v != nil {
		d.Panicked(newPanic(where, v))
	}
}

// Panicked reports a panic recovered elsewhere (a transport's goroutine)
// to the daemon, as Recover does. Safe from any goroutine.
func (d *Daemon) Panicked(p *PanicError) {
	select {
	case d.panics <- p:
	default: // one is pending already
	}
}

// cycle runs one real-time cycle, recovering a panic in it.
func (d *Daemon) cycle(now time.Duration) (p *PanicError) {
	defer func() {
		if v := recover(); v != nil {
			p = newPanic("the loop", v)
		}
	}()
	d.advance(now)
	d.checkClock()
	d.Loop.Cycle(now)
	return nil
}

// afterPanic makes every output neutral as best it can after a panic,
// logs the panic with its stack, and returns it with any halt error.
func (d *Daemon) afterPanic(p *PanicError) error {
	err := d.Halt()
	d.logf("frcd: %v; every output made neutral\n%s", p, p.Stack)
	return errors.Join(p, err)
}

// Halt makes every output neutral and writes it, disables a robot frcd
// enables itself, then lets the backend see both (the sim's plants, the
// Linux backend's heartbeat, which goes out disabled from then on). It
// is best effort after a panic: a device whose Halt panics does not keep
// the others from going neutral, and the panic is returned as an error.
func (d *Daemon) Halt() error {
	var errs []error
	try := func(what string, f func() error) {
		defer func() {
			if v := recover(); v != nil {
				errs = append(errs, newPanic(what, v))
			}
		}()
		if err := f(); err != nil {
			errs = append(errs, err)
		}
	}
	try("halting the loop", d.Loop.Halt)
	if len(errs) > 0 {
		// Halt each device on its own: the loop's halt stopped at the
		// first that panicked. Halting one twice is harmless.
		for i := len(d.Devices) - 1; i >= 0; i-- {
			dev := d.Devices[i]
			try("halting "+dev.Name(), dev.Halt)
		}
	}
	if d.enabler != nil {
		try("disabling", func() error { d.enabler.SetEnabled(false); return nil })
	}
	try("advancing the backend", func() error { d.advance(d.Now()); return nil })
	return errors.Join(errs...)
}
