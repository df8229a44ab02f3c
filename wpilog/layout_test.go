package wpilog_test

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4/wire"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/wpilog"
)

// TestLog2027Layout: a sim run in WPILib 2027's NetworkTables layout
// whose gain p a dashboard tunes through /Tunables (12, taken; -1,
// refused) leaves a log AdvantageScope reads as it reads a 2026 one (the
// DS: entries), with the topics mirrored under NT:/Telemetry and
// NT:/Tunables (properties as published), the Alerts under
// NT:/SmartDashboard/Alerts, nothing under /frcd, and both gain changes
// among the commands: the one taken and the one refused.
func TestLog2027Layout(t *testing.T) {
	y, err := os.ReadFile("../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	yp := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(yp, append(y, "\nnt4: {tuning: true, layout: \"2027\"}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../examples/competition/robot.urdf", yp)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("robot: %v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{Rate: 100,
		Telemetry: &daemon.TelemetryOptions{NT4: "127.0.0.1:0", LogDir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.NT.Run)
	step := func() { d.Step(); d.StepTelemetry() }
	step()
	ctx, cancel := context.WithTimeout(context.Background(), tooltest.Timeout)
	defer cancel()
	c, err := wire.Dial(ctx, d.NT.Addr().String(), "tuner")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const p = "/Tunables/controllers/hood_position/p"
	pub, err := c.Publish(p, "double")
	if err != nil {
		t.Fatal(err)
	}
	hood := d.Loop.Controller("hood_position")
	if err := c.SetDouble(pub, 0, 12); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, tooltest.Timeout, "p = 12 taken", func() bool { step(); return hood.Gains().P == 12 })
	if err := c.SetDouble(pub, 0, -1); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, tooltest.Timeout, "p = -1 refused", func() bool { step(); return hood.Refused() == 1 })
	for range 10 {
		step()
	}
	path := d.LogPath()
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := readSpec(t, b)
	if n := int64(binary.LittleEndian.Uint64(l.entry(t, "NT:/Telemetry/loop/cycles", "int64").last(t))); n < 10 {
		t.Errorf("NT:/Telemetry/loop/cycles last %d", n)
	}
	e := l.entry(t, "NT:"+p, "double")
	if e.meta != `{"properties":{"mutable":true},"source":"NT"}` || f64(e.last(t), 0) != 12 {
		t.Errorf("%s: metadata %s, last %v; want mutable and 12", e.name, e.meta, f64(e.last(t), 0))
	}
	if e := l.entry(t, "NT:/Tunables/controllers/hood_position/.type", "string"); string(e.last(t)) != "PIDController" {
		t.Errorf(".type %q", e.last(t))
	}
	if e := l.entry(t, "NT:/SmartDashboard/Alerts/.type", "string"); e.meta != `{"properties":{"SmartDashboard":"Alerts"},"source":"NT"}` {
		t.Errorf("Alerts .type metadata %s", e.meta)
	}
	if e := l.entry(t, "DS:enabled", "boolean"); e.last(t)[0] != 1 {
		t.Error("DS:enabled not true")
	}
	for name, want := range map[string][4]float64{
		"/Telemetry/commands/hood_position/gains":         {12, 2, 0, 0},
		"/Telemetry/commands/hood_position/gains/refused": {-1, 2, 0, 0},
	} {
		v := l.entry(t, name, "double[]").last(t)
		if len(v) != 32 || f64(v, 0) != want[0] || f64(v, 1) != want[1] || f64(v, 2) != want[2] || f64(v, 3) != want[3] {
			t.Errorf("%s: % x, want %v", name, v, want)
		}
	}
	for name := range l.entries {
		if strings.HasPrefix(name, "NT:/frcd/") || strings.HasPrefix(name, "/frcd/") {
			t.Errorf("2026's name %s in a 2027 log", name)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := wpilog.Summarize(f)
	if err != nil || len(s.Problems) > 0 {
		t.Fatalf("summary: %v %v", err, s.Problems)
	}
	if s.Layout() != wpilog.LayoutWPILib || s.Enabled() == nil {
		t.Errorf("summary: layout %q, enabled %v", s.Layout(), s.Enabled())
	}
	t.Logf("%d entries", len(l.entries))
}
