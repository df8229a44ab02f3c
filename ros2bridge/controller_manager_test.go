package ros2bridge_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
)

// controllerState is what the test reads of a ControllerState.
type controllerState struct {
	name, state, typ string
	rate             uint16
	claimed          []string
}

// readControllers reads a ListControllers response, in Humble's layout
// or Jazzy's (ros2_control humble 0941f73c, jazzy 9ffbf97f
// controller_manager_msgs/msg/ControllerState.msg), to its last byte.
func readControllers(t *testing.T, humble bool, r *cdr.Decoder) []controllerState {
	t.Helper()
	out, err := decodeControllers(humble, r)
	if err != nil {
		t.Fatalf("list_controllers reply: %v", err)
	}
	return out
}

// decodeControllers is readControllers' decoding: an error when the
// reply does not read to its last byte in that layout.
func decodeControllers(humble bool, r *cdr.Decoder) ([]controllerState, error) {
	var out []controllerState
	n := r.SeqLen(4)
	for range n {
		c := controllerState{name: r.String(), state: r.String(), typ: r.String()}
		if !humble {
			r.Bool() // is_async
			c.rate = r.Uint16()
		}
		c.claimed = r.Strings(nil)
		r.Strings(nil) // required_command_interfaces
		r.Strings(nil) // required_state_interfaces
		r.Bool()       // is_chainable
		r.Bool()       // is_chained
		if !humble {
			r.Strings(nil) // exported_state_interfaces
		}
		r.Strings(nil) // reference_interfaces
		if k := r.SeqLen(8); k != 0 {
			return out, fmt.Errorf("%d chain connections", k)
		}
		out = append(out, c)
	}
	if r.Err() != nil || r.Remaining() != 0 {
		return out, fmt.Errorf("%v, %d bytes left", r.Err(), r.Remaining())
	}
	return out, nil
}

// TestControllerManagerServices, in Jazzy's layouts and in Humble's (the
// node as Humble's): /controller_manager/list_controllers lists the
// example robot's controllers, active, with their claimed interfaces (and
// Jazzy's update rate, the loop's 100 Hz); switch_controller deactivates
// turret_position (STRICT; Humble's through its deprecated
// stop_controllers), which then lists inactive, claims nothing and
// refuses its commands; a STRICT switch naming an unknown controller
// fails (Jazzy's says why) and changes nothing; list_hardware_interfaces
// has the turret's command interface, unclaimed (a double, in Jazzy's);
// list_hardware_components has one, frcd's "system", active (state 3),
// with the same interfaces (and Jazzy's rw_rate, 100 Hz); each reply is
// read to its last byte.
func TestControllerManagerServices(t *testing.T) {
	for _, humble := range []bool{false, true} {
		name := map[bool]string{false: "jazzy", true: "humble"}[humble]
		t.Run(name, func(t *testing.T) { testControllerManager(t, humble) })
	}
}

func testControllerManager(t *testing.T, humble bool) {
	d, c := managerBridge(t, humble)
	list := c.service("/controller_manager/list_controllers", "controller_manager_msgs/srv/ListControllers", 100e6)
	switchCtl := c.service("/controller_manager/switch_controller", "controller_manager_msgs/srv/SwitchController", 100e6)
	hw := c.service("/controller_manager/list_hardware_interfaces", "controller_manager_msgs/srv/ListHardwareInterfaces", 100e6)
	find := func(cs []controllerState, name string) controllerState {
		i := slices.IndexFunc(cs, func(c controllerState) bool { return c.name == name })
		if i < 0 {
			t.Fatalf("no %s in %v", name, cs)
		}
		return cs[i]
	}
	cs := readControllers(t, humble, list(func(*cdr.Encoder) {}))
	// The other distribution's layout does not read the reply.
	if other, err := decodeControllers(!humble, list(func(*cdr.Encoder) {})); err == nil {
		t.Errorf("list_controllers in the humble=%v layout read as humble=%v: %+v", humble, !humble, other)
	}
	turret := find(cs, "turret_position")
	wantRate := uint16(100)
	if humble {
		wantRate = 0 // not in Humble's ControllerState
	}
	if turret.state != "active" || !slices.Equal(turret.claimed, []string{"turret_joint/command"}) || turret.rate != wantRate {
		t.Fatalf("turret_position: %+v", turret)
	}
	if js := find(cs, "joint_state_controller"); js.state != "active" || len(js.claimed) != 0 {
		t.Fatalf("joint_state_controller: %+v", js)
	}
	// Types under ros2_controllers' names where it has the type
	// (ros-controls/ros2_controllers humble ad559d9c, jazzy ed360c97,
	// the packages' plugin XML), frcd's own where it has none.
	for ctl, typ := range map[string]string{
		"joint_state_controller": "joint_state_broadcaster/JointStateBroadcaster",
		"hood_position":          "pid_controller/PidController",
		"wrist_position":         "position_controllers/JointGroupPositionController",
		"shooter_voltage":        "forward_command_controller/ForwardCommandController",
		"turret_position":        "frcd_controllers/ProfiledPositionController",
		"intake":                 "frcd_controllers/DoubleSolenoidController",
	} {
		if got := find(cs, ctl).typ; got != typ {
			t.Errorf("%s: type %q, want %q", ctl, got, typ)
		}
	}
	lt := c.service("/controller_manager/list_controller_types", "controller_manager_msgs/srv/ListControllerTypes", 100e6)(func(*cdr.Encoder) {})
	types, bases := lt.Strings(nil), lt.Strings(nil)
	if lt.Err() != nil || lt.Remaining() != 0 || len(types) != len(bases) ||
		!slices.Contains(types, "joint_state_broadcaster/JointStateBroadcaster") || !slices.Contains(types, "pid_controller/PidController") ||
		slices.Contains(types, "joint_state_controller/JointStateController") || slices.Contains(types, "effort_controllers/JointPositionController") {
		t.Errorf("list_controller_types: %q %q; %v, %d bytes left", types, bases, lt.Err(), lt.Remaining())
	}
	if i := slices.Index(types, "pid_controller/PidController"); i >= 0 && slices.Contains(types[i+1:], types[i]) {
		t.Errorf("list_controller_types: %s twice", types[i])
	}
	sw := func(activate, deactivate []string, strictness int32) (bool, string) {
		r := switchCtl(func(e *cdr.Encoder) {
			if humble { // the deprecated start_ and stop_controllers, as older clients send them
				e.Strings(nil)
				e.Strings(nil)
				e.Strings(activate)
				e.Strings(deactivate)
			} else {
				e.Strings(activate)
				e.Strings(deactivate)
			}
			e.Int32(strictness)
			e.Bool(false)
			if humble {
				e.Bool(false) // start_asap
			}
			e.Int32(0)
			e.Uint32(0)
		})
		ok, msg := r.Bool(), ""
		if !humble {
			msg = r.String()
		}
		if r.Err() != nil || r.Remaining() != 0 {
			t.Fatalf("switch_controller reply: %v, %d bytes left", r.Err(), r.Remaining())
		}
		return ok, msg
	}
	if ok, msg := sw(nil, []string{"turret_position", "no_such"}, 2); ok || !humble && msg == "" {
		t.Fatalf("a STRICT switch naming no_such: ok %v (%q)", ok, msg)
	}
	if find(readControllers(t, humble, list(func(*cdr.Encoder) {})), "turret_position").state != "active" {
		t.Fatal("the failed switch deactivated turret_position")
	}
	if ok, msg := sw(nil, []string{"turret_position"}, 2); !ok {
		t.Fatalf("deactivating turret_position: %s", msg)
	}
	turret = find(readControllers(t, humble, list(func(*cdr.Encoder) {})), "turret_position")
	if turret.state != "inactive" || len(turret.claimed) != 0 {
		t.Fatalf("turret_position after the switch: %+v", turret)
	}
	ctl := d.Loop.Controller("turret_position")
	if err := ctl.Command(0.3, d.Now()); err == nil {
		t.Fatal("an inactive controller took a command")
	}
	h := hw(func(*cdr.Encoder) {})
	n, found := h.SeqLen(4), false
	// ifaceOf reads a HardwareInterface.
	ifaceOf := func(h *cdr.Decoder) (name, typ string, avail, claimed bool) {
		name, typ = h.String(), "double"
		if !humble {
			typ = h.String() // data_type
		}
		return name, typ, h.Bool(), h.Bool()
	}
	iface := func() (string, string, bool, bool) { return ifaceOf(h) }
	for range n {
		name, typ, avail, claimed := iface()
		if name == "turret_joint/command" {
			found = typ == "double" && avail && !claimed
		}
	}
	states := h.SeqLen(4)
	for range states {
		if name, typ, avail, _ := iface(); typ != "double" || !avail || !strings.Contains(name, "/") {
			t.Fatalf("state interface %q %q available %v", name, typ, avail)
		}
	}
	if !found || states == 0 || h.Err() != nil || h.Remaining() != 0 {
		t.Fatalf("list_hardware_interfaces: turret_joint/command unclaimed %v, %d state interfaces, %v, %d bytes left", found, states, h.Err(), h.Remaining())
	}
	// list_hardware_components: frcd's robot, active, with the same
	// interfaces.
	hc := c.service("/controller_manager/list_hardware_components", "controller_manager_msgs/srv/ListHardwareComponents", 100e6)(func(*cdr.Encoder) {})
	if n := hc.SeqLen(4); n != 1 {
		t.Fatalf("list_hardware_components: %d components", n)
	}
	cname, ctype := hc.String(), hc.String()
	rwRate := uint16(0)
	if !humble {
		hc.Bool() // is_async
		rwRate = hc.Uint16()
	}
	class := hc.String()
	if !humble {
		if plugin := hc.String(); plugin != class {
			t.Errorf("plugin_name %q, class_type %q", plugin, class)
		}
	}
	stateID, label := hc.Uint8(), hc.String()
	cmds, found := hc.SeqLen(4), false
	for range cmds {
		name, _, avail, claimed := ifaceOf(hc)
		found = found || name == "turret_joint/command" && avail && !claimed
	}
	if states2 := hc.SeqLen(4); states2 != states {
		t.Errorf("list_hardware_components: %d state interfaces, list_hardware_interfaces %d", states2, states)
	}
	for range states {
		ifaceOf(hc)
	}
	if cname != "frcd" || ctype != "system" || class == "" || rwRate != wantRate || stateID != 3 || label != "active" || !found ||
		hc.Err() != nil || hc.Remaining() != 0 {
		t.Fatalf("list_hardware_components: %q %q %q rate %d, state %d %q, turret_joint/command unclaimed %v; %v, %d bytes left",
			cname, ctype, class, rwRate, stateID, label, found, hc.Err(), hc.Remaining())
	}
	if ok, msg := sw([]string{"turret_position"}, nil, 1); !ok || find(readControllers(t, humble, list(func(*cdr.Encoder) {})), "turret_position").state != "active" {
		t.Fatalf("reactivating turret_position: %v %s", ok, msg)
	}
}

// TestSetHardwareComponentState, in Jazzy's layouts and Humble's (the
// same SetHardwareComponentState in both: ros2_control humble 0941f73c,
// jazzy 9ffbf97f controller_manager_msgs/srv): frcd set inactive answers
// ok and state 2 "inactive", the robot enabled by the Driver Station
// stops enabling (the snapshot says why: the control tests' TestDeactivate
// has the outputs neutral and held commands dropped), list_hardware_components says inactive and its command
// interfaces unavailable; unconfigured is refused (ok false, still
// inactive), as is another component's name (state 0); active by label
// alone (id 0, as ros2_control takes it) makes it active and the loop
// enables again.
func TestSetHardwareComponentState(t *testing.T) {
	for _, humble := range []bool{false, true} {
		name := map[bool]string{false: "jazzy", true: "humble"}[humble]
		t.Run(name, func(t *testing.T) { testSetHardwareState(t, humble) })
	}
}

func testSetHardwareState(t *testing.T, humble bool) {
	d, c := managerBridge(t, humble)
	set := c.service("/controller_manager/set_hardware_component_state", "controller_manager_msgs/srv/SetHardwareComponentState", 100e6)
	components := c.service("/controller_manager/list_hardware_components", "controller_manager_msgs/srv/ListHardwareComponents", 100e6)
	setState := func(name string, id uint8, label string) (bool, uint8, string) {
		r := set(func(e *cdr.Encoder) {
			e.String(name)
			e.Uint8(id)
			e.String(label)
		})
		ok, sid, slabel := r.Bool(), r.Uint8(), r.String()
		if r.Err() != nil || r.Remaining() != 0 {
			t.Fatalf("set_hardware_component_state reply: %v, %d bytes left", r.Err(), r.Remaining())
		}
		return ok, sid, slabel
	}
	// component reads list_hardware_components' one component: its state
	// and whether its command interfaces are available.
	component := func() (uint8, string, bool) {
		hc := components(func(*cdr.Encoder) {})
		if n := hc.SeqLen(4); n != 1 {
			t.Fatalf("list_hardware_components: %d components", n)
		}
		_ = hc.String() // name
		_ = hc.String() // type
		if !humble {
			hc.Bool()   // is_async
			hc.Uint16() // rw_rate
		}
		_ = hc.String() // class_type
		if !humble {
			_ = hc.String() // plugin_name
		}
		id, label := hc.Uint8(), hc.String()
		// iface reads a HardwareInterface's is_available.
		iface := func() bool {
			_ = hc.String() // name
			if !humble {
				_ = hc.String() // data_type
			}
			a := hc.Bool()
			hc.Bool() // is_claimed
			return a
		}
		avail, n := true, hc.SeqLen(4)
		for range n { // command interfaces
			avail = iface() && avail
		}
		if n == 0 {
			t.Fatal("list_hardware_components: no command interfaces")
		}
		for range hc.SeqLen(4) { // state interfaces: available in both
			if !iface() {
				t.Error("list_hardware_components: a state interface unavailable")
			}
		}
		if hc.Err() != nil || hc.Remaining() != 0 {
			t.Fatalf("list_hardware_components: %v, %d bytes left", hc.Err(), hc.Remaining())
		}
		return id, label, avail
	}
	snap := d.Loop.NewSnapshot()
	d.Step()
	d.Loop.ReadSnapshot(snap)
	if !snap.Enabled {
		t.Fatalf("the sim is not enabled: %s", snap.State())
	}
	if ok, id, label := setState("frcd", 2, "inactive"); !ok || id != 2 || label != "inactive" {
		t.Fatalf("set inactive: ok %v, state %d %q", ok, id, label)
	}
	d.Step()
	d.Loop.ReadSnapshot(snap)
	if snap.Enabled || !strings.Contains(snap.State(), "inactive") {
		t.Fatalf("inactive: enabled %v, state %q", snap.Enabled, snap.State())
	}
	if id, label, avail := component(); id != 2 || label != "inactive" || avail {
		t.Fatalf("list_hardware_components while inactive: %d %q, command interfaces available %v", id, label, avail)
	}
	if ok, id, _ := setState("frcd", 1, "unconfigured"); ok || id != 2 || d.Loop.Deactivated() == "" {
		t.Fatalf("set unconfigured: ok %v, state %d, deactivated %q; want refused, still inactive", ok, id, d.Loop.Deactivated())
	}
	if ok, id, label := setState("arm_hw", 3, "active"); ok || id != 0 || label != "" || d.Loop.Deactivated() == "" {
		t.Fatalf("another component: ok %v, state %d %q; want refused, state 0, frcd still inactive", ok, id, label)
	}
	if ok, id, label := setState("frcd", 0, "active"); !ok || id != 3 || label != "active" {
		t.Fatalf("set active by label: ok %v, state %d %q", ok, id, label)
	}
	d.Step()
	d.Loop.ReadSnapshot(snap)
	if !snap.Enabled || snap.Inhibit != "" {
		t.Fatalf("active again: enabled %v, state %q", snap.Enabled, snap.State())
	}
	if snap.Stats.Inhibited != 1 {
		t.Errorf("%d inhibited cycles, want 1", snap.Stats.Inhibited)
	}
	if id, label, avail := component(); id != 3 || label != "active" || !avail {
		t.Fatalf("list_hardware_components when active: %d %q, command interfaces available %v", id, label, avail)
	}
}

// managerBridge is the example robot bridged to ROS 2 (Humble's layout
// or Jazzy's) with its controller manager, and a client of its
// services; the client's context ends with the test (waitLimit at most).
func managerBridge(t *testing.T, humble bool) (*daemon.Daemon, *client) {
	t.Helper()
	r, _, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil {
		t.Fatal(err)
	}
	d, _, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) {
		o.Manager = control.NewManager(r.Config, o.Loop)
		o.Node.Humble = humble
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	return d, newClient(t, ctx)
}
