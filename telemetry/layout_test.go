package telemetry_test

import (
	"bytes"
	"testing"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/telemetry"
)

// TestLayout2027: in WPILib 2027's layout the topics are under
// /Telemetry, a PID controller is a PIDController tunable under
// /Tunables with mutable topics that follow its gains, the Field2d's
// Robot is a struct:Pose2d[] equal to the odometry's pose, and the Alerts
// are at /SmartDashboard/Alerts; the .type topics carry the properties
// WPILib gives them.
func TestLayout2027(t *testing.T) {
	yp := tooltest.DiffDriveYAML(t, "../examples/competition/robot.yaml", "linear: {max_acceleration: 2}, angular: {max_acceleration: 4}")
	r, list, err := robot.Load("../examples/competition/robot.urdf", yp)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := telemetry.New(telemetry.Options{Loop: d.Loop, Robot: r, Layout: telemetry.Layout2027})
	byName := map[string]*telemetry.Topic{}
	for _, tp := range s.Topics {
		if byName[tp.Name] != nil {
			t.Fatalf("topic %s twice", tp.Name)
		}
		byName[tp.Name] = tp
	}
	if s.Prefix() != "/Telemetry" || byName["/Telemetry/joints/hood_joint/position"] == nil || byName["/frcd/loop/cycles"] != nil {
		t.Fatalf("prefix %q: want the topics under /Telemetry", s.Prefix())
	}
	const mutable = `{"mutable":true}`
	for _, c := range []string{"hood_position", "turret_position"} {
		base := "/Tunables/controllers/" + c + "/"
		if tp := byName[base+".type"]; tp == nil || tp.Str != "PIDController" || tp.Props != mutable {
			t.Errorf("%s.type: %+v, want PIDController with %s", base, tp, mutable)
		}
		for _, term := range []string{"p", "i", "d", "f"} {
			if tp := byName[base+term]; tp == nil || tp.Type != "double" || tp.Props != mutable {
				t.Errorf("%s%s: %+v, want a mutable double", base, term, tp)
			}
		}
	}
	if tp := byName["/Tunables/controllers/wrist_position/p"]; tp != nil {
		t.Errorf("a controller without a PID is tunable: %s", tp.Name)
	}
	for name, want := range map[string]string{
		"/Telemetry/Field/.type": "{}", "/SmartDashboard/Alerts/.type": `{"SmartDashboard":"Alerts"}`,
	} {
		if tp := byName[name]; tp == nil || tp.Props != want {
			t.Errorf("%s: %+v, want properties %s", name, tp, want)
		}
	}
	field := byName["/Telemetry/Field/Robot"]
	if field == nil || field.Type != "struct:Pose2d[]" || byName["/SmartDashboard/Field/Robot"] != nil {
		t.Fatalf("the Field2d's Robot %+v, want a struct:Pose2d[] under /Telemetry/Field", field)
	}
	for _, sc := range []string{"Pose2d", "Translation2d", "Rotation2d"} {
		if byName["/.schema/struct:"+sc] == nil {
			t.Errorf("no schema of %s", sc)
		}
	}

	hood := d.Loop.Controller("hood_position")
	p := byName["/Tunables/controllers/hood_position/p"]
	if !s.Sample() || p.Double != 20 || byName["/Tunables/controllers/hood_position/i"].Double != 2 {
		t.Fatalf("hood_position's p %v, want the YAML's 20", p.Double)
	}
	if err := hood.SetGains(control.Gains{P: 30, I: 2}, d.Now()); err != nil {
		t.Fatal(err)
	}
	seq := p.Seq
	drive := d.Loop.Controller("drive")
	for i := 0; i < 50; i++ {
		if err := drive.CommandGroup([]float64{1, 0, 0.5}, d.Now()); err != nil {
			t.Fatal(err)
		}
		d.Step()
	}
	s.Sample()
	if p.Double != 30 || p.Seq != seq+1 {
		t.Errorf("p %v (seq %d to %d) after SetGains, want 30", p.Double, seq, p.Seq)
	}
	pose := byName["/Telemetry/drive/drive/pose"]
	if len(field.Raw) != 24 || !bytes.Equal(field.Raw, pose.Raw) || bytes.Equal(pose.Raw, make([]byte, 24)) {
		t.Errorf("Field2d Robot %x, want the odometry's pose %x, moved", field.Raw, pose.Raw)
	}
}

// TestLayout2026Types: the default layout's Alerts and Field2d .type
// topics carry {"SmartDashboard":TYPE}, as WPILib 2026's
// SendableBuilderImpl publishes them.
func TestLayout2026Types(t *testing.T) {
	yp := tooltest.DiffDriveYAML(t, "../examples/competition/robot.yaml", "linear: {max_acceleration: 2}, angular: {max_acceleration: 4}")
	r, list, err := robot.Load("../examples/competition/robot.urdf", yp)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := telemetry.New(telemetry.Options{Loop: d.Loop, Robot: r})
	n := 0
	for _, tp := range s.Topics {
		switch tp.Name {
		case "/SmartDashboard/Alerts/.type", "/SmartDashboard/Field/.type":
			n++
			if tp.Props != `{"SmartDashboard":"`+tp.Str+`"}` {
				t.Errorf("%s: properties %s", tp.Name, tp.Props)
			}
		}
		if tp.Name[:min(len(tp.Name), 10)] == "/Tunables/" {
			t.Errorf("a tunable in the 2026 layout: %s", tp.Name)
		}
	}
	if n != 2 {
		t.Errorf("%d of the two .type topics", n)
	}
}

func TestTunableGain(t *testing.T) {
	for _, c := range []struct {
		in   string
		name string
		term int
		ok   bool
	}{
		{"/Tunables/controllers/hood_position/p", "hood_position", 0, true},
		{"/Tunables/controllers/arm/wrist/f", "arm/wrist", 3, true},
		{"/Tunables/controllers/hood_position/.type", "", 0, false},
		{"/Tunables/controllers//d", "", 0, false},
		{"/Tunables/controllers/p", "", 0, false},
		{"/Telemetry/controllers/hood_position/p", "", 0, false},
	} {
		name, term, ok := telemetry.TunableGain(c.in)
		if name != c.name || term != c.term || ok != c.ok {
			t.Errorf("TunableGain(%q) = %q, %d, %v", c.in, name, term, ok)
		}
	}
	for _, s := range []string{"2026", "2027"} {
		if l, err := telemetry.ParseLayout(s); err != nil || l.String() != s {
			t.Errorf("ParseLayout(%s) = %v, %v", s, l, err)
		}
	}
	if _, err := telemetry.ParseLayout("2025"); err == nil {
		t.Error("layout 2025 taken")
	}
}
