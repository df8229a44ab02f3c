package daemon

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/ros"
)

// TestOptionalPartsDown: a taken NT4 or WebSocket port and a log
// directory that cannot be written do not stop the daemon from being made
// (nor the loop from cycling); each is down on the status line and a WARN
// on /diagnostics, saying why.
func TestOptionalPartsDown(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	held2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held2.Close()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := exampleRobot(t, "competition", func(y string) string { return y })
	var logs []string
	d, err := NewSim(r, SimOptions{Enabled: true, WPILibWS: held2.Addr().String()}, Options{Logf: func(f string, a ...any) { logs = append(logs, f) },
		Telemetry: &TelemetryOptions{NT4: held.Addr().String(), LogDir: file}})
	if err != nil {
		t.Fatalf("NewSim with its optional parts' ports taken: %v", err)
	}
	for range 10 {
		d.Step()
	}
	if line := d.StatusLine(); !strings.Contains(line, "cycles=10 ") || !strings.Contains(line, "down: NT4 server, WPILOG log, WPILib WebSocket server") {
		t.Errorf("status: %s", line)
	}
	warned := map[string]string{}
	for _, st := range d.diagnostics(nil) {
		if st.Level == ros.LevelWarn {
			warned[st.Name] = st.Message
		}
	}
	for part, why := range map[string]string{PartNT4: "cannot listen on " + held.Addr().String(), PartWS: "address already in use", PartLog: "not a directory"} {
		if !strings.Contains(warned["frcd: "+part], why) {
			t.Errorf("/diagnostics for %s: %q, want %q", part, warned["frcd: "+part], why)
		}
	}
	_, warns := d.alerts(nil, nil)
	if !strings.Contains(strings.Join(warns, "\n"), "frcd: NT4 server: cannot listen") {
		t.Errorf("NT4 Alerts' warnings: %q", warns)
	}
	if len(logs) < 3 {
		t.Errorf("logged %d lines, want one per part down", len(logs))
	}
}

// TestMasterDown: the ROS bridge's report that the embedded master cannot
// start makes it a part that is down (status line, /diagnostics, NT4
// Alerts, the log once); its report that a master answers makes it run.
// Without any report (an external master) it is no part of the health.
func TestMasterDown(t *testing.T) {
	r := exampleRobot(t, "competition", func(y string) string { return y })
	var logs []string
	d, err := NewSim(r, SimOptions{Enabled: true}, Options{Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	status := func() (ros.Status, bool) {
		for _, st := range d.diagnostics(nil) {
			if st.Name == "frcd: "+PartMaster {
				return st, true
			}
		}
		return ros.Status{}, false
	}
	if st, ok := status(); ok {
		t.Errorf("before any report: %+v", st)
	}
	why := "no master answers at http://127.0.0.1:1/ and the embedded one cannot listen there (address already in use)"
	d.masterDown(why)
	d.masterDown(why)
	d.Step()
	if line := d.StatusLine(); !strings.Contains(line, "down: "+PartMaster) {
		t.Errorf("status: %s", line)
	}
	if st, ok := status(); !ok || st.Level != ros.LevelWarn || st.Message != why {
		t.Errorf("/diagnostics: %+v %v", st, ok)
	}
	if _, warns := d.alerts(nil, nil); !strings.Contains(strings.Join(warns, "\n"), "frcd: embedded ROS master: no master answers") {
		t.Errorf("NT4 Alerts' warnings: %q", warns)
	}
	d.masterDown("")
	if st, ok := status(); !ok || st.Level != ros.LevelOK || strings.Contains(d.StatusLine(), "down:") {
		t.Errorf("after a master answers: %+v, %s", st, d.StatusLine())
	}
	if len(logs) != 2 || !strings.Contains(logs[0], "embedded ROS master is down, the robot runs on: no master") || !strings.Contains(logs[1], "is up") {
		t.Errorf("logs: %q", logs)
	}
}

// TestNodeDown: the ROS bridge's report that its node is off the graph
// (a shutdown request, its name held by another node) makes the part
// "ROS node" down on the status line, /diagnostics and the NT4 Alerts;
// registered again, it runs.
func TestNodeDown(t *testing.T) {
	r := exampleRobot(t, "competition", func(y string) string { return y })
	d, err := NewSim(r, SimOptions{Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	why := "ros: the master shut this node down: /attacker; registering again (every 1s until it may)"
	d.nodeDown(why)
	d.Step()
	if line := d.StatusLine(); !strings.Contains(line, "down: "+PartNode) {
		t.Errorf("status: %s", line)
	}
	var found *ros.Status
	for _, st := range d.diagnostics(nil) {
		if st.Name == "frcd: "+PartNode {
			found = &st
		}
	}
	if found == nil || found.Level != ros.LevelWarn || found.Message != why {
		t.Errorf("/diagnostics: %+v", found)
	}
	if _, warns := d.alerts(nil, nil); !strings.Contains(strings.Join(warns, "\n"), "frcd: ROS node: ros: the master shut this node down") {
		t.Errorf("NT4 Alerts' warnings: %q", warns)
	}
	d.nodeDown("")
	if strings.Contains(d.StatusLine(), "down:") {
		t.Errorf("registered again: %s", d.StatusLine())
	}
}
