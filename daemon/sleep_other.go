//go:build !linux

package daemon

import "time"

// sleep waits for d; outside Linux the runtime's timer is used.
func sleep(d time.Duration) { time.Sleep(d) }
