package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/telemetry"
	"github.com/frcd/frcd/wpilog"
)

// A Talon FX unplugged from the CAN bus on the sim is an error Alert
// within a second of sim time, with its own report (no health signals)
// beside the loop's; the Alert clears within a second of its return; the
// WPILOG holds the same Alerts.
func TestUnpluggedDeviceAlert(t *testing.T) {
	dir := filepath.Join("testdata", "devloop")
	r, list, err := robot.Load(filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml"))
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	logDir := t.TempDir()
	d, err := NewSim(r, SimOptions{}, Options{Telemetry: &TelemetryOptions{LogDir: logDir}})
	if err != nil {
		t.Fatal(err)
	}
	d.Sim.SetDS(hal.DSState{Enabled: true, Attached: true})
	var errs *telemetry.Topic
	for _, tp := range d.tel.src.Topics {
		if tp.Name == "/SmartDashboard/Alerts/errors" {
			errs = tp
		}
	}
	step := func() { d.Step(); d.StepTelemetry() }
	has := func(s string) bool {
		for _, e := range errs.Strings {
			if strings.Contains(e, s) {
				return true
			}
		}
		return false
	}
	for range 200 { // 2 s: the devices heard
		step()
	}
	if has("turret_device") {
		t.Fatalf("an Alert before the fault: %q", errs.Strings)
	}
	// until waits for cond, at most limit of sim time, and says how long.
	until := func(what string, limit time.Duration, cond func() bool) time.Duration {
		t.Helper()
		t0 := d.Now()
		for !cond() {
			if d.Now()-t0 > limit {
				t.Fatalf("%s: not within %s of sim time; errors %q", what, limit, errs.Strings)
			}
			step()
		}
		return d.Now() - t0
	}
	d.Sim.SetCANSilent("turret_device", true)
	took := until("the error Alert", time.Second, func() bool { return has("turret_device (Talon FX 1): no health signals") })
	t.Logf("unplugged: %q after %s", errs.Strings, took)
	if !has("turret_device: ") {
		t.Errorf("the loop's own finding (the device not answering) missing: %q", errs.Strings)
	}
	d.Sim.SetCANSilent("turret_device", false)
	took = until("the Alert cleared", time.Second, func() bool { return !has("turret_device") })
	t.Logf("plugged back: cleared after %s", took)
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}

	// The WPILOG: the same Alerts, raised then cleared.
	starts, records := logRecords(t, logDir)
	st, ok := starts["NT:/SmartDashboard/Alerts/errors"]
	if !ok || st.Type != "string[]" {
		t.Fatalf("Alerts/errors in the log: %+v", st)
	}
	var raised, cleared bool
	for _, rec := range records {
		if rec.Entry == st.Entry {
			has := strings.Contains(string(rec.Payload), "turret_device (Talon FX 1): no health signals")
			raised = raised || has
			cleared = cleared || raised && !strings.Contains(string(rec.Payload), "turret_device")
		}
	}
	if !raised || !cleared {
		t.Errorf("the WPILOG's /SmartDashboard/Alerts/errors: raised %v, cleared %v", raised, cleared)
	}
}

// Every topic has one type on NT4 and in the WPILOG (WPILOG's int64 for
// NT4's int), logged under NT: as WPILib mirrors NetworkTables: the
// telemetry's topics but the joysticks (logged under DS: with WPILib's
// types, checked in wpilog's TestLogReadBack), and the command topics a
// dashboard publishes (PREFIX/commands/NAME, not mirrored: the log
// records them as it receives them, from NT4 and ROS alike).
func TestTypesNT4AndLog(t *testing.T) {
	dir := t.TempDir()
	d := telemetryDaemon(t, 100, dir)
	for range 20 {
		command(d)
		d.Step()
		d.StepTelemetry()
	}
	nt := map[string]string{} // by log name
	for _, tp := range d.tel.src.Topics {
		if tp.LogAs == "" {
			nt["NT:"+tp.Name] = tp.Type
		}
	}
	prefix := d.tel.src.Prefix() + "/"
	cmdType := d.ntCommandType(prefix)
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	starts, _ := logRecords(t, dir)
	logged := map[string]string{}
	for name, st := range starts {
		logged[name] = st.Type
	}
	commands := 0
	for name, typ := range logged {
		want, ok := nt[name]
		if !ok && strings.HasPrefix(name, prefix+"commands/") && !strings.HasSuffix(name, "/refused") && !strings.HasSuffix(name, "/gains") {
			want, ok = cmdType(name)
			commands++
		}
		if ok && telemetry.LogType(want) != typ {
			t.Errorf("%s: %s in the log, %s on NT4", name, typ, want)
		}
	}
	for name := range nt {
		if _, ok := logged[name]; !ok {
			t.Errorf("%s: on NT4, not in the log", name)
		}
	}
	if commands != len(d.Loop.Controllers()) {
		t.Errorf("%d command topics checked, want one per controller (%d)", commands, len(d.Loop.Controllers()))
	}
	t.Logf("%d topics, %d of them commands", len(logged), commands)
}

// logRecords reads the one WPILOG file in dir: each entry's start (by
// name) and every data record, in order.
func logRecords(t *testing.T, dir string) (starts map[string]wpilog.Start, records []wpilog.Record) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.wpilog"))
	if len(files) != 1 {
		t.Fatalf("log files %v", files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := wpilog.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	starts = map[string]wpilog.Start{}
	for {
		rec, err := rd.Next()
		if err != nil {
			return starts, records
		}
		if rec.Entry == 0 {
			if kind, st, err := wpilog.ParseControl(rec.Payload); err == nil && kind == 0 {
				starts[st.Name] = st
			}
			continue
		}
		rec.Payload = append([]byte(nil), rec.Payload...)
		records = append(records, rec)
	}
}
