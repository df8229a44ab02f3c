package ros

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/diagnostic_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/geometry_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/nav_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/jointstate"
)

// Diagnostic levels of diagnostic_msgs/DiagnosticStatus.
const (
	levelOK    int8 = 0
	levelWarn  int8 = 1
	levelError int8 = 2
	levelStale int8 = 3
)

// builder makes ROS messages from a snapshot. The messages published at
// the bridge's rate are the builder's own, rebuilt in place each time (no
// allocation per publication): the goroslib fork's Publisher.Write
// encodes a message before it returns and keeps no reference to it. A
// message is therefore valid until the builder's next call for it. The
// joint names are shared: they never change.
type builder struct {
	s       *control.Snapshot
	b       *Bridge
	joints  *jointstate.Builder
	seqJS   uint32
	seqIMU  []uint32
	seqPDP  []uint32
	seqDiag uint32
	extra   []Status // Options.Diagnostics' statuses, reused
	seqJT   uint32
	seqGT   uint32
	refused []uint64 // per controller, at the last diagnostics
	// loopRefused is the loop's refused commands at the last diagnostics.
	loopRefused uint64

	// the messages, reused
	js, jsTruth sensor_msgs.JointState
	odom        nav_msgs.Odometry
	imus        []sensor_msgs.Imu
	bats        []sensor_msgs.BatteryState
	curs        []std_msgs.Float64MultiArray
}

func newBuilder(s *control.Snapshot, b *Bridge) *builder {
	m := &builder{s: s, b: b, seqIMU: make([]uint32, len(s.IMUs)), seqPDP: make([]uint32, len(s.PDPs)),
		imus: make([]sensor_msgs.Imu, len(s.IMUs)), bats: make([]sensor_msgs.BatteryState, len(s.PDPs)),
		curs: make([]std_msgs.Float64MultiArray, len(s.PDPs))}
	m.joints = jointstate.New(s, b.o.Rest)
	m.refused = make([]uint64, len(b.o.Loop.Controllers()))
	return m
}

func (m *builder) header(seq *uint32, frame string) std_msgs.Header {
	*seq++
	return std_msgs.Header{Seq: *seq, Stamp: m.b.stamp(m.s.Now), FrameId: frame}
}

// imu is IMU i's message, stamped in frame.
func (m *builder) imu(i int, frame string) *sensor_msgs.Imu {
	st := m.s.IMUs[i].State
	msg := &m.imus[i]
	*msg = sensor_msgs.Imu{
		Header:                       m.header(&m.seqIMU[i], frame),
		Orientation:                  geometry_msgs.Quaternion{X: st.Orientation[0], Y: st.Orientation[1], Z: st.Orientation[2], W: st.Orientation[3]},
		OrientationCovariance:        st.OrientationCovariance,
		AngularVelocity:              geometry_msgs.Vector3{X: st.AngularVelocity[0], Y: st.AngularVelocity[1], Z: st.AngularVelocity[2]},
		AngularVelocityCovariance:    st.AngularVelocityCovariance,
		LinearAcceleration:           geometry_msgs.Vector3{X: st.LinearAcceleration[0], Y: st.LinearAcceleration[1], Z: st.LinearAcceleration[2]},
		LinearAccelerationCovariance: st.LinearAccelerationCovariance,
	}
	if !m.s.IMUs[i].OK {
		msg.OrientationCovariance[0] = -1 // "no orientation estimate", as the message defines
	}
	return msg
}

// truth is the simulator's ground truth: every movable joint's true state,
// and the drive base's true pose in "odom" with its twist in the base's
// frame, as nav_msgs/Odometry defines (nil without a drive base). Stamped
// with the snapshot's time.
func (m *builder) truth(t *Truth) (*sensor_msgs.JointState, *nav_msgs.Odometry) {
	js := &m.jsTruth
	js.Header = m.header(&m.seqJT, "")
	js.Name = append(js.Name[:0], t.Names...)
	js.Position = append(js.Position[:0], t.Position...)
	js.Velocity = append(js.Velocity[:0], t.Velocity...)
	js.Effort = append(js.Effort[:0], t.Effort...)
	if !t.HasPose {
		return js, nil
	}
	sy, cy := math.Sincos(t.Yaw / 2)
	odom := &m.odom
	*odom = nav_msgs.Odometry{
		Header:       m.header(&m.seqGT, "odom"),
		ChildFrameId: t.BaseFrame,
		Pose: geometry_msgs.PoseWithCovariance{Pose: geometry_msgs.Pose{
			Position:    geometry_msgs.Point{X: t.X, Y: t.Y},
			Orientation: geometry_msgs.Quaternion{Z: sy, W: cy},
		}},
		Twist: geometry_msgs.TwistWithCovariance{Twist: geometry_msgs.Twist{
			Linear:  geometry_msgs.Vector3{X: t.VX, Y: t.VY},
			Angular: geometry_msgs.Vector3{Z: t.WZ},
		}},
	}
	return js, odom
}

// pdp is a PDP's BatteryState (bus voltage, total current, temperature;
// the current negative as the battery discharges, as the message says)
// and its channels' currents.
func (m *builder) pdp(i int) (*sensor_msgs.BatteryState, *std_msgs.Float64MultiArray) {
	p := m.s.PDPs[i]
	st := p.State
	nan := float32(math.NaN())
	bat := &m.bats[i]
	*bat = sensor_msgs.BatteryState{
		Header:            m.header(&m.seqPDP[i], p.Name),
		Voltage:           float32(st.Voltage),
		Temperature:       float32(st.Temperature),
		Current:           -float32(st.TotalCurrent),
		Charge:            nan,
		Capacity:          nan,
		DesignCapacity:    nan,
		Percentage:        nan,
		PowerSupplyStatus: 2, // discharging
		Present:           p.OK,
		Location:          p.Name,
	}
	n := st.Channels
	if n <= 0 || n > interfaces.PDPChannels {
		n = interfaces.PDPChannels
	}
	cur := &m.curs[i]
	cur.Layout.Dim = append(cur.Layout.Dim[:0], std_msgs.MultiArrayDimension{Label: "channel", Size: uint32(n), Stride: uint32(n)})
	cur.Data = append(cur.Data[:0], st.Current[:n]...)
	return bat, cur
}

// diagnostics reports the loop's timing and counters, each device's health
// (ok, stale or error, with the reason) and each controller's refused
// commands.
func (m *builder) diagnostics() *diagnostic_msgs.DiagnosticArray {
	s := m.s
	st := &s.Stats
	state := s.State()
	loopLevel := levelOK
	if s.DS.EStop {
		loopLevel = levelWarn
	}
	// Commands refused since the last report (not finite, out of range,
	// the wrong type) raise the loop to WARN too.
	if n := st.Refused + s.Refused; n > m.loopRefused {
		loopLevel, m.loopRefused = levelWarn, n
	}
	out := &diagnostic_msgs.DiagnosticArray{Header: m.header(&m.seqDiag, "")}
	out.Status = append(out.Status, diagnostic_msgs.DiagnosticStatus{
		Level: loopLevel, Name: "frcd: loop", HardwareId: "frcd", Message: state,
		Values: []diagnostic_msgs.KeyValue{
			kv("cycles", st.Cycles),
			kv("period mean", st.Period.Mean()),
			kv("period max", st.Period.Max),
			kv("jitter p99 <=", st.Jitter.Quantile(0.99)),
			kv("busy p99 <=", st.Busy.Quantile(0.99)),
			kv("overruns", st.Overruns),
			kv("refused commands", st.Refused+s.Refused),
			kv("outputs held to their joint's limits", st.Clamped),
			kv("stale commands", st.Stale),
			kv("limit-switch blocks", st.Blocked),
			kv("PID cycles without feedback", st.NoFeedback),
			kv("device errors", st.DeviceErrors),
			kv("wrong-type connections", m.b.wrongType.Load()),
			kv("commands received", m.b.commands.Load()),
		},
	})
	for _, d := range s.Devices {
		level, msg := levelOK, "ok"
		switch {
		case d.Configuring != nil: // starting up, within its time: a warning, as a driver still initializing
			level, msg = levelWarn, "configuring: "+d.Configuring.Error()
		case !d.OK && errors.Is(d.LastErr, hal.ErrTimeout):
			level, msg = levelStale, "stale: "+d.LastErr.Error()
		case !d.OK && d.LastErr != nil:
			level, msg = levelError, "error: "+d.LastErr.Error()
		case !d.OK:
			level, msg = levelStale, "stale: no reading yet"
		}
		vals := []diagnostic_msgs.KeyValue{kv("errors", d.Errors)}
		if d.LastErr != nil {
			vals = append(vals, kv("last error", d.LastErr.Error()))
		}
		out.Status = append(out.Status, diagnostic_msgs.DiagnosticStatus{
			Level: level, Name: "frcd: device " + d.Name, HardwareId: d.Name, Message: msg, Values: vals,
		})
	}
	for i, c := range m.b.o.Loop.Controllers() {
		n := c.Refused()
		level, msg := levelOK, "ok"
		if n > m.refused[i] {
			level, msg = levelWarn, fmt.Sprintf("%d commands refused since the last report", n-m.refused[i])
		}
		m.refused[i] = n
		vals := []diagnostic_msgs.KeyValue{kv("type", c.Type), kv("joints", strings.Join(c.Joints, ",")), kv("refused", n), kv("timeout", c.Timeout())}
		if c.Timeout() == 0 {
			vals[3].Value = "none"
		}
		if lim := c.Limit(); lim != "" {
			vals = append(vals, kv("clamped to "+lim, c.Clamped()))
		}
		if goal, reached, ok := goalState(c); ok {
			vals = append(vals, kv("goal", goal), kv("at goal", fmt.Sprint(reached)))
		}
		out.Status = append(out.Status, diagnostic_msgs.DiagnosticStatus{
			Level: level, Name: "frcd: controller " + c.Name, HardwareId: c.Name, Message: msg, Values: vals,
		})
	}
	if f := m.b.o.Diagnostics; f != nil {
		m.extra = f(m.extra[:0])
		for _, st := range m.extra {
			vals := make([]diagnostic_msgs.KeyValue, len(st.Values))
			for i, v := range st.Values {
				vals[i] = kv(v[0], v[1])
			}
			out.Status = append(out.Status, diagnostic_msgs.DiagnosticStatus{
				Level: st.Level, Name: st.Name, HardwareId: st.HardwareID, Message: st.Message, Values: vals,
			})
		}
	}
	return out
}

// goalState describes a profiled controller's goal for list_controllers
// and /diagnostics: the goal ("none" when it holds none) and whether the
// joint reached it; ok is false for other controllers.
func goalState(c *control.Controller) (goal string, reached, ok bool) {
	g, held, reached, ok := c.Goal()
	if !ok {
		return "", false, false
	}
	if !held {
		return "none", false, true
	}
	return strconv.FormatFloat(g, 'g', -1, 64), reached, true
}

func kv(key string, v any) diagnostic_msgs.KeyValue {
	var s string
	switch x := v.(type) {
	case uint64:
		s = strconv.FormatUint(x, 10)
	case time.Duration:
		s = x.String()
	case string:
		s = x
	default:
		s = fmt.Sprint(x)
	}
	return diagnostic_msgs.KeyValue{Key: key, Value: s}
}
