package ros

import (
	"math"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msg"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/geometry_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/nav_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/ratelimit"
)

// A drive base's odometry on ROS, as diff_drive_controller publishes it:
// nav_msgs/Odometry on NAME/odom (frame odom_frame_id, child
// base_frame_id) and, with enable_odom_tf, the odom → base transform on
// /tf, at its own publish_rate while its controller runs, whatever the
// state topics' rate or the joint state controller's running state
// (broadcast.go), on the rate's grid as diff_drive_controller keeps it
// (ratelimit.Cadence); a geometry_msgs/Pose2D on NAME/reset_pose places
// the odometry.

// TFMessage is tf2_msgs/TFMessage.
type TFMessage struct {
	msg.Package `ros:"tf2_msgs"`
	Transforms  []geometry_msgs.TransformStamped
}

// TFTopic is where transforms go, as tf2 has it: global.
const TFTopic = "/tf"

// odomPubs are the drive bases' publishers, in snapshot order.
type odomPubs struct {
	odom []*goroslib.Publisher
	tf   *goroslib.Publisher
	own  []owner // each base's controller and publish_rate (broadcast.go)
	seq  uint32
	msg  nav_msgs.Odometry
	tfm  TFMessage
}

// setupOdometry offers every drive base's topics.
func (s *session) setupOdometry() error {
	b := s.b
	odo := b.o.Loop.NewSnapshot().Odometry
	o := &odomPubs{own: make([]owner, len(odo)), tfm: TFMessage{Transforms: make([]geometry_msgs.TransformStamped, 1)}}
	for i, od := range odo {
		p, err := s.publisher(od.Name+"/odom", &nav_msgs.Odometry{})
		if err != nil {
			return err
		}
		o.odom = append(o.odom, p)
		o.own[i] = owner{ctl: od.Name, pace: ratelimit.Own(od.Rate, b.every, b.o.Loop.Period())}
		if od.TF && o.tf == nil {
			if o.tf, err = s.publisher(TFTopic, &TFMessage{}); err != nil {
				return err
			}
		}
		c := b.o.Loop.Controller(od.Name)
		if err := s.subscribe(od.Name+"/reset_pose", func(m *geometry_msgs.Pose2D) {
			if c.ResetPose(m.X, m.Y, m.Theta) == nil {
				b.commands.Add(1)
			}
		}, 0); err != nil {
			return err
		}
	}
	s.odom = o
	return nil
}

// publishOdometry publishes drive base i's odometry from the snapshot
// just read; publishBroadcasters calls it when it is due (its
// publish_rate) and its controller runs.
func (s *session) publishOdometry(i int) {
	o, od := s.odom, &s.snap.Odometry[i]
	p := od.Pose
	sy, cy := math.Sincos(p.Yaw / 2)
	q := geometry_msgs.Quaternion{Z: sy, W: cy}
	o.seq++
	hdr := std_msgs.Header{Seq: o.seq, Stamp: s.b.stamp(s.snap.Now), FrameId: od.OdomFrame}
	o.msg = nav_msgs.Odometry{Header: hdr, ChildFrameId: od.BaseFrame,
		Pose: geometry_msgs.PoseWithCovariance{Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{X: p.X, Y: p.Y}, Orientation: q},
			Covariance: odomCovariance},
		Twist: geometry_msgs.TwistWithCovariance{Twist: geometry_msgs.Twist{
			Linear: geometry_msgs.Vector3{X: p.VX, Y: p.VY}, Angular: geometry_msgs.Vector3{Z: p.WZ}},
			Covariance: odomCovariance},
	}
	o.odom[i].Write(&o.msg)
	if od.TF && o.tf != nil {
		o.tfm.Transforms[0] = geometry_msgs.TransformStamped{Header: hdr, ChildFrameId: od.BaseFrame,
			Transform: geometry_msgs.Transform{Translation: geometry_msgs.Vector3{X: p.X, Y: p.Y}, Rotation: q}}
		o.tf.Write(&o.tfm)
	}
}

// odomCovariance is the odometry's pose and twist covariance: diff_drive_controller's
// default diagonal is zero; frcd gives a small one (1e-3 on x, y, z,
// roll, pitch, 1e-2 on yaw), so that robot_localization can fuse it.
var odomCovariance = [36]float64{0: 1e-3, 7: 1e-3, 14: 1e-3, 21: 1e-3, 28: 1e-3, 35: 1e-2}

// twistCommand is a drive base's cmd_vel callback.
func (b *Bridge) twistCommand(c *control.Controller, count func(error)) any {
	return func(m *geometry_msgs.Twist) {
		v := [3]float64{m.Linear.X, m.Linear.Y, m.Angular.Z}
		count(c.CommandGroup(v[:], b.o.Clock()))
	}
}
