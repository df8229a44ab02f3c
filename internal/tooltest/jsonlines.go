package tooltest

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

// JSONLines is a tool (a node script driving a third-party client) that
// prints one JSON object per line on stdout, each read into a T, and
// takes lines on stdin. Lines that are not JSON objects (a library's own
// log) are kept for the failure log only.
type JSONLines[T any] struct {
	t      testing.TB
	events chan T
	stdin  interface{ Write([]byte) (int, error) }
	mu     sync.Mutex
	seen   []string
}

// StartJSON starts the tool in e's environment; it is killed at the end
// of the test, which logs its last lines if the test failed.
func StartJSON[T any](t testing.TB, e *ROS, name string, args ...string) *JSONLines[T] {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := e.Command(ctx, name, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	var stderr Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	p := &JSONLines[T]{t: t, events: make(chan T, 4096), stdin: stdin}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(p.events)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.seen = append(p.seen, line)
			p.mu.Unlock()
			var ev T
			if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &ev) != nil {
				continue
			}
			select {
			case p.events <- ev:
			default: // the test stopped reading
			}
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		cancel()
		<-done
		_ = cmd.Wait()
		if t.Failed() {
			p.mu.Lock()
			n := len(p.seen)
			t.Logf("%s output (the last of %d lines):\n%s\nstderr:\n%s", name, n, strings.Join(p.seen[max(0, n-60):], "\n"), stderr.String())
			p.mu.Unlock()
		}
	})
	return p
}

// Send writes one line to the tool's stdin.
func (p *JSONLines[T]) Send(line string) {
	p.t.Helper()
	if _, err := p.stdin.Write([]byte(line + "\n")); err != nil {
		p.t.Fatal(err)
	}
}

// Wait reads the tool's objects until ok accepts one, and returns it. The
// timer only guards against a hung tool: the wait ends on the event.
func (p *JSONLines[T]) Wait(what string, ok func(T) bool) T {
	p.t.Helper()
	return p.WaitWithin(what, Timeout, ok)
}

// WaitWithin is Wait with another guard than Timeout: for a wait a
// loaded machine may stretch (a peer's discovery of many topics).
func (p *JSONLines[T]) WaitWithin(what string, limit time.Duration, ok func(T) bool) T {
	p.t.Helper()
	guard := time.NewTimer(limit)
	defer guard.Stop()
	for {
		select {
		case ev, open := <-p.events:
			if !open {
				p.t.Fatalf("waiting for %s: the tool exited", what)
			}
			if ok(ev) {
				return ev
			}
		case <-guard.C:
			p.t.Fatalf("waiting for %s: nothing within %s", what, limit)
		}
	}
}

// Within fails the test when f runs longer than limit: a fuzz target's
// bound on each input's time.
func Within(t testing.TB, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		t.Fatalf("took over %s", limit)
	}
}
