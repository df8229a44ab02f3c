package daemon

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
)

var update = flag.Bool("update", false, "rewrite the scenarios' golden files")

// TestScenarios runs each testdata/scenarios/*.txt script on the
// deterministic sim and compares its transcript with the .golden file
// beside it (go test ./daemon -run Scenarios -update rewrites them). The
// scripts' `expect` lines are checked as they run, so a golden file can
// never bless a wrong result.
func TestScenarios(t *testing.T) {
	scripts, err := filepath.Glob("testdata/scenarios/*.txt")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := runScenario(t, path, string(src))
			golden := strings.TrimSuffix(path, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("transcript differs from %s (-update rewrites it):\n%s", golden, diffLines(string(want), got))
			}
		})
	}
}

func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, a, c)
		}
	}
	return b.String()
}

// scenario is one script's state.
type scenario struct {
	t    *testing.T
	path string
	line int
	out  strings.Builder
	d    *Daemon
}

func (s *scenario) printf(format string, args ...any) { fmt.Fprintf(&s.out, format+"\n", args...) }

func (s *scenario) fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.t.Errorf("%s:%d: %s", s.path, s.line, msg)
	s.printf("FAIL: %s", msg)
}

func runScenario(t *testing.T, path, src string) string {
	s := &scenario{t: t, path: path}
	sc := bufio.NewScanner(strings.NewReader(src))
	for sc.Scan() {
		s.line++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			s.out.WriteString("\n")
			continue
		}
		if strings.HasPrefix(line, "#") {
			s.printf("%s", line)
			continue
		}
		s.printf("> %s", line)
		f := strings.Fields(line)
		if f[0] != "robot" && f[0] != "robot-unchecked" && s.d == nil {
			s.fail("no robot loaded")
			break
		}
		s.do(f)
	}
	return s.out.String()
}

func (s *scenario) num(v string) float64 {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		s.fail("bad number %q", v)
	}
	return x
}

func (s *scenario) do(f []string) {
	d := s.d
	switch f[0] {
	case "robot", "robot-unchecked":
		dir := filepath.Join("testdata", f[1]) // a robot of the scenarios'
		if strings.HasPrefix(f[1], ".") {
			dir = f[1] // a path from the package, such as ../examples/competition
		}
		r, list, err := robot.Load(filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml"))
		if err != nil {
			s.fail("load: %v", err)
			return
		}
		for _, e := range list {
			if e.Severity == 0 || f[0] == "robot-unchecked" {
				s.printf("%s", strings.ReplaceAll(e.String(), dir+"/", ""))
			}
		}
		if list.Errors() > 0 && f[0] == "robot" {
			s.fail("the robot has errors")
			return
		}
		dd, err := NewSim(r, SimOptions{}, Options{})
		if err != nil {
			s.printf("error: %v", err)
			return
		}
		s.d = dd
		s.printf("period %s, %d devices, %d controllers", dd.Loop.Period(), len(dd.Devices), len(dd.Loop.Controllers()))
	case "enable":
		d.Sim.SetDS(hal.DSState{Enabled: true, Attached: true})
	case "disable":
		d.Sim.SetDS(hal.DSState{Enabled: false, Attached: true})
	case "estop":
		d.Sim.SetDS(hal.DSState{Enabled: true, EStop: true, Attached: true})
	case "command":
		c := d.Loop.Controller(f[1])
		if c == nil {
			s.fail("no controller %q", f[1])
			return
		}
		var err error
		if len(f) > 3 { // a group's values, such as a drive base's twist
			vs := make([]float64, len(f)-2)
			for i := range vs {
				vs[i] = s.num(f[2+i])
			}
			err = c.CommandGroup(vs, d.Now())
		} else {
			err = c.Command(s.num(f[2]), d.Now())
		}
		if err != nil {
			s.printf("refused: %v", err)
		}
	case "run":
		dur, err := time.ParseDuration(f[1])
		if err != nil {
			s.fail("bad duration %q", f[1])
			return
		}
		n := int((dur + d.Loop.Period() - 1) / d.Loop.Period())
		for i := 0; i < n; i++ {
			d.Step()
		}
		s.printf("t=%.3fs", d.Now().Seconds())
	case "step":
		n, _ := strconv.Atoi(f[1])
		for i := 0; i < n; i++ {
			d.Step()
		}
		s.printf("t=%.3fs", d.Now().Seconds())
	case "joint":
		for _, name := range f[1:] {
			js, ok := d.Loop.JointState(name)
			if !ok {
				s.fail("no joint %q", name)
				continue
			}
			s.printf("%s %s", name, fmtJoint(js))
		}
	case "truth":
		for _, name := range f[1:] {
			tr, ok := d.Sim.Joint(name)
			if !ok {
				s.fail("no sim joint %q", name)
				continue
			}
			s.printf("%s truth pos=%.4f vel=%.4f current=%.3f volts=%.3f", name, tr.Position, tr.Velocity, tr.Current, tr.Voltage)
		}
	case "state":
		for _, key := range f[1:] {
			v, ok := s.state(key)
			if ok {
				s.printf("%s %s", key, v)
			}
		}
	case "pwm":
		var parts []string
		for _, ch := range f[1:] {
			n, _ := strconv.Atoi(ch)
			parts = append(parts, fmt.Sprintf("%d=%dµs", n, d.Sim.PWMPulse(n)/time.Microsecond))
		}
		s.printf("pwm %s", strings.Join(parts, " "))
	case "solenoids":
		pcm, _ := strconv.Atoi(f[1])
		var bits []string
		for ch := 0; ch < 8; ch++ {
			bits = append(bits, map[bool]string{true: "1", false: "0"}[d.Sim.Solenoid(pcm, ch)])
		}
		on, psi := d.Sim.Compressor(pcm)
		s.printf("pcm %d solenoids %s compressor=%v pressure=%.1fpsi", pcm, strings.Join(bits, ""), on, psi)
	case "counters":
		st := d.Loop.Stats()
		s.printf("refused=%d stale=%d blocked=%d nofeedback=%d deverrors=%d disabled=%d", st.Refused+refused(d), st.Stale, st.Blocked, st.NoFeedback, st.DeviceErrors, st.Disabled)
	case "set-sensor":
		if err := d.Sim.SetSensor(f[1], s.num(f[2])); err != nil {
			s.fail("%v", err)
		}
	case "set-joint":
		if err := d.Sim.SetJoint(f[1], s.num(f[2]), s.num(f[3])); err != nil {
			s.fail("%v", err)
		}
	case "expect":
		s.expect(f[1:])
	default:
		s.fail("unknown command %q", f[0])
	}
}

func refused(d *Daemon) uint64 {
	var n uint64
	for _, c := range d.Loop.Controllers() {
		n += c.Refused()
	}
	return n
}

func fmtJoint(js interfaces.JointState) string {
	f := func(has interfaces.Fields, v float64) string {
		if js.Has&has == 0 {
			return "-"
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	return fmt.Sprintf("pos=%s vel=%s eff=%s", f(interfaces.HasPosition, js.Position), f(interfaces.HasVelocity, js.Velocity), f(interfaces.HasEffort, js.Effort))
}

// state formats a state handle "name/iface" and gives its value as a number.
func (s *scenario) stateValue(key string) (string, float64, bool) {
	i := strings.LastIndex(key, "/")
	if i < 0 {
		s.fail("state key %q is not name/interface", key)
		return "", 0, false
	}
	name, iface := key[:i], key[i+1:]
	reg := s.d.Handles
	switch iface {
	case interfaces.Rate:
		if h, err := interfaces.State[interfaces.RateState](reg, name, iface); err == nil {
			return fmt.Sprintf("state=%.4f rate=%.4f", h.State, h.Rate), h.State, true
		}
	case interfaces.Binary:
		if h, err := interfaces.State[interfaces.BinaryState](reg, name, iface); err == nil {
			v := 0.0
			if h.Value {
				v = 1
			}
			return fmt.Sprintf("%v", h.Value), v, true
		}
	case interfaces.Ternary:
		if h, err := interfaces.State[interfaces.TernaryState](reg, name, iface); err == nil {
			return h.Value.String(), float64(h.Value), true
		}
	case interfaces.Analog, interfaces.Voltage, interfaces.Position:
		if h, err := interfaces.State[interfaces.AnalogState](reg, name, iface); err == nil {
			return fmt.Sprintf("%.4f", h.Value), h.Value, true
		}
	}
	s.fail("no state handle %q", key)
	return "", 0, false
}

func (s *scenario) state(key string) (string, bool) {
	str, _, ok := s.stateValue(key)
	return str, ok
}

// compare applies op (>, <, ~ with tolerance tol) and reports a failure.
func (s *scenario) compare(what string, got float64, op string, want, tol float64) {
	ok := false
	switch op {
	case ">":
		ok = got > want
	case "<":
		ok = got < want
	case "~":
		ok = math.Abs(got-want) <= tol
	case "==":
		ok = got == want
	default:
		s.fail("unknown operator %q", op)
		return
	}
	if !ok {
		s.fail("%s = %.6g, want %s %.6g (tolerance %.3g)", what, got, op, want, tol)
		return
	}
	s.printf("ok: %s %s %g", what, op, want)
}

func (s *scenario) expect(f []string) {
	d := s.d
	tol := func(i int) float64 {
		if len(f) > i {
			return s.num(f[i])
		}
		return 1e-3
	}
	switch f[0] {
	case "joint": // expect joint NAME FIELD OP VALUE [TOL] | expect joint NAME FIELD absent
		js, ok := d.Loop.JointState(f[1])
		if !ok {
			s.fail("no joint %q", f[1])
			return
		}
		var has interfaces.Fields
		var v float64
		switch f[2] {
		case "position":
			has, v = interfaces.HasPosition, js.Position
		case "velocity":
			has, v = interfaces.HasVelocity, js.Velocity
		case "effort":
			has, v = interfaces.HasEffort, js.Effort
		default:
			s.fail("unknown field %q", f[2])
			return
		}
		if f[3] == "absent" {
			if js.Has&has != 0 {
				s.fail("%s %s = %.6g, want absent", f[1], f[2], v)
				return
			}
			s.printf("ok: %s %s absent", f[1], f[2])
			return
		}
		if js.Has&has == 0 {
			s.fail("%s %s is absent", f[1], f[2])
			return
		}
		s.compare(f[1]+" "+f[2], v, f[3], s.num(f[4]), tol(5))
	case "state": // expect state KEY OP VALUE [TOL]
		_, v, ok := s.stateValue(f[1])
		if ok {
			s.compare(f[1], v, f[2], s.num(f[3]), tol(4))
		}
	case "truth": // expect truth NAME position|velocity OP VALUE [TOL]
		tr, _ := d.Sim.Joint(f[1])
		v := tr.Position
		if f[2] == "velocity" {
			v = tr.Velocity
		}
		s.compare(f[1]+" truth "+f[2], v, f[3], s.num(f[4]), tol(5))
	case "pwm": // expect pwm CH OP MICROSECONDS
		n, _ := strconv.Atoi(f[1])
		s.compare("pwm "+f[1]+" µs", float64(d.Sim.PWMPulse(n))/float64(time.Microsecond), f[2], s.num(f[3]), tol(4))
	case "counter": // expect counter NAME OP VALUE
		st := d.Loop.Stats()
		vals := map[string]uint64{"refused": st.Refused + refused(d), "stale": st.Stale, "blocked": st.Blocked, "nofeedback": st.NoFeedback, "deverrors": st.DeviceErrors}
		v, ok := vals[f[1]]
		if !ok {
			s.fail("unknown counter %q", f[1])
			return
		}
		s.compare("counter "+f[1], float64(v), f[2], s.num(f[3]), 0)
	case "effort-matches": // expect effort-matches JOINT TOL: effort = |sim current| x k_eff, signed by the voltage
		js, _ := d.Loop.JointState(f[1])
		tr, _ := d.Sim.Joint(f[1])
		rj := d.Robot.Joint(f[1])
		kEff := rj.KEff
		if a := rj.Actuator; rj.PDP == nil && a != nil && a.Type.EffortState {
			kEff = a.Float("k_eff") // the controller's own current
		}
		want := math.Abs(tr.Current) * kEff
		if tr.Voltage < 0 {
			want = -want
		}
		if js.Has&interfaces.HasEffort == 0 {
			s.fail("%s effort is absent", f[1])
			return
		}
		s.compare(f[1]+" effort vs sim current x k_eff", js.Effort, "~", want, s.num(f[2]))
	case "neutral": // every PWM disabled, every solenoid off, every relay off, every CAN motor 0
		bad := notNeutral(d)
		if len(bad) > 0 {
			s.fail("outputs not neutral: %s", strings.Join(bad, "; "))
			return
		}
		s.printf("ok: every output neutral")
	default:
		s.fail("unknown expectation %q", f[0])
	}
}

// notNeutral lists the sim's outputs that are not neutral: a PWM pulsing,
// a solenoid, compressor, relay or digital output on, an analog output or
// a CAN motor not at 0, a PCM sent anything but all off.
func notNeutral(d *Daemon) []string {
	var bad []string
	for ch := 0; ch < 20; ch++ {
		if w := d.Sim.PWMPulse(ch); w != 0 {
			bad = append(bad, fmt.Sprintf("pwm %d = %s", ch, w))
		}
	}
	pcms := map[int]bool{}
	for _, dev := range d.Robot.Config.Devices {
		switch dev.TypeName {
		case "solenoid", "double_solenoid", "compressor":
			pcm := dev.Int("pcm_id")
			if pcms[pcm] {
				continue
			}
			pcms[pcm] = true
			for ch := 0; ch < 8; ch++ {
				if d.Sim.Solenoid(pcm, ch) {
					bad = append(bad, fmt.Sprintf("pcm %d solenoid %d on", pcm, ch))
				}
			}
			if on, _ := d.Sim.Compressor(pcm); on {
				bad = append(bad, fmt.Sprintf("pcm %d compressor on", pcm))
			}
			// What the drivers sent, which the PCM would obey if it
			// were enabled: it must be all off too.
			if bits, closed, ok := d.Sim.PCMCommand(pcm); ok && (bits != 0 || closed) {
				bad = append(bad, fmt.Sprintf("pcm %d was sent solenoids %08b closed loop %v", pcm, bits, closed))
			}
		case "digital_output":
			if d.Sim.DIO(dev.Int("dio_channel")) != dev.Bool("inverted") {
				bad = append(bad, fmt.Sprintf("digital output %d on", dev.Int("dio_channel")))
			}
		case "analog_output":
			if v := d.Sim.AnalogOut(dev.Int("aout_channel")); v != 0 {
				bad = append(bad, fmt.Sprintf("analog output %d at %g V", dev.Int("aout_channel"), v))
			}
		case "nidec":
			if duty := d.Sim.DutyCycle(dev.Int("dio_channel")); duty != 0.5 && duty != 0 {
				bad = append(bad, fmt.Sprintf("nidec DIO %d duty %g", dev.Int("dio_channel"), duty))
			}
		case "relay":
			if fw, rv := d.Sim.RelayOut(dev.Int("relay_id")); fw || rv {
				bad = append(bad, fmt.Sprintf("relay %d on", dev.Int("relay_id")))
			}
		case "talon_srx", "can_victor_spx":
			if duty := d.Sim.CANMotorDuty(dev.Int("id")); duty != 0 {
				bad = append(bad, fmt.Sprintf("CAN motor %d duty %g", dev.Int("id"), duty))
			}
		}
	}
	return bad
}
