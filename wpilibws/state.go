package wpilibws

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/sim"
)

const (
	numPWM       = sim.NumPWM
	numDIO       = sim.NumDIO
	numAI        = sim.NumAI
	numRelay     = sim.NumRelay
	numJoysticks = sim.NumJoysticks
	maxAxes      = sim.MaxAxes
	maxButtons   = sim.MaxButtons
	maxPOVs      = sim.MaxPOVs
	gravity      = 9.80665 // m/s² per g
	rad2deg      = 180 / math.Pi
)

// pwmUse is what the YAML wires to a PWM channel, for <speed and
// <position.
type pwmUse struct {
	cal   *frc.PWMCalibration // a PWM speed controller
	servo bool
	lo    time.Duration // servo pulse range
	hi    time.Duration
	nidec int // a Nidec Brushless: its DIO channel; -1 when not
}

// wiring is what the YAML says about the channels, read once.
type wiring struct {
	pwm       [numPWM]pwmUse
	relayDir  [numRelay]string // "both", "forward", "reverse"; "" when no YAML relay
	solenoids [][2]int         // PCM id, channel, in YAML order
	ops       hal.OpModes
	opList    value // <opmodes: [{"name":...,"mode":...}], in YAML order
}

// opModeJSON is one op mode in <opmodes.
type opModeJSON struct {
	Name string `json:"name"`
	Mode string `json:"mode"`
}

// withOpModes adds the robot's op modes.
func (w *wiring) withOpModes(ops hal.OpModes) *wiring {
	w.ops = ops
	list := make([]opModeJSON, len(ops))
	for i, o := range ops {
		list[i] = opModeJSON{o.Name, o.Mode.String()}
	}
	w.opList = rawV(list)
	return w
}

// newWiring reads the YAML's channel claims by their resources and the
// types' facts: a PWM channel's speed controller calibration, servo pulse
// range or duty-cycle DIO, a relay's direction, the pneumatics channels.
func newWiring(c *config.File) *wiring {
	w := &wiring{opList: rawV([]opModeJSON(nil))}
	for i := range w.pwm {
		w.pwm[i].nidec = -1
	}
	for _, d := range c.Devices {
		if d.Type == nil {
			continue
		}
		t := d.Type
		for _, k := range t.Keys {
			if !d.Has(k.Name) {
				continue
			}
			ch := d.Int(k.Name)
			switch k.Resource {
			case config.PWM:
				if ch < 0 || ch >= numPWM {
					continue
				}
				switch {
				case t.Pulse[0] != "":
					w.pwm[ch] = pwmUse{servo: true, nidec: -1, lo: time.Duration(d.Int(t.Pulse[0])) * time.Microsecond,
						hi: time.Duration(d.Int(t.Pulse[1])) * time.Microsecond}
				case t.DutyDIO != "":
					w.pwm[ch] = pwmUse{nidec: d.Int(t.DutyDIO)}
				case t.PWM != nil:
					cal := *t.PWM
					w.pwm[ch] = pwmUse{cal: &cal, nidec: -1}
				}
			case config.RelayChannel:
				if ch >= 0 && ch < numRelay {
					w.relayDir[ch] = d.Str("direction")
				}
			case config.PCMChannel:
				w.solenoids = append(w.solenoids, [2]int{d.Int(k.Scope), ch})
			}
		}
	}
	return w
}

// device is one device's data in a state.
type device struct {
	typ, dev string
	fields   []field
}

// dsExtra is the Driver Station's state that only the WebSocket clients
// set, kept by the server.
type dsExtra struct {
	station   string
	matchTime float64
	gameData  string
}

// build turns the sim's I/O into the protocol's devices, in a fixed
// order: DriverStation, Joysticks, PWM, DIO, dPWM, AI, Encoder, Relay,
// Solenoid, CANMotor, Gyro and Accel.
func (w *wiring) build(io *sim.IO, joys *[numJoysticks]sim.Joystick, ds dsExtra) []device {
	var out []device
	add := func(typ, dev string, fields ...field) { out = append(out, device{typ, dev, fields}) }

	add("DriverStation", "",
		field{">enabled", boolV(io.DS.Enabled)}, field{">autonomous", boolV(io.DS.Mode == hal.Autonomous)},
		field{">test", boolV(io.DS.Mode == hal.Test)}, field{">estop", boolV(io.DS.EStop)},
		field{">ds", boolV(io.DS.Attached)}, field{">fms", boolV(io.DS.FMS)}, field{">station", strV(ds.station)},
		field{">match_time", floatV(ds.matchTime)}, field{">game_data", strV(ds.gameData)},
		field{"<opmodes", w.opList}, field{">opmode", strV(w.ops.Name(io.DS.OpMode))})
	for n := range joys {
		j := &joys[n]
		add("Joystick", strconv.Itoa(n), field{">axes", rawV(j.Axes)}, field{">buttons", rawV(j.Buttons)}, field{">povs", rawV(j.POVs)})
	}
	for ch := range io.PWM {
		p := io.PWM[ch]
		if !p.Open {
			continue
		}
		fs := []field{{"<init", boolV(true)}}
		u := w.pwm[ch]
		switch {
		case u.servo:
			pos := 0.0
			if p.Width > 0 {
				pos = max(0, min(1, float64(p.Width-u.lo)/float64(u.hi-u.lo)))
			}
			fs = append(fs, field{"<position", floatV(pos)})
		case u.nidec >= 0:
			speed := 0.0
			if p.Width > 0 && u.nidec < numDIO && io.DIO[u.nidec].Use == sim.DIODutyCycle {
				speed = (io.DIO[u.nidec].Duty - 0.5) * 2
			}
			fs = append(fs, field{"<speed", floatV(speed)})
		case u.cal != nil:
			fs = append(fs, field{"<speed", floatV(u.cal.Duty(p.Width))})
		default: // a PWM no YAML device claims: WPILib's default bounds
			fs = append(fs, field{"<speed", floatV(frc.PWMGeneric.Duty(p.Width))})
		}
		add("PWM", strconv.Itoa(ch), fs...)
	}
	for ch := range io.DIO {
		d := io.DIO[ch]
		if d.Use == sim.DIOInput || d.Use == sim.DIOOutput {
			add("DIO", strconv.Itoa(ch), field{"<init", boolV(true)}, field{"<input", boolV(d.Use == sim.DIOInput)}, field{"<>value", boolV(d.Level)})
		}
	}
	n := 0
	for ch := range io.DIO {
		if d := io.DIO[ch]; d.Use == sim.DIODutyCycle {
			add("dPWM", strconv.Itoa(n), field{"<init", boolV(true)}, field{"<duty_cycle", floatV(d.Duty)}, field{"<dio_pin", intV(int64(ch))})
			n++
		}
	}
	for ch := range io.AI {
		if a := io.AI[ch]; a.Open {
			add("AI", strconv.Itoa(ch), field{"<init", boolV(true)}, field{">voltage", floatV(a.Volts)})
		}
	}
	for i, e := range io.Encoders {
		period := e.Period
		if math.IsInf(period, 1) {
			period = math.MaxFloat64 // stopped: JSON has no infinity
		}
		add("Encoder", strconv.Itoa(i), field{"<init", boolV(true)}, field{"<channel_a", intV(int64(e.A))},
			field{"<channel_b", intV(int64(e.B))}, field{">count", intV(e.Count)}, field{">period", floatV(period)})
	}
	for ch := range io.Relay {
		r := io.Relay[ch]
		if !r.Open {
			continue
		}
		dir := w.relayDir[ch]
		add("Relay", strconv.Itoa(ch), field{"<init_fwd", boolV(dir != "reverse")}, field{"<init_rev", boolV(dir != "forward")},
			field{"<fwd", boolV(r.Fwd)}, field{"<rev", boolV(r.Rev)})
	}
	for _, sc := range w.solenoids {
		on := false
		for _, p := range io.PCMs {
			if p.ID == sc[0] && sc[1] >= 0 && sc[1] < 8 {
				on = p.Solenoids&(1<<uint(sc[1])) != 0
			}
		}
		add("Solenoid", strconv.Itoa(sc[0])+","+strconv.Itoa(sc[1]), field{"<init", boolV(true)}, field{"<output", boolV(on)})
	}
	for _, m := range io.CANMotors {
		add("CANMotor", m.Model+"["+strconv.Itoa(m.ID)+"]", field{"<percentOutput", floatV(m.Duty)})
	}
	for _, m := range io.IMUs {
		a := euler(m.Motion.Orientation)
		r := m.Motion.AngularVelocity
		add("Gyro", m.Name, field{"<init", boolV(true)}, field{">connected", boolV(true)},
			field{">angle_x", floatV(a[0] * rad2deg)}, field{">angle_y", floatV(a[1] * rad2deg)}, field{">angle_z", floatV(a[2] * rad2deg)},
			field{">rate_x", floatV(r[0] * rad2deg)}, field{">rate_y", floatV(r[1] * rad2deg)}, field{">rate_z", floatV(r[2] * rad2deg)})
	}
	for _, m := range io.IMUs {
		l := m.Motion.LinearAcceleration
		add("Accel", m.Name, field{"<init", boolV(true)},
			field{">x", floatV(l[0] / gravity)}, field{">y", floatV(l[1] / gravity)}, field{">z", floatV(l[2] / gravity)})
	}
	return out
}

// rawV is a JSON array value; an empty one for nil.
func rawV[T any](a []T) value {
	if a == nil {
		a = []T{}
	}
	b, _ := json.Marshal(a) // floats are finite (sim.SetJoystick checks)
	return value{k: kRaw, s: string(b)}
}

// euler is a unit quaternion (w, x, y, z; zero read as identity) as roll,
// pitch and yaw about x, y and z (Z-Y-X order), rad.
func euler(q [4]float64) [3]float64 {
	if q == [4]float64{} {
		return [3]float64{}
	}
	w, x, y, z := q[0], q[1], q[2], q[3]
	roll := math.Atan2(2*(w*x+y*z), 1-2*(x*x+y*y))
	pitch := math.Asin(max(-1, min(1, 2*(w*y-z*x))))
	yaw := math.Atan2(2*(w*z+x*y), 1-2*(y*y+z*z))
	return [3]float64{roll, pitch, yaw}
}

// diff appends to msgs the messages that take a client from prev to cur:
// for each device, the fields that changed (all of them for a device
// prev lacks).
func diff(msgs [][]byte, prev, cur []device) [][]byte {
	old := make(map[[2]string][]field, len(prev))
	for _, d := range prev {
		old[[2]string{d.typ, d.dev}] = d.fields
	}
	var changed []field
	for _, d := range cur {
		was, ok := old[[2]string{d.typ, d.dev}]
		changed = changed[:0]
		for _, f := range d.fields {
			if !ok || !hasSame(was, f) {
				changed = append(changed, f)
			}
		}
		if len(changed) > 0 {
			msgs = append(msgs, appendMessage(nil, d.typ, d.dev, changed))
		}
	}
	return msgs
}

func hasSame(fs []field, f field) bool {
	for _, g := range fs {
		if g.key == f.key {
			return g.v.same(f.v)
		}
	}
	return false
}
