package wpilibws

import (
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/urdf"
)

// handle applies one client message's robot inputs. Call with s.mu held.
func (s *Server) handle(c *client, b []byte) {
	m, err := Decode(b)
	if err != nil {
		s.stats.Ignored++
		return
	}
	in, known := parseInput(m)
	if !known {
		s.stats.Ignored++
		return
	}
	s.stats.BadValues += uint64(in.bad)
	switch in.typ {
	case "DriverStation":
		s.driverStation(c, in)
	case "Joystick":
		s.joystick(in)
	case "DIO":
		s.override(c, in, "<>value", sim.Override{Kind: sim.OverrideDIO, Channel: in.channel}, func(v value) error {
			return s.o.Sim.OverrideDIO(in.channel, v.b)
		})
	case "AI":
		s.override(c, in, ">voltage", sim.Override{Kind: sim.OverrideAI, Channel: in.channel}, func(v value) error {
			return s.o.Sim.OverrideAI(in.channel, v.f)
		})
	case "Encoder":
		s.override(c, in, ">count", sim.Override{Kind: sim.OverrideEncoder, Channel: in.channel}, func(v value) error {
			return s.o.Sim.OverrideEncoder(in.channel, v.i)
		})
	case "Gyro", "Accel":
		s.imu(c, in)
	}
}

// override sets (or, for a null, ends) the override of one input key and
// notes that c owns it.
func (s *Server) override(c *client, in input, key string, o sim.Override, set func(value) error) {
	for _, k := range in.nulls {
		if k == key {
			s.o.Sim.Clear(o)
			delete(s.owner, o)
			return
		}
	}
	v, ok := in.vals[key]
	if !ok {
		return
	}
	if err := set(v); err != nil {
		s.stats.BadValues++
		return
	}
	s.owner[o] = c
}

func (s *Server) driverStation(c *client, in input) {
	v := in.vals
	s.o.Sim.UpdateDS(func(ds *hal.DSState) {
		if x, ok := v[">estop"]; ok {
			ds.EStop = x.b
		}
		if x, ok := v[">ds"]; ok {
			ds.Attached = x.b
		}
		if x, ok := v[">fms"]; ok { // the control word's fmsAttached bit
			ds.FMS = x.b
		}
		// A mode set true takes over; set false, it falls back to teleop.
		for key, mode := range map[string]hal.Mode{">autonomous": hal.Autonomous, ">test": hal.Test} {
			if x, ok := v[key]; ok && (x.b || ds.Mode == mode) {
				ds.Mode = hal.Teleop
				if x.b {
					ds.Mode = mode
				}
			}
		}
		// An op mode belongs to a robot mode: another mode drops it.
		if ds.OpMode != 0 && hal.OpModeMode(ds.OpMode) != ds.Mode {
			ds.OpMode = 0
		}
		if x, ok := v[">opmode"]; ok {
			s.selectOpMode(ds, x.s)
		}
	})
	if x, ok := v[">enabled"]; ok {
		s.o.SetEnabled(x.b)
		s.enabledBy = nil
		if x.b {
			s.enabledBy = c
		}
	}
	if x, ok := v[">station"]; ok && x.s != s.ds.station {
		s.ds.station = x.s
		s.matchSeq.Add(1)
	}
	if x, ok := v[">match_time"]; ok {
		s.ds.matchTime = x.f
	}
	if x, ok := v[">game_data"]; ok && x.s != s.ds.gameData {
		s.ds.gameData = x.s
		s.matchSeq.Add(1)
	}
}

// selectOpMode selects the op mode named name, as the 2027 Driver
// Station does, in its robot mode: the current mode's op mode of that
// name, else the first of that name in the YAML's order; "" selects
// none. A name the robot does not have is refused and counted.
func (s *Server) selectOpMode(ds *hal.DSState, name string) {
	if name == "" {
		ds.OpMode = 0
		return
	}
	op, ok := s.w.ops.Find(ds.Mode, name)
	for i := 0; !ok && i < len(s.w.ops); i++ {
		op, ok = s.w.ops[i], s.w.ops[i].Name == name
	}
	if !ok {
		s.stats.BadValues++
		return
	}
	ds.OpMode, ds.Mode = op.ID, op.Mode
}

// joystick replaces the arrays the message carries. frcd has no robot
// program caching Driver Station data, so values apply at once (">new_data"
// is accepted and has nothing to do).
func (s *Server) joystick(in input) {
	j := s.o.Sim.Joystick(in.channel)
	if in.joy.axes != nil {
		j.Axes = in.joy.axes
	}
	if in.joy.buttons != nil {
		j.Buttons = in.joy.buttons
	}
	if in.joy.povs != nil {
		j.POVs = in.joy.povs
	}
	if err := s.o.Sim.SetJoystick(in.channel, j); err != nil {
		s.stats.BadValues++
	}
}

// imu applies a Gyro (angles and rates, degrees) or Accel (g) message to
// the IMU of that YAML name, holding it overridden; keys the message
// lacks keep their present values. A null on any key ends the override.
// ">connected" is accepted and ignored.
func (s *Server) imu(c *client, in input) {
	s.o.Sim.ReadIO(&s.io)
	idx := -1
	for i, m := range s.io.IMUs {
		if m.Name == in.name {
			idx = i
		}
	}
	if idx < 0 {
		s.stats.BadValues += uint64(len(in.vals) + len(in.nulls))
		return
	}
	o := sim.Override{Kind: sim.OverrideIMU, Name: in.name}
	if len(in.nulls) > 0 {
		s.o.Sim.Clear(o)
		delete(s.owner, o)
		return
	}
	m := s.io.IMUs[idx].Motion
	set := false
	get := func(key string, dst *float64, scale float64) {
		if x, ok := in.vals[key]; ok {
			*dst, set = x.f*scale, true
		}
	}
	if in.typ == "Gyro" {
		a := euler(m.Orientation)
		before := a
		for i, axis := range [3]string{"x", "y", "z"} {
			get(">angle_"+axis, &a[i], 1/rad2deg)
			get(">rate_"+axis, &m.AngularVelocity[i], 1/rad2deg)
		}
		if a != before {
			m.Orientation = urdf.Vec3(a).Quaternion()
		}
	} else {
		for i, axis := range [3]string{"x", "y", "z"} {
			get(">"+axis, &m.LinearAcceleration[i], gravity)
		}
	}
	if !set {
		return
	}
	if err := s.o.Sim.OverrideIMU(in.name, m); err != nil {
		s.stats.BadValues++
		return
	}
	s.owner[o] = c
}
