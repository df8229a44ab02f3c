package ros_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

// TestCmdVelDrivesOdom: Debian's rostopic streams geometry_msgs/Twist on
// the competition robot's diff_drive_controller's cmd_vel (its wheels' four
// voltage controllers replaced by it), on the sim in real time; the base
// moves, /drive/odom (nav_msgs/Odometry) follows it, the stale twist
// drives the base to rest and, after stop_time, the wheels neutral, /tf carries
// odom → base_link; a Pose2D on /drive/reset_pose places the odometry.
func TestCmdVelDrivesOdom(t *testing.T) {
	integration(t, tooltest.Rostopic)
	yp := tooltest.DiffDriveYAML(t, "../examples/competition/robot.yaml", "")
	r, list, err := robot.Load("../examples/competition/robot.urdf", yp)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, Logf: t.Logf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	f := &frcd{d: d, Service: tooltest.Serve(t, d.Run)}
	f.registered(t, 1)
	stop := e.Start(t, tooltest.Rostopic.Name, "pub", "-r", "20", "/drive/cmd_vel", "geometry_msgs/Twist", "{linear: {x: 0.5}}")
	odomX := func() float64 {
		out := e.MustRun(t, tooltest.Rostopic.Name, "echo", "-n", "1", "/drive/odom/pose/pose/position/x")
		x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(out), "---")), 64)
		if err != nil {
			t.Fatalf("odom x: %q: %v", out, err)
		}
		return x
	}
	// wheelsAt says whether every wheel's output is driven (or neutral),
	// as the sim's truth has it; a wheel the sim does not know fails the
	// test rather than reading 0 V.
	wheels := []string{"left_front_wheel_joint", "left_rear_wheel_joint", "right_front_wheel_joint", "right_rear_wheel_joint"}
	wheelsAt := func(driven bool) bool {
		for _, w := range wheels {
			j, ok := d.Sim.Joint(w)
			if !ok {
				t.Fatalf("the sim has no joint %q", w)
			}
			if (j.Voltage != 0) != driven {
				return false
			}
		}
		return true
	}
	tooltest.Eventually(t, 20*time.Second, "the odometry past 0.5 m", func() bool { return odomX() > 0.5 })
	tooltest.Eventually(t, 20*time.Second, "the wheels driven", func() bool { return wheelsAt(true) })
	stop()
	// The twist expires after cmd_vel_timeout: the base is driven to
	// rest (zero wheel velocity), then after stop_time every wheel's
	// output goes neutral; the odometry's own twist says it has stopped.
	tooltest.Eventually(t, 20*time.Second, "the wheels neutral", func() bool { return wheelsAt(false) })
	tooltest.Eventually(t, 60*time.Second, "the base stopped", func() bool {
		out := e.MustRun(t, tooltest.Rostopic.Name, "echo", "-n", "1", "/drive/odom/twist/twist/linear/x")
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(out), "---")), 64)
		if err != nil {
			t.Fatalf("odom twist: %q: %v", out, err)
		}
		return v < 0.005 && v > -0.005
	})
	x := odomX()
	p, _ := d.Sim.Pose()
	t.Logf("odometry x %.3f m, truth x %.3f m", x, p.X)
	if p.X < 0.4 || x-p.X > 0.1 || p.X-x > 0.1 {
		t.Errorf("the base moved %.3f m; odometry says %.3f m", p.X, x)
	}
	tf := e.MustRun(t, tooltest.Rostopic.Name, "echo", "-n", "1", "/tf/transforms[0]/child_frame_id")
	if !strings.Contains(tf, "base_link") {
		t.Errorf("/tf: %q", tf)
	}
	// (-3.0, not -3: rostopic refuses an integer for a float64 field)
	e.MustRun(t, tooltest.Rostopic.Name, "pub", "-1", "/drive/reset_pose", "geometry_msgs/Pose2D", "{x: -3.0, y: 0.0, theta: 0.0}")
	tooltest.Eventually(t, 10*time.Second, "the odometry reset", func() bool { return odomX() < -2 })
}
