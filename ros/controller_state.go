package ros

import (
	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msg"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
)

// JointControllerState is control_msgs/JointControllerState, as
// ros-controls/control_msgs defines it (ctlmsgs/msg/, from
// control_msgs/msg/JointControllerState.msg at commit 0e5fd159d91b): what
// ros_controllers' effort_controllers publish on NAME/state. frcd's PID
// controllers (position, velocity, effort, profiled) publish it at the
// state topics' rate.
type JointControllerState struct {
	msg.Package     `ros:"control_msgs"`
	Header          std_msgs.Header
	SetPoint        float64
	ProcessValue    float64
	ProcessValueDot float64
	Error           float64
	TimeStep        float64
	Command         float64
	P               float64
	I               float64
	D               float64
	IClamp          float64
	Antiwindup      bool
}

// ctlStatePubs are the PID controllers' state publishers, in snapshot
// order.
type ctlStatePubs struct {
	pubs []*goroslib.Publisher
	seq  []uint32
	msg  JointControllerState
}

func (s *session) setupControllerStates() error {
	c := &ctlStatePubs{}
	for _, p := range s.b.o.Loop.NewSnapshot().PIDs {
		pub, err := s.publisher(p.Name+"/state", &JointControllerState{})
		if err != nil {
			return err
		}
		c.pubs = append(c.pubs, pub)
		c.seq = append(c.seq, 0)
	}
	s.ctlStates = c
	return nil
}

// publishControllerStates publishes the PID controllers' states from the
// snapshot just read (the integral is clamped to ±i_clamp: antiwindup).
func (s *session) publishControllerStates() {
	c := s.ctlStates
	if c == nil {
		return
	}
	for i := range s.snap.PIDs {
		p := &s.snap.PIDs[i]
		c.seq[i]++
		c.msg = JointControllerState{Header: std_msgs.Header{Seq: c.seq[i], Stamp: s.b.stamp(s.snap.Now)},
			SetPoint: p.SetPoint, ProcessValue: p.Process, ProcessValueDot: p.ProcessDot, Error: p.Error, TimeStep: p.TimeStep,
			Command: p.Command, P: p.P, I: p.I, D: p.D, IClamp: p.IClamp, Antiwindup: true}
		c.pubs[i].Write(&c.msg)
	}
}
