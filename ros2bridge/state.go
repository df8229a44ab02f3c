package ros2bridge

import (
	"cmp"
	"errors"
	"math"
	"strconv"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// The state topics beside /joint_states, as the ROS 1 bridge publishes
// them (package ros), with ROS 2's types and QoS:
//
//	/NAME/imu           sensor_msgs/msg/Imu per IMU (orientation covariance[0] -1 when its read failed);
//	                    an IMU with an IMU sensor controller CTRL: CTRL/imu from CTRL's node, at its
//	                    own publish_rate (broadcast.go), frame its frame_id (imuOwner)
//	/NAME/battery       sensor_msgs/msg/BatteryState per PDP/PDH (current negative: discharging)
//	/NAME/currents      std_msgs/msg/Float64MultiArray per PDP/PDH: its 16 or 24 channels
//	/NAME/state         control_msgs/msg/JointControllerState per PID controller
//	/NAME/odom          nav_msgs/msg/Odometry per drive base, at its own publish_rate while its controller
//	                    runs, whatever the joint states' rate or running state (broadcast.go)
//	/tf                 tf2_msgs/msg/TFMessage: each drive base's odom -> base (enable_odom_tf),
//	                    and the movable joints at their positions (tf_joints.go)
//	/tf_static          tf2_msgs/msg/TFMessage: the URDF's fixed joints, once, transient local
//	/diagnostics        diagnostic_msgs/msg/DiagnosticArray once a second (loop time)
//
// A controller's own topics (/NAME/state, /NAME/odom: the drive
// controllers' ~/odom, ros-controls/ros2_controllers 1b8cd694
// diff_drive_controller.cpp DEFAULT_ODOMETRY_TOPIC) are its node's (controller_nodes.go), as
// /joint_states is the joint state controller's; the others, /tf (one
// writer for the joints' and the drive bases' transforms) among them,
// are frcd's node's.
//
// All reliable, volatile, keep last 10 (rmw's default) but /tf (keep last
// 100, tf2_ros's DynamicBroadcasterQoS) and /tf_static (transient local,
// keep last 1, tf2_ros's StaticBroadcasterQoS: a late joiner gets it).

// StateOptions are what the state topics need beyond the loop.
type StateOptions struct {
	// Static are the URDF's fixed joints, for /tf_static.
	Static []StaticTransform
	// Diagnostics appends the health model's statuses beyond the loop's
	// own (the daemon's: CAN buses, the inventory, devices' reports), from
	// the bridge's goroutine, once a second.
	Diagnostics func(dst []Status) []Status
	// DriverStation, when set, fills what the Driver Station says beyond
	// the snapshot (joysticks, match time, alliance, brownout) for the
	// driver_station/ topics (ds.go), from the bridge's goroutine.
	DriverStation func(*hal.DSInfo)
	// Movable are the URDF's movable joints, for /tf (tf_joints.go).
	Movable []MovableJoint
}

// StaticTransform is a fixed joint: its child link's frame in its
// parent's, translation (m) and rotation (quaternion x, y, z, w).
type StaticTransform struct {
	Parent, Child string
	Translation   [3]float64
	Rotation      [4]float64
}

// Status is one /diagnostics entry from outside the loop.
type Status struct {
	Level      uint8 // 0 OK, 1 WARN, 2 ERROR, 3 STALE (diagnostic_msgs/msg/DiagnosticStatus)
	Name       string
	HardwareID string
	Message    string
	Values     [][2]string
}

// QoS of the transforms (ros2/geometry2 tf2_ros qos.hpp:
// DynamicBroadcasterQoS depth 100, StaticBroadcasterQoS depth 1 transient
// local, both reliable).
var (
	tfQoS       = rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 100}
	tfStaticQoS = ros2node.Latched
)

// Topic names.
const (
	TFTopic          = "/tf"
	TFStaticTopic    = "/tf_static"
	DiagnosticsTopic = "/diagnostics"
)

// stateTopics are the state publishers and their reused messages, in
// snapshot order.
type stateTopics struct {
	imus, batteries, currents []*ros2node.Publisher
	imuOwn                    []imuOwner // per IMU: its broadcaster, if it has one
	odomOwn                   []owner    // per drive base: its controller, its publish_rate (broadcast.go)
	ctlStates, odoms          []*ros2node.Publisher
	tf, tfStatic, diagnostics *ros2node.Publisher
	joints                    *tfJoints // the movable joints on /tf

	imu      ros2msg.Imu
	battery  ros2msg.BatteryState
	current  ros2msg.Float64MultiArray
	ctlState ros2msg.JointControllerState
	odom     ros2msg.Odometry
	tfm      ros2msg.TFMessage
	diag     ros2msg.DiagnosticArray
	extra    []Status

	diagPace ratelimit.Cadence // once a second
	refused  []uint64          // per controller, at the last diagnostics
	loopRef  uint64
}

// imuOwner is an IMU's publisher's owner: the joint state controller's
// state topics (ctl ""), or its sensor broadcaster (an IMU sensor
// controller: control.Broadcaster), which publishes it at its own rate
// (pace; broadcast.go), as IMUSensorBroadcaster from its node on ~/imu,
// stamped frame; last is the loop time of the last sample it published.
type imuOwner struct {
	owner
	frame string
}

// imuBroadcaster is the IMU name's sensor broadcaster, if it has one.
func (b *Bridge) imuBroadcaster(name string) (control.Broadcaster, bool) {
	if b.o.Manager == nil {
		return control.Broadcaster{}, false
	}
	return b.o.Manager.BroadcasterOf(name)
}

// setupState creates the state publishers and publishes /tf_static.
func (b *Bridge) setupState() error {
	if err := b.setupRosout(); err != nil {
		return err
	}
	if err := b.setupDS(); err != nil {
		return err
	}
	s := &stateTopics{diagPace: ratelimit.Hz(1, b.o.Loop.Period(), b.o.Every)}
	b.st = s
	n := b.node
	pub := func(topic string, m ros2msg.Message, q rtps.QoS) (*ros2node.Publisher, error) {
		return n.Publisher(topic, m, q)
	}
	for _, imu := range b.snap.IMUs {
		own, node, topic := imuOwner{frame: imu.Name}, n, imu.Name+"/imu"
		if bc, ok := b.imuBroadcaster(imu.Name); ok {
			own = imuOwner{owner{ctl: bc.Name, pace: ratelimit.Own(bc.Rate, b.o.Every, b.o.Loop.Period())}, cmp.Or(bc.FrameID, imu.Name)}
			node = b.nodeOf(bc.Name)
			if bc.Sensor != "" { // one IMU: IMUSensorBroadcaster's ~/imu; else each keeps its /NAME/imu
				topic = bc.Name + "/imu"
			}
		}
		p, err := node.Publisher(topic, &s.imu, ros2node.Default)
		if err != nil {
			return err
		}
		s.imus, s.imuOwn = append(s.imus, p), append(s.imuOwn, own)
	}
	for _, pdp := range b.snap.PDPs {
		p, err := pub(pdp.Name+"/battery", &s.battery, ros2node.Default)
		if err != nil {
			return err
		}
		c, err := pub(pdp.Name+"/currents", &s.current, ros2node.Default)
		if err != nil {
			return err
		}
		s.batteries, s.currents = append(s.batteries, p), append(s.currents, c)
	}
	for _, c := range b.snap.PIDs {
		p, err := b.nodeOf(c.Name).Publisher(c.Name+"/state", &s.ctlState, ros2node.Default)
		if err != nil {
			return err
		}
		s.ctlStates = append(s.ctlStates, p)
	}
	tf := false
	for _, od := range b.snap.Odometry {
		p, err := b.nodeOf(od.Name).Publisher(od.Name+"/odom", &s.odom, ros2node.Default)
		if err != nil {
			return err
		}
		s.odoms = append(s.odoms, p)
		s.odomOwn = append(s.odomOwn, owner{ctl: od.Name, pace: ratelimit.Own(od.Rate, b.o.Every, b.o.Loop.Period())})
		tf = tf || od.TF
	}
	s.joints = b.setupTFJoints()
	tf = tf || s.joints != nil
	var err error
	if tf {
		if s.tf, err = pub(TFTopic, &s.tfm, tfQoS); err != nil {
			return err
		}
	}
	if s.diagnostics, err = pub(DiagnosticsTopic, &s.diag, ros2node.Default); err != nil {
		return err
	}
	s.refused = make([]uint64, len(b.o.Loop.Controllers()))
	// The first /rosout line, kept for late joiners as rcl keeps them.
	b.o.Logf("ros2: node up: %d IMUs, %d PDPs, %d controller states, %d drive bases, %d fixed joints on %s",
		len(s.imus), len(s.batteries), len(s.ctlStates), len(s.odoms), len(b.o.State.Static), TFStaticTopic)
	if len(b.o.State.Static) == 0 {
		return nil
	}
	if s.tfStatic, err = pub(TFStaticTopic, &s.tfm, tfStaticQoS); err != nil {
		return err
	}
	// One message with every fixed joint, stamped now, as
	// robot_state_publisher sends them: the last one is what a late
	// joiner gets.
	st := ros2msg.TFMessage{}
	stamp := ros2msg.TimeOf(b.o.Epoch.Add(b.o.Clock()))
	for _, f := range b.o.State.Static {
		st.Transforms = append(st.Transforms, ros2msg.TransformStamped{Header: ros2msg.Header{Stamp: stamp, FrameID: f.Parent}, ChildFrameID: f.Child,
			Transform: ros2msg.Transform{Translation: ros2msg.Vector3{X: f.Translation[0], Y: f.Translation[1], Z: f.Translation[2]},
				Rotation: ros2msg.Quaternion{X: f.Rotation[0], Y: f.Rotation[1], Z: f.Rotation[2], W: f.Rotation[3]}}})
	}
	return s.tfStatic.Publish(&st)
}

// publishState publishes the state topics from the snapshot just read.
// It allocates nothing but /diagnostics' strings once a second.
func (b *Bridge) publishState() {
	s := b.st
	if s == nil {
		return
	}
	snap := b.snap
	stamp := ros2msg.TimeOf(b.o.Epoch.Add(snap.Now))
	count := b.countErr
	for i := range snap.IMUs {
		if s.imuOwn[i].ctl == "" { // a broadcaster's IMU is its own (publishBroadcasters)
			b.publishIMU(i, stamp, s.imuOwn[i].frame)
		}
	}
	for i, p := range snap.PDPs {
		st := &p.State
		nan := float32(math.NaN())
		m := &s.battery
		*m = ros2msg.BatteryState{Header: ros2msg.Header{Stamp: stamp, FrameID: p.Name}, Voltage: float32(st.Voltage),
			Temperature: float32(st.Temperature), Current: -float32(st.TotalCurrent), Charge: nan, Capacity: nan, DesignCapacity: nan,
			Percentage: nan, PowerSupplyStatus: ros2msg.PowerSupplyStatusDischarging, Present: p.OK, Location: p.Name,
			CellVoltage: m.CellVoltage[:0], CellTemperature: m.CellTemperature[:0]}
		count(s.batteries[i].Publish(m))
		nch := st.Channels
		if nch <= 0 || nch > len(st.Current) {
			nch = len(st.Current)
		}
		c := &s.current
		if len(c.Dim) != 1 {
			c.Dim = []ros2msg.MultiArrayDimension{{Label: "channel"}}
		}
		c.Dim[0].Size, c.Dim[0].Stride = uint32(nch), uint32(nch)
		c.Data = append(c.Data[:0], st.Current[:nch]...)
		count(s.currents[i].Publish(c))
	}
	for i := range snap.PIDs {
		p := &snap.PIDs[i]
		s.ctlState = ros2msg.JointControllerState{Header: ros2msg.Header{Stamp: stamp}, SetPoint: p.SetPoint, ProcessValue: p.Process,
			ProcessValueDot: p.ProcessDot, Error: p.Error, TimeStep: p.TimeStep, Command: p.Command, P: p.P, I: p.I, D: p.D,
			IClamp: p.IClamp, Antiwindup: true}
		count(s.ctlStates[i].Publish(&s.ctlState))
	}
	b.publishControlStates(stamp, count)
	b.publishSensors(count)
	b.publishSim(stamp, count)
	b.publishDS(stamp)
	if s.diagPace.Due(snap.Now) {
		b.buildDiagnostics(stamp)
		count(s.diagnostics.Publish(&s.diag))
	}
}

// publishIMU publishes the snapshot's IMU i, stamped stamp in frame.
func (b *Bridge) publishIMU(i int, stamp ros2msg.Time, frame string) {
	s, imu := b.st, &b.snap.IMUs[i]
	st := &imu.State
	m := &s.imu
	m.Header = ros2msg.Header{Stamp: stamp, FrameID: frame}
	m.Orientation = ros2msg.Quaternion{X: st.Orientation[0], Y: st.Orientation[1], Z: st.Orientation[2], W: st.Orientation[3]}
	m.OrientationCovariance = st.OrientationCovariance
	m.AngularVelocity = ros2msg.Vector3{X: st.AngularVelocity[0], Y: st.AngularVelocity[1], Z: st.AngularVelocity[2]}
	m.AngularVelocityCovariance = st.AngularVelocityCovariance
	m.LinearAcceleration = ros2msg.Vector3{X: st.LinearAcceleration[0], Y: st.LinearAcceleration[1], Z: st.LinearAcceleration[2]}
	m.LinearAccelerationCovariance = st.LinearAccelerationCovariance
	if !imu.OK {
		m.OrientationCovariance[0] = -1 // "no orientation estimate", as the message defines
	}
	b.countErr(s.imus[i].Publish(m))
}

// countErr counts a failed publication.
func (b *Bridge) countErr(err error) {
	if err != nil {
		b.publishErr.Add(1)
	}
}

// odomCovariance is the odometry's pose and twist covariance, as the ROS 1
// bridge gives it: 1e-3 on x, y, z, roll, pitch, 1e-2 on yaw.
var odomCovariance = [36]float64{0: 1e-3, 7: 1e-3, 14: 1e-3, 21: 1e-3, 28: 1e-3, 35: 1e-2}

// publishOdometry publishes drive base i's odometry from the snapshot
// just read, stamped stamp, and its odom -> base transform on /tf, as
// diff_drive_controller does; publishBroadcasters calls it when it is due
// (its publish_rate).
func (b *Bridge) publishOdometry(i int, stamp ros2msg.Time) {
	s, od := b.st, &b.snap.Odometry[i]
	p := od.Pose
	sy, cy := math.Sincos(p.Yaw / 2)
	q := ros2msg.Quaternion{Z: sy, W: cy}
	hdr := ros2msg.Header{Stamp: stamp, FrameID: od.OdomFrame}
	s.odom = ros2msg.Odometry{Header: hdr, ChildFrameID: od.BaseFrame, Position: ros2msg.Vector3{X: p.X, Y: p.Y}, Orientation: q,
		PoseCovariance: odomCovariance, Twist: ros2msg.Twist{Linear: ros2msg.Vector3{X: p.VX, Y: p.VY}, Angular: ros2msg.Vector3{Z: p.WZ}},
		TwistCovariance: odomCovariance}
	err := s.odoms[i].Publish(&s.odom)
	if b.countErr(err); err == nil {
		b.odometry.Add(1)
	}
	if od.TF && s.tf != nil {
		if len(s.tfm.Transforms) != 1 {
			s.tfm.Transforms = make([]ros2msg.TransformStamped, 1)
		}
		s.tfm.Transforms[0] = ros2msg.TransformStamped{Header: hdr, ChildFrameID: od.BaseFrame,
			Transform: ros2msg.Transform{Translation: ros2msg.Vector3{X: p.X, Y: p.Y}, Rotation: q}}
		b.countErr(s.tf.Publish(&s.tfm))
	}
}

// buildDiagnostics fills s.diag as the ROS 1 bridge's /diagnostics: the
// loop (its state, counters), each device's health, each controller's
// refusals since the last report, then the health model's statuses.
func (b *Bridge) buildDiagnostics(stamp ros2msg.Time) {
	s, snap := b.st, b.snap
	st := &snap.Stats
	m := &s.diag
	m.Header = ros2msg.Header{Stamp: stamp}
	m.Status = m.Status[:0]
	level := uint8(0)
	if snap.DS.EStop {
		level = 1
	}
	if n := st.Refused + snap.Refused; n > s.loopRef {
		level, s.loopRef = 1, n
	}
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	m.Status = append(m.Status, ros2msg.DiagnosticStatus{Level: level, Name: "frcd: loop", HardwareID: "frcd", Message: snap.State(),
		Values: []ros2msg.KeyValue{{Key: "cycles", Value: u(st.Cycles)}, {Key: "period max", Value: st.Period.Max.String()},
			{Key: "overruns", Value: u(st.Overruns)}, {Key: "refused commands", Value: u(st.Refused + snap.Refused)},
			{Key: "stale commands", Value: u(st.Stale)}, {Key: "device errors", Value: u(st.DeviceErrors)},
			{Key: "commands received", Value: u(b.commands.Load())}}})
	for _, d := range snap.Devices {
		level, msg := uint8(0), "ok"
		switch {
		case d.Configuring != nil: // starting up, within its time: a warning, as a driver still initializing
			level, msg = 1, "configuring: "+d.Configuring.Error()
		case !d.OK && errors.Is(d.LastErr, hal.ErrTimeout):
			level, msg = 3, "stale: "+d.LastErr.Error()
		case !d.OK && d.LastErr != nil:
			level, msg = 2, "error: "+d.LastErr.Error()
		case !d.OK:
			level, msg = 3, "stale: no reading yet"
		}
		vals := []ros2msg.KeyValue{{Key: "errors", Value: u(d.Errors)}}
		if d.LastErr != nil {
			vals = append(vals, ros2msg.KeyValue{Key: "last error", Value: d.LastErr.Error()})
		}
		m.Status = append(m.Status, ros2msg.DiagnosticStatus{Level: level, Name: "frcd: device " + d.Name, HardwareID: d.Name, Message: msg, Values: vals})
	}
	for i, c := range b.o.Loop.Controllers() {
		n := c.Refused()
		level, msg := uint8(0), "ok"
		if n > s.refused[i] {
			level, msg = 1, u(n-s.refused[i])+" commands refused since the last report"
		}
		s.refused[i] = n
		m.Status = append(m.Status, ros2msg.DiagnosticStatus{Level: level, Name: "frcd: controller " + c.Name, HardwareID: c.Name, Message: msg,
			Values: []ros2msg.KeyValue{{Key: "type", Value: c.Type}, {Key: "refused", Value: u(n)}}})
	}
	if f := b.o.State.Diagnostics; f != nil {
		s.extra = f(s.extra[:0])
		for _, x := range s.extra {
			vals := make([]ros2msg.KeyValue, len(x.Values))
			for i, v := range x.Values {
				vals[i] = ros2msg.KeyValue{Key: v[0], Value: v[1]}
			}
			m.Status = append(m.Status, ros2msg.DiagnosticStatus{Level: x.Level, Name: x.Name, HardwareID: x.HardwareID, Message: x.Message, Values: vals})
		}
	}
}
