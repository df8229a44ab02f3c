package ros2bridge_test

import (
	"testing"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/rtps"
)

// humbleEvent is a line of testdata/cyclone/cm_humble_client.c.
type humbleEvent struct {
	Phase     int    `json:"phase"`
	Name      string `json:"name"`
	State     string `json:"state"`
	Claimed   string `json:"claimed"`
	Switch    *int   `json:"switch"`
	Iface     string `json:"iface"`
	Command   int    `json:"command"`
	Available int    `json:"available"`
	Taken     int    `json:"taken"`
	Done      int    `json:"done"`
	componentEvent
}

// TestCycloneServicesHumble: frcd's node as Humble's (no type hashes,
// Humble's controller_manager_msgs) and a Cyclone DDS client with
// Humble's types (testdata/cyclone/cm_humble_client.c,
// ServicesHumbleCyclone.idl by idlc, from ros2_control humble 0941f73c):
// it lists turret_position active, claiming turret_joint/command;
// deactivates it through Humble's deprecated stop_controllers (STRICT),
// then lists it inactive, claiming nothing, its commands refused; and
// lists the hardware interfaces, turret_joint/command (unclaimed) among
// the command ones and every joint's position among the state ones; and
// lists the hardware components in Humble's HardwareComponentState:
// frcd's robot, active.
func TestCycloneServicesHumble(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Cyclone DDS peer: skipped with -short")
	}
	bin := ddstest.Cyclone.Program(t, "testdata/cyclone/cm_humble_client.c", "testdata/ServicesHumbleCyclone.idl")
	r, list, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	domain := ddstest.Domain()
	d, _, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) {
		o.Manager = control.NewManager(r.Config, o.Loop)
		o.Node.RTPS = rtps.Config{Domain: domain, MaxPeerID: ddstest.MaxPeerID, Logf: t.Logf}
		o.Node.Humble, o.Node.TypeHashes = true, false
	})
	c := tooltest.StartJSON[humbleEvent](t, ddstest.Env(domain), bin)
	e := c.Wait("turret_position listed", func(e humbleEvent) bool { return e.Phase == 1 && e.Name == "turret_position" })
	if e.State != "active" || e.Claimed != "turret_joint/command" {
		t.Errorf("turret_position: %+v, want active, claiming turret_joint/command", e)
	}
	if e = c.Wait("the switch", func(e humbleEvent) bool { return e.Switch != nil }); *e.Switch != 1 {
		t.Errorf("deactivating turret_position through stop_controllers: %+v", e)
	}
	if e = c.Wait("turret_position listed again", func(e humbleEvent) bool { return e.Phase == 2 && e.Name == "turret_position" }); e.State != "inactive" || e.Claimed != "" {
		t.Errorf("turret_position after the switch: %+v, want inactive, claiming nothing", e)
	}
	if err := d.Loop.Controller("turret_position").Command(0.3, d.Now()); err == nil {
		t.Error("the inactive turret_position took a command")
	}
	got := map[string]humbleEvent{}
	var comp componentEvent
	c.Wait("the hardware interfaces and components", func(e humbleEvent) bool {
		if e.Iface != "" {
			got[e.Iface] = e
		}
		if e.Component != "" {
			comp = e.componentEvent
		}
		return e.Done == 1
	})
	if comp.Component != "frcd" || comp.Type != "system" || comp.Class == "" || comp.StateID != 3 || comp.Label != "active" ||
		comp.Commands == 0 || comp.States != 3*len(d.Loop.NewSnapshot().Joints) {
		t.Errorf("list_hardware_components: %+v, want frcd, a system, active (3), its interfaces", comp)
	}
	if e := got["turret_joint/command"]; e.Command != 1 || e.Available != 1 || e.Taken != 0 {
		t.Errorf("turret_joint/command: %+v, want a command interface, available, unclaimed", e)
	}
	for _, j := range d.Loop.NewSnapshot().Joints {
		if e, ok := got[j.Name+"/position"]; !ok || e.Command != 0 || e.Available != 1 {
			t.Errorf("%s/position: %+v, want a state interface, available", j.Name, e)
		}
	}
}
