package ros2bridge_test

import (
	"context"
	"slices"
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2node"
)

// TestUnloadedControllerNode: as ros2_control destroys an unloaded
// controller's node and makes it again on load, /turret_position leaves
// the graph frcd's participant announces (ros_discovery_info, as a peer
// reads it) when controller_manager's unload_controller unloads it (after
// a switch deactivated it), and comes back with load_controller; the
// other controllers' nodes stay. A refused unload (a running controller)
// leaves the node.
func TestUnloadedControllerNode(t *testing.T) {
	r, _, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil {
		t.Fatal(err)
	}
	_, b, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) {
		o.Manager = control.NewManager(r.Config, o.Loop)
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cfg := discovery(t)
	peer, err := ros2node.New(ros2node.Config{Name: "lister", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	for _, n := range []string{"/turret_position", "/hood_position", "/controller_manager"} {
		if err := peer.WaitNode(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, ctx)
	unload, load, deactivate := managerCalls(t, c)
	if unload("turret_position") {
		t.Fatal("unloaded turret_position while it runs")
	}
	if !slices.Contains(b.Node().Nodes(), "/turret_position") {
		t.Fatal("a refused unload took /turret_position out of the graph")
	}
	deactivate("turret_position")
	if !unload("turret_position") {
		t.Fatal("unload_controller turret_position refused")
	}
	if own := b.Node().Nodes(); slices.Contains(own, "/turret_position") || !slices.Contains(own, "/hood_position") {
		t.Fatalf("after the unload frcd's participant has %v", own)
	}
	if err := peer.WaitGraph(ctx, "graph without /turret_position", func(ns []string) bool {
		return !slices.Contains(ns, "/turret_position") && slices.Contains(ns, "/hood_position")
	}); err != nil {
		t.Fatal(err)
	}
	if !load("turret_position") {
		t.Fatal("load_controller turret_position refused")
	}
	if err := peer.WaitNode(ctx, "/turret_position"); err != nil {
		t.Fatal(err)
	}
}

// managerCalls are controller_manager's unload_controller and
// load_controller (each says whether it succeeded) and a
// switch_controller deactivating one controller (strict; the test
// fails when it is refused), called by client c.
func managerCalls(t *testing.T, c *client) (unload, load func(string) bool, deactivate func(string)) {
	named := func(srv, typ string) func(string) bool {
		call := c.service("/controller_manager/"+srv, "controller_manager_msgs/srv/"+typ, 100e6)
		return func(name string) bool {
			r := call(func(e *cdr.Encoder) { e.String(name) })
			ok := r.Bool()
			if r.Err() != nil || r.Remaining() != 0 {
				t.Fatalf("%s reply: %v, %d bytes left", srv, r.Err(), r.Remaining())
			}
			return ok
		}
	}
	switchCtl := c.service("/controller_manager/switch_controller", "controller_manager_msgs/srv/SwitchController", 100e6)
	deactivate = func(name string) {
		if r := switchCtl(func(e *cdr.Encoder) {
			e.Strings(nil)
			e.Strings([]string{name})
			e.Int32(2)
			e.Bool(false)
			e.Int32(0)
			e.Uint32(0)
		}); !r.Bool() {
			t.Fatalf("deactivating %s refused", name)
		}
	}
	return named("unload_controller", "UnloadController"), named("load_controller", "LoadController"), deactivate
}
