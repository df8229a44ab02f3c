// Package robot joins a robot's URDF and YAML device list into one checked
// description: which device drives each joint, which sensors measure it,
// where its effort comes from, and which outputs stand alone. It holds the
// cross-checks between the two files that `frcd validate` reports, and the
// model the runtime builds handles and merges joint states from.
package robot

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/urdf"
)

// Robot is a checked robot description.
type Robot struct {
	URDF   *urdf.Robot
	Config *config.File

	// Joints are the URDF's movable joints (revolute, continuous and
	// prismatic), in URDF order, with what drives and measures each.
	Joints []*Joint
	byName map[string]*Joint

	// Standalone are outputs (digital_output, analog_output, relay) whose
	// name is no URDF joint, such as LEDs: they get no joint state.
	Standalone []*config.Device
	// LinkSensors are sensors that sit in a link: IMUs, and environment
	// sensors such as range finders and beam breaks. They get no joint state.
	LinkSensors []*config.Device
}

// Joint is one movable URDF joint and the devices attached to it.
type Joint struct {
	Name string
	URDF *urdf.Joint
	// Actuator drives the joint, or is nil for a passive joint.
	Actuator *config.Device
	// Sensors measure the joint, in YAML order.
	Sensors []*config.Device
	// PDP and PDPChannel are where the joint's effort comes from (the
	// actuator's PDP channel current x KEff), or nil.
	PDP        *config.Device
	PDPChannel int
	KEff       float64
}

// Measured reports whether anything fills the joint's JointState: a sensor,
// an actuator that reports its commanded state, or a PDP channel.
func (j *Joint) Measured() bool {
	if len(j.Sensors) > 0 || j.PDP != nil {
		return true
	}
	return j.Actuator != nil && j.Actuator.Type.Provides != 0 && j.Actuator.Type.Provides != config.Effort
}

// Joint returns the movable joint of that name, or nil.
func (r *Robot) Joint(name string) *Joint { return r.byName[name] }

// Load reads, parses and checks a robot's URDF and YAML files. Findings
// are sorted. err is non-nil when a file could not be read (its finding is
// in the list too), so that callers can tell I/O trouble from a bad robot.
func Load(urdfPath, yamlPath string) (*Robot, diag.List, error) {
	var list diag.List
	var ioErr error
	read := func(path string, limit int64) []byte {
		data, err := ReadFile(path, limit)
		if err != nil {
			ioErr = errors.Join(ioErr, err)
			reason := err.Error()
			var pe *fs.PathError
			if errors.As(err, &pe) {
				reason = pe.Err.Error()
			}
			list.Errorf(diag.Pos{File: path, Line: 1, Col: 1}, "cannot read file: %s", reason)
			return nil
		}
		return data
	}
	ud, yd := read(urdfPath, MaxURDFBytes), read(yamlPath, MaxYAMLBytes)
	if ioErr != nil {
		list.Sort()
		return nil, list, ioErr
	}
	u, ul := urdf.Parse(urdfPath, ud)
	c, cl := config.Parse(yamlPath, yd)
	list.Add(ul...)
	list.Add(cl...)
	r, xl := Check(u, c)
	list.Add(xl...)
	list.Sort()
	return r, list, nil
}

// Check cross-checks a parsed URDF and YAML file and builds the Robot.
// Both may hold errors already; Check checks what did parse.
func Check(u *urdf.Robot, c *config.File) (*Robot, diag.List) {
	r := &Robot{URDF: u, Config: c, byName: map[string]*Joint{}}
	ck := &checker{r: r}
	if u.Unreadable || c.Unreadable {
		// One file is unreadable: its own finding says so, and checking
		// the other against what little was read would only bury it.
		return r, nil
	}
	for _, j := range u.Joints {
		switch j.Type {
		case urdf.Revolute, urdf.Continuous, urdf.Prismatic:
		default:
			continue // fixed joints do not move; the URDF checks refuse the rest
		}
		if j.Name == "" || r.byName[j.Name] != nil || u.Joint(j.Name) != j {
			continue
		}
		rj := &Joint{Name: j.Name, URDF: j}
		r.Joints = append(r.Joints, rj)
		r.byName[j.Name] = rj
	}
	named := map[string]bool{}
	for _, d := range c.Devices {
		if d.Type == nil || d.Name == "" || c.Device(d.Name) != d {
			continue
		}
		named[d.Name] = true
		switch d.Type.Place {
		case config.DrivesJoint:
			ck.actuator(d, true)
		case config.Output:
			ck.actuator(d, false)
		case config.JointSensor, config.LinkSensor:
			ck.sensor(d)
		}
	}
	for _, d := range c.Devices {
		if d.Type != nil && d.Type.Place == config.Output && r.byName[d.Name] == nil && u.Sensor(d.Name) == nil {
			ck.standalone(d)
		}
	}
	for _, s := range u.Sensors {
		if s.Name != "" && !named[s.Name] {
			ck.list.Warnf(s.Pos, "URDF sensor %q has no device in %s", s.Name, c.Path)
		}
	}
	for _, j := range r.Joints {
		ck.joint(j)
	}
	for _, sj := range c.SimJoints {
		if sj.Name != "" && r.byName[sj.Name] == nil {
			ck.list.Errorf(sj.NamePos, "sim joint %q: no movable URDF joint of that name%s", sj.Name, diag.DidYouMean(sj.Name, jointNames(r.Joints)))
		}
	}
	for _, d := range c.SimDisturbances {
		ck.disturbance(d)
	}
	if dt := c.SimDrivetrain; dt != nil {
		ck.drivetrain(dt)
	}
	for _, ctl := range c.Controllers {
		ck.controller(ctl)
	}
	return r, ck.list
}

// disturbance checks that a disturbance pushes a joint the sim can push:
// a movable URDF joint that mimics none, by a force only when its motor
// (or nothing) moves it rather than a positioning actuator.
func (ck *checker) disturbance(d *config.Device) {
	if d.Bool("base") && ck.r.Config.SimDrivetrain == nil {
		ck.list.Errorf(d.KeyPos("base"), "%s: the base moves only with a drivetrain: add sim: drivetrain:", d)
	}
	if !d.Has("joint") {
		return
	}
	name := d.Str("joint")
	j := ck.r.byName[name]
	switch {
	case j == nil:
		ck.list.Errorf(d.ValuePos("joint"), "%s: joint %q is no movable URDF joint%s", d, name, diag.DidYouMean(name, jointNames(ck.r.Joints)))
	case j.URDF.Mimic != nil && j.Actuator == nil:
		ck.list.Errorf(d.ValuePos("joint"), "%s: joint %q mimics %q and follows it: push that one", d, name, j.URDF.Mimic.Joint)
	case d.Str("kind") == "force" && j.Actuator != nil && j.Actuator.Type != nil && !j.Actuator.Type.Speed:
		ck.list.Errorf(d.ValuePos("kind"), "%s: a force moves a joint driven by a motor, or a passive one; %q is positioned by %s (push it with kind: velocity)", d, name, j.Actuator)
	}
}

func jointNames(js []*Joint) []string {
	names := make([]string, len(js))
	for i, j := range js {
		names[i] = j.Name
	}
	return names
}

// PositionSensor returns the sensor that gives the joint a continuous
// position and velocity (the first with a Rate state: an encoder or
// analog input), or nil.
func (j *Joint) PositionSensor() *config.Device {
	for _, s := range j.Sensors {
		if s.Type.Joint == config.RateSource {
			return s
		}
	}
	return nil
}

// drivetrain checks that the wheel joints of `sim: drivetrain:` are
// continuous URDF joints (a wheel turns without end) and that swerve's
// steering joints turn about a vertical axis.
func (ck *checker) drivetrain(dt *config.Device) {
	for _, k := range dt.Type.Keys {
		v, ok := dt.Value(k.Name)
		if !ok || !v.Set || k.Ref == nil {
			continue
		}
		names, at := v.List, v.ListAt
		if v.Kind == config.String {
			names, at = []string{v.Str}, []diag.Pos{v.Pos}
		}
		for i, name := range names {
			uj := ck.r.URDF.Joint(name)
			switch {
			case uj == nil:
				// the device's own check reports it
			case k.Name == "steer":
				if uj.Type != urdf.Revolute && uj.Type != urdf.Continuous {
					ck.list.Errorf(at[i], "%s: steer: joint %q is %s (line %d); a steering joint is revolute or continuous", dt, name, uj.Type, uj.Pos.Line)
				} else if a := uj.Axis; math.Abs(a[2]) < 0.99*math.Sqrt(a[0]*a[0]+a[1]*a[1]+a[2]*a[2]) {
					ck.list.Errorf(at[i], "%s: steer: joint %q turns about axis %v; a steering joint turns about the vertical (z) axis", dt, name, a)
				}
			case uj.Type != urdf.Continuous:
				ck.list.Errorf(at[i], "%s: %s: joint %q is %s (line %d); a wheel joint is continuous", dt, k.Name, name, uj.Type, uj.Pos.Line)
			}
		}
	}
}

// controller checks that a PID controller's joint measures what it
// needs (ControllerFacts.Measures).
func (ck *checker) controller(ctl *config.Device) {
	target := ctl.Ref("joint")
	if ctl.Type == nil || target == nil || target.Type == nil || !target.Type.Speed {
		return
	}
	j := ck.r.byName[target.Name]
	if j == nil {
		return // the device's own checks report a joint that is not in the URDF
	}
	f := ctl.Type.Controller
	if f == nil {
		return
	}
	switch f.Measures {
	case config.Position, config.Velocity:
		what := "position"
		if f.Measures == config.Velocity {
			what = "velocity"
		}
		if j.PositionSensor() == nil && !measuresItsJoint(target) {
			ck.list.Errorf(ctl.ValuePos("joint"), "%s: joint %q has no encoder or analog input, so a %s PID has nothing to measure", ctl, j.Name, what)
		}
		if f.DeviceLoop == config.Position && target.ClosesLoop() {
			ck.deviceLoop(ctl, target, j)
		}
		if f.VelocityKey != "" && !ctl.Has(f.VelocityKey) && (j.URDF.Limit == nil || j.URDF.Limit.Velocity <= 0) {
			ck.list.Errorf(ctl.ValuePos("joint"), "%s: joint %q has no velocity limit in the URDF (line %d), so the profile has none: set %s", ctl, j.Name, j.URDF.Pos.Line, f.VelocityKey)
		}
	case config.Effort:
		if j.PDP == nil && !target.Type.EffortState {
			ck.list.Errorf(ctl.ValuePos("joint"), "%s: joint %q's %s has no pdp_ch, so an effort PID has nothing to measure (effort = PDP current × k_eff)", ctl, j.Name, target)
		}
	}
}

// deviceLoop refuses a position controller handed to a device's own loop
// (closed_loop: device) where the device cannot hold the joint's
// position: the device closes on its own sensor, so a joint whose
// position comes from another sensor (a CANcoder, an encoder) would be
// driven to the device's idea of the position, off by the two sensors'
// zeros; and the device's loop does not wrap a continuous joint.
func (ck *checker) deviceLoop(ctl, target *config.Device, j *Joint) {
	if ps := j.PositionSensor(); ps != nil {
		ck.list.Errorf(ctl.ValuePos("joint"), "%s: %s closes its position loop on its own sensor (closed_loop: device), but joint %q's position comes from %s: their zeros differ; use closed_loop: roborio", ctl, target, j.Name, ps)
	}
	if j.URDF.Type == urdf.Continuous {
		ck.list.Errorf(ctl.ValuePos("joint"), "%s: joint %q is continuous and %s's own position loop (closed_loop: device) does not wrap; use closed_loop: roborio", ctl, j.Name, target)
	}
}

// measuresItsJoint reports whether a joint's actuator measures the joint
// itself (its Joint fact a RateSource: a motor controller's built-in
// encoder), which the merge takes when no sensor gives the position.
func measuresItsJoint(a *config.Device) bool {
	return a != nil && a.Type != nil && a.Type.Joint == config.RateSource
}

type checker struct {
	r    *Robot
	list diag.List
}

// actuator links a device that drives a joint. An Output may also stand
// alone (must is false): that is decided after every device is linked.
func (ck *checker) actuator(d *config.Device, must bool) {
	u := ck.r.URDF
	uj := u.Joint(d.Name)
	if uj == nil {
		if s := u.Sensor(d.Name); s != nil {
			ck.list.Errorf(d.NamePos, "%s: %q is a URDF sensor (line %d); an actuator is named after the joint it drives", d, d.Name, s.Pos.Line)
			return
		}
		if must {
			ck.list.Errorf(d.NamePos, "%s: no URDF joint named %q%s", d, d.Name, diag.DidYouMean(d.Name, u.JointNames()))
		}
		return
	}
	if uj.Type == urdf.Fixed {
		ck.list.Errorf(d.NamePos, "%s: joint %q is fixed (line %d); a fixed joint carries no actuator", d, d.Name, uj.Pos.Line)
		return
	}
	j := ck.r.byName[d.Name]
	if j == nil {
		return // refused by the URDF checks (a floating joint, say)
	}
	if j.Actuator != nil {
		ck.list.Errorf(d.NamePos, "%s: joint %q is already driven by %s (line %d); a joint has at most one actuator", d, d.Name, j.Actuator, j.Actuator.Pos.Line)
		return
	}
	j.Actuator = d
	if d.Type.Joint.NeedsLimits() && !uj.HasLimits() {
		ck.list.Errorf(d.NamePos, "%s: joint %q is %s without <limit>; a %s puts its joint at the lower or upper limit, so the joint needs limits", d, d.Name, uj.Type, d.Type.Name)
	}
	if lk, hk := d.Type.Travel[0], d.Type.Travel[1]; lk != "" && uj.HasLimits() {
		lo, hi := min(d.Float(lk), d.Float(hk)), max(d.Float(lk), d.Float(hk))
		if lo < uj.Limit.Lower-1e-9 || hi > uj.Limit.Upper+1e-9 {
			// control holds its commands to the overlap (or, with none,
			// the joint's limits)
			hl, hh := max(lo, uj.Limit.Lower), min(hi, uj.Limit.Upper)
			if hl > hh {
				hl, hh = uj.Limit.Lower, uj.Limit.Upper
			}
			ck.list.Warnf(d.Pos, "%s: %s range %.4g..%.4g rad goes beyond joint %q's limits %.4g..%.4g; its commands are held to %.4g..%.4g",
				d, d.Type.Name, lo, hi, d.Name, uj.Limit.Lower, uj.Limit.Upper, hl, hh)
		}
	}
	if e := d.Type.Effort; e != nil && d.Has(e.Channel) && d.Ref(e.Power) != nil {
		j.PDP, j.PDPChannel, j.KEff = d.Ref(e.Power), d.Int(e.Channel), d.Float(e.Scale)
	}
}

// standalone checks an output that drives no URDF joint: legal (an LED),
// but a near miss of a joint's name is most likely a typo.
func (ck *checker) standalone(d *config.Device) {
	var free []string
	for _, j := range ck.r.Joints {
		if j.Actuator == nil {
			free = append(free, j.Name)
		}
	}
	if s := diag.Suggest(d.Name, free); s != "" {
		ck.list.Warnf(d.NamePos, "%s: no URDF joint named %q, so it drives no joint and gets no joint state (did you mean %q?)", d, d.Name, s)
	}
	ck.r.Standalone = append(ck.r.Standalone, d)
}

func (ck *checker) sensor(d *config.Device) {
	u := ck.r.URDF
	s := u.Sensor(d.Name)
	if s == nil {
		if j := u.Joint(d.Name); j != nil {
			ck.list.Errorf(d.NamePos, "%s: %q is a URDF joint (line %d); a sensor is named after a <sensor> element, e.g. one inside that joint", d, d.Name, j.Pos.Line)
			return
		}
		if f := u.ForeignSensor(d.Name); f != nil {
			ck.list.Errorf(d.NamePos, "%s: URDF sensor %q (line %d) is another tool's (type %q), which frcd leaves alone: an frcd sensor sits in a joint or a link, or has <parent> alone", d, d.Name, f.Pos.Line, f.Type)
			return
		}
		ck.list.Errorf(d.NamePos, "%s: no URDF sensor named %q%s", d, d.Name, diag.DidYouMean(d.Name, u.SensorNames()))
		return
	}
	jointKey := d.Has("joint")
	switch {
	case s.Joint != "":
		if d.Type.Place == config.LinkSensor {
			ck.list.Errorf(d.NamePos, "%s: an IMU senses the link it sits in, but URDF sensor %q (line %d) is in joint %q; put it in a <link>", d, d.Name, s.Pos.Line, s.Joint)
			return
		}
		if jointKey && d.Str("joint") != s.Joint {
			ck.list.Errorf(d.ValuePos("joint"), "%s: joint %q disagrees with the URDF, where sensor %q measures joint %q (line %d)", d, d.Str("joint"), d.Name, s.Joint, s.Pos.Line)
		}
		j := ck.r.byName[s.Joint]
		if uj := u.Joint(s.Joint); j == nil && uj != nil && uj.Type == urdf.Fixed {
			// The URDF's own finding at the sensor stays a warning (another
			// tool's sensor there is legal); a device there would measure a
			// joint that never moves, which the spec forbids.
			ck.list.Errorf(d.NamePos, "%s: URDF sensor %q (line %d) is in joint %q, which is fixed (line %d); a fixed joint carries no sensor, as it never moves", d, d.Name, s.Pos.Line, uj.Name, uj.Pos.Line)
			return
		}
		if j == nil {
			return // a missing joint: reported by the URDF checks
		}
		if d.Type.Joint.NeedsLimits() && !j.URDF.HasLimits() {
			ck.list.Errorf(d.NamePos, "%s: joint %q is %s without <limit>; a digital input reports its joint at the lower or upper limit, so the joint needs limits", d, j.Name, j.URDF.Type)
		}
		j.Sensors = append(j.Sensors, d)
	case s.Link != "":
		if jointKey {
			ck.list.Errorf(d.ValuePos("joint"), "%s: joint %q disagrees with the URDF, where sensor %q sits in link %q (line %d) and measures no joint", d, d.Str("joint"), d.Name, s.Link, s.Pos.Line)
		}
		if d.Has("limit") {
			ck.list.Errorf(d.KeyPos("limit"), "%s: limit marks a limit switch of a joint, but URDF sensor %q sits in link %q", d, d.Name, s.Link)
		}
		if d.Type.JointOnly {
			ck.list.Warnf(d.NamePos, "%s: URDF sensor %q sits in link %q, so the %s measures no joint", d, d.Name, s.Link, d.Type.Name)
		}
		ck.r.LinkSensors = append(ck.r.LinkSensors, d)
	}
	if d.Type.Place == config.LinkSensor && d.Has("frame_id") && u.Link(d.Str("frame_id")) == nil {
		ck.list.Errorf(d.ValuePos("frame_id"), "%s: frame_id %q is no URDF link%s", d, d.Str("frame_id"), diag.DidYouMean(d.Str("frame_id"), u.LinkNames()))
	}
}

// joint checks what a movable joint ended up with.
func (ck *checker) joint(j *Joint) {
	var positions []string
	limits := map[string]*config.Device{}
	for _, s := range j.Sensors {
		switch s.Type.Joint {
		case config.RateSource:
			positions = append(positions, fmt.Sprintf("%s (line %d)", s, s.Pos.Line))
		case config.SwitchSource:
			if lim := s.Str("limit"); lim != "" {
				if other := limits[lim]; other != nil {
					ck.list.Errorf(s.ValuePos("limit"), "%s: joint %q already has an %s limit switch, %s (line %d)", s, j.Name, lim, other, other.Pos.Line)
				}
				limits[lim] = s
			} else {
				positions = append(positions, fmt.Sprintf("%s (line %d)", s, s.Pos.Line))
			}
		}
	}
	if len(positions) > 1 {
		ck.list.Warnf(j.URDF.Pos, "joint %q has %d position sensors: %s; the first one listed sets its position", j.Name, len(positions), strings.Join(positions, ", "))
	}
	if !j.Measured() && j.Actuator == nil && j.URDF.Mimic == nil {
		ck.list.Warnf(j.URDF.Pos, "joint %q is neither driven nor measured: no device in %s names it or a sensor in it, so it gets no joint state", j.Name, ck.r.Config.Path)
	}
}
