package ros

import (
	"errors"
	"sync"
	"time"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msg"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/frcd/frcd/control"
)

// A joint trajectory controller on ROS, as joint_trajectory_controller:
// the control_msgs/FollowJointTrajectory action on
// NAME/follow_joint_trajectory (goroslib's action server: a new goal
// preempts the running one, a cancel preempts it) and
// trajectory_msgs/JointTrajectory on NAME/command. The message layouts
// are Noetic's (ctlmsgs/: control_msgs 1.5's FollowJointTrajectory.action
// and JointTolerance.msg; trajectory_msgs as Debian's python3-trajectory-msgs
// has them).

// JointTrajectoryPoint is trajectory_msgs/JointTrajectoryPoint.
type JointTrajectoryPoint struct {
	msg.Package   `ros:"trajectory_msgs"`
	Positions     []float64
	Velocities    []float64
	Accelerations []float64
	Effort        []float64
	TimeFromStart time.Duration
}

// JointTrajectory is trajectory_msgs/JointTrajectory.
type JointTrajectory struct {
	msg.Package `ros:"trajectory_msgs"`
	Header      std_msgs.Header
	JointNames  []string
	Points      []JointTrajectoryPoint
}

// JointTolerance is control_msgs/JointTolerance.
type JointTolerance struct {
	msg.Package  `ros:"control_msgs"`
	Name         string
	Position     float64
	Velocity     float64
	Acceleration float64
}

// FollowJointTrajectoryGoal is control_msgs/FollowJointTrajectoryGoal.
type FollowJointTrajectoryGoal struct {
	msg.Package       `ros:"control_msgs"`
	Trajectory        JointTrajectory
	PathTolerance     []JointTolerance
	GoalTolerance     []JointTolerance
	GoalTimeTolerance time.Duration
}

// FollowJointTrajectoryResult is control_msgs/FollowJointTrajectoryResult.
type FollowJointTrajectoryResult struct {
	msg.Package     `ros:"control_msgs"`
	msg.Definitions `ros:"int32 SUCCESSFUL=0,int32 INVALID_GOAL=-1,int32 INVALID_JOINTS=-2,int32 OLD_HEADER_TIMESTAMP=-3,int32 PATH_TOLERANCE_VIOLATED=-4,int32 GOAL_TOLERANCE_VIOLATED=-5"`
	ErrorCode       int32
	ErrorString     string
}

// FollowJointTrajectoryFeedback is control_msgs/FollowJointTrajectoryFeedback.
type FollowJointTrajectoryFeedback struct {
	msg.Package `ros:"control_msgs"`
	Header      std_msgs.Header
	JointNames  []string
	Desired     JointTrajectoryPoint
	Actual      JointTrajectoryPoint
	Error       JointTrajectoryPoint
}

// FollowJointTrajectoryAction is control_msgs/FollowJointTrajectory.
type FollowJointTrajectoryAction struct {
	msg.Package `ros:"control_msgs"`
	FollowJointTrajectoryGoal
	FollowJointTrajectoryResult
	FollowJointTrajectoryFeedback
}

// trajectoryPoll is how often a goal's progress is looked at (feedback,
// result, a cancel): the loop runs it; this only reports.
const trajectoryPoll = 20 * time.Millisecond

// toTrajectory converts a trajectory message.
func toTrajectory(m *JointTrajectory, path, goal []JointTolerance, goalTime time.Duration) *control.Trajectory {
	tr := &control.Trajectory{Joints: m.JointNames, GoalTime: goalTime.Seconds()}
	for _, p := range m.Points {
		tr.Points = append(tr.Points, control.TrajectoryPoint{Time: p.TimeFromStart.Seconds(), Positions: p.Positions,
			Velocities: p.Velocities, Accelerations: p.Accelerations})
	}
	tols := func(ts []JointTolerance) []float64 {
		return control.Tolerances(m.JointNames, len(ts), func(i int) (string, float64) { return ts[i].Name, ts[i].Position })
	}
	tr.PathTolerance, tr.GoalTolerance = tols(path), tols(goal)
	return tr
}

// serveTrajectories offers every joint trajectory controller's action and
// command topic.
func (s *session) serveTrajectories() error {
	b := s.b
	for _, c := range b.o.Loop.Controllers() {
		if c.Takes() != control.JointTrajectory {
			continue
		}
		c := c
		if err := s.subscribe(c.Name+"/command", func(m *JointTrajectory) {
			if _, err := c.FollowTrajectory(toTrajectory(m, nil, nil, 0), b.o.Clock()); err == nil {
				b.commands.Add(1)
			} else {
				b.o.Logf("ros: %s/command: %v", c.Name, err)
			}
		}, trajectoryLimit(len(c.Joints))); err != nil {
			return err
		}
		t := &trajServer{b: b, c: c, ids: map[*goroslib.ActionServerGoalHandler]uint64{}}
		as, err := goroslib.NewActionServer(goroslib.ActionServerConf{Node: s.node, Name: b.names.Resolve(c.Name + "/follow_joint_trajectory"),
			Action: &FollowJointTrajectoryAction{}, OnGoal: guard(t.goal, b.o.OnPanic),
			OnCancel: guard(t.cancel, b.o.OnPanic).(func(*goroslib.ActionServerGoalHandler))})
		if err != nil {
			return err
		}
		s.closers = append(s.closers, as.Close)
	}
	return nil
}

// trajServer is one controller's action server: each goal goes to the
// loop, which preempts the running one; a goroutine per goal reports its
// feedback and its end.
type trajServer struct {
	b   *Bridge
	c   *control.Controller
	mu  sync.Mutex
	ids map[*goroslib.ActionServerGoalHandler]uint64
}

func (t *trajServer) goal(gh *goroslib.ActionServerGoalHandler, g *FollowJointTrajectoryGoal) {
	c := t.c
	id, err := c.FollowTrajectory(toTrajectory(&g.Trajectory, g.PathTolerance, g.GoalTolerance, g.GoalTimeTolerance), t.b.o.Clock())
	if err != nil {
		// joint_trajectory_controller's goalCB: INVALID_JOINTS when the
		// goal's joints are not the controller's, else INVALID_GOAL
		code := int32(control.TrajectoryInvalidGoal)
		if errors.Is(err, control.ErrInvalidJoints) {
			code = control.TrajectoryInvalidJoints
		}
		gh.SetRejected(&FollowJointTrajectoryResult{ErrorCode: code, ErrorString: err.Error()})
		return
	}
	gh.SetAccepted()
	t.b.commands.Add(1)
	t.mu.Lock()
	t.ids[gh] = id
	t.mu.Unlock()
	go guard(t.follow, t.b.o.OnPanic).(func(*goroslib.ActionServerGoalHandler, uint64))(gh, id)
}

func (t *trajServer) cancel(gh *goroslib.ActionServerGoalHandler) {
	t.mu.Lock()
	id, ok := t.ids[gh]
	t.mu.Unlock()
	if ok {
		t.c.CancelTrajectory(id)
	}
}

// follow reports goal id's feedback until it ends, then its result:
// succeeded, preempted (a cancel or a newer goal) or aborted.
func (t *trajServer) follow(gh *goroslib.ActionServerGoalHandler, id uint64) {
	c := t.c
	defer func() {
		t.mu.Lock()
		delete(t.ids, gh)
		t.mu.Unlock()
	}()
	tick := time.NewTicker(trajectoryPoll)
	defer tick.Stop()
	var fb control.TrajectoryFeedback
	msgFB := &FollowJointTrajectoryFeedback{JointNames: c.Joints}
	for range tick.C {
		done, st, code, text := c.TrajectoryResult(id)
		if done {
			res := &FollowJointTrajectoryResult{ErrorCode: int32(code), ErrorString: text}
			switch st {
			case control.TrajectorySucceeded:
				gh.SetSucceeded(res)
			case control.TrajectoryPreempted:
				gh.SetCanceled(res)
			default:
				gh.SetAborted(res)
			}
			return
		}
		if c.Feedback(&fb) && fb.Goal == id {
			tfs := time.Duration(fb.Time * float64(time.Second))
			errs := make([]float64, len(fb.Desired))
			for i := range errs {
				errs[i] = fb.Desired[i] - fb.Actual[i]
			}
			msgFB.Header = std_msgs.Header{Stamp: t.b.stamp(t.b.o.Clock())}
			msgFB.Desired = JointTrajectoryPoint{Positions: fb.Desired, Velocities: fb.DesiredVel, TimeFromStart: tfs}
			msgFB.Actual = JointTrajectoryPoint{Positions: fb.Actual, Velocities: fb.ActualVel, TimeFromStart: tfs}
			msgFB.Error = JointTrajectoryPoint{Positions: errs, TimeFromStart: tfs}
			gh.PublishFeedback(msgFB)
		}
	}
}

// trajectoryLimit is the largest trajectory_msgs/JointTrajectory the
// command topic takes for a controller of joints joints: the header and
// the joints' names (each up to 256 bytes), then at most
// control.MaxTrajectoryPoints points of four float64 arrays (positions,
// velocities, accelerations, effort) and a duration. A longer one is
// refused before it is read (the goroslib fork's MaxMessageBytes).
func trajectoryLimit(joints int) int64 {
	const name = 4 + 256
	point := 4*(4+8*int64(joints)) + 8
	return 4 + 8 + name + 4 + int64(joints)*name + 4 + control.MaxTrajectoryPoints*point
}
