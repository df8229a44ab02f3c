package ros2bridge

import (
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/ros2msg"
)

// Commands that are not one value or one per joint, in ros2_controllers'
// forms (docs/ros2.md "Commands"):
//
//   - a drive base (diff, swerve, mecanum) takes its twist on
//     /NAME/cmd_vel as geometry_msgs/msg/TwistStamped, what Jazzy's
//     diff_drive_controller takes (ros-controls/ros2_controllers jazzy
//     ed360c97 diff_drive_controller.cpp: "~/cmd_vel", TwistStamped only),
//     and as geometry_msgs/msg/Twist on the same topic (a second reader:
//     teleop_twist_keyboard and Nav2 before Jazzy publish Twist) and on
//     /NAME/cmd_vel_unstamped (Humble's diff_drive_controller with
//     use_stamped_vel false, humble ad559d9c). linear.x, linear.y and
//     angular.z are the command; the message's stamp is not used: the
//     command's age is counted from its arrival, against the controller's
//     timeout, as on ROS 1;
//   - a joint trajectory controller takes trajectory_msgs/msg/JointTrajectory
//     on /NAME/joint_trajectory (joint_trajectory_controller's
//     "~/joint_trajectory", jazzy ed360c97), and the FollowJointTrajectory
//     action (action.go).
//
// Each is refused, counted and logged as the other commands are.

// TrajectoryTopic is a joint trajectory controller's topic under its name.
const TrajectoryTopic = "joint_trajectory"

// counter counts c's commands and logs its refusals (topic names them),
// a few at once, then one a second.
func (b *Bridge) counter(c *control.Controller, topic string) func(error) {
	limit := &ratelimit.Refusals{Rate: refusedRate, Burst: refusedBurst}
	return func(err error) {
		if err == nil {
			b.commands.Add(1)
			return
		}
		b.refused.Add(1)
		if ok, more := limit.Allow(b.o.Clock()); ok {
			b.o.Logf("ros2: %s refused: %v%s", topic, err, more)
		}
	}
}

// subscribeMotion subscribes c's twist or trajectory topics; false when c
// takes neither.
func (b *Bridge) subscribeMotion(c *control.Controller) (bool, error) {
	type sub struct {
		topic string
		msg   ros2msg.Message
		apply func(ros2msg.Message) error
	}
	var subs []sub
	switch c.Takes() {
	case control.Twist:
		twist := func(t *ros2msg.Twist) error {
			v := [3]float64{t.Linear.X, t.Linear.Y, t.Angular.Z}
			return c.CommandGroup(v[:], b.o.Clock())
		}
		stamped := func(m ros2msg.Message) error { return twist(&m.(*ros2msg.TwistStamped).Twist) }
		plain := func(m ros2msg.Message) error { return twist(m.(*ros2msg.Twist)) }
		subs = []sub{
			{c.Topic(), &ros2msg.TwistStamped{}, stamped},
			{c.Topic(), &ros2msg.Twist{}, plain},
			{c.Topic() + "_unstamped", &ros2msg.Twist{}, plain},
		}
	case control.JointTrajectory:
		subs = []sub{{TrajectoryTopic, &ros2msg.JointTrajectory{}, func(m ros2msg.Message) error {
			_, err := c.FollowTrajectory(toTrajectory(m.(*ros2msg.JointTrajectory), nil, nil, 0), b.o.Clock())
			return err
		}}}
		if err := b.serveTrajectoryAction(c); err != nil {
			return true, err
		}
	default:
		return false, nil
	}
	for _, s := range subs {
		handler := b.decodeHandler(c, s.topic, s.msg, func() error { return s.apply(s.msg) })
		if _, err := b.nodeOf(c.Name).Subscribe(c.Name+"/"+s.topic, s.msg, commandQoS, handler); err != nil {
			return true, err
		}
	}
	return true, nil
}

// toTrajectory is m as the loop takes it, with the action's tolerances
// (per joint name; 0 or absent: the controller's) and goal time (s).
func toTrajectory(m *ros2msg.JointTrajectory, path, goal []ros2msg.JointTolerance, goalTime float64) *control.Trajectory {
	tr := &control.Trajectory{Joints: m.JointNames, GoalTime: goalTime, Points: make([]control.TrajectoryPoint, len(m.Points))}
	for i, p := range m.Points {
		tr.Points[i] = control.TrajectoryPoint{Time: p.TimeFromStart.Std().Seconds(), Positions: p.Positions,
			Velocities: p.Velocities, Accelerations: p.Accelerations}
	}
	tols := func(ts []ros2msg.JointTolerance) []float64 {
		return control.Tolerances(m.JointNames, len(ts), func(i int) (string, float64) { return ts[i].Name, ts[i].Position })
	}
	tr.PathTolerance, tr.GoalTolerance = tols(path), tols(goal)
	return tr
}
