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
// says which parameter and why.
func TestROS2BadGainRefusesStart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd: skipped with -short")
	}
	const urdf, yaml = "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"
	cmd := frcdProcess("run", "--sim", "--ros", "2", "--status", "1h", "--wpilibws", "off", "--nt", "off", urdf, yaml,
		"--ros-args", "-p", "turret_position.pid.p:=-1.0", "--")
	cmd.Env = append(cmd.Env, fmt.Sprintf("ROS_DOMAIN_ID=%d", ddstest.Domain()), "ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A guard against a child that started anyway: the test waits on its exit.
	guard := time.AfterFunc(2*tooltest.Timeout, func() { _ = cmd.Process.Kill() })
	defer guard.Stop()
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 || !strings.Contains(out.String(), "-p turret_position.pid.p:=-1.0") ||
		!strings.Contains(out.String(), "finite gain >= 0") {
		t.Fatalf("frcd with a negative gain: %v\n%s", err, out.String())
	}
}
