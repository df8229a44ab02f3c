package ros2bridge_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/rtps"
)

// paramChange is one changed parameter of a /parameter_events event.
type paramChange struct {
	node, name string
	typ        uint8
	v          float64
}

// paramEvents reads /parameter_events (rcl_interfaces/msg/ParameterEvent,
// decoded field by field) on p and passes each changed double parameter.
func paramEvents(t *testing.T, p *rtps.Participant) <-chan paramChange {
	t.Helper()
	ch := make(chan paramChange, 100)
	q := rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 1000}
	if _, err := p.NewReader("rt"+ros2bridge.ParameterEventsTopic, "rcl_interfaces::msg::dds_::ParameterEvent_", q, func(s rtps.Sample) {
		d, err := cdr.NewDecoder(s.Payload)
		if err != nil {
			return
		}
		d.Int32()
		d.Uint32()
		node := d.String()
		for list := range 3 { // new, changed, deleted
			n := d.SeqLen(49)
			for i := 0; i < n && d.Err() == nil; i++ {
				name, typ, _, _, v := d.String(), d.Uint8(), d.Bool(), d.Int64(), d.Float64()
				_ = d.String() // string_value
				d.Octets()
				d.Octets()
				for range d.SeqLen(8) {
					d.Int64()
				}
				d.Float64s(nil)
				d.Strings(nil)
				if list == 1 && d.Err() == nil {
					ch <- paramChange{node, name, typ, v}
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	return ch
}

// waitChange waits for a /parameter_events change of name to v.
func waitChange(t *testing.T, ctx context.Context, ch <-chan paramChange, name string, v float64) {
	t.Helper()
	for {
		select {
		case c := <-ch:
			if c.name == name && c.v == v {
				if c.node != "/frcd" || c.typ != 3 {
					t.Errorf("/parameter_events: %+v", c)
				}
				return
			}
		case <-ctx.Done():
			t.Fatalf("no /parameter_events change of %s to %v", name, v)
		}
	}
}

// param writes an rcl_interfaces/msg/Parameter of type typ (2 integer, 3
// double).
func param(e *cdr.Encoder, name string, typ uint8, v float64) {
	e.String(name)
	e.Uint8(typ)
	e.Bool(v != 0)
	e.Int64(int64(v))
	e.Float64(v)
	e.String("")
	for range 5 {
		e.SeqLen(0)
	}
}

// TestParameterServices: ~/list_parameters lists the PID controllers'
// gains and use_sim_time; get_parameters reads turret_position.pid.p as
// the YAML set it; set_parameters sets it (the controller has it), and
// refuses a negative gain, an integer, an unknown name and an integer for
// use_sim_time (a bool, settable on the sim), each counted; set_parameters_atomically with one bad value sets none;
// get_parameter_types and describe_parameters answer; SetParams (-p on the
// command line) sets a gain, refuses an integer and leaves an unknown name.
// Each accepted set is a change on /parameter_events.
func TestParameterServices(t *testing.T) {
	d, b, _ := newBridge(t, t.Logf)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c := newClient(t, ctx)
	srv := func(name string) func(func(*cdr.Encoder)) *cdr.Decoder {
		return c.service("/frcd/"+name, "rcl_interfaces/srv/"+map[string]string{"list_parameters": "ListParameters", "get_parameters": "GetParameters",
			"set_parameters": "SetParameters", "set_parameters_atomically": "SetParametersAtomically", "get_parameter_types": "GetParameterTypes",
			"describe_parameters": "DescribeParameters"}[name], 100e6)
	}
	list, get, set, atomic, types, describe := srv("list_parameters"), srv("get_parameters"), srv("set_parameters"),
		srv("set_parameters_atomically"), srv("get_parameter_types"), srv("describe_parameters")
	r := list(func(e *cdr.Encoder) { e.Strings(nil); e.Uint64(0) })
	names, prefixes := r.Strings(nil), r.Strings(nil)
	if !slices.Contains(names, "turret_position.pid.p") || !slices.Contains(names, "use_sim_time") || !slices.Contains(prefixes, "turret_position.pid") {
		t.Fatalf("list_parameters: %v, prefixes %v", names, prefixes)
	}
	r = list(func(e *cdr.Encoder) { e.Strings([]string{"turret_position"}); e.Uint64(1) })
	if n := r.Strings(nil); len(n) != 0 {
		t.Fatalf("turret_position at depth 1: %v (its gains are 2 levels down)", n)
	}
	turret := d.Loop.Controller("turret_position")
	yamlP := turret.Gains().P
	getP := func() (uint8, float64) {
		r := get(func(e *cdr.Encoder) { e.Strings([]string{"turret_position.pid.p", "nope"}) })
		if n := r.SeqLen(1); n != 2 {
			t.Fatalf("%d values for 2 names", n)
		}
		typ, _, _, v := r.Uint8(), r.Bool(), r.Int64(), r.Float64()
		return typ, v
	}
	if typ, v := getP(); typ != 3 || v != yamlP {
		t.Fatalf("turret_position.pid.p: type %d value %v, want double %v", typ, v, yamlP)
	}
	setOne := func(name string, typ uint8, v float64) (bool, string) {
		r := set(func(e *cdr.Encoder) { e.SeqLen(1); param(e, name, typ, v) })
		if n := r.SeqLen(1); n != 1 {
			t.Fatalf("%d results", n)
		}
		return r.Bool(), r.String()
	}
	events := paramEvents(t, c.p)
	// (the events' reader is matched once a set's event arrives: set
	// again until one does)
	for matched := false; !matched; {
		if ok, why := setOne("turret_position.pid.p", 3, yamlP+1.5); !ok {
			t.Fatalf("set: %s", why)
		}
		select {
		case ev := <-events:
			matched = true
			if ev != (paramChange{"/frcd", "turret_position.pid.p", 3, yamlP + 1.5}) {
				t.Fatalf("/parameter_events: %+v", ev)
			}
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal("no /parameter_events")
		}
	}
	if g := turret.Gains().P; g != yamlP+1.5 {
		t.Fatalf("the controller's p is %v after setting %v", g, yamlP+1.5)
	}
	if _, v := getP(); v != yamlP+1.5 {
		t.Fatalf("get after set: %v", v)
	}
	refused := b.Stats().Refused
	for _, bad := range []struct {
		name string
		typ  uint8
		v    float64
	}{{"turret_position.pid.p", 3, -1}, {"turret_position.pid.p", 2, 4}, {"nope", 3, 1}, {"use_sim_time", 2, 1}} {
		if ok, why := setOne(bad.name, bad.typ, bad.v); ok || why == "" {
			t.Errorf("set %+v: ok %v %q", bad, ok, why)
		}
	}
	if _, v := getP(); v != yamlP+1.5 {
		t.Fatalf("a refused set changed p to %v", v)
	}
	if st := b.Stats(); st.Refused < refused+4 {
		t.Fatalf("refusals not counted: %d -> %d", refused, st.Refused)
	}
	r = atomic(func(e *cdr.Encoder) {
		e.SeqLen(2)
		param(e, "turret_position.pid.p", 3, 7)
		param(e, "turret_position.pid.d", 3, -7)
	})
	if ok, why := r.Bool(), r.String(); ok || why == "" {
		t.Fatalf("atomically with a negative d: ok %v %q", ok, why)
	}
	if _, v := getP(); v != yamlP+1.5 {
		t.Fatalf("a refused atomic set changed p to %v", v)
	}
	// A gain over its YAML range (pid.p's 1e6) after a good one: none set
	// (review: check took it, SetGains refused it after i was set).
	yamlI := turret.Gains().I
	r = atomic(func(e *cdr.Encoder) {
		e.SeqLen(2)
		param(e, "turret_position.pid.i", 3, yamlI+0.5)
		param(e, "turret_position.pid.p", 3, 2e6)
	})
	if ok, why := r.Bool(), r.String(); ok || !strings.Contains(why, "range") {
		t.Fatalf("atomically with p 2e6: ok %v %q, want refused for its range", ok, why)
	}
	if g := turret.Gains(); g.I != yamlI || g.P != yamlP+1.5 {
		t.Fatalf("a refused atomic set changed the gains to %+v", g)
	}
	r = types(func(e *cdr.Encoder) { e.Strings([]string{"turret_position.pid.i", "use_sim_time", "nope"}) })
	if n := r.SeqLen(1); n != 3 || r.Uint8() != 3 || r.Uint8() != 1 || r.Uint8() != 0 {
		t.Fatal("get_parameter_types: want double, bool, not set")
	}
	r = describe(func(e *cdr.Encoder) { e.Strings([]string{"use_sim_time"}) })
	if n, name, typ, _, _, ro := r.SeqLen(1), r.String(), r.Uint8(), r.String(), r.String(), r.Bool(); n != 1 || name != "use_sim_time" || typ != 1 || ro {
		t.Fatalf("describe use_sim_time: %d %q %d read-only %v", n, name, typ, ro)
	}
	if errs := b.SetParams(map[string]string{"turret_position.pid.i": "0.25", "turret_position.pid.d": "3", "other": "1"}); len(errs) != 1 || turret.Gains().I != 0.25 {
		t.Fatalf("SetParams: %v; i %v", errs, turret.Gains().I)
	}
	waitChange(t, ctx, events, "turret_position.pid.i", 0.25) // d "3", an integer, was refused
	for {
		select {
		case ev := <-events:
			t.Errorf("a refused or unknown parameter raised an event: %+v", ev)
		default:
			return
		}
	}
}

// TestUseSimTime: on the sim use_sim_time is a settable bool (describe:
// not read only), set true and read back true, an integer for it refused,
// and -p use_sim_time:=false taken; on hardware (no sim hooks) it is read
// only, false, and a set is refused.
func TestUseSimTime(t *testing.T) {
	for _, sim := range []bool{true, false} {
		t.Run(map[bool]string{true: "sim", false: "hardware"}[sim], func(t *testing.T) {
			_, b, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) {
				if !sim {
					o.Sim = ros2bridge.SimOptions{}
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			c := newClient(t, ctx)
			get := c.service("/frcd/get_parameters", "rcl_interfaces/srv/GetParameters", 100e6)
			set := c.service("/frcd/set_parameters", "rcl_interfaces/srv/SetParameters", 100e6)
			describe := c.service("/frcd/describe_parameters", "rcl_interfaces/srv/DescribeParameters", 100e6)
			value := func() (uint8, bool) {
				r := get(func(e *cdr.Encoder) { e.Strings([]string{"use_sim_time"}) })
				if n := r.SeqLen(1); n != 1 {
					t.Fatalf("%d values", n)
				}
				return r.Uint8(), r.Bool()
			}
			setOne := func(typ uint8, v float64) (bool, string) {
				r := set(func(e *cdr.Encoder) { e.SeqLen(1); param(e, "use_sim_time", typ, v) })
				if n := r.SeqLen(1); n != 1 {
					t.Fatalf("%d results", n)
				}
				return r.Bool(), r.String()
			}
			r := describe(func(e *cdr.Encoder) { e.Strings([]string{"use_sim_time"}) })
			if n, name, typ, _, _, ro := r.SeqLen(1), r.String(), r.Uint8(), r.String(), r.String(), r.Bool(); n != 1 || name != "use_sim_time" || typ != 1 || ro == sim {
				t.Fatalf("describe use_sim_time: %d %q type %d, read only %v", n, name, typ, ro)
			}
			if typ, v := value(); typ != 1 || v {
				t.Fatalf("use_sim_time at start: type %d, %v; want false", typ, v)
			}
			ok, why := setOne(1, 1)
			if ok != sim || !sim && !strings.Contains(why, "read only") {
				t.Fatalf("set use_sim_time true: ok %v %q", ok, why)
			}
			if _, v := value(); v != sim {
				t.Fatalf("use_sim_time after setting true: %v", v)
			}
			if ok, why := setOne(2, 0); ok || why == "" {
				t.Errorf("an integer for use_sim_time: ok %v %q", ok, why)
			}
			if errs := b.SetParams(map[string]string{"use_sim_time": "false"}); (len(errs) == 0) != sim {
				t.Errorf("-p use_sim_time:=false: %v", errs)
			}
			if _, v := value(); v {
				t.Error("use_sim_time true after -p use_sim_time:=false")
			}
		})
	}
}
