//go:build !linux

package goroslib

const nonBlockingWriteAvailable = false

// nonBlockingWrite is not used off Linux: every frame is queued and
// written by the subscriber's goroutine.
func nonBlockingWrite(fd uintptr, b []byte) (int, error) { return 0, nil }
