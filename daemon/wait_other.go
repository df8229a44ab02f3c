//go:build !linux

package daemon

import "time"

// waiter puts the real-time loop to sleep between cycles; outside Linux
// it is the runtime's timer.
type waiter struct{}

func newWaiter() *waiter { return &waiter{} }

func (w *waiter) sleep(d time.Duration) { time.Sleep(d) }

func (w *waiter) close() {}
