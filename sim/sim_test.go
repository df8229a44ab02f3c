package sim

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
)

// loadRobot writes a URDF and a YAML file into a temporary directory and
// loads them; the robot must have no errors.
func loadRobot(t testing.TB, urdfText, yamlText string) *robot.Robot {
	t.Helper()
	dir := t.TempDir()
	u, y := filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")
	if err := os.WriteFile(u, []byte(urdfText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(y, []byte(yamlText), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load(u, y)
	if err != nil || list.Errors() > 0 {
		var b strings.Builder
		_ = list.WriteText(&b)
		t.Fatalf("robot.Load: %v\n%s", err, b.String())
	}
	return r
}

func competition(t testing.TB) *robot.Robot {
	t.Helper()
	return example(t, "competition")
}

// example loads the example robot of that directory.
func example(t testing.TB, name string) *robot.Robot {
	t.Helper()
	r, list, err := robot.Load("../examples/"+name+"/robot.urdf", "../examples/"+name+"/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("robot.Load: %v %v", err, list)
	}
	return r
}

func newSim(t testing.TB, r *robot.Robot, o Options) *Sim {
	t.Helper()
	s, err := New(r, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var enabled = hal.DSState{Enabled: true, Attached: true, Mode: hal.Teleop}

// benchURDF is a test bench: a motor-driven shaft with three encoders, an
// arm with a pot and switches, outputs driving slides, a piston, a mimic
// joint and environment sensors in the base.
const benchURDF = `<?xml version="1.0"?>
<robot name="bench">
  <link name="base_link">
    <sensor name="beam" type="beam_break"/>
    <sensor name="range" type="ultrasonic"/>
  </link>
  <link name="rotor"/>
  <joint name="spin" type="continuous">
    <sensor name="enc_a" type="encoder"/>
    <sensor name="enc_b" type="encoder"/>
    <sensor name="enc_c" type="encoder"/>
    <parent link="base_link"/><child link="rotor"/>
    <axis xyz="0 0 1"/>
  </joint>
  <link name="lever"><inertial><mass value="1"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="arm" type="revolute">
    <sensor name="arm_pot" type="analog"/>
    <sensor name="arm_mid" type="switch"/>
    <sensor name="arm_low" type="limit_switch"/>
    <sensor name="arm_high" type="limit_switch"/>
    <parent link="base_link"/><child link="lever"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
  </joint>
  <link name="flap_link"/>
  <joint name="flap" type="prismatic">
    <parent link="base_link"/><child link="flap_link"/>
    <limit lower="0" upper="0.1" effort="1" velocity="1"/>
  </joint>
  <link name="gate_link"/>
  <joint name="gate" type="prismatic">
    <parent link="base_link"/><child link="gate_link"/>
    <limit lower="0" upper="0.2" effort="1" velocity="1"/>
  </joint>
  <link name="pin_link"/>
  <joint name="pin" type="prismatic">
    <parent link="base_link"/><child link="pin_link"/>
    <limit lower="0" upper="0.05" effort="1" velocity="1"/>
  </joint>
  <link name="follower_link"/>
  <joint name="follower" type="continuous">
    <parent link="base_link"/><child link="follower_link"/>
    <mimic joint="spin" multiplier="2" offset="0.5"/>
  </joint>
</robot>
`

const benchYAML = `joints:
  - {name: pdp3, type: pdp, id: 3}
  - {name: spin, type: victor_sp, id: 0}
  - {name: arm, type: talon, id: 1, pdp: pdp3, pdp_ch: 3}
  - {name: enc_a, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.01}
  - {name: enc_b, type: encoder, ch_a: 2, ch_b: 3, dist_per_pulse: 0.01, inverted: true}
  - {name: enc_c, type: encoder, ch_a: 4, ch_b: 5, dist_per_pulse: 0.01}
  - {name: arm_pot, type: analog_input, ain_channel: 0, scale: 2, offset: -1}
  - {name: arm_mid, type: digital_input, dio_channel: 6}
  - {name: arm_low, type: digital_input, dio_channel: 7, limit: lower}
  - {name: arm_high, type: digital_input, dio_channel: 8, limit: upper, inverted: true}
  - {name: flap, type: digital_output, dio_channel: 9, inverted: true}
  - {name: gate, type: analog_output, aout_channel: 1, scale: 0.2, offset: 0}
  - {name: pin, type: solenoid, id: 3, pcm_id: 1}
  - {name: beam, type: digital_input, dio_channel: 10}
  - {name: range, type: analog_input, ain_channel: 3, scale: 5.12, offset: 0}
`

func truth(t testing.TB, s *Sim, name string) JointTruth {
	t.Helper()
	j, ok := s.Joint(name)
	if !ok {
		t.Fatalf("no joint %q", name)
	}
	return j
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestNewErrors(t *testing.T) {
	r := loadRobot(t, benchURDF, benchYAML)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Joints: map[string]JointParams{"nope": {}}}, `"nope" is no movable URDF joint`},
		{Options{Joints: map[string]JointParams{"spin": {Motor: "cim2"}}}, `unknown motor "cim2"`},
		{Options{Joints: map[string]JointParams{"spin": {Motors: -1}}}, "motors -1"},
		{Options{Joints: map[string]JointParams{"spin": {Gearing: -3}}}, "gearing -3"},
		{Options{Joints: map[string]JointParams{"spin": {Inertia: math.NaN()}}}, "inertia NaN"},
		{Options{Joints: map[string]JointParams{"arm": {Damping: -1}}}, "damping -1"},
		{Options{Joints: map[string]JointParams{"arm": {Friction: -1}}}, "friction -1"},
		{Options{Joints: map[string]JointParams{"pin": {Travel: -time.Second}}}, "travel -1s"},
		{Options{Joints: map[string]JointParams{"pin": {Motor: "cim"}}}, `joint "pin": motor, motors and gearing apply to joints driven by a speed controller; this one is driven by solenoid "pin"`},
		{Options{Step: -1}, "step -1ns"},
		{Options{Battery: Battery{Voltage: -12}}, "battery"},
		{Options{Pressure: -5}, "pressure -5"},
	} {
		_, err := New(r, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want an error with %q", tc.o, err, tc.want)
		}
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New(nil) did not fail")
	}
	if _, err := New(r, Options{Joints: map[string]JointParams{"spin": {Motor: "neo", Motors: 2, Gearing: 5, Inertia: 0.01}, "pin": {Travel: time.Second}}}); err != nil {
		t.Errorf("good options: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	type opener func() error
	wrap := func(f func() (any, error)) opener { return func() error { _, err := f(); return err } }
	for _, tc := range []struct {
		name       string
		open, dup  opener
		outOfRange opener
	}{
		{"pwm", wrap(func() (any, error) { return s.OpenPWM(19) }), wrap(func() (any, error) { return s.OpenPWM(19) }), wrap(func() (any, error) { return s.OpenPWM(20) })},
		{"dio", wrap(func() (any, error) { return s.OpenDigitalIn(25) }), wrap(func() (any, error) { return s.OpenDigitalOut(25) }), wrap(func() (any, error) { return s.OpenDigitalIn(26) })},
		{"duty", wrap(func() (any, error) { return s.OpenDutyCycleOut(11) }), wrap(func() (any, error) { return s.OpenDigitalIn(11) }), wrap(func() (any, error) { return s.OpenDutyCycleOut(-1) })},
		{"encoder", wrap(func() (any, error) { return s.OpenEncoder(0, 1, hal.X4) }), wrap(func() (any, error) { return s.OpenDigitalIn(1) }), wrap(func() (any, error) { return s.OpenEncoder(24, 26, hal.X4) })},
		{"ai", wrap(func() (any, error) { return s.OpenAnalogIn(7, 0, 0) }), wrap(func() (any, error) { return s.OpenAnalogIn(7, 0, 0) }), wrap(func() (any, error) { return s.OpenAnalogIn(8, 0, 0) })},
		{"ao", wrap(func() (any, error) { return s.OpenAnalogOut(1) }), wrap(func() (any, error) { return s.OpenAnalogOut(1) }), wrap(func() (any, error) { return s.OpenAnalogOut(2) })},
		{"relay", wrap(func() (any, error) { return s.OpenRelay(3) }), wrap(func() (any, error) { return s.OpenRelay(3) }), wrap(func() (any, error) { return s.OpenRelay(4) })},
		{"canmotor", wrap(func() (any, error) { return s.OpenCANMotor(frc.TalonSRX, 1) }), wrap(func() (any, error) { return s.OpenCANMotor(frc.TalonSRX, 1) }), wrap(func() (any, error) { return s.OpenCANMotor(frc.TalonSRX, 63) })},
		{"pigeon", wrap(func() (any, error) { return s.OpenPigeon(-1, 1) }), wrap(func() (any, error) { return s.OpenPigeon(-1, 1) }), wrap(func() (any, error) { return s.OpenPigeon(63, -1) })},
		{"spi", nil, nil, wrap(func() (any, error) { return s.SPI(5) })},
		{"i2c", nil, nil, wrap(func() (any, error) { return s.I2C(2) })},
	} {
		if tc.open != nil {
			if err := tc.open(); err != nil {
				t.Errorf("%s: first open: %v", tc.name, err)
			}
			if err := tc.dup(); !errors.Is(err, hal.ErrInUse) {
				t.Errorf("%s: second open = %v, want ErrInUse", tc.name, err)
			}
		}
		if err := tc.outOfRange(); !errors.Is(err, hal.ErrNoDevice) {
			t.Errorf("%s: out of range = %v, want ErrNoDevice", tc.name, err)
		}
	}
	if _, err := s.OpenEncoder(20, 20, hal.X1); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("encoder on one channel twice = %v, want ErrInUse", err)
	}
	if _, err := s.OpenEncoder(20, 21, hal.Encoding(3)); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("3x encoder = %v, want ErrUnsupported", err)
	}
	if _, err := s.OpenCANMotor(frc.VictorSPX, 1); err == nil {
		t.Error("opening the Talon SRX at CAN id 1 as a Victor SPX worked")
	}
	if _, err := s.OpenCANMotor(frc.VictorSPX, 2); err != nil {
		t.Errorf("the Victor SPX at CAN id 2: %v", err)
	}
	if _, err := s.OpenCANMotor("spark_max", 3); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("unknown model = %v, want ErrNoDevice", err)
	}
	// Channels no YAML device uses open and read 0.
	in, err := s.OpenDigitalIn(24)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := in.Get(); v || err != nil {
		t.Errorf("unwired DIO 24 = %v, %v; want low", v, err)
	}
	ai, err := s.OpenAnalogIn(6, 7, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := ai.Voltage(); v != 0 || err != nil {
		t.Errorf("unwired AI 6 = %v, %v; want 0 V", v, err)
	}
	enc, err := s.OpenEncoder(20, 21, hal.X4)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := enc.Count(); c != 0 || err != nil {
		t.Errorf("unwired encoder = %v, %v; want 0", c, err)
	}
}

func TestSPIAndI2C(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	nav, err := s.SPI(4)
	if err != nil {
		t.Fatal(err)
	}
	if nav != s.sensors["navx"].imu.nav.spiPort() {
		t.Errorf("SPI(4) is %v, not the navX's port", nav)
	}
	empty, err := s.SPI(0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := empty.Connect(500000, spi.Mode3, 8)
	if err != nil {
		t.Fatal(err)
	}
	r := []byte{1, 2, 3}
	if err := c.Tx([]byte{0x04, 0x20, 0x00}, r); err != nil || r[0]|r[1]|r[2] != 0 {
		t.Errorf("empty SPI read %v, %v; want zeros", r, err)
	}
	bus, err := s.I2C(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := bus.Tx(0x32, []byte{0}, make([]byte, 1)); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("I2C with no navX on it = %v, want ErrNoDevice (no acknowledge)", err)
	}
	// The navX answers WHOAMI on its port after the sim has run.
	s.AdvanceTo(20 * time.Millisecond)
	nc, err := nav.Connect(500000, spi.Mode3, 8)
	if err != nil {
		t.Fatal(err)
	}
	req := []byte{0x00, 1, 0}
	req[2] = frc.NavXCRC(req[:2])
	if err := nc.Tx(req, make([]byte, 3)); err != nil {
		t.Fatal(err)
	}
	s.AdvanceTo(22 * time.Millisecond)
	resp := make([]byte, 2)
	if err := nc.Tx(make([]byte, 2), resp); err != nil {
		t.Fatal(err)
	}
	if resp[0] != 0x32 {
		t.Errorf("navX WHOAMI over the sim's SPI = %#x, want 0x32", resp[0])
	}
}

func TestDriverStationAndClock(t *testing.T) {
	s := bench(t, Options{})
	if ds := s.DS(); ds.Enabled || !ds.Attached || ds.Mode != hal.Teleop {
		t.Errorf("initial DS %+v, want attached, disabled, teleop", ds)
	}
	s.SetDS(hal.DSState{Enabled: true, Attached: true, Mode: hal.Autonomous})
	if ds := s.DS(); !ds.Enabled || ds.Mode != hal.Autonomous {
		t.Errorf("DS %+v after SetDS", ds)
	}
	if s.Now() != 0 {
		t.Errorf("Now = %v at start", s.Now())
	}
	s.AdvanceTo(5500 * time.Microsecond)
	if s.Now() != 5500*time.Microsecond {
		t.Errorf("Now = %v, want 5.5ms", s.Now())
	}
	s.AdvanceTo(time.Millisecond) // the past: no-op
	if s.Now() != 5500*time.Microsecond {
		t.Errorf("Now = %v after AdvanceTo(past), want 5.5ms", s.Now())
	}

	rt := bench(t, Options{RealTime: true})
	a := rt.Now()
	b := rt.Now()
	if a < 0 || b < a {
		t.Errorf("real-time Now went %v then %v", a, b)
	}
	rt.AdvanceTo(b)
	if rt.t != b {
		t.Errorf("real-time AdvanceTo(%v) reached %v", b, rt.t)
	}
}

func TestVin(t *testing.T) {
	s := bench(t, Options{})
	v, err := s.Vin()
	// Only the controller's 1.5 A flows: 12.8 - 0.02 × 1.5 - 0.05 = 12.72 V.
	if err != nil || !near(v, 12.72, 1e-9) {
		t.Errorf("Vin = %v, %v; want 12.72 V", v, err)
	}
}

func TestEncoderCounts(t *testing.T) {
	s := bench(t, Options{})
	a, err := s.OpenEncoder(0, 1, hal.X1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.OpenEncoder(2, 3, hal.X2) // inverted in the YAML
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.OpenEncoder(4, 5, hal.X4)
	if err != nil {
		t.Fatal(err)
	}
	count := func(e hal.Encoder) int64 {
		n, err := e.Count()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	// 0.123 rad at 0.01 rad per pulse is 12.3 pulses: 12 edges at 1x, 24
	// at 2x (counting down: mounted backwards), 49 at 4x.
	for _, tc := range []struct {
		pos     float64
		x1, x2i int64
		x4      int64
	}{{0.123, 12, -24, 49}, {-0.123, -12, 24, -49}, {0, 0, 0, 0}, {100, 10000, -20000, 40000}} {
		s.SetJoint("spin", tc.pos, 0)
		if got := [3]int64{count(a), count(b), count(c)}; got != [3]int64{tc.x1, tc.x2i, tc.x4} {
			t.Errorf("spin at %v rad: counts %v, want [%d %d %d]", tc.pos, got, tc.x1, tc.x2i, tc.x4)
		}
	}
	// The plant moving: 12 V on the victor_sp turns the shaft; the counts
	// follow the truth.
	s.SetJoint("spin", 0, 0)
	s.SetDS(enabled)
	p, _ := s.OpenPWM(0)
	p.SetPulse(frc.PWMVictorSP.Pulse(1))
	s.AdvanceTo(50 * time.Millisecond)
	pos := truth(t, s, "spin").Position
	if pos <= 0 || count(c) != int64(pos/0.01*4) {
		t.Errorf("spin at %v rad counts %d at 4x", pos, count(c))
	}

	// A count is since the encoder was opened; opened with A and B
	// swapped, it counts the other way.
	s2 := bench(t, Options{})
	s2.SetJoint("spin", 0.05, 0)
	e, _ := s2.OpenEncoder(1, 0, hal.X1)
	s2.SetJoint("spin", 0.123, 0)
	if n := count(e); n != -7 {
		t.Errorf("opened at 0.05 rad, swapped, at 0.123 rad: %d, want -7", n)
	}
}

func TestAnalogInputs(t *testing.T) {
	s := bench(t, Options{})
	pot, _ := s.OpenAnalogIn(0, 7, 0)
	rng, _ := s.OpenAnalogIn(3, 4, 2)
	volts := func(a hal.AnalogIn) float64 {
		v, err := a.Voltage()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// arm_pot: scale 2, offset -1: (q + 1) / 2 × 5 V.
	for _, tc := range []struct{ q, v float64 }{{0, 2.5}, {0.5, 3.75}, {-1, 0}, {1, 5}, {-0.6, 1}} {
		s.SetJoint("arm", tc.q, 0)
		if got := volts(pot); !near(got, tc.v, 1e-12) {
			t.Errorf("arm at %v rad: pot %v V, want %v", tc.q, got, tc.v)
		}
	}
	// range: a link sensor, scale 5.12 m: 0 V until set, clamped to 0-5 V.
	if v := volts(rng); v != 0 {
		t.Errorf("range before SetSensor: %v V, want 0", v)
	}
	for _, tc := range []struct{ m, v float64 }{{2.56, 2.5}, {6, 5}, {-1, 0}} {
		if err := s.SetSensor("range", tc.m); err != nil {
			t.Fatal(err)
		}
		if got := volts(rng); !near(got, tc.v, 1e-12) {
			t.Errorf("range at %v m: %v V, want %v", tc.m, got, tc.v)
		}
	}
	// The competition robot's shoulder pot: 0-5 V is -1.2 to 3.512 rad.
	c := newSim(t, competition(t), Options{})
	sp, _ := c.OpenAnalogIn(0, 7, 0)
	c.SetJoint("shoulder_joint", 1, 0)
	if got, want := volts(sp), 2.2/4.712*5; !near(got, want, 1e-12) {
		t.Errorf("shoulder at 1 rad: %v V, want %v", got, want)
	}
}

func TestDigitalInputs(t *testing.T) {
	s := bench(t, Options{})
	mid, _ := s.OpenDigitalIn(6)
	low, _ := s.OpenDigitalIn(7)
	high, _ := s.OpenDigitalIn(8) // inverted: pressed reads low
	beam, _ := s.OpenDigitalIn(10)
	level := func(d hal.DigitalIn) bool {
		v, err := d.Get()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		q              float64
		mid, low, high bool
	}{
		{0, false, false, true},
		{0.2, true, false, true},
		{-0.9995, false, true, true}, // within 1e-3 of the lower limit
		{-0.998, false, false, true},
		{-1, false, true, true},
		{0.9992, true, false, false},
		{1, true, false, false},
	} {
		s.SetJoint("arm", tc.q, 0)
		if got := [3]bool{level(mid), level(low), level(high)}; got != [3]bool{tc.mid, tc.low, tc.high} {
			t.Errorf("arm at %v: mid, low, high = %v, want %v", tc.q, got, [3]bool{tc.mid, tc.low, tc.high})
		}
	}
	if level(beam) {
		t.Error("beam reads high before SetSensor")
	}
	s.SetSensor("beam", 1)
	if !level(beam) {
		t.Error("beam reads low after SetSensor(1)")
	}
	s.SetSensor("beam", 0)
	if level(beam) {
		t.Error("beam reads high after SetSensor(0)")
	}
	if err := s.SetSensor("arm_pot", 1); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("SetSensor of a joint's sensor = %v, want ErrNoDevice", err)
	}
	if err := s.SetSensor("range", math.Inf(1)); err == nil {
		t.Error("SetSensor(+Inf) worked")
	}
	// The competition elevator's switches are normally open to ground
	// (inverted): at the bottom the lower one reads low, the upper high.
	c := newSim(t, competition(t), Options{})
	lo, _ := c.OpenDigitalIn(6)
	hi, _ := c.OpenDigitalIn(7)
	if level(lo) || !level(hi) {
		t.Errorf("elevator at 0: lower %v, upper %v; want low, high", level(lo), level(hi))
	}
	c.SetJoint("elevator_joint", 1.2, 0)
	if !level(lo) || level(hi) {
		t.Errorf("elevator at 1.2 m: lower %v, upper %v; want high, low", level(lo), level(hi))
	}
}

func TestIMUs(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	p, err := s.OpenPigeon(-1, 1) // cabled to the Talon SRX with CAN id 1
	if err != nil {
		t.Fatal(err)
	}
	q, g, a, err := p.Read()
	if err != nil || q != [4]float64{1, 0, 0, 0} || g != [3]float64{} || a != [3]float64{} {
		t.Errorf("pigeon at rest: %v %v %v %v; want identity, zeros", q, g, a, err)
	}
	m := IMU{Orientation: [4]float64{0.7071, 0, 0, 0.7071}, AngularVelocity: [3]float64{0, 0, 1.5}, LinearAcceleration: [3]float64{0.5, 0, 0}}
	if err := s.SetIMU("pigeon", m); err != nil {
		t.Fatal(err)
	}
	if q, g, a, _ := p.Read(); q != m.Orientation || g != m.AngularVelocity || a != m.LinearAcceleration {
		t.Errorf("pigeon reads %v %v %v, want %+v", q, g, a, m)
	}
	if err := s.SetIMU("navx", m); err != nil {
		t.Fatal(err)
	}
	s.AdvanceTo(50 * time.Millisecond)
	// The navX's yaw register: 90° counterclockwise is -90.00° (the navX
	// counts clockwise), in 0.01°.
	if yaw := int16(uint16(s.sensors["navx"].imu.nav.regs[frc.NavXRegYaw]) | uint16(s.sensors["navx"].imu.nav.regs[frc.NavXRegYaw+1])<<8); !near(float64(yaw), -9000, 2) {
		t.Errorf("navX yaw register %d, want -9000", yaw)
	}
	if err := s.SetIMU("shoulder_pot", m); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("SetIMU of a pot = %v, want ErrNoDevice", err)
	}
	// A Pigeon no YAML device describes opens and reads at rest.
	other, err := s.OpenPigeon(9, -1)
	if err != nil {
		t.Fatal(err)
	}
	if q, _, _, _ := other.Read(); q != [4]float64{1, 0, 0, 0} {
		t.Errorf("unconfigured pigeon reads %v", q)
	}
}
