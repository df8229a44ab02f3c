package telemetry

import (
	"math"
	"strings"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// Truth is the simulator's ground truth a Source publishes: the drive
// base's field pose, and every movable joint's true position.
type Truth struct {
	HasPose   bool
	X, Y, Yaw float64 // m, m, rad
	Names     []string
	Position  []float64 // rad or m
}

// Options configure a Source.
type Options struct {
	Loop  *control.Loop
	Robot *robot.Robot
	// Prefix is the topics' root, default /frcd (/Telemetry in
	// Layout2027).
	Prefix string
	// Layout is the NetworkTables layout: Layout2026 (the default) or
	// WPILib 2027's (layout.go).
	Layout Layout
	// Truth, when set (the sim), fills t with the ground truth, reusing
	// its slices; the sim/ topics exist only then.
	Truth func(t *Truth) bool
	// Alerts, when set, appends the health model's errors and warnings
	// (CAN buses, the device inventory, the devices' own reports) to the
	// Alerts' lists; called once a second, and at once when a device's
	// health in the snapshot changes.
	Alerts func(errs, warns []string) ([]string, []string)
	// Vin, when set, reads the controller's input voltage (the battery
	// less the wiring's drop), V: hal.Power's Vin on a backend that
	// measures it. Safe from Sample's goroutine.
	Vin func() (float64, error)
	// SimEvery is how often the sim/ topics (the true pose, the links'
	// poses: 56 bytes a link) are updated; default 20 ms, as a WPILib
	// robot's loop.
	SimEvery time.Duration
	// OnCommand, when set, sees every command the controllers received
	// (accepted and refused), from Sample's goroutine; it must not keep r.
	OnCommand func(c *control.Controller, r *control.CommandRecord)
	// Match, when set, fills what the Driver Station says of the match
	// (event, match, alliance station) for the /FMSInfo and
	// /DriverStation tables; called at most once a second, and at the
	// next Sample when MatchSeq changed.
	Match func(m *Match)
	// MatchSeq, when set, counts the changes of the match its source
	// knows of at once (the sim's WebSocket Driver Station: the game
	// data, the station), so that they reach the tables the cycle after.
	MatchSeq func() uint64
	// Joystick, when set, fills joystick n (0 to hal.MaxJoysticks-1) as
	// the Driver Station last sent it, false when unknown, for the
	// PREFIX/ds/joystickN/ topics; called on Sample's goroutine.
	Joystick func(n int, dst *hal.JoystickState) bool
	// OpModes are the robot's op modes (opmode.go): the names of the
	// snapshot's DSState.OpMode. Chooser, when set, is the op mode a
	// dashboard's chooser has active for robot mode m (0: none); the
	// choosers' topics exist only then.
	OpModes hal.OpModes
	Chooser func(m hal.Mode) int64
	// EveryCycle keeps every cycle's joint states (Loop.EnableHistory)
	// instead of the latest snapshot's: Replay gives them one cycle at a
	// time, so that a reader of every value (NT4's "all", the WPILOG)
	// misses none.
	EveryCycle bool
}

// Source fills the topics from the loop's snapshots. One goroutine.
type Source struct {
	o      Options
	Topics []*Topic
	snap   *control.Snapshot
	last   time.Duration
	seen   bool
	hist   *control.History // EveryCycle's, or nil
	replay func(now time.Duration, joints []interfaces.JointState)

	joints   []jointTopics
	cmd      [][]*Topic // per controller, the command topic of each of its joints (or nil)
	gains    []gainTopic
	tunables []tunable // Layout2027's /Tunables (layout.go)
	imus     []imuTopics
	pdps     []pdpTopics
	comps    []compTopics
	linkD    []*Topic // the link sensors: digital inputs (beam breaks)
	linkA    []*Topic // and analog inputs (range finders)
	vin      *Topic
	loop     loopTopics
	ds       dsTopics
	wds      wpilibDS
	joys     []joystickTopics // joystick.go
	mech     mechanism
	mechPace ratelimit.Cadence // SimEvery, on its grid
	alerts   alertTopics
	opModes  opModeTopics    // opmode.go
	schema   map[string]bool // the schemas published
	keepAll  bool            // every topic kept current (want.go)
	woke     bool            // a topic became needed since the last Sample

	// the sim's
	truth      Truth
	pose2d     *Topic
	pose3d     *Topic
	components *Topic
	links      []linkStep // forward kinematics, parents first
	linkPose   []xform
	jointIndex []int // truth.Names index -> links' joint value index, built once
	q          []float64
	old        []byte
	simPace    ratelimit.Cadence // SimEvery, on its grid

	odo    []odoTopics // odometry.go
	odoOld [Pose2dSize]byte
}

type jointTopics struct{ position, velocity, effort *Topic }
type gainTopic struct {
	c *control.Controller
	t *Topic
}
type imuTopics struct{ orientation, yaw, angVel, linAcc, ok *Topic }
type pdpTopics struct{ voltage, current, temperature, channels, ok *Topic }
type compTopics struct{ running, full, closedLoop, current, ok *Topic }
type loopTopics struct {
	cycles, overruns, refused, stale, blocked, devErrors, disabled *Topic
	periodMean, periodMax, jitter, busy                            *Topic
}
type dsTopics struct{ enabled, estop, attached, mode, state *Topic }

// New builds the topics of a loop's robot.
func New(o Options) *Source {
	if o.Prefix == "" {
		o.Prefix = "/frcd"
		if o.Layout == Layout2027 {
			o.Prefix = Prefix2027
		}
	}
	if o.SimEvery <= 0 {
		o.SimEvery = 20 * time.Millisecond
	}
	o.Prefix = "/" + strings.Trim(o.Prefix, "/")
	s := &Source{o: o, snap: o.Loop.NewSnapshot(), keepAll: true}
	// the sim/ topics and the mechanism at a dashboard's rate, on its
	// grid: a sample a cycle late brings the next sooner
	s.mechPace = ratelimit.Cadence{Period: o.SimEvery, Slack: time.Millisecond / 2}
	s.simPace = s.mechPace
	if o.EveryCycle {
		s.hist = o.Loop.EnableHistory(0)
		s.replay = s.setJoints
	}
	p := o.Prefix
	units := map[string][3]string{}
	for _, j := range o.Robot.Joints {
		if j.URDF != nil && j.URDF.Type == urdf.Prismatic {
			units[j.Name] = [3]string{"m", "m/s", "N"}
		} else {
			units[j.Name] = [3]string{"rad", "rad/s", "N*m"}
		}
	}
	jointAt := map[string]int{}
	for i, j := range s.snap.Joints {
		u, ok := units[j.Name]
		if !ok {
			u = [3]string{"rad", "rad/s", "N*m"}
		}
		base := p + "/joints/" + j.Name + "/"
		s.joints = append(s.joints, jointTopics{
			s.add(base+"position", "double", Double, props("unit", u[0])),
			s.add(base+"velocity", "double", Double, props("unit", u[1])),
			s.add(base+"effort", "double", Double, props("unit", u[2])),
		})
		jointAt[j.Name] = i
	}
	for _, c := range o.Loop.Controllers() {
		var ts []*Topic
		// A drive base's twist (vx, vy, ωz) and a trajectory are no value
		// per joint: its wheels and joints get no command topic.
		perJoint := c.Takes() != control.Twist && c.Takes() != control.JointTrajectory
		for _, jn := range c.Joints {
			var t *Topic
			if _, ok := jointAt[jn]; ok && perJoint {
				t = s.add(p+"/joints/"+jn+"/command", "double", Double, props("controller", c.Name, "type", c.Type))
			}
			ts = append(ts, t)
		}
		s.cmd = append(s.cmd, ts)
		if c.HasPID() {
			s.gains = append(s.gains, gainTopic{c, s.addArray(p+"/controllers/"+c.Name+"/gains", "double[]", 4, props("unit", "p i d f"))})
		}
	}
	if o.Layout == Layout2027 {
		s.addTunables()
	}
	for _, m := range s.snap.IMUs {
		base := p + "/imu/" + m.Name + "/"
		s.imus = append(s.imus, imuTopics{
			s.addArray(base+"orientation", "double[]", 4, props("unit", "quaternion x y z w")),
			s.add(base+"yaw", "double", Double, props("unit", "rad")),
			s.addArray(base+"angular_velocity", "double[]", 3, props("unit", "rad/s")),
			s.addArray(base+"linear_acceleration", "double[]", 3, props("unit", "m/s^2")),
			s.add(base+"ok", "boolean", Bool, "{}"),
		})
	}
	for _, d := range s.snap.PDPs {
		base := p + "/power/" + d.Name + "/"
		s.pdps = append(s.pdps, pdpTopics{
			s.add(base+"voltage", "double", Double, props("unit", "V")),
			s.add(base+"current", "double", Double, props("unit", "A")),
			s.add(base+"temperature", "double", Double, props("unit", "degC")),
			s.addArray(base+"channels", "double[]", interfaces.PDPChannels, props("unit", "A")),
			s.add(base+"ok", "boolean", Bool, "{}"),
		})
	}
	for _, c := range s.snap.Compressors {
		base := p + "/compressor/" + c.Name + "/"
		s.comps = append(s.comps, compTopics{
			s.add(base+"running", "boolean", Bool, "{}"),
			s.add(base+"full", "boolean", Bool, "{}"),
			s.add(base+"closed_loop", "boolean", Bool, "{}"),
			s.add(base+"current", "double", Double, props("unit", "A")),
			s.add(base+"ok", "boolean", Bool, "{}"),
		})
	}
	if o.Vin != nil {
		s.vin = s.add(p+"/power/vin", "double", Double, props("unit", "V"))
	}
	for _, d := range s.snap.LinkDigital {
		s.linkD = append(s.linkD, s.add(p+"/sensors/"+d.Name, "boolean", Bool, "{}"))
	}
	for _, d := range s.snap.LinkAnalog {
		s.linkA = append(s.linkA, s.add(p+"/sensors/"+d.Name, "double", Double, props("unit", "V")))
	}
	lp := p + "/loop/"
	sec := props("unit", "s")
	s.loop = loopTopics{
		s.add(lp+"cycles", "int", Int, "{}"), s.add(lp+"overruns", "int", Int, "{}"),
		s.add(lp+"refused", "int", Int, "{}"), s.add(lp+"stale", "int", Int, "{}"),
		s.add(lp+"blocked", "int", Int, "{}"), s.add(lp+"device_errors", "int", Int, "{}"),
		s.add(lp+"disabled", "int", Int, "{}"),
		s.add(lp+"period_mean", "double", Double, sec), s.add(lp+"period_max", "double", Double, sec),
		s.add(lp+"jitter_p99", "double", Double, sec), s.add(lp+"busy_p99", "double", Double, sec),
	}
	dp := p + "/ds/"
	s.ds = dsTopics{
		s.add(dp+"enabled", "boolean", Bool, "{}"), s.add(dp+"estop", "boolean", Bool, "{}"),
		s.add(dp+"attached", "boolean", Bool, "{}"), s.add(dp+"mode", "string", String, "{}"),
		s.add(dp+"state", "string", String, "{}"),
	}
	ap := "/SmartDashboard/Alerts/" // where WPILib's SmartDashboard puts them, in both layouts (layout.go)
	s.add(ap+".type", "string", String, props("SmartDashboard", "Alerts")).setString("Alerts", time.Microsecond)
	s.alerts.errors = s.add(ap+"errors", "string[]", Strings, "{}")
	s.alerts.warnings = s.add(ap+"warnings", "string[]", Strings, "{}")
	s.alerts.infos = s.add(ap+"infos", "string[]", Strings, "{}")
	s.alerts.devOK, s.alerts.devCfg = make([]bool, len(s.snap.Devices)), make([]bool, len(s.snap.Devices))
	s.alerts.lastExtra = -time.Hour
	s.addWPILibDS()
	s.addJoysticks()
	s.addOpModes()
	s.addMechanism()
	if o.Truth != nil && o.Truth(&s.truth) {
		s.addSim()
	}
	s.addOdometry()
	return s
}

func (s *Source) add(name, typ string, k Kind, props string) *Topic {
	t := &Topic{Name: name, Type: typ, Kind: k, Props: props, need: s.keepAll}
	s.Topics = append(s.Topics, t)
	return t
}

func (s *Source) addArray(name, typ string, n int, props string) *Topic {
	t := s.add(name, typ, Doubles, props)
	t.Doubles = make([]float64, 0, n)
	return t
}

// addSchema publishes a struct's schema, once.
func (s *Source) addSchema(sc Schema) {
	if s.schema[sc.Name] {
		return
	}
	if s.schema == nil {
		s.schema = map[string]bool{}
	}
	s.schema[sc.Name] = true
	t := s.add(SchemaTopic(sc), "structschema", Raw, "{}")
	t.Raw = []byte(sc.Decl)
	t.bump(time.Microsecond)
}

// Sample reads the loop's latest snapshot and updates the topics that
// are needed (want.go); false when no cycle ran since the last call and
// no topic became needed.
func (s *Source) Sample() bool {
	s.o.Loop.ReadSnapshot(s.snap)
	s.drainCommands()
	sn := s.snap
	if s.seen && sn.Now == s.last && !s.woke {
		return false
	}
	s.seen, s.last = true, sn.Now
	now := sn.Now
	woke := s.woke
	if woke { // the throttled parts at once
		s.woke = false
		s.wds.lastMatch, s.alerts.lastExtra = -time.Hour, -time.Hour
		s.mechPace.Restart()
		s.simPace.Restart()
	}
	if s.hist == nil {
		for i, j := range sn.Joints {
			s.setJoint(i, &j.State, now)
		}
	}
	s.sampleDevices(now)
	for i, d := range sn.LinkDigital {
		if d.OK {
			s.linkD[i].setBool(d.State.Value, now)
		}
	}
	for i, d := range sn.LinkAnalog {
		if d.OK {
			s.linkA[i].setDouble(d.State.Value, now)
		}
	}
	s.sampleLoop(now)
	for _, g := range s.gains {
		if g.t.need {
			v := g.c.Gains()
			vs := [4]float64{v.P, v.I, v.D, v.F}
			g.t.setDoubles(vs[:], now)
		}
	}
	s.sampleTunables(now)
	if d := &s.ds; anyNeeded(d.enabled, d.estop, d.attached, d.mode, d.state) {
		d.enabled.setBool(sn.Enabled, now)
		d.estop.setBool(sn.DS.EStop, now)
		d.attached.setBool(sn.DS.Attached, now)
		d.mode.setString(sn.DS.Mode.String(), now)
		s.setState(now)
	}
	if s.wds.needed() {
		s.sampleWPILibDS(now)
	}
	s.sampleJoysticks(now)
	s.sampleOpModes(now)
	if s.mech.needed() && s.mechPace.Due(now) { // a dashboard's rate, as the sim/ topics
		s.sampleMechanism(now)
	}
	if a := &s.alerts; anyNeeded(a.errors, a.warnings, a.infos) {
		s.sampleAlerts(now)
	}
	s.sampleOdometry(now)
	if s.pose2d != nil && anyNeeded(s.pose2d, s.pose3d, s.components) {
		if s.pose2d.Seq == 0 { // never sampled
			s.simPace.Restart()
		}
		if s.simPace.Due(now) {
			s.sampleSim(now)
		}
	}
	return true
}

// sampleDevices updates the IMUs, the power distribution, the
// compressors and the input voltage that are needed.
func (s *Source) sampleDevices(now time.Duration) {
	sn := s.snap
	for i, m := range sn.IMUs {
		t := s.imus[i]
		if !anyNeeded(t.ok, t.orientation, t.yaw, t.angVel, t.linAcc) {
			continue
		}
		t.ok.setBool(m.OK, now)
		if !m.OK {
			continue
		}
		o := m.State.Orientation
		t.orientation.setDoubles(o[:], now)
		t.yaw.setDouble(math.Atan2(2*(o[3]*o[2]+o[0]*o[1]), 1-2*(o[1]*o[1]+o[2]*o[2])), now)
		t.angVel.setDoubles(m.State.AngularVelocity[:], now)
		t.linAcc.setDoubles(m.State.LinearAcceleration[:], now)
	}
	for i, d := range sn.PDPs {
		t := s.pdps[i]
		if !anyNeeded(t.ok, t.voltage, t.current, t.temperature, t.channels) {
			continue
		}
		t.ok.setBool(d.OK, now)
		if !d.OK {
			continue
		}
		t.voltage.setDouble(d.State.Voltage, now)
		t.current.setDouble(d.State.TotalCurrent, now)
		t.temperature.setDouble(d.State.Temperature, now)
		n := min(max(d.State.Channels, 0), interfaces.PDPChannels)
		t.channels.setDoubles(d.State.Current[:n], now)
	}
	for i, c := range sn.Compressors {
		t := s.comps[i]
		if !anyNeeded(t.ok, t.running, t.full, t.closedLoop, t.current) {
			continue
		}
		t.ok.setBool(c.OK, now)
		if !c.OK {
			continue
		}
		t.running.setBool(c.State.Running, now)
		t.full.setBool(c.State.Full, now)
		t.closedLoop.setBool(c.State.ClosedLoop, now)
		t.current.setDouble(c.State.Current, now)
	}
	if s.vin != nil && s.vin.need {
		if v, err := s.o.Vin(); err == nil {
			s.vin.setDouble(v, now)
		}
	}
}

// sampleLoop updates the loop's statistics when one is needed.
func (s *Source) sampleLoop(now time.Duration) {
	l := &s.loop
	if !anyNeeded(l.cycles, l.overruns, l.refused, l.stale, l.blocked, l.devErrors, l.disabled,
		l.periodMean, l.periodMax, l.jitter, l.busy) {
		return
	}
	st := &s.snap.Stats
	l.cycles.setInt(int64(st.Cycles), now)
	l.overruns.setInt(int64(st.Overruns), now)
	l.refused.setInt(int64(st.Refused+s.snap.Refused), now)
	l.stale.setInt(int64(st.Stale), now)
	l.blocked.setInt(int64(st.Blocked), now)
	l.devErrors.setInt(int64(st.DeviceErrors), now)
	l.disabled.setInt(int64(st.Disabled), now)
	l.periodMean.setDouble(st.Period.Mean().Seconds(), now)
	l.periodMax.setDouble(st.Period.Max.Seconds(), now)
	l.jitter.setDouble(st.Jitter.Quantile(0.99).Seconds(), now)
	l.busy.setDouble(st.Busy.Quantile(0.99).Seconds(), now)
}

// setJoint sets joint i's topics from the latest snapshot: a value
// equal to the last one is no new value.
func (s *Source) setJoint(i int, j *interfaces.JointState, now time.Duration) {
	t := s.joints[i]
	if j.Has&interfaces.HasPosition != 0 {
		t.position.setDouble(j.Position, now)
	}
	if j.Has&interfaces.HasVelocity != 0 {
		t.velocity.setDouble(j.Velocity, now)
	}
	if j.Has&interfaces.HasEffort != 0 {
		t.effort.setDouble(j.Effort, now)
	}
}

// setJoints sets the joint topics from one cycle of the history
// (Replay). A moving joint's (velocity not 0) values are that cycle's
// sample, passed on even when equal to the cycle before's, as an ntcore
// publisher with keepDuplicates (allwpilib ntcore PubSubOptions) does: a
// cycle run right after a late one (the runner catches up without
// waiting: daemon.Run) reads an encoder that has not moved a count
// since, and a reader of every value (NT4's "all", the WPILOG) must still
// see that cycle of the motion, at its time. A joint at rest changes
// only with its value, as every other topic does, so an idle robot's log
// does not grow with repeats.
func (s *Source) setJoints(now time.Duration, joints []interfaces.JointState) {
	for i := range joints {
		j, t := &joints[i], s.joints[i]
		if j.Has&interfaces.HasVelocity == 0 || j.Velocity == 0 {
			s.setJoint(i, j, now)
			continue
		}
		if j.Has&interfaces.HasPosition != 0 {
			t.position.setDoubleEvery(j.Position, now)
		}
		t.velocity.setDoubleEvery(j.Velocity, now)
		if j.Has&interfaces.HasEffort != 0 {
			t.effort.setDoubleEvery(j.Effort, now)
		}
	}
}

// Replay sets the joint topics from the oldest cycle of the history not
// yet read (EveryCycle): false when there is none, or no history. Call
// it until false, passing the topics on after each.
func (s *Source) Replay() bool {
	return s.hist != nil && s.hist.Next(s.replay)
}

// Pause stops the loop's keeping of every cycle (nobody reads the
// topics) and forgets what it kept; Resume starts it again.
func (s *Source) Pause() {
	if s.hist != nil {
		s.hist.SetPaused(true)
		s.hist.Skip()
	}
}

// Resume undoes Pause.
func (s *Source) Resume() {
	if s.hist != nil {
		s.hist.SetPaused(false)
	}
}

// HistoryDropped counts the cycles the history had no room for (the
// reader stalled a second or more).
func (s *Source) HistoryDropped() uint64 {
	if s.hist == nil {
		return 0
	}
	return s.hist.Dropped()
}

// setState names the robot's state as Snapshot.State does, building the
// string only when it changes.
func (s *Source) setState(now time.Duration) {
	sn, t := s.snap, s.ds.state
	switch {
	case sn.DS.EStop:
		t.setString("e-stopped", now)
	case sn.Inhibit != "":
		if !strings.HasPrefix(t.Str, "inhibited: ") || t.Str[len("inhibited: "):] != sn.Inhibit {
			t.setString(sn.State(), now)
		}
	case sn.Enabled:
		t.setString("enabled", now)
	default:
		t.setString("disabled", now)
	}
}

// drainCommands passes on the controllers' commands and keeps each
// joint's last accepted one.
func (s *Source) drainCommands() {
	ctls := s.o.Loop.Controllers()
	s.o.Loop.DrainCommands(func(r *control.CommandRecord) {
		if r.Controller < 0 || r.Controller >= len(ctls) {
			return
		}
		if s.o.OnCommand != nil {
			s.o.OnCommand(ctls[r.Controller], r)
		}
		if r.Refused || r.Gains {
			return
		}
		for i, t := range s.cmd[r.Controller] {
			if t != nil && i < len(r.Values) {
				t.setDouble(r.Values[i], max(r.Stamp, 0))
			}
		}
	})
}

// Snapshot is the snapshot the last Sample read.
func (s *Source) Snapshot() *control.Snapshot { return s.snap }

// Prefix is the topics' root.
func (s *Source) Prefix() string { return s.o.Prefix }
