package nt4_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4"
	"github.com/frcd/frcd/nt4/wire"
)

// startServer runs an nt4.Server on a free loopback port.
func startServer(t *testing.T) *nt4.Server {
	t.Helper()
	start := time.Now()
	s, err := nt4.New(nt4.Options{Addr: "127.0.0.1:0", Clock: func() time.Duration { return time.Since(start) }})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, s.Run)
	return s
}

// Two Conns through frcd's server: one publishes (as Systemcore's system
// server publishes an Expansion Hub's presence), the other subscribes by
// prefix and sees the topic announced with its type and latest value;
// then an unpublish takes it away again.
func TestConnPublishSubscribe(t *testing.T) {
	s := startServer(t)
	addr := s.Addr().String()
	ctx := context.Background()
	sys, err := wire.Dial(ctx, addr, "systemserver")
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	robot, err := wire.Dial(ctx, addr, "frcd")
	if err != nil {
		t.Fatal(err)
	}
	defer robot.Close()
	if err := robot.Subscribe([]string{"/rhsp/"}, true, false, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	pub, err := sys.Publish("/rhsp/0/connected", "boolean")
	if err != nil {
		t.Fatal(err)
	}
	other, err := sys.Publish("/other", "double")
	if err != nil {
		t.Fatal(err)
	}
	if err := sys.SetBool(pub, 1, true); err != nil {
		t.Fatal(err)
	}
	if err := sys.SetDouble(other, 1, 2.5); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, 10*time.Second, "/rhsp/0/connected true at the subscriber", func() bool {
		tp, ok := robot.Topic("/rhsp/0/connected")
		v, isBool := tp.Value.Bool()
		return ok && isBool && v && tp.Type == "boolean"
	})
	if names := robot.Names(); !slices.Equal(names, []string{"/rhsp/0/connected"}) {
		t.Errorf("announced to the subscriber: %v, want only the /rhsp/ topic", names)
	}
	if err := sys.SetBool(pub, 2, false); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, 10*time.Second, "/rhsp/0/connected false", func() bool {
		tp, _ := robot.Topic("/rhsp/0/connected")
		v, isBool := tp.Value.Bool()
		return isBool && !v
	})
	sys.Close()
	tooltest.Eventually(t, 10*time.Second, "the topic unannounced when its publisher left", func() bool {
		_, ok := robot.Topic("/rhsp/0/connected")
		return !ok
	})
	if robot.Err() != nil || robot.Dropped() != 0 {
		t.Errorf("Err %v, Dropped %d", robot.Err(), robot.Dropped())
	}
	s2 := startServer(t) // a server that goes away: the reader stops, saying why
	c, err := wire.Dial(ctx, s2.Addr().String(), "x")
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	select {
	case <-c.Done():
	default:
		t.Errorf("Done not closed after Close")
	}
	if _, err := wire.Dial(ctx, "127.0.0.1:1", "x"); err == nil {
		t.Errorf("Dial to a closed port succeeded")
	}
}
