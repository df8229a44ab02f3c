package ros2bridge_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// stampEvent is a line of testdata/cyclone/stamps.c.
type stampEvent struct {
	Event     string `json:"event"`
	Topic     string `json:"topic"`
	N         int    `json:"n"`
	Repeats   int    `json:"repeats"`
	Backwards int    `json:"backwards"`
	First     int64  `json:"first"`
	Last      int64  `json:"last"`
}

// onTimeCount samples of each topic at onTimeRate, within onTimeSlack of
// the loop's own rate.
const (
	onTimeCount = 3000
	onTimeRate  = 100.0
	onTimeSlack = 0.02
)

// TestStampsOnceOnTime is issue 38's "every sample once, on time": the
// example robot on the real-time sim at 100 Hz, its joint states every
// cycle, with a CPU hog per core beside it (busy shell loops), and a
// Cyclone DDS subscriber (testdata/cyclone/stamps.c, rmw's default QoS;
// /tf as tf2_ros's listener) reading 3,000 samples of /joint_states and
// of /tf (those of the movable joints' message; the drive base's
// odom -> base_link at its own 50 Hz kept apart, as tf2 checks each
// frame): no stamp repeats or goes back, and each topic's rate (samples
// over their stamps' span, in the loop's time) is within 2 % of the
// loop's (its cycles over the same time, read before and after).
func TestStampsOnceOnTime(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads 3,000 samples at 100 Hz (30 s) beside a CPU hog; make test runs it")
	}
	bin := ddstest.Cyclone.Program(t, "testdata/cyclone/stamps.c", "testdata/Topics.idl")
	r, list, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("example robot: %v %v", err, list)
	}
	urdfText, err := os.ReadFile(exampleURDF)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true, RealTime: true}, daemon.Options{Rate: onTimeRate})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	movable, _ := exampleMovable(t)
	domain := ddstest.Domain()
	b, err := ros2bridge.New(ros2bridge.Options{Loop: d.Loop, URDF: string(urdfText), Clock: d.Now, Epoch: d.Epoch(),
		Rest: jointstate.RestPositions(r), Every: d.Loop.Period(), State: ros2bridge.StateOptions{Movable: movable},
		Node: ros2node.Config{Name: "frcd", RTPS: rtps.Config{Domain: domain, MaxPeerID: ddstest.MaxPeerID}}, Sim: d.ROS2Sim()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	loopDone, bridgeDone := make(chan error, 1), make(chan error, 1)
	go func() { loopDone <- d.Run(ctx) }()
	go func() { bridgeDone <- b.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-loopDone; err != nil {
			t.Error(err)
		}
		<-bridgeDone
	}()
	for range runtime.NumCPU() {
		hog := exec.Command("sh", "-c", "while :; do :; done")
		if err := hog.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { hog.Process.Kill(); hog.Wait() }()
	}

	sub := tooltest.StartJSON[stampEvent](t, ddstest.Env(domain), bin, fmt.Sprint(onTimeCount), "joint_state=rt/joint_states", "tf=rt/tf")
	for range 2 {
		sub.Wait("the subscriber matched", func(e stampEvent) bool { return e.Event == "matched" })
	}
	// The loop's statistics and time as its snapshot publishes them: Stats
	// is the loop goroutine's own.
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	st0, now0 := snap.Stats, snap.Now
	var done []stampEvent
	for range 2 {
		done = append(done, sub.WaitWithin("3,000 samples", 4*onTimeCount*time.Second/time.Duration(onTimeRate),
			func(e stampEvent) bool { return e.Event == "done" }))
	}
	d.Loop.ReadSnapshot(snap)
	st1, now1 := snap.Stats, snap.Now
	loopRate := float64(st1.Cycles-st0.Cycles) / (now1 - now0).Seconds()
	t.Logf("loop: %.2f Hz over %v (configured %g Hz; %d overruns)", loopRate, now1-now0, onTimeRate, st1.Overruns-st0.Overruns)
	for _, e := range done {
		rate := float64(e.N-1) / (float64(e.Last-e.First) / 1e9)
		t.Logf("%s: %d samples, %.2f Hz (%.2f %% of the loop's), %d repeated stamps, %d going back", e.Topic, e.N, rate, 100*rate/loopRate, e.Repeats, e.Backwards)
		if e.Repeats != 0 || e.Backwards != 0 {
			t.Errorf("%s: %d repeated stamps, %d going back", e.Topic, e.Repeats, e.Backwards)
		}
		if math.Abs(rate/loopRate-1) > onTimeSlack {
			t.Errorf("%s at %.2f Hz, the loop at %.2f Hz: more than %g %% apart", e.Topic, rate, loopRate, 100*onTimeSlack)
		}
	}
}
