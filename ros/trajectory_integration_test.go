package ros_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

var actionlibPython = tooltest.Tool{Name: "/usr/lib/python3/dist-packages/actionlib/simple_action_client.py", Package: "python3-actionlib"}

const trajectoryPython = "/usr/lib/python3/dist-packages/trajectory_msgs/msg/_JointTrajectory.py"

// genFollowTrajectory generates the Python package control_msgs (its
// FollowJointTrajectory action and JointTolerance) with actionlib's
// genaction and genpy from frcd's ctlmsgs/ (Debian has no control_msgs),
// and returns the directory for PYTHONPATH.
func genFollowTrajectory(t *testing.T, e *tooltest.ROS) string {
	t.Helper()
	out := t.TempDir()
	msgs := filepath.Join(out, "msgs")
	e.MustRun(t, "/usr/bin/python3", "/usr/lib/actionlib_msgs/genaction.py", "-o", msgs, "ctlmsgs/action/FollowJointTrajectory.action")
	for _, m := range []string{"JointTolerance.msg", "JointControllerState.msg", "JointTrajectoryControllerState.msg"} {
		b, err := os.ReadFile(filepath.Join("ctlmsgs/msg", m))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(msgs, m), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := filepath.Glob(filepath.Join(msgs, "*.msg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("generated .msg: %v", err)
	}
	traj, _ := filepath.Abs("ctlmsgs/trajectory_msgs")
	dir := filepath.Join(out, "control_msgs", "msg")
	gen := "/usr/lib/genpy/genmsg_py.py"
	args := []string{gen, "-p", "control_msgs", "-Icontrol_msgs:" + msgs, "-Itrajectory_msgs:" + traj,
		"-Istd_msgs:/usr/share/std_msgs/msg", "-Iactionlib_msgs:/usr/share/actionlib_msgs/msg", "-o", dir}
	e.MustRun(t, "/usr/bin/python3", append(args, files...)...)
	e.MustRun(t, "/usr/bin/python3", gen, "--initpy", "-p", "control_msgs", "-o", dir)
	if err := os.WriteFile(filepath.Join(out, "control_msgs", "__init__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

type followReport struct {
	Finished    bool
	State       int
	ErrorCode   *int   `json:"error_code"` // nil: no result
	ErrorString string `json:"error_string"`
	Feedback    int
	LastActual  []float64 `json:"last_actual"`
	// Stop is the empty goal's outcome (mode empty).
	Stop *struct {
		Finished    bool
		State       int
		ErrorCode   *int   `json:"error_code"`
		ErrorString string `json:"error_string"`
	}
}

// followNode runs the competition robot on the sim in real time, its
// shoulder and elevator under a joint trajectory controller, with an
// embedded master; run runs testdata/follow_trajectory.py in a mode.
func followNode(t *testing.T) (e *tooltest.ROS, d *daemon.Daemon, run func(mode string) followReport) {
	integration(t, tooltest.Rostopic, genpy)
	tooltest.RequireFile(t, actionlibPython.Name, "the Debian package "+actionlibPython.Package)
	tooltest.RequireFile(t, trajectoryPython, "the Debian package python3-trajectory-msgs")
	yp := tooltest.ControllersYAML(t, "../examples/competition/robot.yaml", []string{"shoulder_voltage", "elevator_voltage"},
		"  arm_trajectory: {type: effort_controllers/JointTrajectoryController, joints: [shoulder_joint, elevator_joint], "+
			"pid: {p: 40, i: 4, d: 2, i_clamp: 3}, constraints: {goal: 0.03, goal_time: 2, trajectory: 0.3}}")
	r, list, err := robot.Load("../examples/competition/robot.urdf", yp)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	e = tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	d, err = daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, Logf: t.Logf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	f := &frcd{d: d, Service: tooltest.Serve(t, d.Run)}
	f.registered(t, 1)
	e.Vars = append(e.Vars, "PYTHONPATH="+genFollowTrajectory(t, e), "PYTHONUNBUFFERED=1")
	return e, d, func(mode string) followReport {
		out := e.MustRun(t, "/usr/bin/python3", "testdata/follow_trajectory.py", "/arm_trajectory/follow_joint_trajectory", mode)
		var rep followReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		return rep
	}
}

// TestFollowJointTrajectory: actionlib's SimpleActionClient (Debian's
// python3-actionlib, with the control_msgs types genpy makes of ctlmsgs/)
// sends a 3-point FollowJointTrajectory goal to the competition robot's
// shoulder and elevator on the sim, in real time: SUCCEEDED, the arm at the
// last point within its tolerance, and rostopic reads the controller's
// control_msgs/JointTrajectoryControllerState on /arm_trajectory/state:
// the last point desired, the arm near it, error = desired - actual. The same goal again, from there (the
// shoulder goes down to 0.5 rad first), cancelled half way to its first
// point, is PREEMPTED and the shoulder stops where it was, between the two.
func TestFollowJointTrajectory(t *testing.T) {
	e, d, run := followNode(t)
	rep := run("succeed")
	sh, _ := d.Sim.Joint("shoulder_joint")
	el, _ := d.Sim.Joint("elevator_joint")
	t.Logf("succeed: %+v; truth shoulder %.3f elevator %.3f", rep, sh.Position, el.Position)
	const succeeded, preempted = 3, 2 // actionlib_msgs/GoalStatus
	if !rep.Finished || rep.State != succeeded || rep.ErrorCode == nil || *rep.ErrorCode != 0 || rep.Feedback == 0 ||
		math.Abs(sh.Position-0.8) > 0.05 || math.Abs(el.Position-0.4) > 0.05 {
		t.Errorf("want SUCCEEDED with feedback, the shoulder at 0.8 and the elevator at 0.4")
	}
	// joint_trajectory_controller's state while the last point holds:
	// desired, actual and their difference, from one message.
	var st struct {
		JointNames             []string `yaml:"joint_names"`
		Desired, Actual, Error struct{ Positions, Velocities []float64 }
	}
	out := e.MustRun(t, tooltest.Rostopic.Name, "echo", "-n", "1", "/arm_trajectory/state")
	if err := yaml.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(out), "---")), &st); err != nil {
		t.Fatalf("/arm_trajectory/state: %v\n%s", err, out)
	}
	t.Logf("state: %+v", st)
	if len(st.JointNames) != 2 || st.JointNames[0] != "shoulder_joint" || len(st.Desired.Positions) != 2 ||
		len(st.Actual.Positions) != 2 || len(st.Error.Positions) != 2 || len(st.Error.Velocities) != 2 {
		t.Fatalf("state: %+v", st)
	}
	for j, want := range []float64{0.8, 0.4} {
		if st.Desired.Positions[j] != want || math.Abs(st.Actual.Positions[j]-want) > 0.05 ||
			math.Abs(st.Error.Positions[j]-(st.Desired.Positions[j]-st.Actual.Positions[j])) > 1e-12 {
			t.Errorf("state of %s: desired %v actual %v error %v, want desired %v, error = desired - actual",
				st.JointNames[j], st.Desired.Positions[j], st.Actual.Positions[j], st.Error.Positions[j], want)
		}
	}
	rep = run("preempt")
	sh, _ = d.Sim.Joint("shoulder_joint")
	t.Logf("preempt: %+v; truth shoulder %.3f (vel %.3f)", rep, sh.Position, sh.Velocity)
	if !rep.Finished || rep.State != preempted || sh.Position > 0.77 || sh.Position < 0.53 {
		t.Errorf("want PREEMPTED with the shoulder stopped between 0.8 and the first point's 0.5")
	}
}

// TestFollowJointTrajectoryAsJTC: the same stock client, with goals
// joint_trajectory_controller treats specially. One point at
// time_from_start 0: REJECTED with INVALID_GOAL, the arm where it was (it
// once succeeded without moving). shoulder_joint and wrist_joint: REJECTED
// with INVALID_JOINTS (-2). A goal without points from a second client
// while the 3-point goal runs: the running goal PREEMPTED, the empty one
// SUCCEEDED, the shoulder stopped short of the 3-point goal's 0.8.
func TestFollowJointTrajectoryAsJTC(t *testing.T) {
	_, d, run := followNode(t)
	const succeeded, preempted, rejected = 3, 2, 5 // actionlib_msgs/GoalStatus
	before, _ := d.Sim.Joint("shoulder_joint")
	rep := run("zero")
	after, _ := d.Sim.Joint("shoulder_joint")
	t.Logf("zero: %+v; shoulder %.3f then %.3f", rep, before.Position, after.Position)
	if rep.State != rejected || rep.ErrorCode == nil || *rep.ErrorCode != -1 || !strings.Contains(rep.ErrorString, "time_from_start 0") ||
		math.Abs(after.Position-before.Position) > 0.05 {
		t.Errorf("one point at 0: want REJECTED, INVALID_GOAL (-1), the arm where it was")
	}
	rep = run("badjoints")
	t.Logf("badjoints: %+v", rep)
	if rep.State != rejected || rep.ErrorCode == nil || *rep.ErrorCode != -2 {
		t.Errorf("shoulder_joint and wrist_joint: want REJECTED, INVALID_JOINTS (-2)")
	}
	rep = run("empty")
	sh, _ := d.Sim.Joint("shoulder_joint")
	t.Logf("empty: %+v stop %+v; shoulder %.3f (vel %.3f)", rep, rep.Stop, sh.Position, sh.Velocity)
	if rep.State != preempted || rep.Stop == nil || rep.Stop.State != succeeded || math.Abs(sh.Velocity) > 0.05 || sh.Position > 0.75 {
		t.Errorf("an empty goal: want the running goal PREEMPTED, the empty one SUCCEEDED, the shoulder stopped short of 0.8")
	}
}
