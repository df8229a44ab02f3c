package daemon

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
)

// matched is a hardware backend that hears the match from the Driver
// Station.
type matched struct {
	*haltest.Backend
	match hal.MatchInfo
}

func (m *matched) MatchInfo() (hal.MatchInfo, error) { return m.match, nil }

// The log file is named by date until the Driver Station reports a match,
// then frcd_<date>_<event>_<type><number> with the date the match became
// known (as WPILib's DataLogManager: a robot's clock is often set by the
// Driver Station after boot), and keeps that name.
func TestLogNamedByMatch(t *testing.T) {
	b := &matched{Backend: haltest.New()}
	b.DSState = hal.DSState{Attached: true}
	dir := t.TempDir()
	now := time.Date(2026, 3, 14, 15, 30, 0, 0, time.UTC)
	wall := func() time.Time { return now }
	d, err := New(minimal(t), b, Options{Telemetry: &TelemetryOptions{LogDir: dir, Wall: wall}})
	if err != nil {
		t.Fatal(err)
	}
	// A second of loop time per step: frcd asks the backend for the
	// match once a second.
	step := func() {
		for range 100 {
			d.Step()
			d.StepTelemetry()
		}
	}
	b.match = hal.MatchInfo{Event: "2026ctr"} // practice at the event: no match yet
	step()
	if got := filepath.Base(d.LogPath()); got != "frcd_20260314_153000.wpilog" {
		t.Errorf("before a match: %s", got)
	}
	now = now.Add(12*time.Minute + 10*time.Second) // the clock moved on (or was set by the Driver Station)
	b.match = hal.MatchInfo{Event: "2026ctr", Type: hal.MatchQualification, Number: 12}
	step()
	if got := filepath.Base(d.LogPath()); got != "frcd_20260314_154210_2026ctr_Q12.wpilog" {
		t.Errorf("in qualification 12: %s", got)
	}
	b.match = hal.MatchInfo{Event: "2026ctr", Type: hal.MatchQualification, Number: 13}
	step()
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.wpilog"))
	if len(files) != 1 || filepath.Base(files[0]) != "frcd_20260314_154210_2026ctr_Q12.wpilog" {
		t.Errorf("files %v, want the one named by the first match", files)
	}
}

// The daemon's log lines go into the log's "messages" entry (WPILib's
// DataLogManager.log), as written, from any goroutine; past the queue's
// bound they are dropped and counted, not blocking the caller.
func TestLogMessages(t *testing.T) {
	dir := t.TempDir()
	d := telemetryDaemon(t, 100, dir)
	d.Step()
	d.StepTelemetry()
	d.logf("frcd: %s went %d", "turret", 3)
	d.Step()
	d.StepTelemetry()
	l := d.logMsgs.Load()
	for range 300 { // no Record between: the queue fills
		d.logf("flood")
	}
	if got := l.Dropped(); got != 300-256 {
		t.Errorf("dropped %d, want %d", got, 300-256)
	}
	d.Step()
	d.StepTelemetry()
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	starts, records := logRecords(t, dir)
	st, ok := starts["messages"]
	if !ok || st.Type != "string" {
		t.Fatalf("messages entry: %+v", st)
	}
	var msgs []string
	for _, r := range records {
		if r.Entry == st.Entry {
			msgs = append(msgs, string(r.Payload))
		}
	}
	if len(msgs) != 257 || msgs[0] != "frcd: turret went 3" || msgs[1] != "flood" {
		t.Errorf("%d messages, first %q", len(msgs), msgs[:min(2, len(msgs))])
	}
}
