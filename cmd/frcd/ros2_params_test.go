package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
)

// TestROS2BadGainRefusesStart: `frcd run --sim --ros 2 ... --ros-args -p
// turret_position.pid.p:=-1.0 --` does not start (a negative gain), and
// says which parameter and why; nor does one with `-p
// turret_position:gains.turret_joint.p:=2e6` (the controller's node's
// gain, outside its range); nor one with a --params-file setting that
// gain out of range, or with a YAML mistake, each said at its
// file:line:col.
func TestROS2BadGainRefusesStart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd: skipped with -short")
	}
	const urdf, yaml = "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"
	dir := t.TempDir()
	params, broken := filepath.Join(dir, "params.yaml"), filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(params, []byte("turret_position:\n  ros__parameters:\n    gains:\n      turret_joint: {p: 2.0e6}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("turret_position:\n  ros__parameters:\n    p: [1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ flag, param, said, why string }{
		{"-p", "turret_position.pid.p:=-1.0", "-p turret_position.pid.p:=-1.0", "outside its range 0..1e+06"},
		{"-p", "turret_position:gains.turret_joint.p:=2e6", "-p turret_position:gains.turret_joint.p:=2e6", "outside its range"},
		{"--params-file", params, params + ":4:25: gains.turret_joint.p:=2.0e6 on /turret_position", "outside its range"},
		{"--params-file", broken, broken + ":3:5: invalid YAML", "did not find expected ',' or ']'"},
	} {
		cmd := frcdProcess("run", "--sim", "--ros", "2", "--status", "1h", "--wpilibws", "off", "--nt", "off", urdf, yaml,
			"--ros-args", c.flag, c.param, "--")
		cmd.Env = append(cmd.Env, fmt.Sprintf("ROS_DOMAIN_ID=%d", ddstest.Domain()), "ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// A guard against a child that started anyway: the test waits on its exit.
		guard := time.AfterFunc(2*tooltest.Timeout, func() { _ = cmd.Process.Kill() })
		err := cmd.Wait()
		guard.Stop()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() == 0 || !strings.Contains(out.String(), c.said) ||
			!strings.Contains(out.String(), c.why) {
			t.Errorf("frcd with %s %s: %v\n%s", c.flag, c.param, err, out.String())
		}
	}
}
