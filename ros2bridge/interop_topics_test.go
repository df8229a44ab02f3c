package ros2bridge_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// topicEvent is a line of testdata/cyclone/topics.c (and its Fast DDS
// twin): a topic's first sample, or a push written.
type topicEvent struct {
	Topic    string    `json:"topic"`
	TypeHash string    `json:"typehash"`
	B        *bool     `json:"b"`
	S        *string   `json:"s"`
	I        *int      `json:"i"`
	F        *float64  `json:"f"`
	Axes     []float64 `json:"axes"`
	Buttons  []int     `json:"buttons"`
	Names    []string  `json:"names"`
	Pos      []float64 `json:"pos"`
	Vel      []float64 `json:"vel"`
	Sec      int64     `json:"sec"`
	Frame    string    `json:"frame"`
	Child    string    `json:"child"`
	P        []float64 `json:"p"`
	Q        []float64 `json:"q"`
	TF       []tfEvent `json:"tf"`
	Pushed   *int      `json:"pushed"`
}

type tfEvent struct {
	Parent string    `json:"parent"`
	Child  string    `json:"child"`
	T      []float64 `json:"t"`
	Q      []float64 `json:"q"`
}

// dsFill is what the Driver Station says in the interop tests: joystick
// 0 with two axes, a POV at 90° and buttons 1 and 3; red 2; 95 s left;
// no brownout; the op modes of interopOps.
func dsFill(dst *hal.DSInfo) {
	dst.OpModes = interopOps
	j := &dst.Joysticks[0]
	j.NumAxes, j.NumPOVs, j.NumButtons = 2, 1, 3
	j.Axes[0], j.Axes[1], j.POVs[0], j.Buttons = 0.5, -0.25, 90, 0b101
	dst.Alliance, dst.Station, dst.MatchTime, dst.HasBrownout = "red", 2, 95, true
}

// interopOps are the op modes of the interop tests: the sim's Driver
// Station selects Drive.
var interopOps = hal.NewOpModes([]hal.Mode{hal.Teleop}, []string{"Drive"})

// topicPeers are the DDS peers that read the newest topics, and the ROS
// distribution frcd's node runs as: Jazzy with the Cyclone peer (each
// writer's USER_DATA has typehash=...;, which it reads), Humble with the
// Fast DDS one (no type hashes; Fast DDS 2.9.1 does not show a reader its
// writers' USER_DATA anyway).
var topicPeers = []struct {
	peer       *ddstest.Peer
	src, idl   string
	typeHashes bool // frcd as Jazzy, and the peer reads USER_DATA; else as Humble
}{
	{ddstest.Cyclone, "testdata/cyclone/topics.c", "testdata/Topics.idl", true},
	{ddstest.FastDDS, "testdata/fastdds/topics.cpp", "testdata/Topics.idl", false},
}

// TestNewestTopicsInterop runs the example robot on the stepped sim with
// its ROS 2 bridge on a DDS peer's domain (topicPeers), the turret commanded to 1 rad
// and stepped there, then frozen (the bridge publishes on, the sim no
// longer steps, so every sample holds the sim's state as the test reads
// it). A Cyclone DDS peer (testdata/cyclone/topics.c, types from
// Topics.idl by idlc, ROS 2's type names), then a Fast DDS one
// (testdata/fastdds/topics.cpp, types by fastddsgen), reads, in any order:
// driver_station/joy0 (sensor_msgs/Joy: the axes, the POV as x 1 y 0,
// buttons 1 0 1), enabled, estop, attached, mode, brownout, alliance,
// station, match_time and op_mode (the sim's Driver Station selects
// Drive) as the Driver Station and the loop say; the
// compressor's four topics and the link sensors' as the snapshot has
// them; /sim/joint_states_truth and /sim/ground_truth exactly as the
// sim's truth; /tf with one transform per movable joint equal to the
// URDF joint's motion at /joint_states' position (the turret turned 1
// rad). With frcd as Jazzy, each writer's USER_DATA is typehash=RIHS01_...;
// of its type. Then its sim/push places the turret at 0.25 (the sim's
// truth has it), and a push naming an unknown joint is refused and
// counted, and moves nothing.
func TestNewestTopicsInterop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs DDS peers: skipped with -short")
	}
	for _, p := range topicPeers {
		t.Run(p.peer.Name, func(t *testing.T) {
			bin := p.peer.Program(t, p.src, p.idl)
			movable, joints := exampleMovable(t)
			// The stamps are the bridge's epoch (its wall-clock start, less
			// the loop's clock then) plus loop time: none before this.
			start := time.Now().Unix()
			domain := ddstest.Domain()
			d, b, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) {
				o.State.DriverStation = dsFill
				o.State.Movable = movable
				o.Node.RTPS = rtps.Config{Domain: domain, MaxPeerID: ddstest.MaxPeerID, Logf: t.Logf}
				o.Node.TypeHashes, o.Node.Humble = p.typeHashes, !p.typeHashes
			})
			d.Sim.UpdateDS(func(ds *hal.DSState) { ds.OpMode = interopOps[0].ID })
			turret := d.Loop.Controller("turret_position")
			if err := turret.Command(1, d.Now()); err != nil {
				t.Fatal(err)
			}
			var truth ros.Truth
			turretAt := func(tr *ros.Truth) float64 {
				i := slices.Index(tr.Names, "turret_joint")
				if i < 0 {
					t.Fatalf("no turret_joint in the sim's %v", tr.Names)
				}
				return tr.Position[i]
			}
			for i := 0; ; i++ {
				if !d.Truth(&truth) || !truth.HasPose {
					t.Fatal("the sim has no truth, or no drive base")
				}
				if math.Abs(turretAt(&truth)-1) < 0.02 && math.Abs(truth.Velocity[slices.Index(truth.Names, "turret_joint")]) < 0.05 {
					break
				}
				if i == 5000 {
					t.Fatalf("the turret at %v after 50 s of the sim", turretAt(&truth))
				}
				d.Step()
			}
			// Frozen: the bridge publishes the same state every 10 ms.
			snap := d.Loop.NewSnapshot()
			d.Loop.ReadSnapshot(snap)
			ctx, cancel := context.WithCancel(context.Background())
			published := make(chan struct{})
			go func() {
				defer close(published)
				for ctx.Err() == nil {
					b.Publish()
					select {
					case <-ctx.Done():
					case <-time.After(10 * time.Millisecond):
					}
				}
			}()
			t.Cleanup(func() { cancel(); <-published })

			comp, dig, ana := snap.Compressors[0], snap.LinkDigital[0], snap.LinkAnalog[0]
			if !dig.OK || !ana.OK {
				t.Fatalf("the link sensors read %v %v", dig.OK, ana.OK)
			}
			topics := []struct{ kind, name, rosType string }{
				{"joy", "driver_station/joy0", "sensor_msgs/msg/Joy"},
				{"bool", "driver_station/enabled", "std_msgs/msg/Bool"},
				{"bool", "driver_station/estop", "std_msgs/msg/Bool"},
				{"bool", "driver_station/attached", "std_msgs/msg/Bool"},
				{"bool", "driver_station/brownout", "std_msgs/msg/Bool"},
				{"string", "driver_station/mode", "std_msgs/msg/String"},
				{"string", "driver_station/alliance", "std_msgs/msg/String"},
				{"int8", "driver_station/station", "std_msgs/msg/Int8"},
				{"float64", "driver_station/match_time", "std_msgs/msg/Float64"},
				{"string", "driver_station/op_mode", "std_msgs/msg/String"},
				{"bool", comp.Name + "/running", "std_msgs/msg/Bool"},
				{"bool", comp.Name + "/closed_loop", "std_msgs/msg/Bool"},
				{"bool", comp.Name + "/pressure_switch", "std_msgs/msg/Bool"},
				{"float64", comp.Name + "/current", "std_msgs/msg/Float64"},
				{"bool", dig.Name, "std_msgs/msg/Bool"},
				{"float64", ana.Name, "std_msgs/msg/Float64"},
				{"joint_state", "sim/joint_states_truth", "sensor_msgs/msg/JointState"},
				{"odometry", "sim/ground_truth", "nav_msgs/msg/Odometry"},
				{"joint_state", "joint_states", "sensor_msgs/msg/JointState"},
				{"tf", "tf", "tf2_msgs/msg/TFMessage"},
			}
			var args []string
			for _, tp := range topics {
				args = append(args, tp.kind+"=rt/"+tp.name)
			}
			peer := tooltest.StartJSON[topicEvent](t, ddstest.Env(domain), bin, args...)
			got := map[string]topicEvent{}
			// Generous: Fast DDS's discovery of many topics took 20-30 s on
			// this loaded machine (docs/ros2.md).
			peer.WaitWithin("every topic's first sample", 4*tooltest.Timeout, func(e topicEvent) bool {
				if name, ok := strings.CutPrefix(e.Topic, "rt/"); ok {
					if _, seen := got[name]; !seen {
						got[name] = e
					}
				}
				return len(got) == len(topics)
			})
			for _, tp := range topics {
				want := ""
				if p.typeHashes {
					h, err := ros2msg.TypeHash(tp.rosType)
					if err != nil {
						t.Fatal(err)
					}
					want = "typehash=" + h + ";"
				}
				if e := got[tp.name]; e.TypeHash != want {
					t.Errorf("/%s: USER_DATA %q, want %q", tp.name, e.TypeHash, want)
				}
			}

			// The Driver Station, as dsFill and the loop say.
			j := got["driver_station/joy0"]
			if !slices.Equal(j.Axes, []float64{0.5, -0.25, 1, 0}) || !slices.Equal(j.Buttons, []int{1, 0, 1}) || j.Sec < start {
				t.Errorf("joy0 %+v, want axes 0.5 -0.25 1 0, buttons 1 0 1, stamped from %d on (this run's clock)", j, start)
			}
			ds := snap.DS
			for name, want := range map[string]bool{"enabled": ds.Enabled && ds.Attached && !ds.EStop, "estop": ds.EStop,
				"attached": ds.Attached, "brownout": false} {
				if e := got["driver_station/"+name]; e.B == nil || *e.B != want {
					t.Errorf("driver_station/%s %+v, want %v", name, e, want)
				}
			}
			if !ds.Enabled || !ds.Attached {
				t.Errorf("the example robot runs enabled and attached: %+v", ds)
			}
			if e := got["driver_station/mode"]; e.S == nil || *e.S != ds.Mode.String() {
				t.Errorf("driver_station/mode %+v, want %q", e, ds.Mode.String())
			}
			if e := got["driver_station/alliance"]; e.S == nil || *e.S != "red" {
				t.Errorf("driver_station/alliance %+v, want red", e)
			}
			if e := got["driver_station/station"]; e.I == nil || *e.I != 2 {
				t.Errorf("driver_station/station %+v, want 2", e)
			}
			if e := got["driver_station/match_time"]; e.F == nil || *e.F != 95 {
				t.Errorf("driver_station/match_time %+v, want 95", e)
			}
			if e := got["driver_station/op_mode"]; e.S == nil || *e.S != "Drive" {
				t.Errorf("driver_station/op_mode %+v, want Drive", e)
			}

			// The sensors, as the snapshot has them.
			cs := comp.State
			for name, want := range map[string]bool{"running": cs.Running, "closed_loop": cs.ClosedLoop, "pressure_switch": cs.Full} {
				if e := got[comp.Name+"/"+name]; e.B == nil || *e.B != want {
					t.Errorf("%s/%s %+v, want %v", comp.Name, name, e, want)
				}
			}
			if e := got[comp.Name+"/current"]; e.F == nil || *e.F != cs.Current {
				t.Errorf("%s/current %+v, want %v", comp.Name, e, cs.Current)
			}
			if e := got[dig.Name]; e.B == nil || *e.B != dig.State.Value {
				t.Errorf("%s %+v, want %v", dig.Name, e, dig.State.Value)
			}
			if e := got[ana.Name]; e.F == nil || *e.F != ana.State.Value {
				t.Errorf("%s %+v, want %v", ana.Name, e, ana.State.Value)
			}

			// The sim's truth, exactly.
			if e := got["sim/joint_states_truth"]; !slices.Equal(e.Names, truth.Names) || !slices.Equal(e.Pos, truth.Position) || !slices.Equal(e.Vel, truth.Velocity) {
				t.Errorf("/sim/joint_states_truth %+v, the sim's %v %v %v", e, truth.Names, truth.Position, truth.Velocity)
			}
			sy, cy := math.Sincos(truth.Yaw / 2)
			if e := got["sim/ground_truth"]; e.Frame != "odom" || e.Child != truth.BaseFrame || !slices.Equal(e.P, []float64{truth.X, truth.Y, 0}) ||
				!slices.Equal(e.Q, []float64{0, 0, sy, cy}) {
				t.Errorf("/sim/ground_truth %+v, the sim's %s at %v %v yaw %v", e, truth.BaseFrame, truth.X, truth.Y, truth.Yaw)
			}

			// /tf: the URDF's motion at /joint_states' positions.
			js := got["joint_states"]
			names := jointstate.New(snap, nil).Names
			if !slices.Equal(js.Names, names) || len(js.Pos) != len(names) {
				t.Fatalf("/joint_states %+v, want %v", js, names)
			}
			pos := map[string]float64{}
			for i, n := range js.Names {
				pos[n] = js.Pos[i]
			}
			tf := got["tf"].TF
			if len(tf) != len(movable) {
				t.Fatalf("/tf has %d transforms, the URDF %d movable joints", len(tf), len(movable))
			}
			for _, tr := range tf {
				jt := joints[tr.Child]
				if jt == nil || tr.Parent != jt.Parent {
					t.Fatalf("/tf: %s -> %s is no movable joint", tr.Parent, tr.Child)
				}
				wt, wr := jt.Motion(pos[jt.Name])
				if !slices.Equal(tr.T, wt[:]) || !slices.Equal(tr.Q, []float64{wr[1], wr[2], wr[3], wr[0]}) {
					t.Errorf("/tf %s at %v: %v %v, want %v %v", jt.Name, pos[jt.Name], tr.T, tr.Q, wt, wr)
				}
				if jt.Name == "turret_joint" {
					q := tr.Q
					if angle := 2 * math.Atan2(math.Sqrt(q[0]*q[0]+q[1]*q[1]+q[2]*q[2]), q[3]); math.Abs(angle-1) > 0.05 {
						t.Errorf("the turret's frame turned %.3f rad; the sim has it at %.3f", angle, turretAt(&truth))
					}
				}
			}

			// sim/push from the peer: best effort, so a push goes again
			// until it is counted.
			// (resent every 250 ms while it is not, as untilTaken does)
			until := func(what, line string, done func(pushes, refused uint64) bool) {
				t.Helper()
				var sent time.Time
				tooltest.Eventually(t, 4*tooltest.Timeout, what, func() bool {
					if done(b.PushStats()) {
						return true
					}
					if time.Since(sent) >= 250*time.Millisecond {
						peer.Send(line)
						peer.Wait("the push written", func(e topicEvent) bool { return e.Pushed != nil })
						sent = time.Now()
					}
					return false
				})
			}
			until("a push of the turret to 0.25 counted", "turret_joint 0.25", func(p, _ uint64) bool { return p >= 1 })
			d.Truth(&truth)
			if at := turretAt(&truth); at != 0.25 {
				t.Fatalf("the turret at %v after a push to 0.25", at)
			}
			pushes, _ := b.PushStats()
			until("a push naming no_such_joint refused", "turret_joint 0.5 no_such_joint 0.5", func(_, r uint64) bool { return r >= 1 })
			d.Truth(&truth)
			if at, p := turretAt(&truth), pushCount(b); at != 0.25 || p != pushes {
				t.Errorf("after the refused push: the turret at %v (want 0.25), %d pushes (%d before)", at, p, pushes)
			}
		})
	}
}

// pushCount is the joints the bridge placed through sim/push.
func pushCount(b *ros2bridge.Bridge) uint64 {
	p, _ := b.PushStats()
	return p
}
