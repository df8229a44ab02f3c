package sim

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/bounds"
)

func TestScenarioRoundTrip(t *testing.T) {
	r := competition(t)
	o := Options{
		Seed: 42, Enabled: true, Battery: Battery{Voltage: 12.5, Resistance: 0.03}, Pressure: 90,
		Joints:       map[string]JointParams{"shoulder_joint": {Motor: "775pro", Motors: 2, Gearing: 300, Damping: 0.5, Travel: 0}, "climber_lock_joint": {Travel: 400 * time.Millisecond}},
		Initial:      map[string]JointState{"shoulder_joint": {Position: 0.7, Velocity: -0.25}, "elevator_joint": {Position: 0.3}},
		Sensors:      map[string]float64{"ball_beam_break": 1},
		Faults:       map[string]SensorFault{"shoulder_pot": {Noise: Gauss{Mu: 0.01, Sigma: 0.02}, Drift: Gauss{Sigma: 0.001}, Dropout: 0.1}, "navx": {Disconnected: true, FaultAt: 2}},
		Disturbances: []Disturbance{{Name: "shove", Joint: "shoulder_joint", Kind: DisturbForce, Magnitude: 3, UpdatePeriod: 0.5, InitialX: 1, MinX: ptr(-2.0), MaxX: ptr(2.5)}},
	}
	o.Drivetrain = ConfigOptions(r.Config, 0, false).Drivetrain
	o.Pose = &Pose{X: 1.5, Y: -2, Yaw: 0.25}
	o.Disturbances = append(o.Disturbances, Disturbance{Base: true, Magnitude: 0.3, MaxY: ptr(0.1)})
	if o.Drivetrain == nil {
		t.Fatal("the example robot has no drivetrain")
	}
	s := newSim(t, r, o)
	if p, _ := s.Pose(); p.X != 1.5 || p.Y != -2 || p.Yaw != 0.25 {
		t.Errorf("starts at %+v", p)
	}
	sc := s.Scenario()
	path := filepath.Join(t.TempDir(), "scenario.json")
	if err := sc.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadScenario(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, sc) {
		t.Fatalf("loaded %+v\nsaved %+v", back, sc)
	}
	var a, b bytes.Buffer
	if err := sc.Write(&a); err != nil {
		t.Fatal(err)
	}
	if err := back.Write(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("the same scenario wrote different bytes:\n%s\n%s", a.String(), b.String())
	}
	o2, err := back.Options(r, false)
	if err != nil {
		t.Fatal(err)
	}
	s2 := newSim(t, r, o2)
	if !s2.DS().Enabled {
		t.Error("the scenario's enabled Driver Station was lost")
	}
	if j := truth(t, s2, "shoulder_joint"); j.Position != 0.7 || j.Velocity != -0.25 {
		t.Errorf("shoulder starts at %+v", j)
	}
	if p, _ := s2.Pose(); p.X != 1.5 || p.Y != -2 || p.Yaw != 0.25 {
		t.Errorf("the loaded scenario starts the base at %+v", p)
	}
	if got := s2.Scenario(); !reflect.DeepEqual(got, sc) {
		t.Errorf("a sim built from the scenario gives back %+v, want %+v", got, sc)
	}
	if _, err := back.Options(loadRobot(t, benchURDF, benchYAML), false); err == nil || !strings.Contains(err.Error(), "is for robot") {
		t.Errorf("another robot: %v", err)
	}
}

func TestScenarioErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"{\n  \"format\": \"frcd-sim-scenario/1\",\n  \"sed\": 1\n}", `s.json:3:3: unknown field "sed"`},
		{"{\n  \"format\": \"frcd-sim-scenario/1\",\n  \"seed\": \"one\"\n}", "s.json:3:16: cannot unmarshal string"},
		{"{\"format\": \"frcd-sim-scenario/1\",,}", "s.json:1:35: invalid character ','"},
		{`{"format": "frcd-sim-scenario/9"}`, `format "frcd-sim-scenario/9"`},
		{`{"format": "frcd-sim-scenario/1"} {}`, "s.json:1:35: text after the scenario"},
		{`{"format": "frcd-sim-scenario/1", "joints": {"a": {"position": 1e999}}}`, "cannot unmarshal number 1e999"},
		{``, "EOF"},
	} {
		_, err := ParseScenario("s.json", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
	r := competition(t)
	for _, tc := range []struct {
		o    Options
		want []string
	}{
		{Options{Initial: map[string]JointState{"nope": {}, "front_bumper_joint": {}}}, []string{`"front_bumper_joint" is no movable`, `"nope" is no movable`}},
		{Options{Sensors: map[string]float64{"navx": 1, "shoulder_pot": 2}}, []string{`"navx" is no digital_input`, `"shoulder_pot" is no digital_input or analog_input in a link`}},
	} {
		_, err := New(r, tc.o)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("New(%+v) = %v, want %q", tc.o, err, w)
			}
		}
	}
}

// FuzzParseScenario: any bytes give a scenario or an error, never a panic,
// and a scenario parsed once writes and parses back the same.
func FuzzParseScenario(f *testing.F) {
	f.Add([]byte(`{"format": "frcd-sim-scenario/1", "robot": "r", "seed": 3, "joints": {"a": {"position": 1}}, "sensors": {"b": 2}}`))
	f.Add([]byte(`{"format": "frcd-sim-scenario/1", "plants": {"a": {"motor": "neo", "travel_s": 0.5}}}`))
	f.Add([]byte(`{"format": "frcd-sim-scenario/1", "faults": {"e": {"noise": {"mu": 1, "sigma": 2}, "dropout": 0.5, "stuck": true}}, "disturbances": [{"joint": "a", "magnitude": 2, "min_x": -1}]}`))
	f.Add([]byte(`{"format": "frcd-sim-scenario/1", "drivetrain": {"type": "tank", "left": ["a"], "right": []}, "pose": {"x": 1, "yaw": 2, "wz": 3}}`))
	f.Add([]byte(`[1, 2`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer bounds.Slow(t)()
		sc, err := ParseScenario("f.json", data)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := sc.Write(&b); err != nil {
			t.Fatal(err)
		}
		back, err := ParseScenario("f.json", b.Bytes())
		if err != nil || !reflect.DeepEqual(back, sc) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, back, sc)
		}
		_, _ = sc.Options(nil, false)
	})
}
