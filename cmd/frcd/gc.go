package main

import "runtime/debug"

// oneShotMemoryLimit bounds the heap of a one-shot command (validate): the
// garbage collector runs only when the heap nears it.
const oneShotMemoryLimit = 256 << 20

// oneShot tunes the garbage collector for a command that reads its files,
// reports and exits within milliseconds: Go's first collection would start
// at a 4 MiB heap, which a 300-joint robot's validation passes just before
// exiting, and the collection then costs more CPU than the whole check. It
// collects only when the heap nears oneShotMemoryLimit (a pathological
// input), so memory stays bounded. It returns what undoes it.
func oneShot() (restore func()) {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(oneShotMemoryLimit)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
