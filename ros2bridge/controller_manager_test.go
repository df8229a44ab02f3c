package ros2bridge_test

import (
	"context"
	"slices"
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
)

// controllerState is what the test reads of a ControllerState.
type controllerState struct {
	name, state, typ string
	rate             uint16
	claimed          []string
}

// readControllers reads a ListControllers response (Jazzy's layout).
func readControllers(t *testing.T, r *cdr.Decoder) []controllerState {
	t.Helper()
	var out []controllerState
	n := r.SeqLen(4)
	for range n {
		c := controllerState{name: r.String(), state: r.String(), typ: r.String()}
		r.Bool()
		c.rate = r.Uint16()
		c.claimed = r.Strings(nil)
		r.Strings(nil)
		r.Strings(nil)
		r.Bool()
		r.Bool()
		r.Strings(nil)
		r.Strings(nil)
		if k := r.SeqLen(8); k != 0 {
			t.Fatalf("%d chain connections", k)
		}
		out = append(out, c)
	}
	if r.Err() != nil || r.Remaining() != 0 {
		t.Fatalf("list_controllers reply: %v, %d bytes left", r.Err(), r.Remaining())
	}
	return out
}

// TestControllerManagerServices: /controller_manager/list_controllers
// lists the example robot's controllers, active, with their claimed
// interfaces; switch_controller deactivates turret_position (STRICT), which
// then lists inactive, claims nothing and refuses its commands; a STRICT
// switch naming an unknown controller fails and changes nothing;
// list_hardware_interfaces has the turret's command interface, unclaimed.
func TestControllerManagerServices(t *testing.T) {
	r, _, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil {
		t.Fatal(err)
	}
	d, _, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) { o.Manager = control.NewManager(r.Config, o.Loop) })
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c := newClient(t, ctx)
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
	cs := readControllers(t, list(func(*cdr.Encoder) {}))
	turret := find(cs, "turret_position")
	if turret.state != "active" || !slices.Equal(turret.claimed, []string{"turret_joint/command"}) || turret.rate != 100 {
		t.Fatalf("turret_position: %+v", turret)
	}
	if js := find(cs, "joint_state_controller"); js.state != "active" || len(js.claimed) != 0 {
		t.Fatalf("joint_state_controller: %+v", js)
	}
	sw := func(activate, deactivate []string, strictness int32) (bool, string) {
		r := switchCtl(func(e *cdr.Encoder) {
			e.Strings(activate)
			e.Strings(deactivate)
			e.Int32(strictness)
			e.Bool(false)
			e.Int32(0)
			e.Uint32(0)
		})
		return r.Bool(), r.String()
	}
	if ok, msg := sw(nil, []string{"turret_position", "no_such"}, 2); ok {
		t.Fatalf("a STRICT switch naming no_such: ok (%s)", msg)
	}
	if find(readControllers(t, list(func(*cdr.Encoder) {})), "turret_position").state != "active" {
		t.Fatal("the failed switch deactivated turret_position")
	}
	if ok, msg := sw(nil, []string{"turret_position"}, 2); !ok {
		t.Fatalf("deactivating turret_position: %s", msg)
	}
	turret = find(readControllers(t, list(func(*cdr.Encoder) {})), "turret_position")
	if turret.state != "inactive" || len(turret.claimed) != 0 {
		t.Fatalf("turret_position after the switch: %+v", turret)
	}
	ctl := d.Loop.Controller("turret_position")
	if err := ctl.Command(0.3, d.Now()); err == nil {
		t.Fatal("an inactive controller took a command")
	}
	h := hw(func(*cdr.Encoder) {})
	n, found := h.SeqLen(4), false
	for range n {
		name, typ, avail, claimed := h.String(), h.String(), h.Bool(), h.Bool()
		if name == "turret_joint/command" {
			found = typ == "double" && avail && !claimed
		}
	}
	if states := h.SeqLen(4); !found || states == 0 || h.Err() != nil {
		t.Fatalf("list_hardware_interfaces: turret_joint/effort unclaimed %v, %d state interfaces, %v", found, states, h.Err())
	}
	if ok, msg := sw([]string{"turret_position"}, nil, 1); !ok || find(readControllers(t, list(func(*cdr.Encoder) {})), "turret_position").state != "active" {
		t.Fatalf("reactivating turret_position: %v %s", ok, msg)
	}
}
