package ros2bridge_test

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// motionYAML is the competition robot with a diff drive on its wheels
// (drive) and a trajectory controller on its shoulder and elevator
// (arm_trajectory), as the ROS 1 integration tests have them.
func motionYAML(t testing.TB) string {
	return tooltest.ControllersYAML(t, tooltest.DiffDriveYAML(t, exampleYAML, ""), []string{"shoulder_voltage", "elevator_voltage"},
		"  arm_trajectory: {type: effort_controllers/JointTrajectoryController, joints: [shoulder_joint, elevator_joint], "+
			"pid: {p: 40, i: 4, d: 2, i_clamp: 3}, constraints: {goal: 0.03, goal_time: 2, trajectory: 0.3}}")
}

// client is a peer node calling services in rmw_cyclonedds's convention
// (a {client id, sequence} header before the fields).
type client struct {
	t       *testing.T
	ctx     context.Context
	p       *rtps.Participant
	seq     int64
	replies map[string]chan *cdr.Decoder
}

func newClient(t *testing.T, ctx context.Context) *client {
	cfg := discovery(t)
	cfg.Name = "client"
	peer, err := ros2node.New(ros2node.Config{Name: "client", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { peer.Close() })
	return &client{t: t, ctx: ctx, p: peer.Participant(), replies: map[string]chan *cdr.Decoder{}}
}

// service returns a function calling service name of type typ
// (pkg/kind/T with its _Request_ and _Response_): it sends the request
// every resend until the reply to it arrives, and returns the reply past
// its header.
func (c *client) service(name, typ string, resend time.Duration) func(body func(*cdr.Encoder)) *cdr.Decoder {
	t := c.t
	t.Helper()
	dds, err := ros2node.TypeName(typ)
	if err != nil {
		t.Fatal(err)
	}
	replies := make(chan *cdr.Decoder, 100)
	if _, err := c.p.NewReader("rr"+name+"Reply", dds+"Response_", ros2node.Services, func(s rtps.Sample) {
		d, err := cdr.NewDecoder(s.Payload)
		if err == nil {
			replies <- d
		}
	}); err != nil {
		t.Fatal(err)
	}
	w, err := c.p.NewWriter("rq"+name+"Request", dds+"Request_", ros2node.Services)
	if err != nil {
		t.Fatal(err)
	}
	return func(body func(*cdr.Encoder)) *cdr.Decoder {
		t.Helper()
		if err := w.WaitMatched(c.ctx, 1); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c.seq++
		var e cdr.Encoder
		e.Reset(nil, cdr.CDRLE)
		e.Uint64(9)
		e.Int64(c.seq)
		body(&e)
		for {
			if err := w.Write(e.Bytes()); err != nil {
				t.Fatal(err)
			}
			timer := time.NewTimer(resend)
			for waiting := true; waiting; {
				select {
				case d := <-replies:
					if id, seq := d.Uint64(), d.Int64(); id == 9 && seq == c.seq {
						timer.Stop()
						return d
					}
				case <-timer.C:
					waiting = false
				case <-c.ctx.Done():
					t.Fatalf("no reply from %s", name)
				}
			}
		}
	}
}

// TestTwistDrivesBase: TwistStamped on /drive/cmd_vel (Jazzy's
// diff_drive_controller's type), and Twist on the same topic, move the
// competition robot's diff drive forward on the stepped sim; a NaN twist
// is refused and counted; once the twists stop, the controller's timeout
// stops the base (zero wheel velocity, then neutral after stop_time).
func TestTwistDrivesBase(t *testing.T) {
	d, b, _ := newBridgeFor(t, motionYAML(t), t.Logf)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c := newClient(t, ctx)
	stamped, err := c.p.NewWriter("rt/drive/cmd_vel", (&ros2msg.TwistStamped{}).TypeName(), ros2node.Default)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := c.p.NewWriter("rt/drive/cmd_vel", (&ros2msg.Twist{}).TypeName(), ros2node.Default)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []*rtps.Writer{stamped, plain} {
		if err := w.WaitMatched(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	// drive sends twist m by w until the bridge has taken one more
	// command, then steps the loop 5 cycles.
	drive := func(w *rtps.Writer, m ros2msg.Message) {
		t.Helper()
		untilTaken(t, ctx, b, func() error { return w.Write(ros2msg.Marshal(nil, m)) })
		for range 5 {
			d.Step()
		}
	}
	x0 := pose(t, d).X
	for i := 0; i < 100 && pose(t, d).X < x0+0.2; i++ {
		drive(stamped, &ros2msg.TwistStamped{Twist: ros2msg.Twist{Linear: ros2msg.Vector3{X: 0.5}}})
	}
	x1 := pose(t, d).X
	if x1 < x0+0.2 {
		t.Fatalf("TwistStamped: the base at x %.3f from %.3f; stats %+v", x1, x0, b.Stats())
	}
	for i := 0; i < 100 && pose(t, d).X < x1+0.2; i++ {
		drive(plain, &ros2msg.Twist{Linear: ros2msg.Vector3{X: 0.5}})
	}
	if x := pose(t, d).X; x < x1+0.2 {
		t.Fatalf("Twist: the base at x %.3f from %.3f; stats %+v", x, x1, b.Stats())
	}
	ctl := controller(t, d, "drive")
	refused := ctl.Refused()
	drive(stamped, &ros2msg.TwistStamped{Twist: ros2msg.Twist{Linear: ros2msg.Vector3{X: math.NaN()}}})
	if ctl.Refused() != refused+1 || b.Stats().Refused == 0 {
		t.Fatalf("NaN twist: refused %d -> %d, stats %+v", refused, ctl.Refused(), b.Stats())
	}
	// No more twists: past the timeout (0.5 s) the twist becomes zero and
	// the base is driven to rest, its wheels held at zero velocity for
	// stop_time (1 s), then their motors get nothing.
	volts := func() float64 {
		j, _ := d.Sim.Joint("left_front_wheel_joint")
		return j.Voltage
	}
	if v := volts(); math.Abs(v) < 0.5 {
		t.Fatalf("the left wheels get %.2f V while driven", v)
	}
	xStale := 0.0
	for i := range int(2 * time.Second / d.Loop.Period()) {
		d.Step()
		if i == int(500*time.Millisecond/d.Loop.Period()) {
			xStale = pose(t, d).X
		}
	}
	if p, _ := d.Sim.Pose(); math.Abs(p.VX) > 0.01 || p.X-xStale > 0.3 {
		t.Fatalf("2 s past the last twist the base moves at %.3f m/s, %.3f m past the timeout", p.VX, p.X-xStale)
	}
	if v := volts(); v != 0 {
		t.Fatalf("the left wheels get %.2f V past the twist's timeout and stop_time", v)
	}
}

// untilTaken sends a command by send, again every 250 ms, until the
// bridge has taken or refused one more (its reader may not know the
// writer yet). The resend waits long enough that a copy still on its way
// on a loaded machine is rarely sent twice: callers count refusals
// exactly, and a duplicate counts twice.
func untilTaken(t *testing.T, ctx context.Context, b *ros2bridge.Bridge, send func() error) {
	t.Helper()
	before := b.Stats()
	for i := 0; ; i++ {
		if st := b.Stats(); st.Commands != before.Commands || st.Refused != before.Refused {
			return
		}
		if i%250 == 0 {
			if err := send(); err != nil {
				t.Fatal(err)
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("command not taken: stats %+v", b.Stats())
		case <-time.After(time.Millisecond):
		}
	}
}

func pose(t *testing.T, d *daemon.Daemon) struct{ X float64 } {
	p, ok := d.Sim.Pose()
	if !ok {
		t.Fatal("the sim has no base pose")
	}
	return struct{ X float64 }{p.X}
}

func controller(t *testing.T, d *daemon.Daemon, name string) *control.Controller {
	t.Helper()
	cs := d.Loop.Controllers()
	i := slices.IndexFunc(cs, func(c *control.Controller) bool { return c.Name == name })
	if i < 0 {
		t.Fatalf("no controller %s", name)
	}
	return cs[i]
}

// goal writes a FollowJointTrajectory_SendGoal request's fields: the goal
// id, then a trajectory of the shoulder and elevator through points
// (shoulder, elevator, time s).
func goal(id byte, joints []string, points ...[3]float64) func(*cdr.Encoder) {
	return func(e *cdr.Encoder) {
		u := ros2msg.UUID{id}
		u.MarshalCDR(e)
		g := ros2msg.FollowJointTrajectoryGoal{Trajectory: ros2msg.JointTrajectory{JointNames: joints}}
		for _, p := range points {
			g.Trajectory.Points = append(g.Trajectory.Points, ros2msg.JointTrajectoryPoint{Positions: []float64{p[0], p[1]},
				TimeFromStart: ros2msg.DurationOf(time.Duration(p[2] * float64(time.Second)))})
		}
		g.MarshalCDR(e)
	}
}

// TestFollowJointTrajectoryAction: a client in rmw_cyclonedds's
// convention sends a FollowJointTrajectory goal on
// /arm_trajectory/follow_joint_trajectory/_action/send_goal: accepted;
// its get_result, asked at once, answers when the stepped loop has run
// it: SUCCEEDED (4), error code 0, the joints at the goal; feedback and
// status came on their topics. A goal naming the wrong joints is rejected
// and counted. A second goal, cancelled half way, ends CANCELED (5) with
// the shoulder stopped between its start and its goal.
func TestFollowJointTrajectoryAction(t *testing.T) {
	d, b, _ := newBridgeFor(t, motionYAML(t), t.Logf)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c := newClient(t, ctx)
	const action = "/arm_trajectory/follow_joint_trajectory/_action/"
	send := c.service(action+"send_goal", "control_msgs/action/FollowJointTrajectory_SendGoal", 100*time.Millisecond)
	result := c.service(action+"get_result", "control_msgs/action/FollowJointTrajectory_GetResult", time.Second)
	cancelGoal := c.service(action+"cancel_goal", "action_msgs/srv/CancelGoal", 100*time.Millisecond)
	feedback := make(chan []float64, 1000)
	if _, err := c.p.NewReader("rt"+action+"feedback", "control_msgs::action::dds_::FollowJointTrajectory_FeedbackMessage_", ros2node.Default, func(s rtps.Sample) {
		d, err := cdr.NewDecoder(s.Payload)
		if err != nil {
			return
		}
		var id ros2msg.UUID
		var fb ros2msg.FollowJointTrajectoryFeedback
		id.UnmarshalCDR(d)
		fb.UnmarshalCDR(d)
		if d.Err() == nil && slices.Equal(fb.JointNames, []string{"shoulder_joint", "elevator_joint"}) {
			select {
			case feedback <- fb.Actual.Positions:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	statuses := make(chan ros2msg.GoalStatusArray, 1000)
	if _, err := c.p.NewReader("rt"+action+"status", (&ros2msg.GoalStatusArray{}).TypeName(), ros2node.Latched, func(s rtps.Sample) {
		var m ros2msg.GoalStatusArray
		if ros2msg.Unmarshal(s.Payload, &m) == nil {
			select {
			case statuses <- m:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	joints := []string{"shoulder_joint", "elevator_joint"}
	accepted := func(r *cdr.Decoder) bool {
		ok := r.Bool()
		var st ros2msg.Time
		st.UnmarshalCDR(r)
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
		return ok
	}

	// Wrong joints: rejected, counted.
	arm := controller(t, d, "arm_trajectory")
	refused := arm.Refused()
	if accepted(send(goal(1, []string{"shoulder_joint", "wrist_joint"}, [3]float64{0.5, 0.2, 1}))) {
		t.Fatal("a goal naming wrist_joint accepted")
	}
	if arm.Refused() == refused { // (once per request: the client may have sent it again)
		t.Fatalf("refused %d -> %d", refused, arm.Refused())
	}

	if !accepted(send(goal(2, joints, [3]float64{0.5, 0.2, 1}, [3]float64{0.8, 0.4, 2}))) {
		t.Fatalf("goal refused; stats %+v", b.Stats())
	}
	results := make(chan [2]int64, 1)
	getResult := func(id byte) {
		r := result(func(e *cdr.Encoder) { u := ros2msg.UUID{id}; u.MarshalCDR(e) })
		st := r.Int8()
		var res ros2msg.FollowJointTrajectoryResult
		res.UnmarshalCDR(r)
		if r.Err() != nil {
			t.Error(r.Err())
		}
		results <- [2]int64{int64(st), int64(res.ErrorCode)}
	}
	go getResult(2)
	// Run the loop: half a second, then wait for feedback while the goal
	// runs, then 3.5 s more.
	for range int(500 * time.Millisecond / d.Loop.Period()) {
		d.Step()
	}
	for len(feedback) > 0 { // older feedback
		<-feedback
	}
	select {
	case actual := <-feedback:
		if len(actual) != 2 || actual[0] < 0.05 {
			t.Fatalf("feedback: actual %v, want the shoulder on its way to 0.5", actual)
		}
	case <-ctx.Done():
		t.Fatal("no feedback")
	}
	for range int(3500 * time.Millisecond / d.Loop.Period()) {
		d.Step()
	}
	var got [2]int64
	select {
	case got = <-results:
	case <-ctx.Done():
		t.Fatal("no result")
	}
	sh, _ := d.Sim.Joint("shoulder_joint")
	el, _ := d.Sim.Joint("elevator_joint")
	if got != [2]int64{int64(ros2msg.GoalSucceeded), 0} || math.Abs(sh.Position-0.8) > 0.05 || math.Abs(el.Position-0.4) > 0.05 {
		t.Fatalf("result %v (want SUCCEEDED 4, code 0); shoulder %.3f elevator %.3f (want 0.8, 0.4)", got, sh.Position, el.Position)
	}
	for {
		select {
		case m := <-statuses:
			if i := slices.IndexFunc(m.List, func(g ros2msg.GoalStatus) bool { return g.Info.ID == ros2msg.UUID{2} }); i >= 0 && m.List[i].Status == ros2msg.GoalSucceeded {
				goto canceled
			}
			continue
		case <-ctx.Done():
			t.Fatal("no SUCCEEDED status")
		}
	}
canceled:
	// Back down to 0.5, cancelled half way.
	if !accepted(send(goal(3, joints, [3]float64{0.5, 0.4, 2}))) {
		t.Fatal("goal 3 refused")
	}
	for range int(time.Second / d.Loop.Period()) {
		d.Step()
	}
	r := cancelGoal(func(e *cdr.Encoder) { g := ros2msg.GoalInfo{ID: ros2msg.UUID{3}}; g.MarshalCDR(e) })
	if code, n := r.Int8(), r.SeqLen(0); code != ros2msg.CancelNone || n != 1 {
		t.Fatalf("cancel: code %d, %d goals canceling", code, n)
	}
	go getResult(3)
	for range 50 {
		d.Step()
	}
	select {
	case got = <-results:
	case <-ctx.Done():
		t.Fatal("no result")
	}
	sh, _ = d.Sim.Joint("shoulder_joint")
	if got[0] != int64(ros2msg.GoalCanceled) || sh.Position > 0.77 || sh.Position < 0.53 {
		t.Fatalf("result %v (want CANCELED 5), shoulder %.3f (want between 0.53 and 0.77)", got, sh.Position)
	}
	// Cancelling it again: terminated.
	r = cancelGoal(func(e *cdr.Encoder) { g := ros2msg.GoalInfo{ID: ros2msg.UUID{3}}; g.MarshalCDR(e) })
	if code := r.Int8(); code != ros2msg.CancelGoalTerminated {
		t.Fatalf("second cancel: code %d", code)
	}
	_ = ros2bridge.ActionName
}
