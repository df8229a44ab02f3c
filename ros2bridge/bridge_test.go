package ros2bridge_test

import (
	"context"
	"fmt"
	"math"
	"net/netip"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

const (
	exampleURDF = "../examples/competition/robot.urdf"
	exampleYAML = "../examples/competition/robot.yaml"
	// waitLimit bounds every wait on the network.
	waitLimit = 30 * time.Second
)

// discovery is a loopback-only ROS 2 environment on a domain of this
// process (tests of other packages run at once on others).
func discovery(t testing.TB) rtps.Config {
	t.Helper()
	env := map[string]string{"ROS_DOMAIN_ID": fmt.Sprint(100 + os.Getpid()%100), "ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}
	c, err := ros2node.Discovery(func(k string) string { return env[k] }, netip.Addr{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newBridge is the example robot on the stepped sim, enabled, and its
// ROS 2 bridge (not running), both closed at the test's end; it returns
// the URDF text too.
func newBridge(tb testing.TB, logf func(string, ...any), opts ...func(*ros2bridge.Options)) (*daemon.Daemon, *ros2bridge.Bridge, []byte) {
	tb.Helper()
	return newBridgeFor(tb, exampleYAML, logf, opts...)
}

// newBridgeFor is newBridge with the example's URDF and another YAML.
func newBridgeFor(tb testing.TB, yaml string, logf func(string, ...any), opts ...func(*ros2bridge.Options)) (*daemon.Daemon, *ros2bridge.Bridge, []byte) {
	tb.Helper()
	r, list, err := robot.Load(exampleURDF, yaml)
	if err != nil || list.Errors() > 0 {
		tb.Fatalf("example robot: %v %v", err, list)
	}
	urdf, err := os.ReadFile(exampleURDF)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	o := ros2bridge.Options{Loop: d.Loop, URDF: string(urdf), Clock: d.Now, Epoch: d.Epoch(), SetEnabled: d.Enable,
		Rest: jointstate.RestPositions(r), Node: ros2node.Config{Name: "frcd", RTPS: discovery(tb)}, Logf: logf, Sim: d.ROS2Sim()}
	for _, f := range opts {
		f(&o)
	}
	b, err := ros2bridge.New(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
	return d, b, urdf
}

// newManagedBridge is newBridgeFor with a controller manager of the
// YAML's controllers (Options.Manager), which it returns.
func newManagedBridge(tb testing.TB, yaml string, logf func(string, ...any), opts ...func(*ros2bridge.Options)) (*daemon.Daemon, *ros2bridge.Bridge, *control.Manager) {
	tb.Helper()
	r, _, err := robot.Load(exampleURDF, yaml)
	if err != nil {
		tb.Fatal(err)
	}
	var m *control.Manager
	d, b, _ := newBridgeFor(tb, yaml, logf, append([]func(*ros2bridge.Options){func(o *ros2bridge.Options) {
		m = control.NewManager(r.Config, o.Loop)
		o.Manager = m
	}}, opts...)...)
	return d, b, m
}

// TestJointStatesAndCommands runs the example robot on the stepped sim
// with the ROS 2 bridge, and a ros2node peer in the same process: the
// peer gets /robot_description (a late joiner, transient local) and
// /joint_states (every joint, in the loop's order, never NaN); its
// Float64 goals on /turret_position/command turn the turret there, an
// Int8 on /intake/command deploys the intake; a NaN
// one is refused, counted and never reaches the output.
func TestJointStatesAndCommands(t *testing.T) {
	d, b, urdf := newBridge(t, t.Logf)
	cfg := discovery(t)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	runDone := make(chan error, 1)
	go func() { runDone <- b.Run(ctx) }()
	defer func() { cancel(); <-runDone }()

	cfg.Name = "peer"
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	states := make(chan ros2msg.JointState, 1000)
	if _, err := peer.Subscribe("/joint_states", &ros2msg.JointState{}, ros2node.Default, func(s rtps.Sample) {
		var m ros2msg.JointState
		if err := ros2msg.Unmarshal(s.Payload, &m); err != nil {
			t.Errorf("joint_states: %v", err)
			return
		}
		select {
		case states <- m:
		default:
		}
	}); err != nil {
		t.Fatal(err)
	}
	desc := make(chan string, 1)
	if _, err := peer.Subscribe("/robot_description", &ros2msg.String{}, ros2node.Latched, func(s rtps.Sample) {
		var m ros2msg.String
		if ros2msg.Unmarshal(s.Payload, &m) == nil {
			desc <- m.Data
		}
	}); err != nil {
		t.Fatal(err)
	}
	cmd, err := peer.Publisher("/turret_position/command", &ros2msg.Float64{}, ros2node.Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := peer.WaitNode(ctx, "/frcd"); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-desc:
		if got != string(urdf) {
			t.Errorf("/robot_description: %d bytes, want the URDF's %d", len(got), len(urdf))
		}
	case <-ctx.Done():
		t.Fatal("no /robot_description")
	}

	names := jointstate.New(d.Loop.NewSnapshot(), nil).Names
	turret := slices.Index(names, "turret_joint")
	if turret < 0 {
		t.Fatalf("no turret_joint in %v", names)
	}
	// next steps the loop until the peer has a joint state stamped at or
	// after the step (the bridge publishes every other cycle at 50 Hz).
	next := func() ros2msg.JointState {
		t.Helper()
		for {
			d.Step()
			want := ros2msg.TimeOf(d.Epoch().Add(d.Now() - d.Loop.Period()))
			for {
				select {
				case m := <-states:
					if m.Header.Stamp.Sec > want.Sec || m.Header.Stamp.Sec == want.Sec && m.Header.Stamp.Nanosec >= want.Nanosec {
						return m
					}
					continue
				case <-ctx.Done():
					t.Fatal("no joint state")
				case <-time.After(20 * time.Millisecond):
					// not published at this cycle (or still being discovered): step on
				}
				break
			}
		}
	}
	m := next()
	if !slices.Equal(m.Name, names) || len(m.Position) != len(names) || len(m.Velocity) != len(names) || len(m.Effort) != len(names) {
		t.Fatalf("joint_states: names %v with %d/%d/%d values, want %v", m.Name, len(m.Position), len(m.Velocity), len(m.Effort), names)
	}
	for i := range names {
		if math.IsNaN(m.Position[i]) || math.IsNaN(m.Velocity[i]) || math.IsNaN(m.Effort[i]) {
			t.Fatalf("joint %s: NaN in %v %v %v", names[i], m.Position[i], m.Velocity[i], m.Effort[i])
		}
	}
	if p := m.Position[turret]; math.Abs(p) > 0.01 {
		t.Fatalf("turret at %v rad before any command", p)
	}
	moved := false
	for i := 0; i < 300 && !moved; i++ {
		if err := cmd.Publish(&ros2msg.Float64{Data: 0.5}); err != nil {
			t.Fatal(err)
		}
		m = next()
		moved = math.Abs(m.Position[turret]-0.5) < 0.05
	}
	if !moved {
		t.Fatalf("turret at %v rad after 300 commands of 0.5 rad; stats %+v", m.Position[turret], b.Stats())
	}
	if st := b.Stats(); st.Commands == 0 || st.JointStates == 0 {
		t.Fatalf("stats %+v", st)
	}

	// An Int8 on a double solenoid's topic deploys the intake.
	intake := slices.Index(names, "intake_deploy_joint")
	deploy, err := peer.Publisher("/intake/command", &ros2msg.Int8{}, ros2node.Default)
	if err != nil {
		t.Fatal(err)
	}
	from := m.Position[intake]
	moved = false
	for i := 0; i < 300 && !moved; i++ {
		if err := deploy.Publish(&ros2msg.Int8{Data: 1}); err != nil {
			t.Fatal(err)
		}
		m = next()
		moved = math.Abs(m.Position[intake]-from) > 0.02
	}
	if !moved {
		t.Fatalf("intake at %v m after 300 commands of 1 (from %v); stats %+v", m.Position[intake], from, b.Stats())
	}

	// A NaN is refused: counted by the bridge and by the controller.
	ctl := d.Loop.Controllers()[slices.IndexFunc(d.Loop.Controllers(), func(c *control.Controller) bool { return c.Name == "turret_position" })]
	before := ctl.Refused()
	if err := cmd.Publish(&ros2msg.Float64{Data: math.NaN()}); err != nil {
		t.Fatal(err)
	}
	for ctl.Refused() == before {
		select {
		case <-ctx.Done():
			t.Fatal("the NaN command was not refused")
		case <-time.After(5 * time.Millisecond):
		}
	}
	if st := b.Stats(); st.Refused == 0 {
		t.Fatalf("stats %+v: the refused command not counted", st)
	}
}
