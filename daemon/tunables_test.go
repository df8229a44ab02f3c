package daemon

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/nt4"
	"github.com/frcd/frcd/robot"
)

// layoutRobot is the competition robot with an nt4: section appended.
func layoutRobot(t *testing.T, nt4 string) *robot.Robot {
	t.Helper()
	y, err := os.ReadFile("../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(path, append(y, "\n"+nt4+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../examples/competition/robot.urdf", path)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("robot: %v %v", err, list)
	}
	return r
}

// The layout comes from the flag, else the YAML, else 2026's; in 2027's
// the topics are under /Telemetry unless the YAML names a prefix, and the
// PID controllers are tunables. Sampling and publishing it allocates
// nothing, as in 2026's.
func TestTelemetryLayoutChoice(t *testing.T) {
	for _, c := range []struct {
		name, yaml, flag string
		prefix           string
		tunables         bool
	}{
		{"default", "", "", "/frcd", false},
		{"yaml 2027", `nt4: {layout: "2027"}`, "", "/Telemetry", true},
		{"yaml 2027, its prefix", `nt4: {layout: "2027", prefix: /robot}`, "", "/robot", true},
		{"flag 2027", `nt4: {tuning: true}`, "2027", "/Telemetry", true},
		{"flag 2026 over the yaml", `nt4: {layout: "2027"}`, "2026", "/frcd", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := NewSim(layoutRobot(t, c.yaml), SimOptions{Enabled: true}, Options{
				Telemetry: &TelemetryOptions{NT4: "127.0.0.1:0", Layout: c.flag}})
			if err != nil {
				t.Fatal(err)
			}
			tunables := false
			for _, tp := range d.tel.src.Topics {
				tunables = tunables || tp.Name == "/Tunables/controllers/hood_position/p"
			}
			if d.tel.src.Prefix() != c.prefix || tunables != c.tunables {
				t.Errorf("prefix %s, tunables %v; want %s, %v", d.tel.src.Prefix(), tunables, c.prefix, c.tunables)
			}
		})
	}
	if _, err := NewSim(layoutRobot(t, ""), SimOptions{}, Options{Telemetry: &TelemetryOptions{NT4: "127.0.0.1:0", Layout: "2025"}}); err == nil {
		t.Error("layout 2025 taken")
	}

	d, err := NewSim(layoutRobot(t, `nt4: {layout: "2027"}`), SimOptions{Enabled: true}, Options{Rate: 1000,
		Telemetry: &TelemetryOptions{NT4: "127.0.0.1:0", LogDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.CloseLog()
	command(d)
	for range 100 {
		d.Step()
		d.StepTelemetry()
	}
	n := 0
	if a := testing.AllocsPerRun(200, func() {
		if n++; n%50 == 0 {
			command(d)
		}
		d.Step()
		d.StepTelemetry()
	}); a != 0 {
		t.Errorf("a cycle with the 2027 layout's telemetry and log: %v allocations, want 0", a)
	}
}

// A dashboard tunes one gain of a PID controller under /Tunables, checked
// against its YAML key's range; the other gains are not checked again nor
// written back. A controller whose pid.f is negative (the YAML's and ROS
// 2's feedforward_gain range is -1e6..1e6) takes a p. (Review: ntTune
// wrote all four gains through SetGains, which refuses a negative f:
// every tune of such a controller was refused.)
func TestTuneOneGain(t *testing.T) {
	d, err := NewSim(layoutRobot(t, `nt4: {layout: "2027", tuning: true}`), SimOptions{Enabled: true}, Options{
		Telemetry: &TelemetryOptions{NT4: "127.0.0.1:0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.tel.enabled.Store(true)
	turret := d.Loop.Controller("turret_position")
	if err := turret.SetGain(control.GainID{Term: control.GainF}, -0.5, d.Now()); err != nil {
		t.Fatal(err)
	}
	double := func(f float64) nt4.Value {
		return nt4.Value{Type: nt4.TypeDouble, Raw: msgp.AppendFloat64(nil, f)}
	}
	if err := d.ntTune("turret_position", 0, double(12), true); err != nil {
		t.Fatalf("p 12 with f -0.5: %v", err)
	}
	if g := turret.Gains(); g.P != 12 || g.F != -0.5 {
		t.Errorf("gains %+v, want p 12, f -0.5", g)
	}
	if err := d.ntTune("turret_position", 0, double(2e6), true); err == nil {
		t.Error("p 2e6 (over pid.p's 1e6) taken")
	}
	if err := d.ntTune("turret_position", 1, double(math.NaN()), true); err == nil {
		t.Error("i NaN taken")
	}
	if g := turret.Gains(); g.P != 12 || g.I != 5 {
		t.Errorf("gains %+v after refusals, want p 12, i 5", g)
	}
}
