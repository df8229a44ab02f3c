package systemcore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/nt4"
)

// SystemServerAddr is where Systemcore's NT4 system server listens
// (allwpilib SystemServer.cpp: localhost, ROBOT_SYSTEM_SERVER_NT_PORT 6810).
const SystemServerAddr = "127.0.0.1:6810"

// Timing of the link to the system server.
const (
	// flushEvery is how often the sender publishes changed SmartIO
	// values: WPILib's SmartIo.cpp published with periodic 0.005.
	flushEvery = 5 * time.Millisecond
	// pingEvery is how often the link asks the server for its time, so
	// that a silent server is noticed even when no value changes.
	pingEvery = 100 * time.Millisecond
	// silentAfter is how long the server may say nothing before the link
	// counts it lost: every read fails, the Driver Station reads
	// disabled, and the link reconnects.
	silentAfter = 500 * time.Millisecond
	// retryEvery is how long the link waits between attempts to connect.
	retryEvery = 500 * time.Millisecond
	// stopWithin bounds each of stop's two waits: for the final flush and
	// the close, then, on a wedged server, for the dropped connection.
	// Systemcore kills the robot program 1 s after SIGTERM, and a wedged
	// server could hold a write 2 s and the WebSocket close handshake 5 s.
	stopWithin = 300 * time.Millisecond
)

// errNotConnected is every read's error while the link is down.
var errNotConnected = fmt.Errorf("Systemcore's system server (%s) is not connected: %w", SystemServerAddr, hal.ErrTimeout)

// link is frcd's connection to the system server: it reconnects whenever
// the server goes or falls silent, publishes the SmartIO channels' modes
// and outputs from its own goroutine (the control loop only stores them),
// and gives the loop the latest values the server sent, without blocking.
type link struct {
	addr   string
	cancel context.CancelFunc
	done   chan struct{}

	mu    sync.Mutex
	conn  *nt4.Conn // nil while not connected
	err   error     // why the last connection ended or failed
	gen   uint64    // connections made
	drops uint64    // connections lost after being made
	io    [NumSmartIO]*smartIO
	imu   bool

	ds dsCache // the Driver Station's messages, decoded (ds.go)

	// errs are the errors reads of a topic return, made once each (under
	// mu), so that a read failing every cycle, as every read does on an
	// image that does not serve the topic, allocates nothing. Its keys are
	// the configured devices' topics: bounded.
	errs map[errKey]error
}

// errKey names one of a topic's errors.
type errKey struct {
	kind  uint8 // errNotServed, errNoValue, errShape
	topic string
}

const (
	errNotServed uint8 = iota
	errNoValue
	errShape
)

// topicErr is the error of kind for topic, made by mk the first time.
func (l *link) topicErr(kind uint8, topic string, mk func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := errKey{kind, topic}
	if e, ok := l.errs[k]; ok {
		return e
	}
	if l.errs == nil {
		l.errs = make(map[errKey]error)
	}
	e := mk()
	l.errs[k] = e
	return e
}

// startLink connects to the system server at addr and keeps connecting.
func startLink(addr string) *link {
	ctx, cancel := context.WithCancel(context.Background())
	l := &link{addr: addr, cancel: cancel, done: make(chan struct{})}
	go l.run(ctx)
	return l
}

func (l *link) run(ctx context.Context) {
	defer close(l.done)
	for {
		c, err := nt4.Dial(ctx, l.addr, "frcd")
		if err == nil {
			// Everything: the SmartIO, Driver Station, IMU and /sys topics,
			// and the count of topics for /diagnostics.
			err = c.SubscribeAll([]string{""}, true, flushEvery)
		}
		if err == nil {
			err = announceCode(c)
		}
		if err == nil {
			l.mu.Lock()
			l.conn, l.err = c, nil
			l.gen++
			l.mu.Unlock()
			err = l.serve(ctx, c)
			l.mu.Lock()
			l.conn, l.err = nil, err
			l.drops++
			l.mu.Unlock()
		} else {
			l.mu.Lock()
			l.err = err
			l.mu.Unlock()
		}
		if c != nil {
			c.Close()
		}
		t := time.NewTimer(retryEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// The robot program's status topics (mrc/NtNetComm.h at 6e5171cd8f^):
// WPILib's HAL set both true, HasUserCode at start and HasUserCodeReady
// when the program's loop began, so that the Driver Station shows robot
// code.
const (
	HasUserCodeTopic      = "/Netcomm/Status/HasUserCode"
	HasUserCodeReadyTopic = "/Netcomm/Status/HasUserCodeReady"
)

// announceCode tells the system server a robot program is running and
// ready, as WPILib's HAL did.
func announceCode(c *nt4.Conn) error {
	for _, n := range []string{HasUserCodeTopic, HasUserCodeReadyTopic} {
		id, err := c.Publish(n, "boolean")
		if err != nil {
			return err
		}
		if err := c.SetBool(id, 0, true); err != nil {
			return err
		}
	}
	return nil
}

// serve publishes what the loop set, pings, and watches for silence, until
// the connection ends or the link stops.
func (l *link) serve(ctx context.Context, c *nt4.Conn) error {
	start := time.Now()
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	var lastPing time.Time
	for {
		select {
		case <-ctx.Done():
			// The loop's last outputs (every one neutral after the halt
			// that precedes Close) go out before the connection closes.
			if err := l.flush(c, time.Since(start).Microseconds()); err != nil {
				return err
			}
			return errors.New("frcd is stopping")
		case <-c.Done():
			return fmt.Errorf("the connection ended: %v", c.Err())
		case now := <-tick.C:
			heard := c.LastHeard()
			if heard.Before(start) {
				heard = start
			}
			if now.Sub(heard) > silentAfter {
				return fmt.Errorf("the server said nothing for %v", now.Sub(heard).Round(time.Millisecond))
			}
			if now.Sub(lastPing) >= pingEvery {
				if err := c.Ping(now.Sub(start).Microseconds()); err != nil {
					return err
				}
				lastPing = now
			}
			if err := l.flush(c, now.Sub(start).Microseconds()); err != nil {
				return err
			}
		}
	}
}

// flush publishes each open SmartIO channel's mode and output: everything
// again on a new connection, then what changed.
func (l *link) flush(c *nt4.Conn, t int64) error {
	l.mu.Lock()
	gen, chans := l.gen, l.io
	l.mu.Unlock()
	for _, s := range chans {
		if s != nil {
			if err := s.flush(c, gen, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// get calls f with the latest value of the topic, or says why there is
// none: not connected (or silent), or not announced by the server.
func (l *link) get(name string, f func(t *nt4.ClientTopic)) error {
	l.mu.Lock()
	c := l.conn
	l.mu.Unlock()
	if c == nil || time.Since(c.LastHeard()) > silentAfter {
		return errNotConnected
	}
	if !c.Read(name, f) {
		return l.topicErr(errNotServed, name, func() error { return &notServedError{name} })
	}
	return nil
}

// notServedError is a read of a topic the server does not announce.
type notServedError struct{ topic string }

func (e *notServedError) Error() string {
	return "Systemcore's system server does not announce " + e.topic + " (images whose WPILib reaches this through mrclib do not: docs/systemcore.md)"
}

func (e *notServedError) Unwrap() error { return hal.ErrNoDevice }

// connected says whether the link is up now.
func (l *link) connected() bool {
	l.mu.Lock()
	c := l.conn
	l.mu.Unlock()
	return c != nil && time.Since(c.LastHeard()) <= silentAfter
}

// missing lists the topics of names the server does not announce (all of
// them while not connected).
func (l *link) missing(names []string) []string {
	l.mu.Lock()
	c := l.conn
	l.mu.Unlock()
	if c == nil {
		return names
	}
	var out []string
	for _, n := range names {
		if !c.Read(n, func(*nt4.ClientTopic) {}) {
			out = append(out, n)
		}
	}
	return out
}

func (l *link) stop() {
	l.cancel()
	t := time.NewTimer(stopWithin)
	defer t.Stop()
	select {
	case <-l.done:
		return
	case <-t.C:
	}
	// A silent or wedged server holds the final flush: drop the
	// connection, which ends the writes waiting on it. (Once the close
	// handshake has begun nothing shortens it; past a second wait the
	// link is left to end on its own: frcd is exiting.)
	l.mu.Lock()
	c := l.conn
	l.mu.Unlock()
	if c != nil {
		c.CloseNow()
	}
	t.Reset(stopWithin)
	select {
	case <-l.done:
	case <-t.C:
	}
}
