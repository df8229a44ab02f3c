package ros2bridge

import "sync"

// chanWaker is a waker (wake_linux.go) made of a channel: outside Linux,
// and on Linux without an eventfd.
type chanWaker struct {
	ch, closed chan struct{}
	once       sync.Once
}

func newChanWaker() *chanWaker {
	return &chanWaker{ch: make(chan struct{}, 1), closed: make(chan struct{})}
}

// wake wakes wait (the wakes before it returns count as one). Any
// goroutine; after close it does nothing.
func (w *chanWaker) wake() {
	select {
	case w.ch <- struct{}{}:
	default:
	}
}

// wait waits for a wake; false once closed.
func (w *chanWaker) wait() bool {
	select {
	case <-w.closed:
		return false
	default:
	}
	select {
	case <-w.ch:
		return true
	case <-w.closed:
		return false
	}
}

// close ends wait, now and for good; it may be called more than once.
func (w *chanWaker) close() { w.once.Do(func() { close(w.closed) }) }
