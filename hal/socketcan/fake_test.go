package socketcan

import (
	"encoding/binary"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
)

// clock is a settable hal.Clock, safe across goroutines.
type clock struct{ t atomic.Int64 }

func (c *clock) Now() time.Duration   { return time.Duration(c.t.Load()) }
func (c *clock) Set(t time.Duration)  { c.t.Store(int64(t)) }
func (c *clock) Add(d time.Duration)  { c.t.Add(int64(d)) }
func newClock(t time.Duration) *clock { c := &clock{}; c.Set(t); return c }
func ms(n int) time.Duration          { return time.Duration(n) * time.Millisecond }
func frame(id uint32, b ...byte) hal.Frame {
	f := hal.Frame{ID: id, Len: uint8(len(b))}
	copy(f.Data[:], b)
	return f
}

// item is what the fake socket's recv returns next.
type item struct {
	panics any // recv panics with it (a reader's bug)
	r      rawFrame
	drops  uint32
	err    error
	fd     *rawFDFrame // a CAN FD frame: recv returns errFDRecv, lastFD this
}

// fakeConn is a socket whose reads the test hands over one at a time:
// deliver returns once the reader has handled the item and come back to
// recv, so the test knows the bus's state. A timeout item (errAgain) is
// what SO_RCVTIMEO gives a reader on a quiet bus. It records sends, and
// whether close came while a recv was under way (the descriptor reuse
// the bus must never risk).
type fakeConn struct {
	in     chan item
	ack    chan struct{}
	closed chan struct{}

	mu          sync.Mutex
	pending     bool
	inRecv      bool
	recvs       int
	closes      int
	closeInRecv bool
	sent        []rawFrame
	sentFD      []rawFDFrame
	sendErr     error
	fdBuf       rawFDFrame // the reader's only
}

func newFakeConn() *fakeConn {
	return &fakeConn{in: make(chan item), ack: make(chan struct{}), closed: make(chan struct{})}
}

func (f *fakeConn) recv(r *rawFrame) (uint32, error) {
	f.mu.Lock()
	pending := f.pending
	f.pending = false
	f.mu.Unlock()
	if pending {
		select {
		case f.ack <- struct{}{}:
		case <-f.closed:
			return 0, hal.ErrClosed
		}
	}
	f.mu.Lock()
	f.inRecv = true
	f.recvs++
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inRecv = false
		f.mu.Unlock()
	}()
	select {
	case it := <-f.in:
		f.mu.Lock()
		f.pending = true
		f.mu.Unlock()
		if it.panics != nil {
			panic(it.panics)
		}
		if it.fd != nil {
			f.fdBuf = *it.fd
			return it.drops, errFDRecv
		}
		*r = it.r
		return it.drops, it.err
	case <-f.closed:
		return 0, hal.ErrClosed
	}
}

func (f *fakeConn) send(r rawFrame) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sendErr != nil {
		return f.sendErr
	}
	f.sent = append(f.sent, r)
	return nil
}

func (f *fakeConn) sendFD(r *rawFDFrame) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sendErr != nil {
		return f.sendErr
	}
	f.sentFD = append(f.sentFD, *r)
	return nil
}

func (f *fakeConn) lastFD() *rawFDFrame { return &f.fdBuf }

func (f *fakeConn) close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closes++
	if f.inRecv {
		f.closeInRecv = true
	}
	if f.closes == 1 {
		close(f.closed)
	}
	return nil
}

// deliver hands the reader one item and waits until it has handled it.
func (f *fakeConn) deliver(t *testing.T, it item) {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	select {
	case f.in <- it:
	case <-deadline.C:
		t.Fatal("the reader did not take the item")
	}
	select {
	case <-f.ack:
	case <-deadline.C:
		t.Fatal("the reader did not come back for the next item")
	}
}

func (f *fakeConn) frame(t *testing.T, fr hal.Frame) { f.deliver(t, item{r: encode(fr)}) }

// errorFrame is a struct can_frame the driver makes for an error.
func errorFrame(class uint32, data [8]byte) rawFrame {
	var r rawFrame
	binary.NativeEndian.PutUint32(r[0:4], errFlag|class)
	r[4] = 8
	copy(r[8:], data[:])
	return r
}

// openFake opens buses over fake sockets.
func openFake(t *testing.T, c hal.Clock, names ...string) (*Buses, map[string]*fakeConn) {
	t.Helper()
	return openFakeWith(t, c, Options{}, names...)
}

// openFakeWith opens buses with those options over fake sockets.
func openFakeWith(t *testing.T, c hal.Clock, o Options, names ...string) (*Buses, map[string]*fakeConn) {
	t.Helper()
	conns := map[string]*fakeConn{}
	bs, err := open(names, c, o, func(name string, _ Options) (conn, error) {
		fc := newFakeConn()
		conns[name] = fc
		return fc, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAll(t, bs, conns) })
	return bs, conns
}

// closeAll closes the buses, playing the receive timeouts that wake the
// readers until each has returned, then waits for Close.
func closeAll(t *testing.T, bs *Buses, conns map[string]*fakeConn) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- bs.Close() }()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for _, b := range bs.All() {
		fc := conns[b.Name()]
	wake:
		for {
			select {
			case fc.in <- item{err: errAgain}:
				select {
				case <-fc.ack:
				case <-b.done:
					break wake
				}
			case <-b.done:
				break wake
			case <-deadline.C:
				t.Fatal("a reader did not return")
			}
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-deadline.C:
		t.Fatal("Close did not return")
	}
}

var errTest = errors.New("test")
