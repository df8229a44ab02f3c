//go:build !linux

package bounds

import "time"

var threadEpoch = time.Now()

// threadTime falls back to wall time where the thread's CPU clock is not
// read.
func threadTime() time.Duration { return time.Since(threadEpoch) }
