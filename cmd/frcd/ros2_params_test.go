package main

import (
	"errors"
	"fmt"
	"os/exec"
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
// gain, outside its range).
func TestROS2BadGainRefusesStart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd: skipped with -short")
	}
	const urdf, yaml = "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"
	for _, c := range []struct{ param, why string }{
		{"turret_position.pid.p:=-1.0", "finite gain >= 0"},
		{"turret_position:gains.turret_joint.p:=2e6", "outside its range"},
	} {
		cmd := frcdProcess("run", "--sim", "--ros", "2", "--status", "1h", "--wpilibws", "off", "--nt", "off", urdf, yaml,
			"--ros-args", "-p", c.param, "--")
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
		if !errors.As(err, &exit) || exit.ExitCode() == 0 || !strings.Contains(out.String(), "-p "+c.param) ||
			!strings.Contains(out.String(), c.why) {
			t.Errorf("frcd with -p %s: %v\n%s", c.param, err, out.String())
		}
	}
}
