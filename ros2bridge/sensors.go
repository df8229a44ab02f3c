package ros2bridge

import (
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
)

// The pneumatics' and the URDF links' sensors, as the ROS 1 bridge
// publishes them (package ros, session.go), reliable, volatile, keep last
// 10:
//
//	NAME/running, NAME/closed_loop, NAME/pressure_switch   std_msgs/msg/Bool per compressor
//	NAME/current        std_msgs/msg/Float64 per compressor (A)
//	NAME                std_msgs/msg/Bool per digital_input in a URDF link (a beam break),
//	                    std_msgs/msg/Float64 per analog_input in a link (a range finder, in
//	                    its units); nothing after a failed read rather than a stale value

// sensorTopics are those publishers, in snapshot order, and the reused
// messages.
type sensorTopics struct {
	compressors [][4]*ros2node.Publisher // running, closed_loop, pressure_switch, current
	digital     []*ros2node.Publisher
	analog      []*ros2node.Publisher
	b           ros2msg.Bool
	f           ros2msg.Float64
}

// setupSensors creates the compressors' and link sensors' publishers.
func (b *Bridge) setupSensors() error {
	s := &sensorTopics{}
	b.sensors = s
	n := b.node
	for _, c := range b.snap.Compressors {
		var ps [4]*ros2node.Publisher
		var err error
		for i, t := range []string{"running", "closed_loop", "pressure_switch"} {
			if ps[i], err = n.Publisher(c.Name+"/"+t, &s.b, ros2node.Default); err != nil {
				return err
			}
		}
		if ps[3], err = n.Publisher(c.Name+"/current", &s.f, ros2node.Default); err != nil {
			return err
		}
		s.compressors = append(s.compressors, ps)
	}
	for _, d := range b.snap.LinkDigital {
		p, err := n.Publisher(d.Name, &s.b, ros2node.Default)
		if err != nil {
			return err
		}
		s.digital = append(s.digital, p)
	}
	for _, a := range b.snap.LinkAnalog {
		p, err := n.Publisher(a.Name, &s.f, ros2node.Default)
		if err != nil {
			return err
		}
		s.analog = append(s.analog, p)
	}
	return nil
}

// publishSensors publishes them from the snapshot just read; it
// allocates nothing.
func (b *Bridge) publishSensors(count func(error)) {
	s, snap := b.sensors, b.snap
	if s == nil {
		return
	}
	for i, c := range snap.Compressors {
		st := &c.State
		pub := func(j int, v bool) { s.b.Data = v; count(s.compressors[i][j].Publish(&s.b)) }
		pub(0, st.Running)
		pub(1, st.ClosedLoop)
		pub(2, st.Full)
		s.f.Data = st.Current
		count(s.compressors[i][3].Publish(&s.f))
	}
	for i, d := range snap.LinkDigital {
		if d.OK {
			s.b.Data = d.State.Value
			count(s.digital[i].Publish(&s.b))
		}
	}
	for i, a := range snap.LinkAnalog {
		if a.OK {
			s.f.Data = a.State.Value
			count(s.analog[i].Publish(&s.f))
		}
	}
}
