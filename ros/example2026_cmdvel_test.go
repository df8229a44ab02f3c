package ros_test

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/urdf"
)

// TestExample2026CmdVelStops: examples/2026 on the sim in real time,
// driven at 1 m/s by Debian's rostopic on its swerve controller's
// /swerve/cmd_vel, as a team drives it. Left alone (rostopic stopped), it
// stops within 0.5 m of where it was when the twist timed out (the first
// cycle its speed falls, 0.5 s after the last twist: the controller ramps
// it down), its drive motors in brake or in coast. Disabled at 1 m/s,
// when no controller acts, its drive motors' brake stops it within 0.5
// m in 5 s; in coast it rolls on.
func TestExample2026CmdVelStops(t *testing.T) {
	integration(t, tooltest.Rostopic)
	brake := "neutral_mode: brake, stator_current_limit: 80"
	coast := "neutral_mode: coast, stator_current_limit: 80"
	var went [2][2]float64 // [left alone, disabled][brake, coast]
	for i, disable := range []bool{false, true} {
		for k, edits := range [][]string{nil, {brake, coast}} {
			// A subtest each, so that each daemon and master stop before
			// the next starts.
			t.Run(fmt.Sprintf("disabled=%v/%s", disable, []string{"brake", "coast"}[k]), func(t *testing.T) {
				went[i][k] = cmdVelRollOn(t, example2026Edited(t, edits...), disable)
			})
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("examples/2026 at 1 m/s by rostopic pub /swerve/cmd_vel: left alone, brake %.3f m, coast %.3f m from the twist's timeout to rest; "+
		"disabled, brake %.3f m, coast %.3f m in 5 s", went[0][0], went[0][1], went[1][0], went[1][1])
	for k, mode := range []string{"brake", "coast"} {
		if went[0][k] > 0.5 {
			t.Errorf("left alone in %s: went %.3f m after the twist timed out, want under 0.5", mode, went[0][k])
		}
	}
	if went[1][0] > 0.5 || went[1][1] < 2*went[1][0]+0.5 {
		t.Errorf("disabled: brake went %.3f m (want under 0.5), coast %.3f m (want it to roll on)", went[1][0], went[1][1])
	}
}

// example2026Edited loads examples/2026 with each old, new pair of its
// YAML replaced.
func example2026Edited(t *testing.T, edits ...string) *robot.Robot {
	t.Helper()
	us, err := os.ReadFile("../examples/2026/robot.urdf")
	if err != nil {
		t.Fatal(err)
	}
	ys, err := os.ReadFile("../examples/2026/robot.yaml")
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
		if l.Errors() > 0 {
			t.Fatalf("robot: %v", l)
		}
	}
	return r
}

// cmdVelRollOn runs r in real time with an embedded master, streams a 1
// m/s twist on /swerve/cmd_vel until the base runs at 0.95 m/s, then
// either stops the stream and returns how far the base went from the
// twist's timeout (its first cycle slower than 0.95 m/s) to rest, or
// disables the robot and returns how far it went in the 5 s after.
func cmdVelRollOn(t *testing.T, r *robot.Robot, disable bool) float64 {
	t.Helper()
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, Logf: t.Logf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	f := &frcd{d: d, Service: tooltest.Serve(t, d.Run)}
	f.registered(t, 1)
	pose := func() (x, y, v float64) {
		p, ok := d.Sim.Pose()
		if !ok {
			t.Fatal("the sim has no drivetrain")
		}
		return p.X, p.Y, math.Hypot(p.VX, p.VY)
	}
	stop := e.Start(t, tooltest.Rostopic.Name, "pub", "-r", "20", "/swerve/cmd_vel", "geometry_msgs/Twist", "{linear: {x: 1.0}}")
	tooltest.Eventually(t, 30*time.Second, "the base at 0.95 m/s", func() bool { _, _, v := pose(); return v > 0.95 })
	var x0, y0 float64
	if disable {
		d.SetEnabled(false)
		x0, y0, _ = pose()
		start := d.Now()
		tooltest.Eventually(t, 30*time.Second, "5 s disabled", func() bool { return d.Now()-start >= 5*time.Second })
		stop()
	} else {
		stop()
		// The twist times out cmd_vel_timeout (0.5 s) after the last one;
		// until then the base holds 1 m/s, from then the controller ramps
		// it down: the first slower sample is where it timed out.
		tooltest.Eventually(t, 30*time.Second, "the twist timed out", func() bool {
			var v float64
			x0, y0, v = pose()
			return v < 0.95
		})
		tooltest.Eventually(t, 30*time.Second, "the base at rest", func() bool { _, _, v := pose(); return v < 0.005 })
	}
	x1, y1, _ := pose()
	return math.Hypot(x1-x0, y1-y0)
}
