package ros2bridge_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// TestSimAndSensorTopics runs the example robot on the stepped sim with
// its ROS 2 bridge and a ros2node peer: the peer reads
// /sim/joint_states_truth (every movable joint, the sim's own values),
// /sim/ground_truth (the drive base in "odom"), the compressor's four
// topics and the link sensors' (the beam break's Bool, the ultrasonic's
// Float64); its /sim/push places a joint at once, and pushes naming an
// unknown joint or a NaN position are refused whole, counted and logged,
// and move nothing.
func TestSimAndSensorTopics(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	logf := func(format string, args ...any) {
		t.Logf(format, args...)
		mu.Lock()
		logged = append(logged, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	d, b, _ := newBridge(t, logf)
	snap := d.Loop.NewSnapshot()
	if len(snap.Compressors) != 1 || len(snap.LinkDigital) == 0 || len(snap.LinkAnalog) == 0 {
		t.Fatalf("the example has %d compressors, %d digital and %d analog link sensors", len(snap.Compressors), len(snap.LinkDigital), len(snap.LinkAnalog))
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: discovery(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	q := ros2node.Default
	truths := sub(t, peer, "/sim/joint_states_truth", q, func() *ros2msg.JointState { return &ros2msg.JointState{} })
	grounds := sub(t, peer, "/sim/ground_truth", q, func() *ros2msg.Odometry { return &ros2msg.Odometry{} })
	comp := snap.Compressors[0].Name
	running := sub(t, peer, "/"+comp+"/running", q, func() *ros2msg.Bool { return &ros2msg.Bool{} })
	closed := sub(t, peer, "/"+comp+"/closed_loop", q, func() *ros2msg.Bool { return &ros2msg.Bool{} })
	full := sub(t, peer, "/"+comp+"/pressure_switch", q, func() *ros2msg.Bool { return &ros2msg.Bool{} })
	current := sub(t, peer, "/"+comp+"/current", q, func() *ros2msg.Float64 { return &ros2msg.Float64{} })
	digital := sub(t, peer, "/"+snap.LinkDigital[0].Name, q, func() *ros2msg.Bool { return &ros2msg.Bool{} })
	analog := sub(t, peer, "/"+snap.LinkAnalog[0].Name, q, func() *ros2msg.Float64 { return &ros2msg.Float64{} })

	got := map[string]bool{}
	var js *ros2msg.JointState
	var ground *ros2msg.Odometry
	var closedLoop *ros2msg.Bool
	var amps, value *ros2msg.Float64
	for len(got) < 8 && ctx.Err() == nil {
		d.Step()
		b.Publish()
		select {
		case js = <-truths:
			got["truth"] = true
		case ground = <-grounds:
			got["ground"] = true
		case <-running:
			got["running"] = true
		case closedLoop = <-closed:
			// (the module's status reports closed loop from its
			// first status frame on, a few cycles in)
			if closedLoop.Data {
				got["closed_loop"] = true
			}
		case <-full:
			got["pressure_switch"] = true
		case amps = <-current:
			got["current"] = true
		case <-digital:
			got["digital"] = true
		case value = <-analog:
			got["analog"] = true
		case <-time.After(time.Millisecond):
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("got only %v", got)
	}
	var truth ros.Truth
	if !d.Truth(&truth) || !truth.HasPose {
		t.Fatal("the sim has no truth, or no drive base")
	}
	if len(js.Name) != len(truth.Names) || len(js.Name) != len(snap.Joints) || len(js.Position) != len(js.Name) ||
		len(js.Velocity) != len(js.Name) || len(js.Effort) != len(js.Name) || js.Header.Stamp.Sec < int32(time.Now().Unix()-60) {
		t.Errorf("/sim/joint_states_truth %+v, the sim has %v", js, truth.Names)
	}
	for i, n := range js.Name {
		if n != truth.Names[i] || !finite(js.Position[i]) {
			t.Errorf("/sim/joint_states_truth %d: %s at %v, the sim's %s", i, n, js.Position[i], truth.Names[i])
		}
	}
	if ground.Header.FrameID != "odom" || ground.ChildFrameID == "" || math.Abs(ground.Orientation.W*ground.Orientation.W+ground.Orientation.Z*ground.Orientation.Z-1) > 1e-9 {
		t.Errorf("/sim/ground_truth %+v", ground)
	}
	if !closedLoop.Data || !finite(amps.Data) || amps.Data < 0 || !finite(value.Data) {
		t.Errorf("compressor closed loop %v, current %v; %s %v", closedLoop.Data, amps.Data, snap.LinkAnalog[0].Name, value.Data)
	}

	// sim/push: a good push places the joint, bad ones are refused.
	push, err := peer.Publisher("/sim/push", &ros2msg.JointState{}, ros2node.Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := push.Writer().WaitMatched(ctx, 1); err != nil {
		t.Fatal(err)
	}
	joint := truth.Names[0]
	position := func() float64 {
		var tr ros.Truth
		d.Truth(&tr)
		for i, n := range tr.Names {
			if n == joint {
				return tr.Position[i]
			}
		}
		t.Fatalf("no joint %s", joint)
		return 0
	}
	// sim/push's reader is best effort: a message goes again until it is
	// counted.
	until := func(what string, m *ros2msg.JointState, done func(pushes, refused uint64) bool) {
		t.Helper()
		for {
			if err := push.Publish(m); err != nil {
				t.Fatal(err)
			}
			select {
			case <-time.After(20 * time.Millisecond):
			case <-ctx.Done():
				t.Fatalf("%s: not counted", what)
			}
			if done(b.PushStats()) {
				return
			}
		}
	}
	until("a good push", &ros2msg.JointState{Name: []string{joint}, Position: []float64{0.25}}, func(p, _ uint64) bool { return p >= 1 })
	if p := position(); p != 0.25 {
		t.Fatalf("%s at %v after a push to 0.25", joint, p)
	}
	pushes, _ := b.PushStats()
	until("a NaN push", &ros2msg.JointState{Name: []string{joint}, Position: []float64{math.NaN()}}, func(_, r uint64) bool { return r >= 1 })
	until("an unknown joint", &ros2msg.JointState{Name: []string{joint, "no_such_joint"}, Position: []float64{0.5, 0.5}}, func(_, r uint64) bool { return r >= 2 })
	if p := position(); p != 0.25 {
		t.Errorf("%s at %v after refused pushes", joint, p)
	}
	if p, _ := b.PushStats(); p != pushes {
		t.Errorf("pushes %d after refused ones, %d before", p, pushes)
	}
	mu.Lock()
	defer mu.Unlock()
	n := 0
	for _, l := range logged {
		if strings.HasPrefix(l, "ros2: /sim/push: ") && strings.Contains(l, "refused: nothing moved") {
			n++
		}
	}
	if n < 2 {
		t.Errorf("%d /sim/push lines logged: %q", n, logged)
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// TestSimClock: the sim publishes its time on /clock (rosgraph_msgs/msg/
// Clock), read here as rclcpp's time source reads it (best effort, keep
// last 1): each is the stamp of a publication's messages (the epoch plus
// the snapshot's time), and they advance with the sim.
func TestSimClock(t *testing.T) {
	d, b, _ := newBridge(t, t.Logf)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: discovery(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	q := rtps.QoS{Reliability: rtps.BestEffort, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 1}
	clocks := sub(t, peer, "/clock", q, func() *ros2msg.Clock { return &ros2msg.Clock{} })
	snap := d.Loop.NewSnapshot()
	stamps := map[ros2msg.Time]bool{}
	var got []ros2msg.Time
	for len(got) < 3 && ctx.Err() == nil {
		d.Step()
		b.Publish()
		d.Loop.ReadSnapshot(snap)
		stamps[ros2msg.TimeOf(d.Epoch().Add(snap.Now))] = true
		select {
		case c := <-clocks:
			if !stamps[c.Clock] {
				t.Fatalf("/clock %+v is no publication's stamp", c.Clock)
			}
			if n := len(got); n > 0 && !after(c.Clock, got[n-1]) {
				t.Fatalf("/clock went from %+v to %+v", got[n-1], c.Clock)
			}
			got = append(got, c.Clock)
		case <-time.After(time.Millisecond):
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("/clock: %d samples", len(got))
	}
}

// after says a is later than b.
func after(a, b ros2msg.Time) bool {
	return a.Sec > b.Sec || a.Sec == b.Sec && a.Nanosec > b.Nanosec
}
