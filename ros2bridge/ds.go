package ros2bridge

import (
	"strconv"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
)

// The Driver Station topics, as the ROS 1 bridge publishes them (package
// ros, ds.go), relative to the node's namespace, with ROS 2's types:
//
//	driver_station/joyN        sensor_msgs/msg/Joy per joystick plugged in (axes, two per POV, buttons 0/1)
//	driver_station/enabled     std_msgs/msg/Bool: enabled, attached and not e-stopped
//	driver_station/estop       std_msgs/msg/Bool
//	driver_station/attached    std_msgs/msg/Bool
//	driver_station/mode        std_msgs/msg/String: the robot mode
//	driver_station/brownout    std_msgs/msg/Bool, when the backend knows
//	driver_station/alliance    std_msgs/msg/String "red" or "blue", when known
//	driver_station/station     std_msgs/msg/Int8 1 to 3, when known
//	driver_station/match_time  std_msgs/msg/Float64, s left in the period, when known
//	driver_station/fms         std_msgs/msg/Bool: the field's management system attached
//	driver_station/game_data   std_msgs/msg/String: the game-specific message, "" when none
//	driver_station/op_mode     std_msgs/msg/String: the op mode selected, "" for none
//
// All at the bridge's publish rate, reliable, keep last 10 (rmw's default),
// but op_mode: transient local, keep last 1 (ros2node.Latched), so that a
// node that starts late hears at once which routine to run (a volatile
// reader gets it at the publish rate).

// DSPrefix is the Driver Station topics' prefix; joystick N is
// DSPrefix+"joyN".
const DSPrefix = "driver_station/"

// dsTopics are the Driver Station publishers and their reused messages.
type dsTopics struct {
	joy                                [hal.MaxJoysticks]*ros2node.Publisher
	joyMsg                             [hal.MaxJoysticks]ros2msg.Joy
	enabled, estop, attached, brownout *ros2node.Publisher
	mode, alliance, station, matchTime *ros2node.Publisher
	fms, gameData                      *ros2node.Publisher
	opMode                             *ros2node.Publisher
	info                               hal.DSInfo
	b                                  ros2msg.Bool
	s                                  ros2msg.String
	i8                                 ros2msg.Int8
	f                                  ros2msg.Float64
}

// setupDS creates the Driver Station publishers, when the daemon gives
// what the Driver Station says (StateOptions.DriverStation).
func (b *Bridge) setupDS() error {
	if b.o.State.DriverStation == nil {
		return nil
	}
	d := &dsTopics{}
	n := b.node
	var err error
	for i := range d.joy {
		m := &d.joyMsg[i]
		m.Axes = make([]float32, 0, hal.MaxJoystickAxes+2*hal.MaxJoystickPOVs)
		m.Buttons = make([]int32, 0, hal.MaxJoystickButtons)
		if d.joy[i], err = n.Publisher(DSPrefix+"joy"+strconv.Itoa(i), m, ros2node.Default); err != nil {
			return err
		}
	}
	for _, p := range []struct {
		pp   **ros2node.Publisher
		name string
		msg  ros2msg.Message
	}{
		{&d.enabled, "enabled", &d.b}, {&d.estop, "estop", &d.b}, {&d.attached, "attached", &d.b},
		{&d.brownout, "brownout", &d.b}, {&d.mode, "mode", &d.s}, {&d.alliance, "alliance", &d.s},
		{&d.station, "station", &d.i8}, {&d.matchTime, "match_time", &d.f},
		{&d.fms, "fms", &d.b}, {&d.gameData, "game_data", &d.s},
	} {
		if *p.pp, err = n.Publisher(DSPrefix+p.name, p.msg, ros2node.Default); err != nil {
			return err
		}
	}
	if d.opMode, err = n.Publisher(DSPrefix+"op_mode", &d.s, ros2node.Latched); err != nil {
		return err
	}
	b.ds = d
	return nil
}

// publishDS publishes the Driver Station from the snapshot just read and
// what the daemon says beyond it; it allocates nothing.
func (b *Bridge) publishDS(stamp ros2msg.Time) {
	d := b.ds
	if d == nil {
		return
	}
	count := b.countErr
	d.info = hal.DSInfo{MatchTime: -1}
	b.o.State.DriverStation(&d.info)
	ds := b.snap.DS
	d.b.Data = ds.Enabled && ds.Attached && !ds.EStop
	count(d.enabled.Publish(&d.b))
	d.b.Data = ds.EStop
	count(d.estop.Publish(&d.b))
	d.b.Data = ds.Attached
	count(d.attached.Publish(&d.b))
	d.s.Data = ds.Mode.String()
	count(d.mode.Publish(&d.s))
	d.b.Data = ds.FMS
	count(d.fms.Publish(&d.b))
	d.s.Data = d.info.GameMessage
	count(d.gameData.Publish(&d.s))
	d.s.Data = d.info.OpModes.Name(ds.OpMode)
	count(d.opMode.Publish(&d.s))
	if d.info.HasBrownout {
		d.b.Data = d.info.Brownout
		count(d.brownout.Publish(&d.b))
	}
	if d.info.Alliance != "" {
		d.s.Data = d.info.Alliance
		count(d.alliance.Publish(&d.s))
		d.i8.Data = int8(d.info.Station)
		count(d.station.Publish(&d.i8))
	}
	if d.info.MatchTime >= 0 {
		d.f.Data = d.info.MatchTime
		count(d.matchTime.Publish(&d.f))
	}
	for i := range d.info.Joysticks {
		j := &d.info.Joysticks[i]
		if j.NumAxes == 0 && j.NumButtons == 0 && j.NumPOVs == 0 {
			continue
		}
		m := &d.joyMsg[i]
		m.Header.Stamp = stamp
		m.Axes = hal.AppendJoyAxes(m.Axes[:0], j)
		m.Buttons = hal.AppendJoyButtons(m.Buttons[:0], j)
		count(d.joy[i].Publish(m))
	}
}
