package ros

import (
	"time"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msg"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/frcd/frcd/control"
)

// JointTrajectoryControllerState is control_msgs/JointTrajectoryControllerState
// (ctlmsgs/msg/, from control_msgs/msg/JointTrajectoryControllerState.msg
// at ros-controls/control_msgs kinetic-devel 36e2e30551e3): what
// joint_trajectory_controller publishes on NAME/state
// (joint_trajectory_controller_impl.h, ros_controllers noetic-devel
// 678b92adfd92: desired and actual positions and velocities, error =
// desired - actual, each with the time from the trajectory's start).
type JointTrajectoryControllerState struct {
	msg.Package `ros:"control_msgs"`
	Header      std_msgs.Header
	JointNames  []string
	Desired     JointTrajectoryPoint
	Actual      JointTrajectoryPoint
	Error       JointTrajectoryPoint
}

// trajStatePub is one joint trajectory controller's state publisher.
type trajStatePub struct {
	c    *control.Controller
	pub  *goroslib.Publisher
	fb   control.TrajectoryFeedback
	last time.Duration // the feedback's stamp last published
	seq  uint32
	msg  JointTrajectoryControllerState
}

// setupTrajectoryStates publishes NAME/state for every joint trajectory
// controller.
func (s *session) setupTrajectoryStates() error {
	for _, c := range s.b.o.Loop.Controllers() {
		if c.Takes() != control.JointTrajectory {
			continue
		}
		pub, err := s.publisher(c.Name+"/state", &JointTrajectoryControllerState{})
		if err != nil {
			return err
		}
		n := len(c.Joints)
		p := &trajStatePub{c: c, pub: pub}
		p.msg.JointNames = c.Joints
		p.msg.Error = JointTrajectoryPoint{Positions: make([]float64, n), Velocities: make([]float64, n)}
		s.trajStates = append(s.trajStates, p)
	}
	return nil
}

// publishTrajectoryStates publishes each controller's state when its
// loop cycle wrote one since the last: while a trajectory runs or holds
// (nothing while disabled). The message's slices are reused: Write
// encodes it before it returns.
func (s *session) publishTrajectoryStates() {
	for _, p := range s.trajStates {
		p.c.Feedback(&p.fb)
		if p.fb.Stamp == 0 || p.fb.Stamp == p.last {
			continue
		}
		p.last = p.fb.Stamp
		p.seq++
		tfs := time.Duration(p.fb.Time * float64(time.Second))
		m := &p.msg
		m.Header = std_msgs.Header{Seq: p.seq, Stamp: s.b.stamp(p.fb.Stamp)}
		m.Desired = JointTrajectoryPoint{Positions: p.fb.Desired, Velocities: p.fb.DesiredVel, TimeFromStart: tfs}
		m.Actual = JointTrajectoryPoint{Positions: p.fb.Actual, Velocities: p.fb.ActualVel, TimeFromStart: tfs}
		for j := range p.fb.Desired {
			m.Error.Positions[j] = p.fb.Desired[j] - p.fb.Actual[j]
			m.Error.Velocities[j] = p.fb.DesiredVel[j] - p.fb.ActualVel[j]
		}
		m.Error.TimeFromStart = tfs
		p.pub.Write(m)
	}
}
