package daemon

import (
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/ros"
)

// monitored is a hardware backend whose default bus hears every frame.
type monitored struct {
	*haltest.Backend
	bus *monitorBus
}

type monitorBus struct {
	*haltest.CAN
	stats hal.CANStats
	heard []hal.Heard
}

func (m *monitorBus) Heard(dst []hal.Heard) []hal.Heard { return append(dst, m.heard...) }
func (m *monitorBus) Stats() hal.CANStats               { return m.stats }
func (m *monitored) CAN() hal.CANBus                    { return m.bus }

// TestCANDiagnostics: each monitored bus is on /diagnostics with its
// measured load and counters, graded as validate grades its estimate,
// and a bus-off or error frames since the last report raise the level.
func TestCANDiagnostics(t *testing.T) {
	hb := haltest.New()
	b := &monitored{Backend: hb, bus: &monitorBus{CAN: &hb.Bus}}
	d, err := New(minimal(t), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stats hal.CANStats
		level int8
		msg   string
	}{
		{hal.CANStats{Load: 0.312, RxFrames: 1000, TxFrames: 10}, ros.LevelOK, "load 31.2 %"},
		{hal.CANStats{Load: 0.75}, ros.LevelWarn, "load 75.0 %: heavily loaded"},
		{hal.CANStats{Load: 0.95}, ros.LevelError, "load 95.0 %: overloaded"},
		{hal.CANStats{Load: 0.2, ErrorFrames: 4}, ros.LevelWarn, "load 20.0 %; 4 error frames since the last report"},
		{hal.CANStats{Load: 0.2, ErrorFrames: 4}, ros.LevelOK, "load 20.0 %"},
		{hal.CANStats{Load: 0.2, ErrorFrames: 9, BusOff: 1}, ros.LevelError, "load 20.0 %; bus-off 1 times since the last report"},
	} {
		b.bus.stats = c.stats
		sts := d.diagnostics(nil)
		if len(sts) != 1 {
			t.Fatalf("%d statuses, want the one bus: %+v", len(sts), sts)
		}
		st := sts[0]
		if st.Name != "frcd: CAN bus default" || st.Level != c.level || st.Message != c.msg {
			t.Errorf("%+v: got level %d %q, want %d %q", c.stats, st.Level, st.Message, c.level, c.msg)
		}
		if !strings.Contains(st.Values[0][1], "0.") || st.Values[0][0] != "load" {
			t.Errorf("values %v", st.Values)
		}
	}
}

// TestCANDiagnosticsUnmonitored: a bus that cannot hear every frame (the
// fake's) has no status.
func TestCANDiagnosticsUnmonitored(t *testing.T) {
	d, err := New(minimal(t), haltest.New(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sts := d.diagnostics(nil); len(sts) != 0 {
		t.Errorf("statuses %+v", sts)
	}
}

// reporting is a hardware backend with health of its own.
type reporting struct {
	*haltest.Backend
	reports []hal.Report
}

func (r *reporting) Report(dst []hal.Report) []hal.Report { return append(dst, r.reports...) }

// TestBackendReports: a hal.Reporter's reports reach /diagnostics, a
// warning as a warning.
func TestBackendReports(t *testing.T) {
	b := &reporting{Backend: haltest.New(), reports: []hal.Report{
		{Name: "heartbeat can0", Message: "heartbeat auto: sending every 20 ms"},
		{Name: "heartbeat can1", Message: "heartbeat off: not sending", Warn: true},
	}}
	d, err := New(minimal(t), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sts := d.diagnostics(nil)
	if len(sts) != 2 {
		t.Fatalf("statuses %+v", sts)
	}
	if sts[0].Name != "frcd: heartbeat can0" || sts[0].Level != ros.LevelOK || sts[0].Message != "heartbeat auto: sending every 20 ms" {
		t.Errorf("first %+v", sts[0])
	}
	if sts[1].Name != "frcd: heartbeat can1" || sts[1].Level != ros.LevelWarn {
		t.Errorf("second %+v", sts[1])
	}
}
