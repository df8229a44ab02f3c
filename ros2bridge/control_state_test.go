package ros2bridge_test

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// controlYAML is motionYAML (a diff drive, the arm's trajectory
// controller) with the climber and the conveyor in one group voltage
// controller, feed_voltage.
func controlYAML(t testing.TB) string {
	return tooltest.ControllersYAML(t, motionYAML(t), []string{"climber_voltage:", "conveyor:"},
		"  feed_voltage: {type: voltage_controllers/JointGroupVoltageController, joints: [climber_joint, conveyor_joint]}")
}

// latest keeps the newest sample of one topic, decoded.
type latest[M any, P interface {
	*M
	ros2msg.Message
}] struct {
	mu sync.Mutex
	m  M
	n  int
}

func (l *latest[M, P]) subscribe(t *testing.T, peer *ros2node.Node, topic string) {
	t.Helper()
	if _, err := peer.Subscribe(topic, P(new(M)), ros2node.Default, func(s rtps.Sample) {
		var m M
		if err := ros2msg.Unmarshal(s.Payload, P(&m)); err != nil {
			t.Errorf("%s: %v", topic, err)
			return
		}
		l.mu.Lock()
		l.m, l.n = m, l.n+1
		l.mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
}

func (l *latest[M, P]) get() (M, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m, l.n
}

// TestForwardCommandsAndControllerState: a peer in the same process
// commands frcd's controllers as ros2_controllers' forward command
// controllers take commands, std_msgs/msg/Float64MultiArray on
// NAME/commands: [3, -2] on the group voltage controller feed_voltage
// reach the climber's and the conveyor's motors (sim truth); a
// wrong-length array and ones with a NaN or an Inf are refused, counted
// by the controller and the bridge, and the motors keep their volts; [0.4] on the
// hood's position PID moves the hood there, and its
// /hood_position/controller_state (MultiDOFStateStamped) names
// hood_joint with reference 0.4 and the feedback /dynamic_joint_states
// reports for hood_joint; [0.1, 0.2] on it is refused. pid_controller's
// control_msgs/msg/MultiDOFCommand on /hood_position/reference sets the
// hood's reference, naming hood_joint or no joint; another joint, a NaN or
// two values are refused and leave the reference. A trajectory on
// /arm_trajectory/joint_trajectory is reported on
// /arm_trajectory/controller_state (JointTrajectoryControllerState):
// the arm's joints, error = reference - feedback, speed scaling 1.
func TestForwardCommandsAndControllerState(t *testing.T) {
	d, b, _ := newBridgeFor(t, controlYAML(t), t.Logf)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	runDone := make(chan error, 1)
	go func() { runDone <- b.Run(ctx) }()
	defer func() { cancel(); <-runDone }()
	cfg := discovery(t)
	cfg.Name = "peer"
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	var pid latest[ros2msg.MultiDOFStateStamped, *ros2msg.MultiDOFStateStamped]
	pid.subscribe(t, peer, "/hood_position/"+ros2bridge.ControllerStateTopic)
	var traj latest[ros2msg.JointTrajectoryControllerState, *ros2msg.JointTrajectoryControllerState]
	traj.subscribe(t, peer, "/arm_trajectory/"+ros2bridge.ControllerStateTopic)
	var dyn latest[ros2msg.DynamicJointState, *ros2msg.DynamicJointState]
	dyn.subscribe(t, peer, ros2bridge.DynamicJointStateTopic)
	pub := func(topic string, m ros2msg.Message) *ros2node.Publisher {
		p, err := peer.Publisher(topic, m, ros2node.Default)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Writer().WaitMatched(ctx, 1); err != nil {
			t.Fatalf("%s: %v", topic, err)
		}
		return p
	}
	feed := pub("/feed_voltage/commands", &ros2msg.Float64MultiArray{})
	hood := pub("/hood_position/commands", &ros2msg.Float64MultiArray{})
	ref := pub("/hood_position/reference", &ros2msg.MultiDOFCommand{})
	arm := pub("/arm_trajectory/joint_trajectory", &ros2msg.JointTrajectory{})

	// send publishes m until the bridge has taken or refused it, then
	// steps the loop 3 cycles (the sim applies a cycle's outputs at the
	// next).
	send := func(p *ros2node.Publisher, m ros2msg.Message) {
		t.Helper()
		untilTaken(t, ctx, b, func() error { return p.Publish(m) })
		for range 3 {
			d.Step()
		}
	}
	volts := func(joint string) float64 {
		j, _ := d.Sim.Joint(joint)
		return j.Voltage
	}
	array := func(v ...float64) *ros2msg.Float64MultiArray { return &ros2msg.Float64MultiArray{Data: v} }

	send(feed, array(3, -2))
	// The sim's motors see the commanded fraction of its sagging
	// battery: the signs, and not far below.
	c0, v0 := volts("climber_joint"), volts("conveyor_joint")
	if c0 < 2 || c0 > 3.2 || v0 > -1.3 || v0 < -2.2 {
		t.Fatalf("[3, -2] on /feed_voltage/commands: climber %.2f V, conveyor %.2f V", c0, v0)
	}
	feedCtl := controller(t, d, "feed_voltage")
	refused, bridgeRefused := feedCtl.Refused(), b.Stats().Refused
	send(feed, array(1))
	send(feed, array(math.NaN(), 1))
	send(feed, array(-1, math.Inf(1)))
	if c, v := volts("climber_joint"), volts("conveyor_joint"); math.Abs(c-c0) > 0.05 || math.Abs(v-v0) > 0.05 {
		t.Errorf("after refused commands: climber %.2f V, conveyor %.2f V, want %.2f and %.2f still", c, v, c0, v0)
	}
	if feedCtl.Refused() != refused+3 || b.Stats().Refused != bridgeRefused+3 {
		t.Errorf("a wrong length, a NaN and an Inf: controller refused %d -> %d, bridge %d -> %d, want 3 more each",
			refused, feedCtl.Refused(), bridgeRefused, b.Stats().Refused)
	}

	hoodCtl := controller(t, d, "hood_position")
	send(hood, array(0.4))
	var st ros2msg.MultiDOFStateStamped
	// The bridge publishes on its own clock (Run), so the waits below are
	// bounded by ctx, not by a count of steps a loaded machine may race
	// through before a sample arrives.
	for ctx.Err() == nil {
		d.Step()
		h, _ := d.Sim.Joint("hood_joint")
		st, _ = pid.get()
		// (a P controller against the hood's weight settles about 0.02
		// short of its set point)
		if math.Abs(h.Position-0.4) < 0.03 && len(st.DOFStates) == 1 && math.Abs(st.DOFStates[0].Feedback-0.4) < 0.03 {
			break
		}
	}
	if len(st.DOFStates) != 1 || st.DOFStates[0].Name != "hood_joint" || st.DOFStates[0].Reference != 0.4 ||
		math.Abs(st.DOFStates[0].Feedback-0.4) > 0.03 || st.DOFStates[0].TimeStep <= 0 ||
		math.Abs(st.DOFStates[0].Error-(0.4-st.DOFStates[0].Feedback)) > 1e-9 {
		t.Fatalf("/hood_position/controller_state: %+v, want hood_joint at 0.4", st)
	}
	// /dynamic_joint_states published after the hood settled: two
	// samples on from now, the first may have been built before.
	var dj ros2msg.DynamicJointState
	for _, n0 := dyn.get(); ctx.Err() == nil; d.Step() {
		var n int
		if dj, n = dyn.get(); n >= n0+2 && len(dj.JointNames) > 0 {
			break
		}
	}
	at := slices.Index(dj.JointNames, "hood_joint")
	if at < 0 || len(dj.InterfaceValues) != len(dj.JointNames) {
		t.Fatalf("/dynamic_joint_states: %+v, want hood_joint", dj)
	}
	iv := dj.InterfaceValues[at]
	pos := slices.Index(iv.InterfaceNames, "position")
	if pos < 0 || len(iv.Values) != len(iv.InterfaceNames) || math.Abs(iv.Values[pos]-0.4) > 0.03 {
		t.Errorf("/dynamic_joint_states hood_joint: %+v, want its position near 0.4", iv)
	}
	refused = hoodCtl.Refused()
	send(hood, array(0.1, 0.2))
	if hoodCtl.Refused() != refused+1 {
		t.Errorf("[0.1, 0.2] on /hood_position/commands: refused %d -> %d, want one more", refused, hoodCtl.Refused())
	}

	// pid_controller's reference: the joint named, or none.
	for _, m := range []*ros2msg.MultiDOFCommand{{DOFNames: []string{"hood_joint"}, Values: []float64{0.2}}, {Values: []float64{0.25}}} {
		send(ref, m)
		for ctx.Err() == nil {
			if st, _ = pid.get(); len(st.DOFStates) == 1 && st.DOFStates[0].Reference == m.Values[0] {
				break
			}
			d.Step()
		}
		if len(st.DOFStates) != 1 || st.DOFStates[0].Reference != m.Values[0] {
			t.Errorf("%+v on /hood_position/reference: controller_state %+v", m, st)
		}
	}
	refused = hoodCtl.Refused()
	for _, m := range []*ros2msg.MultiDOFCommand{{DOFNames: []string{"turret_joint"}, Values: []float64{0.3}}, {Values: []float64{math.NaN()}},
		{Values: []float64{0.1, 0.2}}} {
		send(ref, m)
	}
	if hoodCtl.Refused() != refused+3 {
		t.Errorf("another joint, a NaN, two values on /hood_position/reference: refused %d -> %d, want 3 more", refused, hoodCtl.Refused())
	}
	// A state published after the refusals: counted from now (the
	// bridge published on while they were sent, so a count taken before
	// them could already be reached, leaving st the one read before).
	for _, n0 := pid.get(); ctx.Err() == nil; {
		d.Step()
		var n int
		if st, n = pid.get(); n >= n0+3 {
			break
		}
	}
	if len(st.DOFStates) != 1 || st.DOFStates[0].Reference != 0.25 {
		t.Errorf("after refused references: controller_state %+v, want the reference 0.25 still", st)
	}

	send(arm, &ros2msg.JointTrajectory{JointNames: []string{"shoulder_joint", "elevator_joint"},
		Points: []ros2msg.JointTrajectoryPoint{{Positions: []float64{0.5, 0.3}, TimeFromStart: ros2msg.Duration{Sec: 1}}}})
	var js ros2msg.JointTrajectoryControllerState
	for ctx.Err() == nil {
		d.Step()
		if js, _ = traj.get(); len(js.Reference.Positions) == 2 && js.Reference.TimeFromStart.Sec >= 1 {
			break
		}
	}
	if !slices.Equal(js.JointNames, []string{"shoulder_joint", "elevator_joint"}) || len(js.Reference.Positions) != 2 ||
		len(js.Feedback.Positions) != 2 || len(js.Error.Positions) != 2 || js.SpeedScalingFactor != 1 {
		t.Fatalf("/arm_trajectory/controller_state: %+v", js)
	}
	for j := range 2 {
		if e := js.Reference.Positions[j] - js.Feedback.Positions[j]; math.Abs(js.Error.Positions[j]-e) > 1e-9 {
			t.Errorf("joint %d: error %v, want reference - feedback %v", j, js.Error.Positions[j], e)
		}
	}
	if math.Abs(js.Reference.Positions[0]-0.5) > 0.05 || math.Abs(js.Reference.Positions[1]-0.3) > 0.05 {
		t.Errorf("reference %v at %+v, want near [0.5 0.3] a second in", js.Reference.Positions, js.Reference.TimeFromStart)
	}
	t.Logf("pid %+v; trajectory ref %v fb %v err %v; stats %+v", st.DOFStates[0], js.Reference.Positions, js.Feedback.Positions,
		js.Error.Positions, b.Stats())
}

// TestTrajectoryStateHumble: with the node as Humble's, a trajectory
// controller's controller_state is JointTrajectoryControllerState in
// Humble's layout (desired and actual after output, no
// speed_scaling_factor), desired and actual carrying the reference and
// feedback, read to its last byte; Jazzy's layout does not read it.
func TestTrajectoryStateHumble(t *testing.T) {
	d, b, _ := newBridgeFor(t, controlYAML(t), t.Logf, func(o *ros2bridge.Options) { o.Node.Humble = true })
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	runDone := make(chan error, 1)
	go func() { runDone <- b.Run(ctx) }()
	defer func() { cancel(); <-runDone }()
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: discovery(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	var mu sync.Mutex
	var got ros2msg.JointTrajectoryControllerState
	var payload []byte
	topic := "/arm_trajectory/" + ros2bridge.ControllerStateTopic
	if _, err := peer.Subscribe(topic, &ros2msg.JointTrajectoryControllerState{Humble: true}, ros2node.Default, func(s rtps.Sample) {
		m := ros2msg.JointTrajectoryControllerState{Humble: true}
		if err := ros2msg.Unmarshal(s.Payload, &m); err != nil {
			t.Errorf("%s in Humble's layout: %v", topic, err)
			return
		}
		mu.Lock()
		got, payload = m, append(payload[:0], s.Payload...)
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	arm, err := peer.Publisher("/arm_trajectory/joint_trajectory", &ros2msg.JointTrajectory{}, ros2node.Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := arm.Writer().WaitMatched(ctx, 1); err != nil {
		t.Fatal(err)
	}
	untilTaken(t, ctx, b, func() error {
		return arm.Publish(&ros2msg.JointTrajectory{JointNames: []string{"shoulder_joint", "elevator_joint"},
			Points: []ros2msg.JointTrajectoryPoint{{Positions: []float64{0.5, 0.3}, TimeFromStart: ros2msg.Duration{Sec: 1}}}})
	})
	var m ros2msg.JointTrajectoryControllerState
	var raw []byte
	for ctx.Err() == nil {
		d.Step()
		mu.Lock()
		m, raw = got, slices.Clone(payload)
		mu.Unlock()
		if len(m.Reference.Positions) == 2 && m.Reference.TimeFromStart.Sec >= 1 {
			break
		}
	}
	if !slices.Equal(m.JointNames, []string{"shoulder_joint", "elevator_joint"}) || len(m.Reference.Positions) != 2 ||
		!slices.Equal(m.Desired.Positions, m.Reference.Positions) || !slices.Equal(m.Actual.Positions, m.Feedback.Positions) ||
		!slices.Equal(m.Desired.Velocities, m.Reference.Velocities) || m.Desired.TimeFromStart != m.Reference.TimeFromStart ||
		len(m.Actual.Positions) != 2 {
		t.Fatalf("%s in Humble's layout: %+v", topic, m)
	}
	if math.Abs(m.Desired.Positions[0]-0.5) > 0.05 || math.Abs(m.Desired.Positions[1]-0.3) > 0.05 {
		t.Errorf("desired %v, want near [0.5 0.3] a second in", m.Desired.Positions)
	}
	// To its last byte (Unmarshal does not look at what is left over; CDR
	// pads the end to 4 bytes at most).
	var dec cdr.Decoder
	if err := dec.Reset(raw); err != nil {
		t.Fatal(err)
	}
	(&ros2msg.JointTrajectoryControllerState{Humble: true}).UnmarshalCDR(&dec)
	if dec.Err() != nil || dec.Remaining() >= 4 {
		t.Errorf("the sample read in Humble's layout: %v, %d bytes left", dec.Err(), dec.Remaining())
	}
	var jazzy ros2msg.JointTrajectoryControllerState
	if err := ros2msg.Unmarshal(raw, &jazzy); err == nil && slices.Equal(jazzy.Feedback.Positions, m.Feedback.Positions) &&
		jazzy.SpeedScalingFactor == 1 {
		t.Errorf("Humble's layout read as Jazzy's: %+v", jazzy)
	}
}
