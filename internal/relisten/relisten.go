// Package relisten gives a server a listener that need not be available
// at start: when its address is taken (another frcd's NT4 port, say), the
// server starts all the same and its Accept keeps trying to listen, every
// retry, until it can or the listener is closed. The robot runs on
// meanwhile, and the server serves once the address is free.
package relisten

import (
	"net"
	"sync"
	"time"
)

// Listener listens on an address, now or as soon as it can.
type Listener struct {
	addr  string
	retry time.Duration
	fail  func(error) // told of each failed attempt after the first

	mu     sync.Mutex
	ln     net.Listener // nil until bound
	err    error        // the last attempt's failure, nil once bound
	closed bool
	stop   chan struct{}
	bound  chan struct{} // closed once ln is set
}

// Listen listens on addr (TCP). If it cannot and retry > 0, it returns a
// Listener whose Accept tries again every retry, calling fail with each
// failure; the first failure is returned as Err. If it cannot and retry
// is 0, it returns the error.
func Listen(addr string, retry time.Duration, fail func(error)) (*Listener, error) {
	l := &Listener{addr: addr, retry: retry, fail: fail, stop: make(chan struct{}), bound: make(chan struct{})}
	if fail == nil {
		l.fail = func(error) {}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if retry <= 0 {
			return nil, err
		}
		l.err = err
		return l, nil
	}
	l.ln = ln
	close(l.bound)
	return l, nil
}

// Err is why the listener is not listening yet, nil once it is.
func (l *Listener) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Accept waits for a connection, first listening when it is not yet.
func (l *Listener) Accept() (net.Conn, error) {
	ln, err := l.wait()
	if err != nil {
		return nil, err
	}
	return ln.Accept()
}

// wait returns the bound listener, trying to bind every retry.
func (l *Listener) wait() (net.Listener, error) {
	t := time.NewTimer(l.retry)
	defer t.Stop()
	for {
		l.mu.Lock()
		ln, closed := l.ln, l.closed
		l.mu.Unlock()
		if closed {
			return nil, net.ErrClosed
		}
		if ln != nil {
			return ln, nil
		}
		select {
		case <-l.stop:
			return nil, net.ErrClosed
		case <-t.C:
		}
		t.Reset(l.retry)
		ln, err := net.Listen("tcp", l.addr)
		l.mu.Lock()
		switch {
		case l.closed:
			if ln != nil {
				ln.Close()
			}
		case err != nil:
			l.err = err
		default:
			l.ln, l.err = ln, nil
			close(l.bound)
		}
		l.mu.Unlock()
		if err != nil {
			l.fail(err)
		}
	}
}

// Bound is closed once the listener listens.
func (l *Listener) Bound() <-chan struct{} { return l.bound }

// Close stops listening, or trying to.
func (l *Listener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	close(l.stop)
	if l.ln != nil {
		return l.ln.Close()
	}
	return nil
}

// Addr is the address listened on; until then, the address asked for.
func (l *Listener) Addr() net.Addr {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ln != nil {
		return l.ln.Addr()
	}
	if a, err := net.ResolveTCPAddr("tcp", l.addr); err == nil {
		return a
	}
	return &net.TCPAddr{}
}

var _ net.Listener = (*Listener)(nil)
