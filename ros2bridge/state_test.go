package ros2bridge_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// sub subscribes peer to topic and passes each decoded message to a
// channel (new is a fresh message each time).
func sub[M ros2msg.Message](t *testing.T, peer *ros2node.Node, topic string, q rtps.QoS, fresh func() M) <-chan M {
	t.Helper()
	ch := make(chan M, 1000)
	if _, err := peer.Subscribe(topic, fresh(), q, func(s rtps.Sample) {
		m := fresh()
		if err := ros2msg.Unmarshal(s.Payload, m); err != nil {
			t.Errorf("%s: %v", topic, err)
			return
		}
		select {
		case ch <- m:
		default:
		}
	}); err != nil {
		t.Fatal(err)
	}
	return ch
}

// newPeer is a ros2node peer in the tests' domain, closed at the test's
// end.
func newPeer(t *testing.T) *ros2node.Node {
	t.Helper()
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: discovery(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { peer.Close() })
	return peer
}

func recv[M any](t *testing.T, what string, ch <-chan M, ok func(M) bool) M {
	t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case m := <-ch:
			if ok(m) {
				return m
			}
		case <-timeout:
			t.Fatalf("no %s within %s", what, waitLimit)
		}
	}
}

// TestStateTopics runs the example robot (two IMUs, a PDP, a profiled
// turret, two fixed joints) on the stepped sim with its ROS 2 bridge and
// a ros2node peer that joins late: it gets /tf_static (transient local)
// with both fixed joints and /rosout's earlier lines (transient local,
// keep last 1000); then each IMU's Imu (frame its name, level: orientation w 1), the
// PDP's BatteryState (its bus voltage, current negative) and 16 channel
// currents, the turret's JointControllerState, and /diagnostics with the
// loop, every device and the health model's extra status.
func TestStateTopics(t *testing.T) {
	static := []ros2bridge.StaticTransform{{Parent: "base_link", Child: "camera_link", Translation: [3]float64{0.1, 0, 0.5}, Rotation: [4]float64{0, 0, 0, 1}},
		{Parent: "base_link", Child: "imu_link", Rotation: [4]float64{0, 0, 0.7071067811865476, 0.7071067811865476}}}
	extra := ros2bridge.Status{Level: 2, Name: "frcd: CAN can0", Message: "bus off", Values: [][2]string{{"errors", "3"}}}
	d, b, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) {
		o.State = ros2bridge.StateOptions{Static: static, Diagnostics: func(dst []ros2bridge.Status) []ros2bridge.Status { return append(dst, extra) }}
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cfg := discovery(t)
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	tfs := sub(t, peer, "/tf_static", ros2node.Latched, func() *ros2msg.TFMessage { return &ros2msg.TFMessage{} })
	logs := sub(t, peer, "/rosout", rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.TransientLocal, History: rtps.KeepLast, Depth: 1000},
		func() *ros2msg.Log { return &ros2msg.Log{} })
	tf := recv(t, "/tf_static", tfs, func(*ros2msg.TFMessage) bool { return true })
	if len(tf.Transforms) != 2 || tf.Transforms[0].Header.FrameID != "base_link" || tf.Transforms[0].ChildFrameID != "camera_link" ||
		tf.Transforms[0].Transform.Translation.Z != 0.5 || tf.Transforms[1].Transform.Rotation.W != 0.7071067811865476 {
		t.Fatalf("/tf_static %+v", tf)
	}
	// New logged its INFO line before the peer subscribed; a late joiner
	// still gets it.
	lg := recv(t, "a /rosout line", logs, func(*ros2msg.Log) bool { return true })
	if lg.Name != "frcd" || lg.Level != ros2msg.LogInfo || lg.Msg != "ros2: node up: 2 IMUs, 1 PDPs, 2 controller states, 1 drive bases, 2 fixed joints on /tf_static" ||
		lg.Stamp.Sec < int32(time.Now().Unix()-60) {
		t.Errorf("/rosout %+v", lg)
	}
	// A refused command is a WARN line.
	cmd, err := peer.Publisher("/turret_position/command", &ros2msg.Float64{}, ros2node.Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Writer().WaitMatched(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// The command topic's reader is best effort: a sample sent before it
	// matched the writer is lost for good, so the NaN goes again until the
	// refusal is heard.
	for warned := false; !warned; {
		if err := cmd.Publish(&ros2msg.Float64{Data: math.NaN()}); err != nil {
			t.Fatal(err)
		}
		select {
		case l := <-logs:
			if l.Level == ros2msg.LogWarn {
				warned = true
				if !strings.HasPrefix(l.Msg, "ros2: /turret_position/command refused: ") {
					t.Errorf("/rosout %+v", l)
				}
			}
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal("no WARN line on /rosout")
		}
	}

	imus := sub(t, peer, "/navx/imu", ros2node.Default, func() *ros2msg.Imu { return &ros2msg.Imu{} })
	bat := sub(t, peer, "/pdp/battery", ros2node.Default, func() *ros2msg.BatteryState { return &ros2msg.BatteryState{} })
	cur := sub(t, peer, "/pdp/currents", ros2node.Default, func() *ros2msg.Float64MultiArray { return &ros2msg.Float64MultiArray{} })
	ctl := sub(t, peer, "/turret_position/state", ros2node.Default, func() *ros2msg.JointControllerState { return &ros2msg.JointControllerState{} })
	diag := sub(t, peer, "/diagnostics", ros2node.Default, func() *ros2msg.DiagnosticArray { return &ros2msg.DiagnosticArray{} })
	// Step and publish until each arrived (the peer's readers match the
	// writers at their own pace).
	got := map[string]bool{}
	var imu *ros2msg.Imu
	var battery *ros2msg.BatteryState
	var currents *ros2msg.Float64MultiArray
	var state *ros2msg.JointControllerState
	var diagnostics *ros2msg.DiagnosticArray
	for len(got) < 5 && ctx.Err() == nil {
		d.Step()
		b.Publish()
		select {
		case imu = <-imus:
			got["imu"] = true
		case battery = <-bat:
			got["battery"] = true
		case currents = <-cur:
			got["currents"] = true
		case state = <-ctl:
			got["state"] = true
		case diagnostics = <-diag:
			got["diagnostics"] = true
		case <-time.After(time.Millisecond):
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("got only %v", got)
	}
	if imu.Header.FrameID != "navx" || imu.Orientation.W != 1 || imu.Header.Stamp.Sec < int32(time.Now().Unix()-60) {
		t.Errorf("imu %+v", imu)
	}
	if battery.Voltage < 10 || battery.Current > 0 || battery.Location != "pdp" || !battery.Present || battery.PowerSupplyStatus != ros2msg.PowerSupplyStatusDischarging {
		t.Errorf("battery %+v", battery)
	}
	if len(currents.Data) != 16 || len(currents.Dim) != 1 || currents.Dim[0].Size != 16 {
		t.Errorf("currents %+v", currents)
	}
	if !state.Antiwindup || state.Header.Stamp.Sec == 0 {
		t.Errorf("controller state %+v", state)
	}
	names := map[string]ros2msg.DiagnosticStatus{}
	for _, s := range diagnostics.Status {
		names[s.Name] = s
	}
	if names["frcd: loop"].HardwareID != "frcd" || names["frcd: device navx"].Name == "" || names["frcd: controller turret_position"].Name == "" ||
		names["frcd: CAN can0"].Level != 2 || names["frcd: CAN can0"].Values[0].Value != "3" {
		t.Errorf("diagnostics %+v", diagnostics.Status)
	}
}

// TestStatePublishAllocatesNothing: with the loop running between
// publications, once each writer's history is full (keep last 10: then
// it reuses the evicted sample's buffer), /joint_states and the state
// topics (IMUs, PDP, controller state, the Driver Station's, /tf, a PID's
// and a running trajectory's controller_state, /dynamic_joint_states)
// allocate nothing; only
// /diagnostics, once a second of loop time, builds strings.
func TestStatePublishAllocatesNothing(t *testing.T) {
	d, b, _ := newBridgeFor(t, controlYAML(t), nil, func(o *ros2bridge.Options) {
		o.State.Static = []ros2bridge.StaticTransform{{Parent: "a", Child: "b", Rotation: [4]float64{0, 0, 0, 1}}}
		o.State.DriverStation = func(dst *hal.DSInfo) { // a joystick and the match: the driver_station/ topics too
			dst.Joysticks[0].NumAxes, dst.Joysticks[0].NumButtons, dst.Joysticks[0].NumPOVs = 4, 10, 1
			dst.Alliance, dst.Station, dst.MatchTime = "blue", 3, 12
		}
		o.State.Movable, _ = exampleMovable(t) // /tf
	})
	// A 10 s trajectory runs: its controller_state is sent each cycle.
	arm := controller(t, d, "arm_trajectory")
	if _, err := arm.FollowTrajectory(&control.Trajectory{Joints: []string{"shoulder_joint", "elevator_joint"},
		Points: []control.TrajectoryPoint{{Time: 10, Positions: []float64{0.5, 0.3}}}}, d.Now()); err != nil {
		t.Fatal(err)
	}
	for range 25 { // sizes the messages, fills each writer's history (keep last 10; /drive/odom at half the rate), the first /diagnostics
		d.Step()
		b.Publish()
	}
	for range 90 { // /tf's (keep last 100), in no loop time
		b.Publish()
	}
	step := testing.AllocsPerRun(5, func() { d.Step() })
	fb := &control.TrajectoryFeedback{}
	arm.Feedback(fb)
	before := fb.Stamp
	// AllocsPerRun counts every goroutine's allocations: the participant's
	// own (a heartbeat, a discovery answer) can fall in a run now and then
	// on a loaded machine, where a cycle's would fall in every run. The
	// best of four runs (4 × 6 cycles: under a second of loop time).
	n := math.Inf(1)
	for range 4 {
		n = min(n, testing.AllocsPerRun(5, func() { d.Step(); b.Publish() }))
	}
	if n != step {
		t.Fatalf("Step and Publish allocate %v times, Step alone %v", n, step)
	}
	if arm.Feedback(fb); fb.Stamp <= before || len(fb.Desired) != 2 {
		t.Fatalf("the trajectory's feedback stamped %v, then %v (%d joints): no controller_state was due", before, fb.Stamp, len(fb.Desired))
	}
}

func BenchmarkStepPublish(b *testing.B) {
	d, br, _ := newBridge(b, nil)
	d.Step()
	br.Publish()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d.Step()
		br.Publish()
	}
}
