package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/hal"
)

// `frcd validate` prints the swerve example's bus load, 48.4 % (worked out
// in devices.TestCANLoadSwerve against CTRE's published 49.7 % for a
// swerve robot), and puts it in --json.
func TestValidateCANLoad(t *testing.T) {
	u, y := "../../examples/swerve/robot.urdf", "../../examples/swerve/robot.yaml"
	code, out, errOut := runFrcd("validate", u, y)
	if code != exitOK || errOut != "" || !strings.Contains(out, "CAN bus can0: 11 devices, 48.4 % estimated load") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
	code, out, _ = runFrcd("validate", "--json", u, y)
	var rep struct {
		Errors   int `json:"errors"`
		CANBuses []struct {
			Bus     string  `json:"bus"`
			Devices int     `json:"devices"`
			Load    float64 `json:"load"`
		} `json:"can_buses"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != exitOK || rep.Errors != 0 || len(rep.CANBuses) != 1 || rep.CANBuses[0].Devices != 11 || rep.CANBuses[0].Load != 0.4844 {
		t.Errorf("--json exit %d: %+v", code, rep)
	}
}

// An overloaded bus fails validation with its figure, at its first
// device; a robot with two buses gets a line for each.
func TestValidateCANOverload(t *testing.T) {
	dir := t.TempDir()
	urdf := `<robot name="r"><link name="base_link"/></robot>`
	var y strings.Builder
	y.WriteString("joints:\n  - {name: pdp, type: pdp, id: 0, can_bus: can1}\n")
	for i := range 40 {
		fmt.Fprintf(&y, "  - {name: m%d, type: talon_srx, id: %d, can_bus: can0}\n", i, i)
	}
	// Talons drive joints: make the URDF have them.
	var joints strings.Builder
	for i := range 40 {
		fmt.Fprintf(&joints, `<link name="l%d"/><joint name="m%d" type="continuous"><parent link="base_link"/><child link="l%d"/></joint>`, i, i, i)
	}
	urdf = strings.Replace(urdf, "</robot>", joints.String()+"</robot>", 1)
	up, yp := filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")
	if err := os.WriteFile(up, []byte(urdf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(yp, []byte(y.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runFrcd("validate", up, yp)
	if code != exitInvalid ||
		!strings.Contains(out, yp+":3:5: error: CAN bus can0: 188.8 % estimated load with 40 devices, over 90 %") ||
		!strings.Contains(out, "CAN bus can0: 40 devices, 188.8 % estimated load") ||
		!strings.Contains(out, "CAN bus can1: 1 device, 3.4 % estimated load") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// frcd deploy refuses it too, before any connection.
	code, out, errOut := runFrcd("deploy", "--host", "127.0.0.1:1", up, yp)
	if code != exitInvalid || !strings.Contains(errOut, "error: CAN bus can0: 188.8 % estimated load") || strings.Contains(out+errOut, "127.0.0.1") {
		t.Errorf("deploy: exit %d:\n%s%s", code, out, errOut)
	}
}

// writeScan: the table shows present and unmonitored devices; a missing
// required device makes the exit status 1 and says why; heard, exit 0.
func TestScanHelpers(t *testing.T) {
	now := time.Second
	heard := map[string][]hal.Heard{"": {{ID: 0x08041400, Last: now, Count: 4}}} // can1 unmonitored
	f, list := config.Parse("r.yaml", []byte("joints:\n  - {name: pdp, type: pdp, id: 0, required: true}\n  - {name: arm, type: talon_srx, id: 3, required: true}\n  - {name: lift, type: talon_srx, id: 4, can_bus: can1, required: true}\n"))
	if list.Errors() > 0 {
		t.Fatal(list)
	}
	inv := devices.TakeInventory(devices.ExpectedCAN(f), heard, now)
	var b strings.Builder
	if code := writeScan(&b, inv, false); code != exitInvalid {
		t.Errorf("exit %d with arm missing, want %d", code, exitInvalid)
	}
	out := b.String()
	if !strings.Contains(out, "present") || !strings.Contains(out, "unmonitored") ||
		!strings.Contains(out, `frcd refuses to enable: required CAN device missing: talon_srx "arm" (CTRE Talon SRX 3 on CAN bus can0)`) {
		t.Errorf("scan output:\n%s", out)
	}
	b.Reset()
	heard[""] = append(heard[""], hal.Heard{ID: 0x02041403, Last: now, Count: 1})
	inv = devices.TakeInventory(devices.ExpectedCAN(f), heard, now)
	if code := writeScan(&b, inv, true); code != exitOK || !strings.Contains(b.String(), `"required_missing": []`) {
		t.Errorf("exit %d, json:\n%s", code, b.String())
	}
}

// TestCANScanSim: `frcd can scan --hal sim` hears every device of the
// swerve example; with its PDP silenced from the start (sim: can_faults)
// the required PDP is missing and the exit status is 1.
func TestCANScanSim(t *testing.T) {
	code, out, errOut := runFrcd("can", "scan", "--hal", "sim", "--for", "300ms", "../../examples/swerve/robot.urdf", "../../examples/swerve/robot.yaml")
	if code != exitOK || !strings.Contains(out, "11 present, 0 stale, 0 missing, 0 unexpected, 0 unmonitored") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
	y, err := os.ReadFile("../../examples/swerve/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yp := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(yp, append(y, "sim:\n  can_faults:\n    - {name: pdp}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runFrcd("can", "scan", "--hal", "sim", "--for", "300ms", "--json", "../../examples/swerve/robot.urdf", yp)
	if code != exitInvalid || !strings.Contains(out, `"required_missing": [`+"\n"+`    "pdp"`) {
		t.Errorf("silent PDP: exit %d:\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runFrcd("can", "list"); code != exitUsage || !strings.Contains(errOut, "frcd can scan") {
		t.Errorf("frcd can list: exit %d %s", code, errOut)
	}
}
