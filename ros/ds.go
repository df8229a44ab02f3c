package ros

import (
	"fmt"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/frcd/frcd/hal"
)

// Driver Station topics, relative to the node's namespace.
const (
	dsPrefix = "driver_station/"
	// JoyTopic is joystick N's topic: driver_station/joyN.
	JoyTopic = dsPrefix + "joy"
)

// dsPubs are the driver_station/ publishers.
type dsPubs struct {
	joy                                [hal.MaxJoysticks]*goroslib.Publisher
	enabled, estop, attached, brownout *goroslib.Publisher
	mode, alliance                     *goroslib.Publisher
	station                            *goroslib.Publisher
	matchTime                          *goroslib.Publisher
	fms, gameData                      *goroslib.Publisher
	opMode                             *goroslib.Publisher // latched
	info                               hal.DSInfo
	seq                                [hal.MaxJoysticks]uint32
}

func (s *session) setupDS() error {
	if s.b.o.DriverStation == nil {
		return nil
	}
	d := &dsPubs{}
	var err error
	for n := range d.joy {
		if d.joy[n], err = s.publisher(JoyTopic+string(rune('0'+n)), &sensor_msgs.Joy{}); err != nil {
			return err
		}
	}
	for _, p := range []struct {
		pp   **goroslib.Publisher
		name string
		msg  any
	}{
		{&d.enabled, "enabled", &std_msgs.Bool{}}, {&d.estop, "estop", &std_msgs.Bool{}}, {&d.attached, "attached", &std_msgs.Bool{}},
		{&d.brownout, "brownout", &std_msgs.Bool{}}, {&d.mode, "mode", &std_msgs.String{}}, {&d.alliance, "alliance", &std_msgs.String{}},
		{&d.station, "station", &std_msgs.Int8{}}, {&d.matchTime, "match_time", &std_msgs.Float64{}},
		{&d.fms, "fms", &std_msgs.Bool{}}, {&d.gameData, "game_data", &std_msgs.String{}},
	} {
		if *p.pp, err = s.publisher(dsPrefix+p.name, p.msg); err != nil {
			return err
		}
	}
	topic := s.b.names.Resolve(dsPrefix + "op_mode")
	if d.opMode, err = goroslib.NewPublisher(goroslib.PublisherConf{Node: s.node, Topic: topic, Msg: &std_msgs.String{}, Latch: true, TCPNoDelay: true}); err != nil {
		return fmt.Errorf("publish %s: %w", topic, err)
	}
	s.closers = append(s.closers, d.opMode.Close)
	s.ds = d
	return nil
}

// publishDS publishes the Driver Station: each joystick plugged in as a
// sensor_msgs/Joy (axes, then two axes per POV, x then y, as joy_node
// gives a hat: -1..1, 0 when not pressed; buttons 0 or 1), and the robot
// state, what is known of it: fms (std_msgs/Bool, the field's management
// system attached) and game_data (std_msgs/String, the game-specific
// message, "" when none) among it; op_mode (std_msgs/String, latched:
// the name of the op mode the Driver Station or a dashboard's chooser
// selected, "" for none), so that a node that starts late hears at once
// which routine to run.
func (s *session) publishDS() {
	d := s.ds
	if d == nil {
		return
	}
	d.info.MatchTime, d.info.Alliance, d.info.Station, d.info.HasBrownout, d.info.GameMessage = -1, "", 0, false, ""
	s.b.o.DriverStation(&d.info)
	ds := s.snap.DS
	d.enabled.Write(&std_msgs.Bool{Data: ds.Enabled && ds.Attached && !ds.EStop})
	d.estop.Write(&std_msgs.Bool{Data: ds.EStop})
	d.attached.Write(&std_msgs.Bool{Data: ds.Attached})
	d.mode.Write(&std_msgs.String{Data: ds.Mode.String()})
	d.fms.Write(&std_msgs.Bool{Data: ds.FMS})
	d.gameData.Write(&std_msgs.String{Data: d.info.GameMessage})
	d.opMode.Write(&std_msgs.String{Data: d.info.OpModes.Name(ds.OpMode)})
	if d.info.HasBrownout {
		d.brownout.Write(&std_msgs.Bool{Data: d.info.Brownout})
	}
	if d.info.Alliance != "" {
		d.alliance.Write(&std_msgs.String{Data: d.info.Alliance})
		d.station.Write(&std_msgs.Int8{Data: int8(d.info.Station)})
	}
	if d.info.MatchTime >= 0 {
		d.matchTime.Write(&std_msgs.Float64{Data: d.info.MatchTime})
	}
	for n := range d.info.Joysticks {
		j := &d.info.Joysticks[n]
		if j.NumAxes == 0 && j.NumButtons == 0 && j.NumPOVs == 0 {
			continue
		}
		d.joy[n].Write(joyMessage(j, s.b.stamp(s.snap.Now), &d.seq[n]))
	}
}

func joyMessage(j *hal.JoystickState, stamp time.Time, seq *uint32) *sensor_msgs.Joy {
	*seq++
	m := &sensor_msgs.Joy{Axes: hal.AppendJoyAxes(make([]float32, 0, hal.MaxJoystickAxes+2*hal.MaxJoystickPOVs), j),
		Buttons: hal.AppendJoyButtons(make([]int32, 0, hal.MaxJoystickButtons), j)}
	m.Header.Seq, m.Header.Stamp = *seq, stamp
	return m
}
