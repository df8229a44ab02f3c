package ros

import (
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"

	"github.com/frcd/frcd/jointstate"
)

// PushTopic is the sim's "push": a sensor_msgs/JointState whose named
// joints are placed at its positions (and velocities, when given) at once,
// as the path-planner text's simple movement interface. A topic rather
// than a service: no srv type that the stock rosservice knows takes joints
// and positions.
const PushTopic = "sim/push"

// push is /sim/push's callback: it checks the whole message, then places
// each joint through Options.Push. A message that names no joint, an
// unknown joint or one twice, has another number of positions (or of
// velocities, when it has any) than of names, or a value that is not
// finite, is refused whole, counted and logged: nothing moves.
func (b *Bridge) push(m *sensor_msgs.JointState) {
	if err := b.checkPush(m); err != nil {
		b.refusePush(err)
		return
	}
	for i, name := range m.Name {
		vel := 0.0
		if len(m.Velocity) > 0 {
			vel = m.Velocity[i]
		}
		if err := b.o.Push(name, m.Position[i], vel); err != nil {
			b.refusePush(err)
			continue
		}
		b.pushes.Add(1)
	}
}

func (b *Bridge) checkPush(m *sensor_msgs.JointState) error {
	return jointstate.CheckPush(m.Name, m.Position, m.Velocity, b.joints, nil)
}

// refusePush counts a refused push and logs it as a controller's refused
// commands are (b.pushLog: refusedBurst at once, then refusedRate a
// second), so that a publisher flooding bad pushes costs a count, not a
// log line each.
func (b *Bridge) refusePush(err error) {
	b.pushRefused.Add(1)
	if ok, more := b.pushLog.Allow(b.o.Clock()); ok {
		b.o.Logf("ros: %s: %v%s", b.names.Resolve(PushTopic), err, more)
	}
}
