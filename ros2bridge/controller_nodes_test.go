package ros2bridge_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2node"
)

// paramValue is an rcl_interfaces/msg/ParameterValue as a test reads it.
type paramValue struct {
	typ uint8
	i   int64
	f   float64
	s   string
}

// readValue reads a ParameterValue.
func readValue(d *cdr.Decoder) paramValue {
	typ, _, i, f, s := d.Uint8(), d.Bool(), d.Int64(), d.Float64(), d.String()
	d.Octets()
	d.Octets()
	for range d.SeqLen(8) {
		d.Int64()
	}
	d.Float64s(nil)
	d.Strings(nil)
	return paramValue{typ, i, f, s}
}

// paramClient calls a node's parameter services.
type paramClient struct {
	t                        *testing.T
	node                     string
	list, get, set, describe func(func(*cdr.Encoder)) *cdr.Decoder
}

func newParamClient(c *client, node string) *paramClient {
	srv := func(name, typ string) func(func(*cdr.Encoder)) *cdr.Decoder {
		return c.service(node+"/"+name, "rcl_interfaces/srv/"+typ, 100e6)
	}
	return &paramClient{t: c.t, node: node, list: srv("list_parameters", "ListParameters"), get: srv("get_parameters", "GetParameters"),
		set: srv("set_parameters", "SetParameters"), describe: srv("describe_parameters", "DescribeParameters")}
}

func (p *paramClient) names() []string {
	return p.list(func(e *cdr.Encoder) { e.Strings(nil); e.Uint64(0) }).Strings(nil)
}

func (p *paramClient) values(names ...string) []paramValue {
	p.t.Helper()
	r := p.get(func(e *cdr.Encoder) { e.Strings(names) })
	n := r.SeqLen(1)
	if n != len(names) {
		p.t.Fatalf("%s: %d values for %d names", p.node, n, len(names))
	}
	out := make([]paramValue, n)
	for i := range out {
		out[i] = readValue(r)
	}
	return out
}

// setDouble sets name to the double v (or the integer, typ 2).
func (p *paramClient) setDouble(name string, typ uint8, v float64) (bool, string) {
	p.t.Helper()
	r := p.set(func(e *cdr.Encoder) { e.SeqLen(1); param(e, name, typ, v) })
	if n := r.SeqLen(1); n != 1 {
		p.t.Fatalf("%d results", n)
	}
	return r.Bool(), r.String()
}

// descriptor is an rcl_interfaces/msg/ParameterDescriptor as a test
// reads it.
type descriptor struct {
	name           string
	typ            uint8
	readOnly       bool
	ranges         int
	from, to, step float64
}

func (p *paramClient) describeOne(name string) descriptor {
	p.t.Helper()
	r := p.describe(func(e *cdr.Encoder) { e.Strings([]string{name}) })
	if n := r.SeqLen(1); n != 1 {
		p.t.Fatalf("describe %s: %d descriptors", name, n)
	}
	var d descriptor
	d.name, d.typ, _, _, d.readOnly, _ = r.String(), r.Uint8(), r.String(), r.String(), r.Bool(), r.Bool()
	if d.ranges = r.SeqLen(24); d.ranges == 1 {
		d.from, d.to, d.step = r.Float64(), r.Float64(), r.Float64()
	}
	return d
}

// pidP is the P the loop runs for controller name (its snapshot's state).
func pidP(t *testing.T, l *control.Loop, name string) float64 {
	s := l.NewSnapshot()
	l.ReadSnapshot(s)
	for _, p := range s.PIDs {
		if p.Name == name {
			return p.P
		}
	}
	t.Fatalf("no PID state of %s", name)
	return 0
}

// TestControllerNodes: beside /frcd, a peer lists /controller_manager and
// a node per controller in the graph; /turret_position's parameters are
// pid_controller's gains.turret_joint.*, update_rate and use_sim_time; p
// is described as a double in 0..1e6 and read as the YAML has it; set
// there it is the P the loop runs after one cycle and a change on
// /parameter_events from /turret_position; out of range, negative or an
// integer it is refused, counted, and the loop keeps its P. i_clamp_max
// moves the read-only i_clamp_min with it; the trajectory controller's
// ff_velocity_scale is its joint's f; /controller_manager has update_rate
// and each controller's ros2_controllers type; the joint state
// controller's node (the loop does not run it) has the state topics'
// rate as its update_rate. The command line's -p NODE:NAME:=VALUE sets
// a gain on that node only (out of range refused), -p NAME:=VALUE on the
// nodes that have NAME (a read-only one refused).
func TestControllerNodes(t *testing.T) {
	yaml := motionYAML(t)
	r, _, err := robot.Load(exampleURDF, yaml)
	if err != nil {
		t.Fatal(err)
	}
	d, b, _ := newBridgeFor(t, yaml, t.Logf, func(o *ros2bridge.Options) {
		o.Manager = control.NewManager(r.Config, o.Loop)
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cfg := discovery(t)
	cfg.Name = "lister"
	peer, err := ros2node.New(ros2node.Config{Name: "lister", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	for _, n := range []string{"/frcd", "/controller_manager", "/turret_position", "/hood_position", "/arm_trajectory", "/intake", "/joint_state_controller"} {
		if err := peer.WaitNode(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, ctx)
	events := paramEvents(t, c.p)
	turret := newParamClient(c, "/turret_position")
	names := turret.names()
	for _, want := range []string{"gains.turret_joint.p", "gains.turret_joint.i", "gains.turret_joint.d", "gains.turret_joint.i_clamp_max",
		"gains.turret_joint.i_clamp_min", "gains.turret_joint.feedforward_gain", "update_rate", "use_sim_time"} {
		if !slices.Contains(names, want) {
			t.Errorf("/turret_position lists %v: no %s", names, want)
		}
	}
	const p = "gains.turret_joint.p"
	if ds := turret.describeOne(p); ds.typ != 3 || ds.readOnly || ds.ranges != 1 || ds.from != 0 || ds.to != 1e6 || ds.step != 0 {
		t.Errorf("describe %s: %+v, want a settable double in 0..1e6, step 0", p, ds)
	}
	if ds := turret.describeOne("gains.turret_joint.i_clamp_min"); !ds.readOnly {
		t.Errorf("i_clamp_min: %+v, want read only", ds)
	}
	ctl := d.Loop.Controller("turret_position")
	yamlP := ctl.Gains().P
	if v := turret.values(p)[0]; v.typ != 3 || v.f != yamlP {
		t.Fatalf("%s: %+v, want the YAML's %v", p, v, yamlP)
	}
	// (the events' reader is matched once a set's event arrives: set
	// again until one does)
	for got := false; !got; {
		if ok, why := turret.setDouble(p, 3, yamlP+5); !ok {
			t.Fatalf("set %s: %s", p, why)
		}
		select {
		case ev := <-events:
			got = true
			if ev != (paramChange{"/turret_position", p, 3, yamlP + 5}) {
				t.Errorf("/parameter_events: %+v", ev)
			}
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal("no /parameter_events")
		}
	}
	d.Step()
	if got := pidP(t, d.Loop, "turret_position"); got != yamlP+5 {
		t.Errorf("the loop runs P %v after setting %v", got, yamlP+5)
	}
	refused := b.Stats().Refused
	for _, bad := range []struct {
		typ uint8
		v   float64
	}{{3, 2e6}, {3, -1}, {2, 4}} {
		if ok, why := turret.setDouble(p, bad.typ, bad.v); ok || why == "" {
			t.Errorf("set %s to %+v: ok %v %q, want refused", p, bad, ok, why)
		} else if bad.v == 2e6 && !strings.Contains(why, "range") {
			t.Errorf("set %s to 2e6: %q, want its range said", p, why)
		}
	}
	d.Step()
	if got := pidP(t, d.Loop, "turret_position"); got != yamlP+5 || b.Stats().Refused < refused+3 {
		t.Errorf("after refused sets the loop runs P %v (want %v); refused %d -> %d", got, yamlP+5, refused, b.Stats().Refused)
	}
	if ok, why := turret.setDouble("gains.turret_joint.i_clamp_max", 3, 1.5); !ok {
		t.Errorf("set i_clamp_max: %s", why)
	}
	if v := turret.values("gains.turret_joint.i_clamp_min")[0]; v.f != -1.5 {
		t.Errorf("i_clamp_min %v after i_clamp_max 1.5", v.f)
	}
	if ok, _ := turret.setDouble("gains.turret_joint.i_clamp_min", 3, -1); ok {
		t.Error("the read-only i_clamp_min was set")
	}
	traj := newParamClient(c, "/arm_trajectory")
	if ok, why := traj.setDouble("gains.shoulder_joint.ff_velocity_scale", 3, 0.25); !ok {
		t.Errorf("set the trajectory's ff_velocity_scale: %s", why)
	}
	if g, _ := d.Loop.Controller("arm_trajectory").Gain(control.GainID{Joint: "shoulder_joint", Term: control.GainF}); g != 0.25 {
		t.Errorf("the shoulder's f is %v after ff_velocity_scale 0.25", g)
	}
	cm := newParamClient(c, "/controller_manager")
	vs := cm.values("update_rate", "turret_position.type", "hood_position.type")
	if vs[0] != (paramValue{typ: 2, i: 100}) || vs[1].s != "frcd_controllers/ProfiledPositionController" || vs[2].s != "pid_controller/PidController" {
		t.Errorf("/controller_manager: update_rate, types %+v", vs)
	}
	// The command line: -p NODE:NAME:=VALUE for one node, -p NAME:=VALUE
	// for every node that has NAME.
	if errs := b.SetNodeParams("turret_position", map[string]string{p: "31.0"}); len(errs) > 0 || ctl.Gains().P != 31 {
		t.Errorf("-p turret_position:%s:=31.0: %v; p %v", p, errs, ctl.Gains().P)
	}
	if errs := b.SetNodeParams("hood_position", map[string]string{p: "32.0"}); len(errs) > 0 || ctl.Gains().P != 31 {
		t.Errorf("-p hood_position:%s:=32.0 (hood has no such gain): %v; turret's p %v", p, errs, ctl.Gains().P)
	}
	if errs := b.SetNodeParams("turret_position", map[string]string{p: "2e6"}); len(errs) != 1 || ctl.Gains().P != 31 {
		t.Errorf("-p turret_position:%s:=2e6: %v, want refused; p %v", p, errs, ctl.Gains().P)
	}
	if errs := b.SetParams(map[string]string{"gains.hood_joint.p": "7.5", "update_rate": "50"}); len(errs) != 1 ||
		!strings.Contains(errs[0].Error(), "read only") || d.Loop.Controller("hood_position").Gains().P != 7.5 {
		t.Errorf("-p gains.hood_joint.p:=7.5 -p update_rate:=50: %v, want update_rate refused (read only); hood's p %v", errs,
			d.Loop.Controller("hood_position").Gains().P)
	}
	// Typed as rcl types a -p value: 2 an integer, 1e400 (past strtod) and
	// abc strings, each refused with what was read.
	for v, want := range map[string]string{"2": "not an integer (write 2.0, not 2)", "1e400": `not the string "1e400"`, "abc": `not the string "abc"`} {
		if errs := b.SetNodeParams("turret_position", map[string]string{p: v}); len(errs) != 1 || !strings.Contains(errs[0].Error(), want) || ctl.Gains().P != 31 {
			t.Errorf("-p turret_position:%s:=%s: %v, want refused, saying %q; p %v", p, v, errs, want, ctl.Gains().P)
		}
	}
	if errs := b.SetNodeParams("nope", map[string]string{p: "1.0"}); len(errs) != 0 {
		t.Errorf("-p for a node frcd does not have: %v, want it left", errs)
	}
	if own := b.Node().Nodes(); len(own) != len(slices.Compact(slices.Clone(own))) {
		t.Errorf("frcd's participant names a node twice: %v", own)
	}
	js := newParamClient(c, "/joint_state_controller")
	if v := js.values("update_rate")[0]; v.typ != 2 || v.i != int64(time.Second/b.Every()) {
		t.Errorf("/joint_state_controller's update_rate %+v, want the state topics' %v Hz", v, time.Second/b.Every())
	}
}

// TestNamespacedNodes: with __ns:=/r1 the manager's and the controllers'
// nodes are in /r1 beside frcd's (none in the root namespace), their
// services under it: /r1/turret_position/get_parameters reads the gain,
// and a set there is a /parameter_events change from /r1/turret_position.
func TestNamespacedNodes(t *testing.T) {
	r, _, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil {
		t.Fatal(err)
	}
	d, _, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) {
		o.Node.Namespace = "/r1"
		o.Manager = control.NewManager(r.Config, o.Loop)
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cfg := discovery(t)
	cfg.Name = "lister"
	peer, err := ros2node.New(ros2node.Config{Name: "lister", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	for _, n := range []string{"/r1/frcd", "/r1/controller_manager", "/r1/turret_position", "/r1/joint_state_controller"} {
		if err := peer.WaitNode(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range peer.Nodes() {
		if n != "/lister" && !strings.HasPrefix(n, "/r1/") {
			t.Errorf("node %s outside /r1: %v", n, peer.Nodes())
		}
	}
	c := newClient(t, ctx)
	events := paramEvents(t, c.p)
	turret := newParamClient(c, "/r1/turret_position")
	const p = "gains.turret_joint.p"
	yamlP := d.Loop.Controller("turret_position").Gains().P
	if v := turret.values(p)[0]; v.f != yamlP {
		t.Fatalf("/r1/turret_position %s: %+v, want %v", p, v, yamlP)
	}
	for got := false; !got; {
		if ok, why := turret.setDouble(p, 3, yamlP+1); !ok {
			t.Fatalf("set: %s", why)
		}
		select {
		case ev := <-events:
			got = true
			if ev.node != "/r1/turret_position" || ev.name != p {
				t.Errorf("/parameter_events: %+v, want a change of %s from /r1/turret_position", ev, p)
			}
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal("no /parameter_events")
		}
	}
}
