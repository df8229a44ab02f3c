package ros2bridge

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/rtps"
)

// TestPushRefusalsRateLimited: a flood of undecodable sim/push samples is
// counted whole but logged refusedBurst lines at once, then refusedRate a
// second, the next line saying how many were held back; nothing moves.
func TestPushRefusalsRateLimited(t *testing.T) {
	var now time.Duration
	var logs []string
	b := &Bridge{o: Options{Clock: func() time.Duration { return now },
		Logf: func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) },
		Sim:  SimOptions{Push: func(string, float64, float64) error { t.Fatal("a refused push moved a joint"); return nil }}},
		sim: &simTopics{limit: ratelimit.Refusals{Rate: refusedRate, Burst: refusedBurst}, movable: map[string]bool{"arm": true}, seen: map[string]bool{}}}
	for range 100 {
		b.onPush(rtps.Sample{Payload: []byte{0xde, 0xad}})
	}
	if len(logs) != int(refusedBurst) {
		t.Errorf("100 refusals at once logged %d lines, want %v: %q", len(logs), refusedBurst, logs)
	}
	now += time.Second
	b.onPush(rtps.Sample{Payload: []byte{0xde, 0xad}})
	if pushes, refused := b.PushStats(); pushes != 0 || refused != 101 {
		t.Errorf("pushes %d, refused %d; want 0, 101", pushes, refused)
	}
	if last := logs[len(logs)-1]; len(logs) != int(refusedBurst)+1 || !strings.Contains(last, "(and 95 more refused)") || !strings.Contains(last, "/sim/push") {
		t.Errorf("after a second: %d lines, the last %q", len(logs), last)
	}
}
