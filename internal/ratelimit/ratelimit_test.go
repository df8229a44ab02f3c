package ratelimit

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	l := Limiter{Rate: 2, Burst: 3}
	for i := range 3 {
		if ok, held := l.Allow(0); !ok || held != 0 {
			t.Fatalf("event %d of the burst: %v %d", i, ok, held)
		}
	}
	for i := range 4 {
		if ok, _ := l.Allow(time.Duration(i) * 100 * time.Millisecond); ok {
			t.Fatalf("event %d past the burst passed", i)
		}
	}
	l.Hold()
	// 2 tokens a second: 0.8 of one at 0.4 s, 1.0 at 0.5 s.
	if ok, _ := l.Allow(400 * time.Millisecond); ok {
		t.Fatal("passed before a token grew")
	}
	if ok, held := l.Allow(500 * time.Millisecond); !ok || held != 6 {
		t.Fatalf("after a second: %v, held %d, want true and 6", ok, held)
	}
}

// TestRefusals: Burst lines at once, then Rate a second, the next line
// saying how many were held back.
func TestRefusals(t *testing.T) {
	r := Refusals{Rate: 1, Burst: 2}
	for i := range 2 {
		if ok, more := r.Allow(0); !ok || more != "" {
			t.Fatalf("refusal %d of the burst: %v %q", i, ok, more)
		}
	}
	for range 3 {
		if ok, _ := r.Allow(0); ok {
			t.Fatal("a refusal past the burst passed")
		}
	}
	if ok, more := r.Allow(time.Second); !ok || more != " (and 3 more refused)" {
		t.Errorf("a second later: %v %q", ok, more)
	}
}
