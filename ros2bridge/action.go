package ros2bridge

import (
	"fmt"
	"sync"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
)

// A joint trajectory controller's control_msgs/action/FollowJointTrajectory
// on /NAME/follow_joint_trajectory, as a ROS 2 action server is on the
// wire (ros2/rcl rolling c19dab55 rcl_action/src/rcl_action/names.c and
// default_qos.h; the types as rosidl generates an action's: ros2/rosidl
// rosidl 95739d5b rosidl_parser/definition.py Action):
//
//	NAME/_action/send_goal    service FollowJointTrajectory_SendGoal:
//	                          {UUID goal_id; Goal goal} -> {bool accepted; Time stamp}
//	NAME/_action/cancel_goal  service action_msgs/srv/CancelGoal
//	NAME/_action/get_result   service FollowJointTrajectory_GetResult:
//	                          {UUID goal_id} -> {int8 status; Result result}, answered when the goal ends
//	NAME/_action/feedback     topic FollowJointTrajectory_FeedbackMessage {UUID goal_id; Feedback feedback},
//	                          reliable, volatile, keep last 10 (rmw_qos_profile_default)
//	NAME/_action/status       topic action_msgs/msg/GoalStatusArray, reliable, transient local, keep last 1
//
// A goal the controller refuses (control.Controller.FollowTrajectory:
// wrong joints, bad values; or a multi-DOF trajectory, which frcd cannot
// move) is rejected, counted and logged. An accepted goal runs at once,
// preempting the one running (as on ROS 1: the older one ends CANCELED);
// a cancel stops it where it is (CANCELED). Finished goals' results are
// kept for get_result, the last keptGoals of them.

// ActionName is a joint trajectory controller's action under its name.
const ActionName = "follow_joint_trajectory"

// Bounds of an action server's state.
const (
	keptGoals      = 16 // finished goals whose results get_result still answers
	waitingResults = 8  // get_result requests waiting per goal; more are refused
)

// actionGoal is one goal the server accepted.
type actionGoal struct {
	info    ros2msg.GoalInfo
	id      uint64 // the controller's
	status  int8
	result  ros2msg.FollowJointTrajectoryResult
	waiting []ros2node.Request // get_result requests before it ended
}

// trajAction is one controller's action server.
type trajAction struct {
	b        *Bridge
	c        *control.Controller
	count    func(error)
	result   *ros2node.Service
	feedback *ros2node.Publisher
	status   *ros2node.Publisher

	mu    sync.Mutex
	goals []*actionGoal // accepted, oldest first: at most keptGoals finished ones, and the running ones
	fbMsg actionFeedback
	stMsg ros2msg.GoalStatusArray
}

// serveTrajectoryAction offers c's action.
func (b *Bridge) serveTrajectoryAction(c *control.Controller) error {
	name := c.Name + "/" + ActionName
	a := &trajAction{b: b, c: c, count: b.counter(c, "/"+name)}
	node := b.nodeOf(c.Name)
	a.fbMsg.fb.JointNames = c.Joints
	var err error
	if a.status, err = node.Publisher(name+"/_action/status", &a.stMsg, ros2node.Latched); err != nil {
		return err
	}
	if err := a.status.Publish(&a.stMsg); err != nil {
		return err
	}
	if a.feedback, err = node.Publisher(name+"/_action/feedback", &a.fbMsg, ros2node.Default); err != nil {
		return err
	}
	const typ = "control_msgs/action/FollowJointTrajectory"
	guarded := func(f func(*cdr.Decoder, *cdr.Encoder) error) func(*cdr.Decoder, *cdr.Encoder) error {
		return func(req *cdr.Decoder, resp *cdr.Encoder) error { defer b.guard(); return f(req, resp) }
	}
	if _, err := node.NewService(name+"/_action/send_goal", typ+"_SendGoal", guarded(a.sendGoal)); err != nil {
		return err
	}
	if _, err := node.NewService(name+"/_action/cancel_goal", "action_msgs/srv/CancelGoal", guarded(a.cancelGoal)); err != nil {
		return err
	}
	a.result, err = node.NewDeferredService(name+"/_action/get_result", typ+"_GetResult", func(req *cdr.Decoder, r ros2node.Request) error {
		defer b.guard()
		return a.getResult(req, r)
	})
	return err
}

// actionFeedback is FollowJointTrajectory_FeedbackMessage.
type actionFeedback struct {
	id ros2msg.UUID
	fb ros2msg.FollowJointTrajectoryFeedback
}

func (*actionFeedback) TypeName() string {
	return "control_msgs::action::dds_::FollowJointTrajectory_FeedbackMessage_"
}
func (m *actionFeedback) MarshalCDR(e *cdr.Encoder)   { m.id.MarshalCDR(e); m.fb.MarshalCDR(e) }
func (m *actionFeedback) UnmarshalCDR(d *cdr.Decoder) { m.id.UnmarshalCDR(d); m.fb.UnmarshalCDR(d) }

// sendGoal answers send_goal.
func (a *trajAction) sendGoal(req *cdr.Decoder, resp *cdr.Encoder) error {
	var id ros2msg.UUID
	var g ros2msg.FollowJointTrajectoryGoal
	id.UnmarshalCDR(req)
	g.UnmarshalCDR(req)
	if err := req.Err(); err != nil {
		a.c.Refuse()
		a.count(err)
		return err // no reply: the client cannot be told what it sent
	}
	now := a.b.o.Clock()
	stamp := ros2msg.TimeOf(a.b.o.Epoch.Add(now))
	var cid uint64
	err := fmt.Errorf("a multi-DOF trajectory (%d joints) or component tolerances: frcd moves no multi-DOF joint: %w",
		len(g.MultiDOFTrajectory.JointNames), control.ErrRefused)
	if len(g.MultiDOFTrajectory.JointNames) == 0 && g.MultiDOFTrajectory.Points == 0 && g.ComponentPath == 0 && g.ComponentGoal == 0 {
		cid, err = a.c.FollowTrajectory(toTrajectory(&g.Trajectory, g.PathTolerance, g.GoalTolerance, g.GoalTimeTolerance.Std().Seconds()), now)
	} else {
		a.c.Refuse()
	}
	a.count(err)
	resp.Bool(err == nil)
	stamp.MarshalCDR(resp)
	if err != nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.goals = append(a.goals, &actionGoal{info: ros2msg.GoalInfo{ID: id, Stamp: stamp}, id: cid, status: ros2msg.GoalExecuting})
	a.trim()
	a.publishStatus()
	go a.follow(id, cid)
	return nil
}

// trim forgets the oldest finished goals beyond keptGoals. a.mu held.
func (a *trajAction) trim() {
	finished := 0
	for _, g := range a.goals {
		if terminal(g.status) {
			finished++
		}
	}
	for i := 0; finished > keptGoals && i < len(a.goals); {
		if terminal(a.goals[i].status) {
			a.goals = append(a.goals[:i], a.goals[i+1:]...)
			finished--
			continue
		}
		i++
	}
}

func terminal(st int8) bool {
	return st == ros2msg.GoalSucceeded || st == ros2msg.GoalCanceled || st == ros2msg.GoalAborted
}

// publishStatus publishes every kept goal's status. a.mu held.
func (a *trajAction) publishStatus() {
	a.stMsg.List = a.stMsg.List[:0]
	for _, g := range a.goals {
		a.stMsg.List = append(a.stMsg.List, ros2msg.GoalStatus{Info: g.info, Status: g.status})
	}
	if err := a.status.Publish(&a.stMsg); err != nil {
		a.b.publishErr.Add(1)
	}
}

// find is the goal id names, or nil. a.mu held.
func (a *trajAction) find(id ros2msg.UUID) *actionGoal {
	for _, g := range a.goals {
		if g.info.ID == id {
			return g
		}
	}
	return nil
}

// cancelGoal answers cancel_goal as action_msgs/srv/CancelGoal says: a
// zero id and stamp cancel every goal, a zero id and a stamp those
// accepted at or before it, an id that goal (and, with a stamp, those
// before it too).
func (a *trajAction) cancelGoal(req *cdr.Decoder, resp *cdr.Encoder) error {
	var info ros2msg.GoalInfo
	info.UnmarshalCDR(req)
	if err := req.Err(); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var zero ros2msg.UUID
	all := info.ID == zero && info.Stamp == (ros2msg.Time{})
	code := ros2msg.CancelNone
	if info.ID != zero {
		if g := a.find(info.ID); g == nil {
			code = ros2msg.CancelUnknownGoal
		} else if terminal(g.status) {
			code = ros2msg.CancelGoalTerminated
		}
	}
	var canceling []ros2msg.GoalInfo
	before := func(t ros2msg.Time) bool {
		return info.Stamp != (ros2msg.Time{}) && (t.Sec < info.Stamp.Sec || t.Sec == info.Stamp.Sec && t.Nanosec <= info.Stamp.Nanosec)
	}
	for _, g := range a.goals {
		if terminal(g.status) || !(all || g.info.ID == info.ID && info.ID != zero || before(g.info.Stamp)) {
			continue
		}
		if g.status != ros2msg.GoalCanceling {
			a.c.CancelTrajectory(g.id)
			g.status = ros2msg.GoalCanceling
		}
		canceling = append(canceling, g.info)
	}
	if code == ros2msg.CancelNone && len(canceling) == 0 {
		code = ros2msg.CancelRejected
	}
	if len(canceling) > 0 {
		code = ros2msg.CancelNone
		a.publishStatus()
	}
	resp.Int8(code)
	resp.SeqLen(len(canceling))
	for i := range canceling {
		canceling[i].MarshalCDR(resp)
	}
	return nil
}

// getResult answers get_result when the goal has ended: at once for a
// finished one, STATUS_UNKNOWN for one not kept (as rcl_action answers).
func (a *trajAction) getResult(req *cdr.Decoder, r ros2node.Request) error {
	var id ros2msg.UUID
	id.UnmarshalCDR(req)
	if err := req.Err(); err != nil {
		return err
	}
	a.mu.Lock()
	g := a.find(id)
	switch {
	case g == nil:
		a.mu.Unlock()
		return a.reply(r, ros2msg.GoalUnknown, &ros2msg.FollowJointTrajectoryResult{})
	case !terminal(g.status):
		if len(g.waiting) >= waitingResults {
			a.mu.Unlock()
			return fmt.Errorf("%d get_result requests already wait for this goal", waitingResults)
		}
		g.waiting = append(g.waiting, r)
		a.mu.Unlock()
		return nil
	}
	st, res := g.status, g.result
	a.mu.Unlock()
	return a.reply(r, st, &res)
}

func (a *trajAction) reply(r ros2node.Request, st int8, res *ros2msg.FollowJointTrajectoryResult) error {
	return a.result.Reply(r, func(e *cdr.Encoder) { e.Int8(st); res.MarshalCDR(e) })
}

// actionPoll is how often a goal's progress is looked at: the loop runs
// it; this only reports.
const actionPoll = 20 * time.Millisecond

// follow publishes goal cid's feedback until it ends, then its status
// and result, or until the bridge closes. It runs on its own goroutine.
func (a *trajAction) follow(id ros2msg.UUID, cid uint64) {
	defer a.b.guard()
	tick := time.NewTicker(actionPoll)
	defer tick.Stop()
	var fb control.TrajectoryFeedback
	for {
		select {
		case <-tick.C:
		case <-a.b.done: // the bridge closed: nobody to tell
			return
		}
		done, st, code, text := a.c.TrajectoryResult(cid)
		if done {
			a.finish(id, st, code, text)
			return
		}
		if a.c.Feedback(&fb) && fb.Goal == cid {
			a.publishFeedback(id, &fb)
		}
	}
}

func (a *trajAction) publishFeedback(id ros2msg.UUID, fb *control.TrajectoryFeedback) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := &a.fbMsg
	m.id = id
	m.fb.Header.Stamp = ros2msg.TimeOf(a.b.o.Epoch.Add(a.b.o.Clock()))
	tfs := ros2msg.DurationOf(time.Duration(fb.Time * float64(time.Second)))
	m.fb.Desired = ros2msg.JointTrajectoryPoint{Positions: fb.Desired, Velocities: fb.DesiredVel, TimeFromStart: tfs}
	m.fb.Actual = ros2msg.JointTrajectoryPoint{Positions: fb.Actual, Velocities: fb.ActualVel, TimeFromStart: tfs}
	errs := m.fb.Error.Positions[:0]
	for i := range fb.Desired {
		errs = append(errs, fb.Desired[i]-fb.Actual[i])
	}
	m.fb.Error = ros2msg.JointTrajectoryPoint{Positions: errs, TimeFromStart: tfs}
	if err := a.feedback.Publish(m); err != nil {
		a.b.publishErr.Add(1)
	}
}

// finish records how goal id ended, answers its waiting get_result
// requests and publishes the status.
func (a *trajAction) finish(id ros2msg.UUID, st control.TrajectoryState, code int, text string) {
	a.mu.Lock()
	g := a.find(id)
	if g == nil {
		a.mu.Unlock()
		return
	}
	switch st {
	case control.TrajectorySucceeded:
		g.status = ros2msg.GoalSucceeded
	case control.TrajectoryPreempted:
		g.status = ros2msg.GoalCanceled
	default:
		g.status = ros2msg.GoalAborted
	}
	g.result = ros2msg.FollowJointTrajectoryResult{ErrorCode: int32(code), ErrorString: text}
	waiting, status, res := g.waiting, g.status, g.result
	g.waiting = nil
	a.trim()
	a.publishStatus()
	a.mu.Unlock()
	for _, r := range waiting { // without a.mu: Reply takes the service's
		if err := a.reply(r, status, &res); err != nil {
			a.b.publishErr.Add(1)
		}
	}
}
