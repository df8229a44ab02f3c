package systemcore

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4"
)

// report is the backend's system-server line on /diagnostics.
func report(b *Backend) hal.Report {
	for _, r := range b.Report(nil) {
		if strings.HasPrefix(r.Name, "system server ") {
			return r
		}
	}
	return hal.Report{}
}

// An emulated system server (frcd's NT4 server, with a client publishing
// what Systemcore's publishes for REV Expansion Hubs: /rhsp/<usb>/connected,
// WPILib's ExpansionHub.cpp): the backend connects, reports the topics
// and the hubs connected; when the server goes, it says so, and Close
// stops the watcher.
func TestSystemServerReported(t *testing.T) {
	start := time.Now()
	srv, err := nt4.New(nt4.Options{Addr: "127.0.0.1:0", Clock: func() time.Duration { return time.Since(start) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stopServer := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx) }()
	defer func() { stopServer(); <-served }()
	addr := srv.Addr().String()

	sys, err := nt4.Dial(context.Background(), addr, "systemserver")
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	for usb, on := range []bool{true, false, true} {
		id, err := sys.Publish("/rhsp/"+string(rune('0'+usb))+"/connected", "boolean")
		if err != nil {
			t.Fatal(err)
		}
		if err := sys.SetBool(id, 1, on); err != nil {
			t.Fatal(err)
		}
	}

	b := New(Options{}, linux.Parts{}, map[string]bool{})
	b.WatchSystemServer(addr)
	want := "connected: 3 topics announced; REV Expansion Hubs connected: USB 0, 2 (frcd drives none: docs/systemcore.md)"
	tooltest.Eventually(t, 10*time.Second, "the system server reported", func() bool { return report(b).Message == want })
	if r := report(b); r.Name != "system server "+addr || r.Warn {
		t.Errorf("report %+v", r)
	}
	stopServer()
	<-served
	served <- nil
	tooltest.Eventually(t, 10*time.Second, "the system server reported gone", func() bool {
		return strings.HasPrefix(report(b).Message, "not reachable (")
	})
	tooltest.Within(t, 5*time.Second, func() { b.Close() })
}

// Nothing listening: not reachable, and a warning it is not (frcd needs
// none of the system server's topics).
func TestSystemServerNotReachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	b := New(Options{}, linux.Parts{}, map[string]bool{})
	b.WatchSystemServer(addr)
	tooltest.Eventually(t, 10*time.Second, "not reachable", func() bool {
		r := report(b)
		return strings.HasPrefix(r.Message, "not reachable (") && strings.Contains(r.Message, "frcd uses none of its topics") && !r.Warn
	})
	tooltest.Within(t, 5*time.Second, func() { b.Close() })
}
