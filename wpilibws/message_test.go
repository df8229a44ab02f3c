package wpilibws

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/bounds"
	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/urdf"
)

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		in   string
		want error
	}{
		{`{"type":"DIO","device":"3","data":{"<>value":true}}`, nil},
		{`{"type":"DriverStation","device":"","data":{}}`, nil},
		{` {"device":"1", "data":{">voltage":1.5}, "type":"AI", "extra": 1} `, nil},
		{`not json`, ErrNotObject},
		{`[1,2]`, ErrNotObject},
		{`"DIO"`, ErrNotObject},
		{`null`, ErrNotObject},
		{`{"type":"DIO","device":"3"}`, ErrFields},
		{`{"device":"3","data":{}}`, ErrFields},
		{`{"type":"DIO","data":{}}`, ErrFields},
		{`{"type":7,"device":"3","data":{}}`, ErrFields},
		{`{"type":"DIO","device":3,"data":{}}`, ErrFields},
		{`{"type":"DIO","device":null,"data":{}}`, ErrFields},
		{`{"type":"DIO","device":"3","data":[]}`, ErrFields},
		{`{"type":"DIO","device":"3","data":null}`, ErrFields},
		{`{"type":"DIO","device":"3","data":"x"}`, ErrFields},
	} {
		m, err := Decode([]byte(c.in))
		if err != c.want {
			t.Errorf("Decode(%s) = %+v, %v; want %v", c.in, m, err, c.want)
		}
	}
	m, _ := Decode([]byte(`{"device":"1", "data":{">voltage":1.5}, "type":"AI"}`))
	if m.Type != "AI" || m.Device != "1" || string(m.Data[">voltage"]) != "1.5" {
		t.Errorf("decoded %+v", m)
	}
}

func mustDecode(t *testing.T, s string) Message {
	t.Helper()
	m, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("Decode(%s): %v", s, err)
	}
	return m
}

func TestParseInput(t *testing.T) {
	for _, c := range []struct {
		in    string
		known bool
		vals  map[string]value
		nulls []string
		bad   int
		ch    int
	}{
		{in: `{"type":"DIO","device":"12","data":{"<>value":true,"<init":true,"<input":false}}`, known: true,
			vals: map[string]value{"<>value": boolV(true)}, ch: 12},
		{in: `{"type":"DIO","device":"12","data":{"<>value":"yes"}}`, known: true, vals: map[string]value{}, bad: 1, ch: 12},
		{in: `{"type":"DIO","device":"12","data":{"<>value":null}}`, known: true, vals: map[string]value{}, nulls: []string{"<>value"}, ch: 12},
		{in: `{"type":"DIO","device":"26","data":{"<>value":true}}`, known: true, bad: 1},
		{in: `{"type":"DIO","device":"-1","data":{"<>value":true}}`, known: true, bad: 1},
		{in: `{"type":"DIO","device":"x","data":{"<>value":true, "a":1}}`, known: true, bad: 2},
		{in: `{"type":"AI","device":"2","data":{">voltage":3.25}}`, known: true, vals: map[string]value{">voltage": floatV(3.25)}, ch: 2},
		{in: `{"type":"AI","device":"2","data":{">voltage":false}}`, known: true, vals: map[string]value{}, bad: 1, ch: 2},
		{in: `{"type":"Encoder","device":"1","data":{">count":-42,">period":0.5}}`, known: true,
			vals: map[string]value{">count": intV(-42), ">period": floatV(0.5)}, ch: 1},
		{in: `{"type":"Encoder","device":"1","data":{">count":1.5}}`, known: true, vals: map[string]value{}, bad: 1, ch: 1},
		{in: `{"type":"Encoder","device":"1","data":{">count":1e300}}`, known: true, vals: map[string]value{}, bad: 1, ch: 1},
		{in: `{"type":"DriverStation","device":"","data":{">enabled":true,">station":"blue2",">match_time":12.5,">game_data":"LRL"}}`, known: true,
			vals: map[string]value{">enabled": boolV(true), ">station": strV("blue2"), ">match_time": floatV(12.5), ">game_data": strV("LRL")}},
		{in: `{"type":"DriverStation","device":"","data":{">station":"green7",">enabled":1}}`, known: true, vals: map[string]value{}, bad: 2},
		{in: `{"type":"Gyro","device":"navx","data":{">angle_z":90,">rate_z":"fast"}}`, known: true,
			vals: map[string]value{">angle_z": floatV(90)}, bad: 1},
		{in: `{"type":"PWM","device":"0","data":{"<speed":0.5}}`, known: true},
		{in: `{"type":"SimDevice","device":"x","data":{}}`, known: true},
		{in: `{"type":"Teleporter","device":"0","data":{">x":1}}`, known: false},
	} {
		in, known := parseInput(mustDecode(t, c.in))
		if known != c.known || in.bad != c.bad || !reflect.DeepEqual(in.nulls, c.nulls) || in.channel != c.ch {
			t.Errorf("%s: known %v bad %d nulls %v channel %d; want %v %d %v %d", c.in, known, in.bad, in.nulls, in.channel, c.known, c.bad, c.nulls, c.ch)
		}
		if c.vals != nil && !reflect.DeepEqual(in.vals, c.vals) {
			t.Errorf("%s: values %+v, want %+v", c.in, in.vals, c.vals)
		}
	}
}

func TestParseJoystick(t *testing.T) {
	in, _ := parseInput(mustDecode(t, `{"type":"Joystick","device":"1","data":{">axes":[0.5,-1],">buttons":[true,false,true],">povs":[-1,90]}}`))
	if in.bad != 0 || !reflect.DeepEqual(in.joy, joyInput{axes: []float64{0.5, -1}, buttons: []bool{true, false, true}, povs: []int{-1, 90}}) || in.channel != 1 {
		t.Errorf("joystick %+v", in)
	}
	for _, bad := range []string{
		`{"type":"Joystick","device":"1","data":{">axes":[true]}}`,
		`{"type":"Joystick","device":"1","data":{">axes":{}}}`,
		`{"type":"Joystick","device":"1","data":{">axes":[0,0,0,0,0,0,0,0,0,0,0,0,0]}}`,
		`{"type":"Joystick","device":"1","data":{">buttons":[1]}}`,
		`{"type":"Joystick","device":"1","data":{">povs":[45.5]}}`,
		`{"type":"Joystick","device":"1","data":{">povs":[360]}}`,
		`{"type":"Joystick","device":"6","data":{">axes":[0]}}`,
	} {
		if in, _ := parseInput(mustDecode(t, bad)); in.bad != 1 {
			t.Errorf("%s: bad %d, want 1 (%+v)", bad, in.bad, in.joy)
		}
	}
}

func TestAppendMessage(t *testing.T) {
	got := string(appendMessage(nil, "PWM", "3", []field{{"<init", boolV(true)}, {"<speed", floatV(-0.25)},
		{">count", intV(-3)}, {">station", strV("r\"1")}, {">period", floatV(math.Inf(1))}, {">axes", rawV([]float64{0.5})}}))
	want := `{"type":"PWM","device":"3","data":{"<init":true,"<speed":-0.25,">count":-3,">station":"r\"1",">period":null,">axes":[0.5]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("not valid JSON")
	}
	if got := string(appendMessage(nil, "DriverStation", "", nil)); got != `{"type":"DriverStation","device":"","data":{}}` {
		t.Error(got)
	}
	for _, s := range []string{"a\x00b\n\\é\u2028", "\xff<>&"} {
		var back string
		if err := json.Unmarshal(appendString(nil, s), &back); err != nil || back != strings.ToValidUTF8(s, "\ufffd") {
			t.Errorf("%q encodes to %s, decodes to %q, %v", s, appendString(nil, s), back, err)
		}
	}
}

func TestDiff(t *testing.T) {
	a := []device{{"PWM", "0", []field{{"<init", boolV(true)}, {"<speed", floatV(0)}}}, {"AI", "1", []field{{">voltage", floatV(math.NaN())}}}}
	b := []device{{"PWM", "0", []field{{"<init", boolV(true)}, {"<speed", floatV(0.5)}}}, {"AI", "1", []field{{">voltage", floatV(math.NaN())}}},
		{"DIO", "2", []field{{"<>value", boolV(false)}}}}
	got := diff(nil, a, b)
	want := []string{`{"type":"PWM","device":"0","data":{"<speed":0.5}}`, `{"type":"DIO","device":"2","data":{"<>value":false}}`}
	if len(got) != len(want) {
		t.Fatalf("diff: %q", got)
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("diff[%d] = %s, want %s", i, got[i], want[i])
		}
	}
	if got := diff(nil, b, b); len(got) != 0 {
		t.Errorf("no change: %q", got)
	}
	if got := diff(nil, nil, b); len(got) != 3 {
		t.Errorf("from nothing: %q", got)
	}
}

func TestEulerQuaternion(t *testing.T) {
	for _, a := range [][3]float64{{0, 0, 0}, {0, 0, math.Pi / 2}, {0.3, -0.2, 2.5}, {-1, 0.7, -3}} {
		got := euler(urdf.Vec3(a).Quaternion())
		for i := range a {
			if math.Abs(got[i]-a[i]) > 1e-12 {
				t.Errorf("euler(Quaternion(%v)) = %v", a, got)
			}
		}
	}
	if e := euler([4]float64{}); e != [3]float64{} {
		t.Errorf("zero quaternion: %v", e)
	}
	// 90° about z, counter-clockwise: yaw +90°.
	if e := euler([4]float64{math.Sqrt2 / 2, 0, 0, math.Sqrt2 / 2}); math.Abs(e[2]-math.Pi/2) > 1e-12 {
		t.Errorf("yaw %v", e[2])
	}
}

// TestBuild: the I/O as the spec's devices, with the YAML's wiring.
func TestBuild(t *testing.T) {
	f, list := config.Parse("robot.yaml", []byte(`joints:
  - {name: m, type: spark, id: 0}
  - {name: v, type: victor, id: 1}
  - {name: s, type: servo, id: 2, min_pulse_us: 1000, max_pulse_us: 2000}
  - {name: n, type: nidec, id: 3, dio_channel: 5}
  - {name: r, type: relay, relay_id: 1, direction: forward}
  - {name: p, type: solenoid, id: 3, pcm_id: 1}
  - {name: d, type: double_solenoid, forward_id: 0, reverse_id: 1, pcm_id: 0}
`))
	if list.Errors() > 0 {
		t.Fatal(list)
	}
	w := newWiring(f)
	var io sim.IO
	io.DS = hal.DSState{Enabled: true, Attached: true, Mode: hal.Test}
	io.PWM[0].Open, io.PWM[0].Width = true, frc.PWMSpark.Pulse(0.5)
	io.PWM[1].Open, io.PWM[1].Width = true, frc.PWMVictor.Pulse(-1)
	io.PWM[2].Open, io.PWM[2].Width = true, 1250*time.Microsecond
	io.PWM[3].Open, io.PWM[3].Width = true, time.Millisecond
	io.PWM[4].Open, io.PWM[4].Width = true, 1750*time.Microsecond // nothing in the YAML: 1-2 ms
	io.DIO[5].Use, io.DIO[5].Duty = sim.DIODutyCycle, 0.75
	io.DIO[6].Use, io.DIO[6].Level = sim.DIOInput, true
	io.AI[0].Open, io.AI[0].Volts = true, 2.5
	io.Relay[1].Open, io.Relay[1].Fwd = true, true
	io.Encoders = []sim.EncoderIO{{A: 7, B: 8, Count: 12, Period: math.Inf(1)}}
	io.PCMs = []sim.PCMIO{{ID: 0, Solenoids: 0b10}, {ID: 1, Solenoids: 0b1000}}
	io.CANMotors = []sim.CANMotorIO{{Model: frc.VictorSPX, ID: 2, Duty: -0.5}}
	io.IMUs = []sim.IMUIO{{Name: "navx", Motion: sim.IMU{Orientation: urdf.Vec3{0, 0, math.Pi / 2}.Quaternion(),
		AngularVelocity: [3]float64{0, 0, math.Pi}, LinearAcceleration: [3]float64{gravity, 0, 0}}}}
	var joys [numJoysticks]sim.Joystick
	joys[1] = sim.Joystick{Axes: []float64{0.25}}
	devs := w.build(&io, &joys, dsExtra{station: "blue3", matchTime: 15})
	got := map[string]string{}
	for _, d := range devs {
		got[d.typ+" "+d.dev] = string(appendMessage(nil, d.typ, d.dev, d.fields))
	}
	want := map[string]string{
		"DriverStation ":        `{"type":"DriverStation","device":"","data":{">enabled":true,">autonomous":false,">test":true,">estop":false,">ds":true,">fms":false,">station":"blue3",">match_time":15,">game_data":"","<opmodes":[],">opmode":""}}`,
		"Joystick 1":            `{"type":"Joystick","device":"1","data":{">axes":[0.25],">buttons":[],">povs":[]}}`,
		"PWM 1":                 `{"type":"PWM","device":"1","data":{"<init":true,"<speed":-1}}`,
		"PWM 2":                 `{"type":"PWM","device":"2","data":{"<init":true,"<position":0.25}}`,
		"PWM 3":                 `{"type":"PWM","device":"3","data":{"<init":true,"<speed":0.5}}`,
		"PWM 4":                 `{"type":"PWM","device":"4","data":{"<init":true,"<speed":0.5}}`,
		"DIO 6":                 `{"type":"DIO","device":"6","data":{"<init":true,"<input":true,"<>value":true}}`,
		"dPWM 0":                `{"type":"dPWM","device":"0","data":{"<init":true,"<duty_cycle":0.75,"<dio_pin":5}}`,
		"AI 0":                  `{"type":"AI","device":"0","data":{"<init":true,">voltage":2.5}}`,
		"Encoder 0":             `{"type":"Encoder","device":"0","data":{"<init":true,"<channel_a":7,"<channel_b":8,">count":12,">period":1.7976931348623157e+308}}`,
		"Relay 1":               `{"type":"Relay","device":"1","data":{"<init_fwd":true,"<init_rev":false,"<fwd":true,"<rev":false}}`,
		"Solenoid 1,3":          `{"type":"Solenoid","device":"1,3","data":{"<init":true,"<output":true}}`,
		"Solenoid 0,0":          `{"type":"Solenoid","device":"0,0","data":{"<init":true,"<output":false}}`,
		"Solenoid 0,1":          `{"type":"Solenoid","device":"0,1","data":{"<init":true,"<output":true}}`,
		"CANMotor VictorSPX[2]": `{"type":"CANMotor","device":"VictorSPX[2]","data":{"<percentOutput":-0.5}}`,
		"Accel navx":            `{"type":"Accel","device":"navx","data":{"<init":true,">x":1,">y":0,">z":0}}`,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\n got %s\nwant %s", k, got[k], w)
		}
	}
	// The spark at half duty reads close to 0.5 (its deadband shifts it).
	var speed float64
	var gyro struct {
		Data map[string]float64 `json:"data"`
	}
	for _, d := range devs {
		if d.typ == "PWM" && d.dev == "0" {
			speed = d.fields[1].v.f
		}
		if d.typ == "Gyro" {
			_ = json.Unmarshal(appendMessage(nil, d.typ, d.dev, d.fields[2:]), &gyro)
		}
	}
	if math.Abs(speed-0.5) > 0.06 {
		t.Errorf("spark at duty 0.5 reads speed %v", speed)
	}
	if math.Abs(gyro.Data[">angle_z"]-90) > 1e-9 || math.Abs(gyro.Data[">rate_z"]-180) > 1e-9 || gyro.Data[">angle_x"] != 0 {
		t.Errorf("gyro %v", gyro.Data)
	}
	var order []string
	for _, d := range devs {
		if len(order) == 0 || order[len(order)-1] != d.typ {
			order = append(order, d.typ)
		}
	}
	if want := []string{"DriverStation", "Joystick", "PWM", "DIO", "dPWM", "AI", "Encoder", "Relay", "Solenoid", "CANMotor", "Gyro", "Accel"}; !reflect.DeepEqual(order, want) {
		t.Errorf("device order %v, want %v", order, want)
	}
}

// FuzzDecode: no input makes the decoder or the input check panic, and
// what the check accepts is in range.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"DIO","device":"12","data":{"<>value":true}}`,
		`{"type":"DriverStation","device":"","data":{">enabled":true,">station":"red1",">match_time":-1}}`,
		`{"type":"Joystick","device":"0","data":{">axes":[0.5,-1],">buttons":[true],">povs":[-1]}}`,
		`{"type":"Encoder","device":"0","data":{">count":5,">period":null}}`,
		`{"type":"Gyro","device":"navx","data":{">angle_z":90}}`,
		`{"type":"AI","device":"7","data":{">voltage":5}}`,
		`[]`, `{}`, `{"type":"x","device":"y","data":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer bounds.Slow(t)()
		m, err := Decode(b)
		if err != nil {
			return
		}
		in, known := parseInput(m)
		if !known {
			return
		}
		if in.bad < 0 || in.bad > len(m.Data) || in.channel < 0 {
			t.Fatalf("%s: bad %d channel %d", b, in.bad, in.channel)
		}
		if n, ok := numbered[in.typ]; ok && in.channel >= n {
			t.Fatalf("%s: channel %d of %d", b, in.channel, n)
		}
		for k, v := range in.vals {
			if v.k == kFloat && (math.IsNaN(v.f) || math.IsInf(v.f, 0)) {
				t.Fatalf("%s: %s = %v", b, k, v.f)
			}
			if !json.Valid(appendMessage(nil, in.typ, in.name, []field{{k, v}})) {
				t.Fatalf("%s: %s re-encodes to invalid JSON", b, k)
			}
		}
		if len(in.joy.axes) > maxAxes || len(in.joy.buttons) > maxButtons || len(in.joy.povs) > maxPOVs {
			t.Fatalf("%s: joystick %+v", b, in.joy)
		}
		for _, p := range in.joy.povs {
			if p < -1 || p >= 360 {
				t.Fatalf("%s: POV %d", b, p)
			}
		}
	})
}
