package telemetry_test

import (
	"math/rand"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/telemetry"
)

// TestSimTopicsRate: the sim/ topics keep SimEvery (20 ms: 50 Hz) on the
// loop's time when Sample misses a cycle now and then (a third of the
// cycles at random, never two in a row, as a goroutine woken late does):
// 50 ± 1 samples a second over 10 s of stepped loop time. (Restarting
// from each sample, as before, gave 44.8.)
func TestSimTopicsRate(t *testing.T) {
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s := telemetry.New(telemetry.Options{Loop: d.Loop, Robot: r, Prefix: "robot/", SimEvery: 20 * time.Millisecond,
		Truth: func(tr *telemetry.Truth) bool { // a base that moves at every cycle: each sample changes the pose
			tr.HasPose, tr.X = true, float64(d.Now())/float64(time.Second)
			return true
		}})
	var pose *telemetry.Topic
	for _, tp := range s.Topics {
		if tp.Name == "/robot/sim/pose" {
			pose = tp
		}
	}
	if pose == nil {
		t.Fatal("no /robot/sim/pose")
	}
	rnd := rand.New(rand.NewSource(1))
	d.Step()
	s.Sample()
	const span = 10 * time.Second
	start, before := d.Now(), pose.Seq
	late := false
	for d.Now()-start < span {
		d.Step()
		if late = !late && rnd.Intn(3) == 0; late {
			continue
		}
		s.Sample()
	}
	got := float64(pose.Seq-before) / span.Seconds()
	t.Logf("loop %v, SimEvery 20ms: sim/pose at %.2f Hz", d.Loop.Period(), got)
	if got < 49 || got > 51 {
		t.Errorf("sim/pose at %.2f Hz, want 50 ± 1", got)
	}
}
