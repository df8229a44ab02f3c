package nt4_test

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
)

// TestOpModeChooser: on a backend whose Driver Station has no op modes
// (here the sim; the roboRIO's 2026 HAL likewise), the YAML's op modes are
// offered the 2026 way, one WPILib SendableChooser per robot mode over
// NT4, and ntcore-ts-client (npm) does a dashboard's job with them: it
// reads the autonomous chooser (.type String Chooser, options in the
// YAML's order, default the first, active), selects "Taxi" by publishing
// to its selected topic, sees active follow, and once the Driver Station
// is in autonomous, /DriverStation/OpMode is "Taxi"; a name that is no
// autonomous op mode is refused and counted, and changes nothing.
func TestOpModeChooser(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node and the daemon in real time for a few seconds: skipped with -short")
	}
	tooltest.Require(t, tooltest.Node)
	tooltest.RequireFile(t, clientNode, "npm ci in test/nt4")
	yaml, err := os.ReadFile("../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(path, append(yaml, "\nop_modes:\n  autonomous: [Two Piece, Taxi]\n  teleop: [Drive]\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../examples/competition/robot.urdf", path)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{Logf: t.Logf,
		Telemetry: &daemon.TelemetryOptions{NT4: "127.0.0.1:0"}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.Run)
	port := strconv.Itoa(d.NT.Addr().(*net.TCPAddr).Port)
	const table = "/SmartDashboard/Autonomous Op Mode/"
	c := startClient(t, &tooltest.ROS{Vars: os.Environ()}, "watch", port, table, "/DriverStation/OpMode")
	c.wait("the connection", func(ev event) bool { return ev.Event == "connected" })
	got := map[string]string{}
	str := func(ev event) string {
		var s string
		if json.Unmarshal(ev.Value, &s) != nil {
			b, _ := json.Marshal(ev.Value)
			return string(b)
		}
		return s
	}
	c.wait("the chooser", func(ev event) bool {
		if ev.Event == "value" {
			got[ev.Name] = str(ev)
		}
		return got[table+".type"] != "" && got[table+"options"] != "" && got[table+"default"] != "" && got[table+"active"] != "" &&
			got["/DriverStation/OpMode"] != ""
	})
	want := map[string]string{table + ".type": "String Chooser", table + "options": `["Two Piece","Taxi"]`, table + "default": "Two Piece",
		table + "active": "Two Piece", "/DriverStation/OpMode": "Drive"} // teleop: its chooser's default
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	c.Send(table + "selected=Taxi")
	c.wait("active Taxi", func(ev event) bool { return ev.Name == table+"active" && str(ev) == "Taxi" })
	d.Sim.UpdateDS(func(ds *hal.DSState) { ds.Mode = hal.Autonomous })
	c.wait("/DriverStation/OpMode Taxi", func(ev event) bool { return ev.Name == "/DriverStation/OpMode" && str(ev) == "Taxi" })

	refused := d.NT.Stats().Refused
	c.Send(table + "selected=Drive") // a teleop op mode
	tooltest.Eventually(t, waitLimit, "the refusal counted", func() bool { return d.NT.Stats().Refused > refused })
	c.Send(table + "selected=Two Piece")
	seen := map[string]bool{}
	c.wait("active and /DriverStation/OpMode Two Piece", func(ev event) bool {
		if (ev.Name == table+"active" || ev.Name == "/DriverStation/OpMode") && str(ev) == "Two Piece" {
			seen[ev.Name] = true
		}
		return len(seen) == 2
	})
}
