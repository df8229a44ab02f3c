package control

import "errors"

// ErrStopped is returned by Command and CommandGroup while the
// controller is stopped (controller_manager's switch_controller): the
// command is refused and counted.
var ErrStopped = errors.New("controller stopped: refused")

// SetStopped stops or starts the controller, as ros_control's
// controller_manager does: a stopped controller takes no command (each is
// refused and counted) and drops the one it held, so its output is
// neutral from the next cycle on; started again, it waits for a fresh
// command. Safe from any goroutine.
func (c *Controller) SetStopped(stopped bool) {
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	c.in.stopped = stopped
	c.halted.Store(stopped)
	c.in.set = false
}

// Stopped says whether the controller is stopped, without the lock the
// loop takes (safe from any goroutine).
func (c *Controller) Stopped() bool { return c.halted.Load() }
