package sim

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// pushURDF has a free passive shaft (inertia 0.1 by default) and a
// passive slide between 0 and 1 m.
const pushURDF = `<robot name="push">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="free" type="continuous"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/></joint>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="b"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
</robot>
`

func pushSim(t *testing.T, ds ...Disturbance) *Sim {
	t.Helper()
	return newSim(t, loadRobot(t, pushURDF, "joints: []\n"), Options{Seed: 4, Disturbances: ds})
}

func ptr(x float64) *float64 { return &x }

// TestDisturbanceDraws: a joint's disturbance holds its initial value for
// the first period, changes only at multiples of the period, and draws
// the magnitude with a random sign, clamped.
func TestDisturbanceDraws(t *testing.T) {
	const period = 250 * time.Millisecond
	s := pushSim(t,
		Disturbance{Joint: "free", Magnitude: 5, UpdatePeriod: 0.25, InitialX: 1.5, MinX: ptr(-2), MaxX: ptr(3)},
		Disturbance{Joint: "slide", Magnitude: 0.7, UpdatePeriod: 0.25})
	var draws [2][]float64
	held := [2]float64{1.5, 0}
	for now := time.Duration(0); now <= 50*time.Second; now += time.Millisecond {
		s.AdvanceTo(now)
		for i := range 2 {
			x, y, ok := s.DisturbanceValue(i)
			if !ok || y != 0 {
				t.Fatalf("disturbance %d at %v: %v, %v, %v", i, now, x, y, ok)
			}
			switch {
			case now < period && i == 0 && x != 1.5, now < period && i == 1 && x != 0:
				t.Fatalf("disturbance %d at %v: %v before the first draw, want its initial value", i, now, x)
			case now%period == 0 && now > 0:
				draws[i] = append(draws[i], x)
			case x != held[i]:
				t.Fatalf("disturbance %d changed at %v, not a multiple of %v", i, now, period)
			}
			held[i] = x
		}
	}
	if len(draws[0]) != 200 {
		t.Fatalf("%d draws in 50 s, want 200", len(draws[0]))
	}
	high := 0
	for k := range draws[0] {
		switch a, b := draws[0][k], draws[1][k]; {
		case a != -2 && a != 3:
			t.Errorf("draw %d: %v; magnitude 5 clamped to -2..3 draws -2 or 3", k, a)
		case math.Abs(b) != 0.7:
			t.Errorf("draw %d: %v; unclamped, the magnitude is 0.7", k, b)
		case a == 3:
			high++
		}
	}
	within(t, "draws positive", high, 200, 0.5)
}

// TestBaseDisturbance: the base's draws are magnitude long in the x-y
// plane, clamped per axis; the hook sums forces and velocities apart.
func TestBaseDisturbance(t *testing.T) {
	s := newDriveRig(t, false, tankYAML).s
	if err := s.SetDisturbances([]Disturbance{
		{Base: true, Kind: DisturbForce, Magnitude: 2, UpdatePeriod: 0.1, InitialX: 4, InitialY: -1},
		{Base: true, Magnitude: 1, UpdatePeriod: 0.1, MinX: ptr(-0.5), MaxY: ptr(0.25)},
		{Joint: "lf_drive", Kind: DisturbForce, Magnitude: 9, InitialX: 9}}); err != nil {
		t.Fatal(err)
	}
	base := func() (fx, fy, vx, vy float64) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.baseDisturbance()
	}
	if fx, fy, vx, vy := base(); fx != 4 || fy != -1 || vx != 0 || vy != 0 {
		t.Errorf("before the first draw: force %v, %v, velocity %v, %v; want 4, -1 and 0, 0", fx, fy, vx, vy)
	}
	var clampedX, clampedY int
	var quadrants [4]int
	for k := 1; k <= 400; k++ {
		s.AdvanceTo(time.Duration(k) * 100 * time.Millisecond)
		fx, fy, vx, vy := base()
		if math.Abs(math.Hypot(fx, fy)-2) > 1e-12 {
			t.Fatalf("draw %d: force %v, %v is not 2 long", k, fx, fy)
		}
		if vx < -0.5 || vy > 0.25 || math.Hypot(vx, vy) > 1+1e-12 {
			t.Fatalf("draw %d: velocity %v, %v out of its clamps", k, vx, vy)
		}
		if vx == -0.5 {
			clampedX++
		}
		if vy == 0.25 {
			clampedY++
		}
		q := 0
		if fx < 0 {
			q++
		}
		if fy < 0 {
			q += 2
		}
		quadrants[q]++
	}
	if clampedX == 0 || clampedY == 0 {
		t.Errorf("the clamps never bit: x %d, y %d times", clampedX, clampedY)
	}
	for q, n := range quadrants {
		within(t, "force draws in quadrant "+string(rune('1'+q)), n, 400, 0.25)
	}
}

// TestDisturbancesMoveJoints: a force accelerates an idle shaft as F / I;
// a velocity carries a slide until its stop.
func TestDisturbancesMoveJoints(t *testing.T) {
	s := pushSim(t,
		Disturbance{Joint: "free", Kind: DisturbForce, Magnitude: 0, InitialX: 0.5},
		Disturbance{Joint: "slide", Kind: DisturbVelocity, Magnitude: 0, InitialX: 0.2})
	s.AdvanceTo(2 * time.Second)
	free, slide := truth(t, s, "free"), truth(t, s, "slide")
	// 0.5 N·m on 0.1 kg·m²: 5 rad/s², 10 rad/s and 10 rad after 2 s (to
	// the 1 ms steps' error).
	if math.Abs(free.Velocity-10) > 1e-9 || math.Abs(free.Position-10) > 0.011 {
		t.Errorf("free after 2 s of 0.5 N·m: %+v, want 10 rad/s at 10 rad", free)
	}
	if math.Abs(slide.Position-0.4) > 1e-9 || math.Abs(slide.Velocity-0.2) > 1e-9 {
		t.Errorf("slide after 2 s at 0.2 m/s: %+v, want 0.4 m moving 0.2 m/s", slide)
	}
	s.AdvanceTo(6 * time.Second)
	if slide = truth(t, s, "slide"); slide.Position != 1 || slide.Velocity != 0 {
		t.Errorf("slide against its stop: %+v, want 1 m, still", slide)
	}
	// Replaced by nothing: the shaft coasts on, the slide stays.
	if err := s.SetDisturbances(nil); err != nil {
		t.Fatal(err)
	}
	v := truth(t, s, "free").Velocity
	s.AdvanceTo(7 * time.Second)
	if got := truth(t, s, "free").Velocity; got != v {
		t.Errorf("no disturbance: free went from %v to %v rad/s", v, got)
	}
	if len(s.Disturbances()) != 0 {
		t.Errorf("Disturbances: %+v", s.Disturbances())
	}
}

func TestDisturbanceErrors(t *testing.T) {
	s := bench(t, Options{})
	for _, tc := range []struct {
		d    Disturbance
		want string
	}{
		{Disturbance{Joint: "spin", Kind: "shove"}, `kind "shove"`},
		{Disturbance{Joint: "spin", Magnitude: -1}, "magnitude -1"},
		{Disturbance{Joint: "spin", UpdatePeriod: 1e-4}, "update_period"},
		{Disturbance{Joint: "spin", MinX: ptr(math.Inf(1))}, "finite"},
		{Disturbance{Joint: "spin", MinX: ptr(1), MaxX: ptr(0)}, "min clamp is above its max"},
		{Disturbance{Joint: "spin", Base: true}, "exactly one"},
		{Disturbance{}, "exactly one"},
		{Disturbance{Name: "wobble", Joint: "spin", InitialY: 1}, `disturbance "wobble": a joint has one axis`},
		{Disturbance{Joint: "spun"}, `no movable joint named "spun"`},
		{Disturbance{Joint: "follower"}, `mimics "spin"`},
		{Disturbance{Joint: "flap", Kind: DisturbForce}, "positioned by its actuator"},
	} {
		if err := s.SetDisturbances([]Disturbance{{Joint: "arm"}, tc.d}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.d, err, tc.want)
		}
	}
	if len(s.Disturbances()) != 0 {
		t.Errorf("a refused list was set: %+v", s.Disturbances())
	}
	if err := s.SetDisturbances([]Disturbance{{Joint: "flap", Magnitude: 1}}); err != nil {
		t.Errorf("velocity on a digital output's joint: %v", err)
	}
	if err := s.SetDisturbances([]Disturbance{{Base: true}}); err == nil || !strings.Contains(err.Error(), "the base moves only with a drivetrain") {
		t.Errorf("the base of a robot with no drivetrain: %v", err)
	}
}

// TestConfigOptionsFaults: the YAML's sensors and disturbances become
// Options.
func TestConfigOptionsFaults(t *testing.T) {
	r := loadRobot(t, benchURDF, benchYAML+`sim:
  sensors:
    - {name: enc_a, noise: {mu: 0.1, sigma: 0.2}, drift: {mu: -1, sigma: 3}, dropout: 0.4}
    - {name: beam, disconnected: true, fault_at: 2.5}
  disturbances:
    - {name: shove, joint: arm, kind: force, magnitude: 5, update_period: 1, min_x: -3, max_x: 3}
`)
	o := ConfigOptions(r.Config, 7, false)
	wantF := map[string]SensorFault{
		"enc_a": {Noise: Gauss{0.1, 0.2}, Drift: Gauss{-1, 3}, Dropout: 0.4},
		"beam":  {Disconnected: true, FaultAt: 2.5},
	}
	wantD := []Disturbance{
		{Name: "shove", Joint: "arm", Kind: "force", Magnitude: 5, UpdatePeriod: 1, MinX: ptr(-3), MaxX: ptr(3)},
	}
	if !reflect.DeepEqual(o.Faults, wantF) {
		t.Errorf("faults: %+v\nwant %+v", o.Faults, wantF)
	}
	if !reflect.DeepEqual(o.Disturbances, wantD) {
		t.Errorf("disturbances: %+v\nwant %+v", o.Disturbances, wantD)
	}
	s := newSim(t, r, o)
	if got := s.Faults(); !reflect.DeepEqual(got, wantF) {
		t.Errorf("Sim.Faults: %+v", got)
	}
	if got := s.Disturbances(); !reflect.DeepEqual(got, wantD) {
		t.Errorf("Sim.Disturbances: %+v", got)
	}
}

// TestConfigOptionsBaseDisturbance: a YAML push on the base of a robot
// with a drivetrain becomes Options, and pushes the base.
func TestConfigOptionsBaseDisturbance(t *testing.T) {
	g := newDriveRig(t, false, tankYAML+"  disturbances:\n    - {base: true, initial_x: 1, initial_y: 2, max_y: 0.5}\n")
	want := []Disturbance{{Base: true, Kind: "velocity", Magnitude: 1, UpdatePeriod: 10, InitialX: 1, InitialY: 2, MaxY: ptr(0.5)}}
	if got := g.s.Disturbances(); !reflect.DeepEqual(got, want) {
		t.Errorf("Sim.Disturbances: %+v\nwant %+v", got, want)
	}
	g.run(time.Second) // carried at (1, 2) m/s, the wheels idle
	if p := g.pose(t); !near(p.X, 1, 1e-9) || !near(p.Y, 2, 1e-9) {
		t.Errorf("after 1 s carried at (1, 2) m/s: pose %+v", p)
	}
}

// TestFaultsAndDisturbancesJSON: the options a scenario file saves
// round-trip through JSON under their YAML key names.
func TestFaultsAndDisturbancesJSON(t *testing.T) {
	f := map[string]SensorFault{"enc_a": {Noise: Gauss{0.1, 0.2}, Drift: Gauss{Mu: 1}, Dropout: 0.5, Stuck: true, Disconnected: true, FaultAt: 2}}
	d := []Disturbance{{Name: "w", Base: true, Kind: DisturbForce, Magnitude: 2, UpdatePeriod: 1, InitialX: 1, InitialY: 2, MinX: ptr(-1), MaxX: ptr(0), MinY: ptr(-3), MaxY: ptr(3)}}
	b, err := json.Marshal(struct {
		F map[string]SensorFault
		D []Disturbance
	}{f, d})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"noise":{"mu":0.1,"sigma":0.2}`, `"dropout":0.5`, `"fault_at":2`, `"update_period":1`, `"initial_y":2`, `"min_x":-1`, `"max_y":3`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("%s lacks %s", b, key)
		}
	}
	var back struct {
		F map[string]SensorFault
		D []Disturbance
	}
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.F, f) || !reflect.DeepEqual(back.D, d) {
		t.Errorf("round trip: %+v %v", back, err)
	}
}
