package nt4_test

import (
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
)

// TestNTCoreTSClient2027: with WPILib 2027's layout, ntcore-ts-client (a
// third-party NT4 client) sees frcd's topics under /Telemetry, the
// PIDController tunable of hood_position under /Tunables, and tunes its
// gain p by publishing a double on the tunable's own topic, as a
// dashboard does on a WPILib 2027 robot: 12 is taken (the controller's
// gain, published back); -1, out of range, is refused, counted, never
// reaches the controller, and frcd's 12 comes back to the client.
func TestNTCoreTSClient2027(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node for a few seconds: skipped with -short")
	}
	tooltest.Require(t, tooltest.Node)
	tooltest.RequireFile(t, clientNode, "npm ci in test/nt4")
	r := robotWith(t, "\nnt4: {tuning: true, layout: \"2027\"}\n")
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{Logf: t.Logf,
		Telemetry: &daemon.TelemetryOptions{NT4: "127.0.0.1:0"}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.Run)
	port := d.NT.Addr().(*net.TCPAddr).Port
	e := tooltest.NewROS(t, "http://127.0.0.1:1") // node's environment; no ROS here
	const (
		tunable = "/Tunables/controllers/hood_position/"
		p       = tunable + "p"
	)
	c := startClient(t, e, "watch", strconv.Itoa(port), "/Telemetry/loop/", tunable)
	c.wait("the connection", func(ev event) bool { return ev.Event == "connected" })
	seen := map[string]event{}
	cycles := false
	c.wait("the loop's cycles under /Telemetry and the PIDController tunable", func(ev event) bool {
		if ev.Event == "value" && strings.HasPrefix(ev.Name, tunable) {
			seen[ev.Name] = ev
		}
		cycles = cycles || ev.Name == "/Telemetry/loop/cycles" && ev.Type == "int" && float(ev) > 0
		return cycles && len(seen) == 5
	})
	if ev := seen[tunable+".type"]; string(ev.Value) != `"PIDController"` {
		t.Errorf(".type %+v, want PIDController", ev)
	}
	if ev := seen[p]; ev.Type != "double" || float(ev) != 20 {
		t.Errorf("p %+v, want the YAML's 20", ev)
	}
	ctl := d.Loop.Controller("hood_position")
	before := ctl.Gains()

	c.Send("set " + p + " 12")
	c.wait("12 published back as the gain", func(ev event) bool { return ev.Event == "value" && ev.Name == p && float(ev) == 12 })
	if g := ctl.Gains(); g.P != 12 || g.I != before.I || g.D != before.D || g.F != before.F {
		t.Errorf("gains %+v after p := 12 (were %+v)", g, before)
	}

	c.Send("set " + p + " -1")
	c.wait("-1 sent", func(ev event) bool { return ev.Event == "set" && float(ev) == -1 })
	// the gain unchanged since 12 arrived: a value now is the refusal's
	c.wait("frcd's 12 again", func(ev event) bool { return ev.Event == "value" && ev.Name == p && float(ev) == 12 })
	if g := ctl.Gains(); g.P != 12 || ctl.Refused() != 1 {
		t.Errorf("after p := -1: gains %+v, refused %d; want 12 and one refusal", g, ctl.Refused())
	}
	if s := d.NT.Stats(); s.PublishRefused != 0 || s.Refused != 1 {
		t.Errorf("server stats %+v, want the one value refused", s)
	}
	t.Logf("gains %+v; server %+v", ctl.Gains(), d.NT.Stats())
}
