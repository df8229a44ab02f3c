package daemon

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// example2026 loads examples/2026 as it is, or with its YAML edited: each
// old, new pair replaced everywhere.
func example2026(t *testing.T, edits ...string) *robot.Robot {
	t.Helper()
	return exampleEdited(t, "2026", edits...)
}

// exampleEdited loads examples/NAME with its YAML edited: each old, new
// pair replaced everywhere.
func exampleEdited(t *testing.T, name string, edits ...string) *robot.Robot {
	t.Helper()
	us, err := os.ReadFile("../examples/" + name + "/robot.urdf")
	if err != nil {
		t.Fatal(err)
	}
	ys, err := os.ReadFile("../examples/" + name + "/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	y := string(ys)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(y, edits[i]) {
			t.Fatalf("edit: %q is not in the YAML", edits[i])
		}
		y = strings.ReplaceAll(y, edits[i], edits[i+1])
	}
	u, ul := urdf.Parse("robot.urdf", us)
	c, cl := config.Parse("robot.yaml", []byte(y))
	r, xl := robot.Check(u, c)
	for _, l := range []diag.List{ul, cl, xl} {
		for _, f := range l {
			if f.Severity == diag.Error {
				t.Fatalf("robot: %s", f)
			}
		}
	}
	return r
}

// rollOn drives an example forward at 1 m/s through its drive
// controller ctl's twist (what /CTL/cmd_vel carries) for 2 s, then sends
// nothing (or, disable, disables the robot at the last twist): it returns
// the speed when the twist timed out (0.5 s after the last; disable: when
// disabled), and how far the base went in the 5 s after that.
func rollOn(t *testing.T, r *robot.Robot, ctl string, disable bool) (speed, after float64) {
	t.Helper()
	d, err := NewSim(r, SimOptions{Seed: 4, Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := d.Loop.Controller(ctl)
	if c == nil {
		t.Fatalf("the example has no controller %q", ctl)
	}
	for i := 0; i < 50; i++ { // the SPARKs and Talons configured, the modules settled
		d.Step()
	}
	var last time.Duration
	for start := d.Now(); d.Now()-start < 2*time.Second; {
		last = d.Now()
		if err := c.CommandGroup([]float64{1, 0, 0}, last); err != nil {
			t.Fatal(err)
		}
		d.Step()
	}
	if disable {
		d.Sim.SetDS(hal.DSState{Attached: true})
	}
	for !disable && d.Now() < last+500*time.Millisecond {
		d.Step()
	}
	p0, ok := d.Sim.Pose()
	if !ok {
		t.Fatal("the sim has no drivetrain")
	}
	if math.Hypot(p0.X, p0.Y) < 1.5 {
		t.Fatalf("driven 2 s at 1 m/s, the base is %.2f m from its start", math.Hypot(p0.X, p0.Y))
	}
	speed = math.Hypot(p0.VX, p0.VY)
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	if len(snap.Odometry) != 1 || !snap.Odometry[0].OK || math.Abs(snap.Odometry[0].Pose.X-p0.X) > 0.1 {
		t.Errorf("odometry %+v, truth %+v", snap.Odometry, p0)
	}
	for end := d.Now() + 5*time.Second; d.Now() < end; {
		d.Step()
	}
	p1, _ := d.Sim.Pose()
	return speed, math.Hypot(p1.X-p0.X, p1.Y-p0.Y)
}

// examples/2026, driven at 1 m/s by its swerve controller and then left
// alone, stops within 0.5 m of where it was when the twist timed out (the
// controller brings its wheels to rest, brake or coast). Disabled at 1
// m/s, when no controller can do anything, its drive motors' brake stops
// it within 0.5 m; in coast it rolls on.
func TestExample2026StopsWhenLeftAlone(t *testing.T) {
	coastYAML := []string{"required: true, neutral_mode: brake, stator_current_limit: 80", "required: true, neutral_mode: coast, stator_current_limit: 80"}
	stopsWhenLeftAlone(t, "swerve", example2026(t), example2026(t, coastYAML...))
}

// examples/competition likewise, through its diff_drive_controller: its
// CAN controllers in brake by their neutral_mode, its PWM ones by their
// jumper; coast is both set to coast.
func TestExampleCompetitionStopsWhenLeftAlone(t *testing.T) {
	coastYAML := []string{"neutral_mode: brake", "neutral_mode: coast", "jumper: brake", "jumper: coast"}
	stopsWhenLeftAlone(t, "drive", exampleEdited(t, "competition"), exampleEdited(t, "competition", coastYAML...))
}

// stopsWhenLeftAlone drives the robot in brake and in coast with rollOn,
// left alone and disabled, and checks how far each went on.
func stopsWhenLeftAlone(t *testing.T, ctl string, brakeRobot, coastRobot *robot.Robot) {
	t.Helper()
	for _, disable := range []bool{false, true} {
		brakeV, brake := rollOn(t, brakeRobot, ctl, disable)
		coastV, coast := rollOn(t, coastRobot, ctl, disable)
		what := "after the twist timed out (0.5 s after the last)"
		if disable {
			what = "disabled at the last twist"
		}
		t.Logf("%s: brake: at %.2f m/s, went %.3f m in 5 s; coast: at %.2f m/s, went %.3f m", what, brakeV, brake, coastV, coast)
		if brake > 0.5 {
			t.Errorf("%s: in brake the base went %.3f m, want under 0.5", what, brake)
		}
		if !disable && coast > 0.5 {
			t.Errorf("%s: in coast the base went %.3f m, want under 0.5: the controller stops it", what, coast)
		}
		if disable && coast < 2*brake+0.5 {
			t.Errorf("%s: in coast the base went %.3f m, in brake %.3f: want it to roll on", what, coast, brake)
		}
	}
}

// The examples' arms, disabled at 1 rad with only their motors against
// their weight: in brake (as each example has it: examples/2026's SPARK
// MAX by its idle mode, examples/competition's PWM Talon SRX by its B/C
// CAL button, the sim joint's jumper) each sinks slowly; in coast each
// falls to its stop. examples/competition's sim gives its shoulder no
// weight, so the test adds 10 N·m.
func TestExampleArmsBrake(t *testing.T) {
	for _, tc := range []struct {
		example, joint string
		stop           float64 // rad, the joint's lower limit
		brake, coast   []string
	}{
		{"2026", "arm_joint", -0.5, nil,
			[]string{"neutral_mode: brake, smart_current_limit: 40", "neutral_mode: coast, smart_current_limit: 40"}},
		{"competition", "shoulder_joint", -0.5,
			[]string{"motor: 775pro, jumper: brake}", "motor: 775pro, jumper: brake, load: 10}"},
			[]string{"motor: 775pro, jumper: brake}", "motor: 775pro, jumper: coast, load: 10}"}},
	} {
		sink := func(r *robot.Robot) float64 {
			d, err := NewSim(r, SimOptions{Seed: 4}, Options{}) // disabled throughout
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			for i := 0; i < 50; i++ { // a CAN controller answers, is configured (from Halt) in brake or coast
				d.Step()
			}
			if err := d.Sim.SetJoint(tc.joint, 1, 0); err != nil {
				t.Fatal(err)
			}
			for end := d.Now() + time.Second; d.Now() < end; {
				d.Step()
			}
			j, _ := d.Sim.Joint(tc.joint)
			return 1 - j.Position
		}
		brake := sink(exampleEdited(t, tc.example, tc.brake...))
		coast := sink(exampleEdited(t, tc.example, tc.coast...))
		t.Logf("examples/%s: disabled %s from 1 rad, 1 s: brake sank %.3f rad, coast fell %.3f rad", tc.example, tc.joint, brake, coast)
		if coast < 1-tc.stop-0.01 || brake > 0.5 || brake <= 0 {
			t.Errorf("examples/%s: brake sank %.3f rad (want a creep, under 0.5), coast fell %.3f rad (want to its stop, %.1f)", tc.example, brake, coast, 1-tc.stop)
		}
	}
}
