package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
)

// startFrcdProcess runs this binary as `frcd run --sim` on the example
// robot with the ROS environment e, its output into out.
func startFrcdProcess(t *testing.T, e *tooltest.ROS, out *tooltest.Buffer) (kill func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := e.Command(ctx, os.Args[0], "run", "--sim", "--wpilibws", "off", "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml")
	cmd.Env = append(append([]string(nil), e.Vars...), "FRCD_RUN_MAIN=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	kill = func() { cancel(); <-done }
	t.Cleanup(kill)
	return kill
}

// TestRestartSurvival: frcd with its embedded master is killed (SIGKILL:
// no goodbye to anyone) and started again. Subscribers that were running
// all along, rostopic echo (rospy) and robot_state_publisher (roscpp),
// receive again without a restart of their own, and a parameter another
// node set is still there: the embedded master restored its state file.
func TestRestartSurvival(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the ROS tools for about 20 s: skipped with -short")
	}
	tooltest.Require(t, tooltest.Rostopic, tooltest.Rosparam, tooltest.Rosnode, tooltest.RobotStatePublisher)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", tooltest.FreePort(t)))
	var first tooltest.Buffer
	kill := startFrcdProcess(t, e, &first)
	tooltest.Eventually(t, 60*time.Second, "frcd publishing /joint_states", func() bool {
		out, err := e.Run("rostopic", "list")
		return err == nil && strings.Contains(out, "/joint_states\n")
	})
	e.MustRun(t, "rosparam", "set", "/elsewhere/gain", "7")
	e.Start(t, tooltest.RobotStatePublisher.Name)
	// rostopic echo of the sequence numbers: one line per message.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	echo := e.Command(ctx, "rostopic", "echo", "/joint_states/header/seq")
	echo.Env = append(echo.Env, "PYTHONUNBUFFERED=1") // each line as it comes
	var seqs tooltest.Buffer
	echo.Stdout = &seqs
	if err := echo.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = echo.Wait() })
	tooltest.Eventually(t, 30*time.Second, "rostopic echo receiving", func() bool { return strings.Count(seqs.String(), "\n") > 10 })
	e.MustRun(t, "rostopic", "echo", "-n", "1", "/tf") // robot_state_publisher receives

	kill()
	// Nothing publishes now: a fresh rostopic echo -n 1 would wait.
	restart := time.Now()
	var second tooltest.Buffer
	startFrcdProcess(t, e, &second)
	// The new frcd numbers its messages from 1 again: a sequence number
	// lower than the last one is the new frcd's.
	tooltest.Eventually(t, 60*time.Second, "the running rostopic echo receiving again", func() bool {
		last := 0
		for _, f := range strings.Fields(seqs.String()) {
			n, err := strconv.Atoi(f)
			if err != nil {
				continue
			}
			if n < last {
				return true
			}
			last = n
		}
		return false
	})
	resumed := time.Since(restart)
	if !strings.Contains(second.String(), "restored") {
		t.Errorf("the second master did not restore the state:\n%s", second.String())
	}
	if got := strings.TrimSpace(e.MustRun(t, "rosparam", "get", "/elsewhere/gain")); got != "7" {
		t.Errorf("/elsewhere/gain after the restart: %q", got)
	}
	// robot_state_publisher, running all along, publishes /tf again from
	// the new frcd's joint states: stamps newer than the restart.
	tfStamp := func() time.Time {
		out := e.MustRun(t, "rostopic", "echo", "-n", "1", "/tf/transforms[0]/header/stamp")
		m := regexp.MustCompile(`secs: (\d+)\s+nsecs: +(\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("/tf stamp: %q", out)
		}
		s, _ := strconv.ParseInt(m[1], 10, 64)
		ns, _ := strconv.ParseInt(m[2], 10, 64)
		return time.Unix(s, ns)
	}
	tooltest.Eventually(t, 30*time.Second, "robot_state_publisher's /tf from the new frcd", func() bool { return tfStamp().After(restart) })
	if out := e.MustRun(t, "rosnode", "list"); !strings.Contains(out, "/frcd\n") || !strings.Contains(out, "/robot_state_publisher\n") {
		t.Errorf("rosnode list after the restart:\n%s", out)
	}
	t.Logf("from the restart to rostopic echo receiving again: %s", resumed)
}
