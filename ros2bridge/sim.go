package ros2bridge

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// The simulator's topics, as the ROS 1 bridge's (package ros, push.go and
// Options.Truth), on the sim only:
//
//	sim/joint_states_truth  sensor_msgs/msg/JointState: every movable joint's true state
//	sim/ground_truth        nav_msgs/msg/Odometry: the drive base's true pose in "odom" and
//	                        its twist in the base's frame (with a drive base)
//	sim/push                sensor_msgs/msg/JointState in: place the named joints at its
//	                        positions (and velocities, when given) at once
//
//	/clock                  rosgraph_msgs/msg/Clock: the sim's time, the stamps' clock
//
// The three published are reliable, volatile, keep last 10 (/clock keep
// last 1: a reliable writer matches rclcpp's best-effort clock reader
// too); sim/push's reader is best effort, as the command topics', so that
// reliable and best-effort publishers both match. /clock is absolute, as
// a simulator's is: every node on sim time reads /clock whatever its
// namespace.
const (
	JointStatesTruthTopic = "sim/joint_states_truth"
	GroundTruthTopic      = "sim/ground_truth"
	PushTopic             = "sim/push"
	ClockTopic            = "/clock"
)

// clockQoS is /clock's.
var clockQoS = rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 1}

// SimOptions are the simulator's hooks; both nil on real hardware, where
// the sim topics do not exist.
type SimOptions struct {
	// Truth fills t with the simulator's ground truth, reusing its
	// slices; false when there is none.
	Truth func(t *Truth) bool
	// Push places a joint at a position (rad or m) and velocity.
	Push func(joint string, pos, vel float64) error
}

// Truth is the simulator's ground truth (package jointstate's, shared
// with the ROS 1 bridge).
type Truth = jointstate.Truth

// simTopics are the sim's publishers, their reused messages and the push
// counters.
type simTopics struct {
	joints, ground *ros2node.Publisher
	truth          Truth
	js             ros2msg.JointState
	odom           ros2msg.Odometry
	clock          *ros2node.Publisher // nil on hardware
	clk            ros2msg.Clock
	useSimTime     atomic.Bool // the use_sim_time parameter, on the sim

	movable map[string]bool // for sim/push
	mu      sync.Mutex      // push's message, seen and limit
	push    ros2msg.JointState
	seen    map[string]bool
	limit   ratelimit.Refusals // refusal lines, as refused commands'

	pushes, refused atomic.Uint64
}

// setupSim creates the sim's topics when Options.Sim asks for them.
func (b *Bridge) setupSim() error {
	o := b.o.Sim
	s := &simTopics{limit: ratelimit.Refusals{Rate: refusedRate, Burst: refusedBurst}}
	b.sim = s
	var err error
	if o.Truth != nil || o.Push != nil {
		if s.clock, err = b.node.Publisher(ClockTopic, &s.clk, clockQoS); err != nil {
			return err
		}
	}
	if o.Truth != nil && o.Truth(&s.truth) {
		if s.joints, err = b.node.Publisher(JointStatesTruthTopic, &s.js, ros2node.Default); err != nil {
			return err
		}
		if s.truth.HasPose {
			if s.ground, err = b.node.Publisher(GroundTruthTopic, &s.odom, ros2node.Default); err != nil {
				return err
			}
		}
	}
	if o.Push == nil {
		return nil
	}
	s.movable, s.seen = map[string]bool{}, map[string]bool{}
	for _, j := range b.snap.Joints {
		s.movable[j.Name] = true
	}
	_, err = b.node.Subscribe(PushTopic, &s.push, pushQoS, b.onPush)
	return err
}

// pushQoS is the command topics' (best effort).
var pushQoS = rtps.QoS{Reliability: rtps.BestEffort, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 10}

// publishSim publishes the sim's time on /clock and its truth from the
// bridge's goroutine, stamped with the snapshot's time; it allocates
// nothing once the messages are sized.
func (b *Bridge) publishSim(stamp ros2msg.Time, count func(error)) {
	s := b.sim
	if s != nil && s.clock != nil {
		s.clk.Clock = stamp
		count(s.clock.Publish(&s.clk))
	}
	if s == nil || s.joints == nil || !b.o.Sim.Truth(&s.truth) {
		return
	}
	t := &s.truth
	js := &s.js
	js.Header = ros2msg.Header{Stamp: stamp}
	js.Name = append(js.Name[:0], t.Names...)
	js.Position = append(js.Position[:0], t.Position...)
	js.Velocity = append(js.Velocity[:0], t.Velocity...)
	js.Effort = append(js.Effort[:0], t.Effort...)
	count(s.joints.Publish(js))
	if s.ground == nil || !t.HasPose {
		return
	}
	sy, cy := math.Sincos(t.Yaw / 2)
	s.odom = ros2msg.Odometry{Header: ros2msg.Header{Stamp: stamp, FrameID: "odom"}, ChildFrameID: t.BaseFrame,
		Position: ros2msg.Vector3{X: t.X, Y: t.Y}, Orientation: ros2msg.Quaternion{Z: sy, W: cy},
		Twist: ros2msg.Twist{Linear: ros2msg.Vector3{X: t.VX, Y: t.VY}, Angular: ros2msg.Vector3{Z: t.WZ}}}
	count(s.ground.Publish(&s.odom))
}

// onPush is sim/push's handler: it checks the whole message, then places
// each joint through SimOptions.Push. A message that does not decode,
// names no joint, an unknown joint or one twice, has another number of
// positions (or of velocities, when it has any) than of names, or a value
// that is not finite, is refused whole, counted (PushStats) and logged:
// nothing moves.
func (b *Bridge) onPush(smp rtps.Sample) {
	defer b.guard()
	s := b.sim
	s.mu.Lock()
	defer s.mu.Unlock()
	m := &s.push
	err := ros2msg.Unmarshal(smp.Payload, m)
	if err == nil {
		err = jointstate.CheckPush(m.Name, m.Position, m.Velocity, s.movable, s.seen)
	} else {
		err = fmt.Errorf("%v: %w", err, jointstate.ErrPush)
	}
	if err != nil {
		b.refusePush(err)
		return
	}
	for i, name := range m.Name {
		vel := 0.0
		if len(m.Velocity) > 0 {
			vel = m.Velocity[i]
		}
		if err := b.o.Sim.Push(name, m.Position[i], vel); err != nil {
			b.refusePush(err)
			continue
		}
		s.pushes.Add(1)
	}
}

// refusePush counts a refused push and logs it, refusedBurst lines at
// once then refusedRate a second with the count held back, so that a
// flood of bad pushes costs counts, not log lines. s.mu is held.
func (b *Bridge) refusePush(err error) {
	s := b.sim
	s.refused.Add(1)
	if ok, more := s.limit.Allow(b.o.Clock()); ok {
		b.o.Logf("ros2: /%s: %v%s", PushTopic, err, more)
	}
}

// PushStats are the joints placed through sim/push and the messages
// (or joints the sim refused) refused.
func (b *Bridge) PushStats() (pushes, refused uint64) {
	if b.sim == nil {
		return 0, 0
	}
	return b.sim.pushes.Load(), b.sim.refused.Load()
}
