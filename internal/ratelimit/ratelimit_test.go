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
