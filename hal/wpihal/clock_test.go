//go:build cgo && (roborio || systemcore)

package wpihal

import (
	"testing"
	"time"
)

// The fake HALs' clock faults (internal/fakehal's fakeio.h) as ReadClock
// reads them, on either year's HAL: a clock that stands still, then
// steps back, then (2026's, which returns a status) cannot be read.
func TestReadClockFaults(t *testing.T) {
	key := map[string]string{"2026": "fpga", "2027": "clock"}[Year]
	f := open(t, key+" 5000000")
	read := func(what string, want time.Duration) {
		t.Helper()
		if at, err := f.b.ReadClock(); at != want || err != nil {
			t.Errorf("%s: ReadClock %v, %v; want %v", what, at, err, want)
		}
	}
	f.set(key+" 5010000", "clockstall 1")
	read("stalled", 10*time.Millisecond)
	f.set(key + " 5020000")
	read("still stalled", 10*time.Millisecond)
	f.set("clockstall 0")
	read("running again", 20*time.Millisecond)
	f.set("clockback 6000000")
	read("stepped back to 0", -5*time.Second)
	f.set(key + " 8000000")
	read("running on from 0", -3*time.Second)
	if Year != "2026" {
		return // 2027's HAL_GetMonotonicTime has no status
	}
	f.set("fail HAL_GetFPGATime -1098")
	_, err := f.b.ReadClock()
	mustStatus(t, err, -1098, nil, "handle")
}
