package ros

import (
	"errors"
	"fmt"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"

	"github.com/frcd/frcd/interfaces"
)

// PushTopic is the sim's "push": a sensor_msgs/JointState whose named
// joints are placed at its positions (and velocities, when given) at once,
// as the path-planner text's simple movement interface. A topic rather
// than a service: no srv type that the stock rosservice knows takes joints
// and positions.
const PushTopic = "sim/push"

// errPush says why a push message was refused whole.
var errPush = errors.New("refused: nothing moved")

// push is /sim/push's callback: it checks the whole message, then places
// each joint through Options.Push. A message that names no joint, an
// unknown joint or one twice, has another number of positions (or of
// velocities, when it has any) than of names, or a value that is not
// finite, is refused whole, counted and logged: nothing moves.
func (b *Bridge) push(m *sensor_msgs.JointState) {
	if err := b.checkPush(m); err != nil {
		b.pushRefused.Add(1)
		b.o.Logf("ros: %s: %v", b.names.Resolve(PushTopic), err)
		return
	}
	for i, name := range m.Name {
		vel := 0.0
		if len(m.Velocity) > 0 {
			vel = m.Velocity[i]
		}
		if err := b.o.Push(name, m.Position[i], vel); err != nil {
			b.pushRefused.Add(1)
			b.o.Logf("ros: %s: %v", b.names.Resolve(PushTopic), err)
			continue
		}
		b.pushes.Add(1)
	}
}

func (b *Bridge) checkPush(m *sensor_msgs.JointState) error {
	switch {
	case len(m.Name) == 0:
		return fmt.Errorf("names no joint: %w", errPush)
	case len(m.Position) != len(m.Name):
		return fmt.Errorf("%d names but %d positions: %w", len(m.Name), len(m.Position), errPush)
	case len(m.Velocity) != 0 && len(m.Velocity) != len(m.Name):
		return fmt.Errorf("%d names but %d velocities (give none, or one per joint): %w", len(m.Name), len(m.Velocity), errPush)
	}
	seen := make(map[string]bool, len(m.Name))
	for i, name := range m.Name {
		if !b.joints[name] {
			return fmt.Errorf("no movable joint named %q: %w", name, errPush)
		}
		if seen[name] {
			return fmt.Errorf("joint %q named twice: %w", name, errPush)
		}
		seen[name] = true
		if !interfaces.Finite(m.Position[i]) {
			return fmt.Errorf("joint %q: position %v: %w", name, m.Position[i], errPush)
		}
		if len(m.Velocity) > 0 && !interfaces.Finite(m.Velocity[i]) {
			return fmt.Errorf("joint %q: velocity %v: %w", name, m.Velocity[i], errPush)
		}
	}
	return nil
}
