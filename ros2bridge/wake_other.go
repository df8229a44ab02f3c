//go:build !(linux && (amd64 || arm64 || arm))

package ros2bridge

// waker is how the loop wakes the bridge's goroutine
// (control.Loop.NotifyWith): a channel here, an eventfd on Linux
// (wake_linux.go says why).
type waker = chanWaker

func newWaker() *waker { return newChanWaker() }
