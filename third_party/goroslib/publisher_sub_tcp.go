package goroslib

import (
	"errors"
	"net"
	"sync"
	"syscall"
	"time"
)

// tcpSubQueue is how many encoded messages a TCP subscriber's queue holds
// while its socket cannot take them; beyond, the oldest not yet begun is
// dropped (roscpp's queue_size semantics).
const tcpSubQueue = 64

var errSubscriberClosed = errors.New("terminated")

// tcpSubWriter writes a publisher's encoded messages to one TCPROS
// subscriber. The publisher's Write calls write in its own goroutine:
// while nothing is queued the frame goes straight to the socket with one
// non-blocking write (no goroutine hand-off, no copy). What the socket
// does not take is copied into a bounded queue that run, the subscriber's
// own goroutine, writes with the node's write timeout; until it is empty
// every message is queued behind it, so order is kept and a slow or stuck
// subscriber never blocks the publisher: it loses its oldest messages,
// and is disconnected when a write times out.
type tcpSubWriter struct {
	conn    net.Conn
	raw     syscall.RawConn // nil where the non-blocking write is not available
	timeout time.Duration
	limit   int

	kick chan struct{} // run has queued frames to write
	done chan struct{} // closed by close

	mu       sync.Mutex
	queue    [][]byte // frames not yet (fully) written, oldest first
	spare    [][]byte // buffers of written frames, for reuse
	flushing bool     // run owns the socket until the queue is empty
	err      error
	dropped  uint64

	// tryWrite's state, with the function it hands RawConn.Write, made
	// once so that a write allocates nothing.
	frame   []byte
	written int
	werr    error
	writeFn func(fd uintptr) bool
}

func newTCPSubWriter(conn net.Conn, timeout time.Duration, limit int) *tcpSubWriter {
	w := &tcpSubWriter{
		conn:    conn,
		timeout: timeout,
		limit:   limit,
		kick:    make(chan struct{}, 1),
		done:    make(chan struct{}),
	}
	if sc, ok := conn.(syscall.Conn); ok && nonBlockingWriteAvailable {
		if raw, err := sc.SyscallConn(); err == nil {
			w.raw = raw
		}
	}
	// The handshake's write deadline would fail every write after it
	// (RawConn.Write checks it too): deadlines are set only around the
	// queue's blocking writes.
	conn.SetWriteDeadline(time.Time{})
	w.writeFn = func(fd uintptr) bool {
		w.written, w.werr = nonBlockingWrite(fd, w.frame)
		return true // never wait for the socket: the queue does
	}
	return w
}

// write sends frame (an encoded message the caller keeps) or queues a
// copy of what the socket does not take at once.
func (w *tcpSubWriter) write(frame []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()

	if w.err != nil || len(frame) == 0 {
		return
	}

	if !w.flushing {
		n, err := w.tryWrite(frame)
		if err != nil {
			w.failLocked(err)
			return
		}
		if n == len(frame) {
			return
		}
		w.pushLocked(frame[n:])
		w.flushing = true
		select {
		case w.kick <- struct{}{}:
		default:
		}
		return
	}

	// run may be writing queue[0]: drop the oldest after it.
	if len(w.queue) >= w.limit && len(w.queue) >= 2 {
		w.spare = append(w.spare, w.queue[1][:0])
		copy(w.queue[1:], w.queue[2:])
		w.queue = w.queue[:len(w.queue)-1]
		w.dropped++
	}
	w.pushLocked(frame)
}

// tryWrite writes what the socket takes without blocking.
func (w *tcpSubWriter) tryWrite(frame []byte) (int, error) {
	if w.raw == nil {
		return 0, nil
	}
	w.frame = frame
	err := w.raw.Write(w.writeFn)
	w.frame = nil
	if err != nil {
		return 0, err
	}
	return w.written, w.werr
}

func (w *tcpSubWriter) pushLocked(b []byte) {
	var buf []byte
	if n := len(w.spare); n > 0 {
		buf = w.spare[n-1]
		w.spare = w.spare[:n-1]
	}
	w.queue = append(w.queue, append(buf[:0], b...))
}

func (w *tcpSubWriter) failLocked(err error) {
	if w.err == nil {
		w.err = err
		w.conn.Close()
	}
}

// close stops run and makes write a no-op.
func (w *tcpSubWriter) close() {
	w.mu.Lock()
	w.failLocked(errSubscriberClosed)
	w.mu.Unlock()
	select {
	case <-w.done:
	default:
		close(w.done)
	}
}

// run writes the queued frames, each with the write timeout, until close
// or a failed write (the connection is then closed).
func (w *tcpSubWriter) run() error {
	for {
		select {
		case <-w.kick:
		case <-w.done:
			return errSubscriberClosed
		}

		for {
			w.mu.Lock()
			if w.err != nil {
				err := w.err
				w.mu.Unlock()
				return err
			}
			if len(w.queue) == 0 {
				w.flushing = false
				w.mu.Unlock()
				break
			}
			b := w.queue[0]
			w.mu.Unlock()

			w.conn.SetWriteDeadline(time.Now().Add(w.timeout))
			_, err := w.conn.Write(b)
			if err == nil {
				err = w.conn.SetWriteDeadline(time.Time{}) // before write may write again
			}

			w.mu.Lock()
			if err != nil {
				w.failLocked(err)
				w.mu.Unlock()
				return err
			}
			w.spare = append(w.spare, w.queue[0][:0])
			w.queue[0] = nil
			w.queue = w.queue[1:]
			w.mu.Unlock()
		}
	}
}
