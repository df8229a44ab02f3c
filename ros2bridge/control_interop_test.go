package ros2bridge_test

import (
	"math"
	"slices"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// cycloneSim runs the example URDF with yaml on the sim in real time,
// enabled, its ROS 2 node on a domain of this process that the Cyclone
// peers find (ddstest), until the test ends; it returns the daemon and
// the domain.
func cycloneSim(t *testing.T, yaml string) (*daemon.Daemon, int) {
	t.Helper()
	r, list, err := robot.Load(exampleURDF, yaml)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	domain := ddstest.Domain()
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS2: &daemon.ROS2Options{
		Node: ros2node.Config{Name: "frcd", RTPS: rtps.Config{Domain: domain, MaxPeerID: ddstest.MaxPeerID, Logf: t.Logf}}, Logf: t.Logf}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.Run)
	return d, domain
}

// controlEvent is a line of testdata/cyclone/control_client.c.
type controlEvent struct {
	Topic     string    `json:"topic"`
	N         int       `json:"n"`
	Name      string    `json:"name"`
	Reference float64   `json:"reference"`
	Feedback  float64   `json:"feedback"`
	Error     float64   `json:"error"`
	TimeStep  float64   `json:"time_step"`
	Joints    []string  `json:"joints"`
	Ref       []float64 `json:"ref"`
	Fb        []float64 `json:"fb"`
	Err       []float64 `json:"err"`
	Speed     float64   `json:"speed"`
	Hood      []string  `json:"hood"`
	Values    []float64 `json:"values"`
	Sent      int       `json:"sent"`
	Bad       int       `json:"bad"`
	RefSent   int       `json:"ref_sent"`
	RefBad    int       `json:"ref_bad"`
}

// TestCycloneControl runs the competition robot with the arm's trajectory
// controller on the sim in real time, its ROS 2 node on Cyclone's
// domain, and a Cyclone DDS 0.10.2 peer (testdata/cyclone/control_client.c,
// the types from their .msg definitions by idlc) that commands and reads
// frcd's controllers in ros2_controllers' forms: [0.4] as
// std_msgs/msg/Float64MultiArray on /hood_position/commands moves the hood
// there (sim truth), and the peer reads it on
// /hood_position/controller_state (control_msgs/msg/MultiDOFStateStamped:
// hood_joint, reference 0.4, error = reference - feedback) and on
// /dynamic_joint_states (hood_joint's position interface); the
// wrong-length [0.1, 0.2] it sends once is refused and counted; a
// trajectory on /arm_trajectory/joint_trajectory shows on
// /arm_trajectory/controller_state
// (control_msgs/msg/JointTrajectoryControllerState, Jazzy's layout with
// speed_scaling_factor 1) with the reference at the goal [0.5, 0.3].
// From 8 s on, once the peer has read the hood at 0.4 (not by the clock
// alone: a slow start on a loaded machine would otherwise skip that
// wait's sample), control_msgs/msg/MultiDOFCommand on /hood_position/reference
// naming hood_joint (pid_controller's form) moves the hood to 0.3; the
// first, naming turret_joint, is refused.
func TestCycloneControl(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Cyclone DDS peer: skipped with -short")
	}
	bin := ddstest.Cyclone.Program(t, "testdata/cyclone/control_client.c", "testdata/ControlCyclone.idl")
	d, domain := cycloneSim(t, motionYAML(t))
	hood := controller(t, d, "hood_position")
	refused := hood.Refused()

	c := tooltest.StartJSON[controlEvent](t, ddstest.Env(domain), bin, "120", "8")
	pid := c.Wait("the hood at 0.4 on /hood_position/controller_state", func(e controlEvent) bool {
		// (a P controller against the hood's weight settles about 0.02 short)
		return e.Topic == "pid" && e.Name == "hood_joint" && math.Abs(e.Feedback-0.4) < 0.03
	})
	h, _ := d.Sim.Joint("hood_joint")
	t.Logf("pid %+v; the hood at %.3f", pid, h.Position)
	if pid.N != 1 || pid.Reference != 0.4 || math.Abs(pid.Error-(pid.Reference-pid.Feedback)) > 1e-9 || pid.TimeStep <= 0 ||
		math.Abs(h.Position-0.4) > 0.05 {
		t.Errorf("want one DOF, reference 0.4, error = reference - feedback, a time step, the hood near 0.4")
	}
	dyn := c.Wait("hood_joint's position on /dynamic_joint_states", func(e controlEvent) bool {
		return e.Topic == "dynamic" && slices.Contains(e.Hood, "position")
	})
	t.Logf("dynamic_joint_states: %d joints, hood_joint %v %v", dyn.N, dyn.Hood, dyn.Values)
	if i := slices.Index(dyn.Hood, "position"); len(dyn.Values) != len(dyn.Hood) || math.Abs(dyn.Values[i]-0.4) > 0.05 {
		t.Errorf("want hood_joint's position near 0.4")
	}
	bad := c.Wait("the wrong-length command refused", func(e controlEvent) bool { return e.Bad == 1 && hood.Refused() > refused })
	t.Logf("%d commands sent; refused %d -> %d", bad.Sent, refused, hood.Refused())
	tr := c.Wait("the arm's trajectory at its goal on /arm_trajectory/controller_state", func(e controlEvent) bool {
		return e.Topic == "trajectory" && len(e.Ref) == 2 && math.Abs(e.Ref[0]-0.5) < 1e-6 && math.Abs(e.Ref[1]-0.3) < 1e-6
	})
	t.Logf("trajectory %+v", tr)
	if !slices.Equal(tr.Joints, []string{"shoulder_joint", "elevator_joint"}) || len(tr.Fb) != 2 || len(tr.Err) != 2 || tr.Speed != 1 ||
		math.Abs(tr.Err[0]-(tr.Ref[0]-tr.Fb[0])) > 1e-9 || math.Abs(tr.Err[1]-(tr.Ref[1]-tr.Fb[1])) > 1e-9 {
		t.Errorf("want the arm's joints, feedback and error = reference - feedback, speed scaling 1")
	}
	pid = c.Wait("the hood at 0.3 after 8 s of references", func(e controlEvent) bool {
		return e.Topic == "pid" && e.Reference == 0.3 && math.Abs(e.Feedback-0.3) < 0.03
	})
	h, _ = d.Sim.Joint("hood_joint")
	t.Logf("pid %+v; the hood at %.3f", pid, h.Position)
	c.Wait("the reference naming another joint refused", func(e controlEvent) bool { return e.RefBad == 1 && hood.Refused() >= refused+2 })
}
