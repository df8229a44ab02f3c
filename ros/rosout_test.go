package ros

import (
	"testing"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
)

func TestRosoutRate(t *testing.T) {
	var r rosout
	sent := 0
	for i := 0; i < 100; i++ { // 100 at once: the burst passes
		if ok, _ := r.admit(time.Second); ok {
			sent++
		}
	}
	if sent != rosoutBurst {
		t.Errorf("%d of 100 at once sent, want %v", sent, rosoutBurst)
	}
	// A second later: rosoutRate more, the first one saying how many
	// were dropped.
	ok, dropped := r.admit(2 * time.Second)
	if !ok || dropped != 100-rosoutBurst {
		t.Errorf("a second later: ok %v, dropped %d, want %v", ok, dropped, 100-rosoutBurst)
	}
	for i := 1; i < rosoutRate; i++ {
		if ok, _ := r.admit(2 * time.Second); !ok {
			t.Fatalf("message %d of the second's %v refused", i+1, rosoutRate)
		}
	}
	if ok, _ := r.admit(2 * time.Second); ok {
		t.Error("more than the rate passed")
	}
	for msg, want := range map[string]goroslib.LogLevel{
		"ros: registered with the master at x":       goroslib.LogLevelInfo,
		"ros: /sim/push: refused":                    goroslib.LogLevelWarn,
		ErrShutdown.Error() + ": /rosnode: stopping": goroslib.LogLevelError,
	} {
		if got := levelOf(msg); got != want {
			t.Errorf("levelOf(%q) = %v, want %v", msg, got, want)
		}
	}
}
