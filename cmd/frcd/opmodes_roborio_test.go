//go:build roborio && cgo

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
)

// TestRoboRIOOpModeChooser (make test runs it): `frcd run --hal roborio`
// on the fake 2026 HAL, whose Driver Station has no op modes, with op
// modes declared in the YAML: frcd offers them as WPILib 2026 does, a
// SendableChooser per robot mode over NT4, and ntcore-ts-client (npm)
// chooses as a dashboard would: it reads /SmartDashboard/Autonomous Op
// Mode/ (.type String Chooser, options, default), publishes "Taxi" to its
// selected topic and sees active follow; once the Driver Station is in
// autonomous, /DriverStation/OpMode is "Taxi", and Debian's rostopic hears
// it on /driver_station/op_mode.
func TestRoboRIOOpModeChooser(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd, node and rostopic for a few seconds: skipped with -short")
	}
	tooltest.Require(t, tooltest.CC, tooltest.Node, tooltest.Rostopic)
	tooltest.RequireFile(t, "../../test/nt4/node_modules/ntcore-ts-client/package.json", "npm ci in test/nt4")
	dir := t.TempDir()
	if _, err := fakehal.Build(dir, "", "2026"); err != nil {
		t.Fatal(err)
	}
	f, err := fakehal.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("cw 1 0 0 0 0 1", "fpgawall 1", "vin 12.5", "encoder 0 0", "encoder 2 0"); err != nil { // teleop, enabled
		t.Fatal(err)
	}
	urdfPath, yamlPath := filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")
	yaml := poseYAML + "op_modes:\n  autonomous: [Two Piece, Taxi]\n  teleop: [Drive]\n"
	for p, s := range map[string]string{urdfPath: poseURDF, yamlPath: yaml} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", tooltest.FreePort(t)))
	cmd := frcdProcess("run", "--hal", "roborio", "--wpilibws", "off", "--nt", "127.0.0.1:0", "--rt-priority", "0", "--status", "1h", urdfPath, yamlPath)
	cmd.Env = append(append(cmd.Env, f.Env()...), "LD_LIBRARY_PATH="+dir, "ROS_MASTER_URI="+e.MasterURI, "ROS_IP=127.0.0.1")
	stdout, stderr := startChild(t, cmd)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("frcd's stderr:\n%s", stderr.String())
		}
	})
	guard := time.AfterFunc(90*time.Second, func() { _ = cmd.Process.Kill() }) // a hung child only
	defer guard.Stop()
	sc := bufio.NewScanner(stdout)
	ntRE := regexp.MustCompile(`NetworkTables 4 on ws://127\.0\.0\.1:(\d+)/`)
	port, ros := "", false
	for (port == "" || !ros) && sc.Scan() {
		if m := ntRE.FindStringSubmatch(sc.Text()); m != nil {
			port = m[1]
		}
		ros = ros || strings.Contains(sc.Text(), "frcd: ROS node /frcd")
	}
	if port == "" || !ros {
		t.Fatalf("frcd ended before NT4 and ROS were up (port %q, ROS %v)", port, ros)
	}
	go func() { // keep frcd's stdout drained
		for sc.Scan() {
		}
	}()
	const table = "/SmartDashboard/Autonomous Op Mode/"
	c := tooltest.StartJSON[ntEvent](t, e, "node", "../../test/nt4/client.js", "watch", port, table, "/DriverStation/OpMode")
	latest := map[string]string{}
	wait := func(what string, ok func() bool) {
		t.Helper()
		c.Wait(what, func(ev ntEvent) bool {
			if ev.Event == "error" {
				t.Fatalf("waiting for %s: client.js: %+v", what, ev)
			}
			if ev.Event == "value" {
				var s string
				if json.Unmarshal(ev.Value, &s) != nil {
					s = string(ev.Value)
				}
				latest[ev.Name] = s
			}
			return ok()
		})
	}
	wait("the chooser", func() bool { return latest[table+"active"] != "" && latest["/DriverStation/OpMode"] != "" })
	if latest[table+".type"] != "String Chooser" || latest[table+"options"] != `["Two Piece","Taxi"]` || latest[table+"default"] != "Two Piece" ||
		latest[table+"active"] != "Two Piece" || latest["/DriverStation/OpMode"] != "Drive" {
		t.Errorf("the chooser and op mode at start: %q", latest)
	}
	c.Send(table + "selected=Taxi")
	wait("active Taxi", func() bool { return latest[table+"active"] == "Taxi" })
	if err := f.Set("cw 1 1 0 0 0 1"); err != nil { // autonomous
		t.Fatal(err)
	}
	wait("/DriverStation/OpMode Taxi", func() bool { return latest["/DriverStation/OpMode"] == "Taxi" })
	var got string
	tooltest.Eventually(t, 30*time.Second, "rostopic echo -n 1 /driver_station/op_mode", func() bool {
		got, err = e.Run("rostopic", "echo", "-n", "1", "/driver_station/op_mode")
		return err == nil && strings.Contains(got, `data: "Taxi"`)
	})
}
