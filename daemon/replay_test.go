package daemon

import (
	"path/filepath"
	"testing"

	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/sim"
)

// trace is what a run did, cycle by cycle: every joint's truth and its
// measured state, for exact comparison.
type trace [][]float64

func record(d *Daemon, cycles int) trace {
	snap := d.Loop.NewSnapshot()
	var tr trace
	for i := 0; i < cycles; i++ {
		if i%25 == 0 {
			command(d)
		}
		d.Step()
		d.Loop.ReadSnapshot(snap)
		row := []float64{}
		for _, j := range snap.Joints {
			t, _ := d.Sim.Joint(j.Name)
			row = append(row, t.Position, t.Velocity, t.Current, j.State.Position, j.State.Velocity, j.State.Effort)
		}
		p, _ := d.Sim.Pose()
		row = append(row, p.X, p.Y, p.Yaw, p.VX, p.VY, p.WZ)
		tr = append(tr, row)
	}
	return tr
}

// same compares two traces bit for bit (NaN equal to NaN).
func same(a, b trace) (int, bool) {
	if len(a) != len(b) {
		return 0, false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return i, false
		}
		for k := range a[i] {
			x, y := a[i][k], b[i][k]
			if x != y && (x == x || y == y) {
				return i, false
			}
		}
	}
	return 0, true
}

// TestScenarioReplays: a run's scenario, saved to a file and loaded
// again, replays to bit-identical truth and measurements.
func TestScenarioReplays(t *testing.T) {
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	first, err := NewSim(r, SimOptions{Seed: 9, Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := first.Sim.Scenario()
	sc.Joints = map[string]sim.JointState{"shoulder_joint": {Position: 0.4, Velocity: 0.1}, "elevator_joint": {Position: 0.2}}
	sc.Sensors = map[string]float64{"ball_beam_break": 1}
	// Randomness everywhere it can be: noisy, drifting and dropping
	// sensors and a random push, so that only the seed makes runs agree.
	sc.Faults = map[string]sim.SensorFault{
		"shoulder_pot":     {Noise: sim.Gauss{Sigma: 0.01}, Drift: sim.Gauss{Mu: 0.001, Sigma: 0.002}, Dropout: 0.1},
		"elevator_encoder": {Noise: sim.Gauss{Sigma: 0.002}, Dropout: 0.05},
		"pigeon":           {Noise: sim.Gauss{Sigma: 0.01}, Dropout: 0.2},
	}
	sc.Disturbances = []sim.Disturbance{
		{Joint: "shoulder_joint", Kind: sim.DisturbForce, Magnitude: 2, UpdatePeriod: 0.3},
		{Base: true, Kind: sim.DisturbForce, Magnitude: 300, UpdatePeriod: 0.5},
	}
	sc.Pose = &sim.Pose{X: 3, Y: 1, Yaw: 1}
	if sc.Drivetrain == nil {
		t.Fatal("the example robot's scenario has no drivetrain")
	}
	path := filepath.Join(t.TempDir(), "failing.json")
	if err := sc.Save(path); err != nil {
		t.Fatal(err)
	}
	run := func(sc *sim.Scenario) trace {
		d, err := NewSim(r, SimOptions{Scenario: sc}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return record(d, 400)
	}
	want := run(sc)
	loaded, err := sim.LoadScenario(path)
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := same(run(loaded), want); !ok {
		t.Fatalf("the loaded scenario diverged at cycle %d", i)
	}
	// The scenario matters: another seed, or another starting state,
	// gives another run.
	reseeded := *loaded
	reseeded.Seed++
	if _, ok := same(run(&reseeded), want); ok {
		t.Error("another seed gave the same run")
	}
	other := *loaded
	other.Joints = map[string]sim.JointState{"shoulder_joint": {Position: -0.4}}
	if _, ok := same(run(&other), want); ok {
		t.Error("a different scenario gave the same run: the comparison cannot fail")
	}
}
