package systemcore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/nt4"
)

// SystemServerAddr is where Systemcore's NT4 system server listens
// (allwpilib SystemServer.cpp: localhost, ROBOT_SYSTEM_SERVER_NT_PORT 6810).
const SystemServerAddr = "127.0.0.1:6810"

// systemServer watches Systemcore's system server for /diagnostics: frcd
// reads none of its topics for control (docs/systemcore.md), but whether it
// answers, what it announces and which REV Expansion Hubs it reports
// (/rhsp/<usb>/connected, WPILib's ExpansionHub.cpp) is what a team checks
// first on new hardware.
type systemServer struct {
	addr   string
	cancel context.CancelFunc
	done   chan struct{}

	mu   sync.Mutex
	conn *nt4.Conn
	err  error
}

// retryEvery is how long the watcher waits between attempts to connect.
const retryEvery = 2 * time.Second

// WatchSystemServer connects to the system server at addr (again and
// again while it does not answer) and reports it on /diagnostics; Close
// stops it. Open calls it with SystemServerAddr.
func (b *Backend) WatchSystemServer(addr string) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &systemServer{addr: addr, cancel: cancel, done: make(chan struct{})}
	b.ss = s
	go s.run(ctx)
}

func (s *systemServer) run(ctx context.Context) {
	defer close(s.done)
	for {
		c, err := nt4.Dial(ctx, s.addr, "frcd")
		if err == nil {
			err = c.Subscribe([]string{""}, true, false, 100*time.Millisecond)
		}
		s.mu.Lock()
		s.conn, s.err = c, err
		s.mu.Unlock()
		if err == nil {
			select {
			case <-ctx.Done():
				c.Close()
				return
			case <-c.Done():
				s.mu.Lock()
				s.conn, s.err = nil, fmt.Errorf("the connection ended: %v", c.Err())
				s.mu.Unlock()
				c.Close()
			}
		} else if c != nil {
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

func (s *systemServer) stop() {
	s.cancel()
	<-s.done
}

// report is the system server's line on /diagnostics.
func (s *systemServer) report() hal.Report {
	s.mu.Lock()
	c, err := s.conn, s.err
	s.mu.Unlock()
	r := hal.Report{Name: "system server " + s.addr}
	switch {
	case c == nil && err == nil:
		r.Message = "connecting"
	case c == nil:
		r.Message = fmt.Sprintf("not reachable (%v); frcd uses none of its topics, so this changes nothing", err)
	default:
		names := c.Names()
		var hubs []string
		for _, n := range names {
			usb, ok := strings.CutSuffix(strings.TrimPrefix(n, "/rhsp/"), "/connected")
			if !ok || !strings.HasPrefix(n, "/rhsp/") {
				continue
			}
			if t, _ := c.Topic(n); t.Value.Raw != nil {
				if on, isBool := t.Value.Bool(); isBool && on {
					hubs = append(hubs, usb)
				}
			}
		}
		slices.Sort(hubs)
		hubText := "none"
		if len(hubs) > 0 {
			hubText = "USB " + strings.Join(hubs, ", ")
		}
		r.Message = fmt.Sprintf("connected: %d topics announced; REV Expansion Hubs connected: %s (frcd drives none: docs/systemcore.md)", len(names), hubText)
	}
	return r
}
