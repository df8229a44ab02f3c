package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/sim"
)

// TestMain lets the tests run this binary as frcd itself, in a child
// process, so that signals can be sent to it.
func TestMain(m *testing.M) {
	if os.Getenv("FRCD_RUN_MAIN") == "1" {
		beforeRun(os.Args[1:])
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	ddstest.Cleanup()
	os.Exit(code)
}

func frcdProcess(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FRCD_RUN_MAIN=1")
	return cmd
}

// startChild starts cmd (a frcdProcess) with its stdout to read and its
// stderr kept for failure messages.
func startChild(t *testing.T, cmd *exec.Cmd) (io.ReadCloser, *strings.Builder) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return out, stderr
}

// validatedCounts is what validate says of an example: "32 devices, 16
// joints", as run's start-up line must say it too (a PCM or a REV
// heartbeat shared by several devices is no device of the YAML).
func validatedCounts(t *testing.T, example string) string {
	t.Helper()
	dir := "../../examples/" + example
	_, out, _ := runFrcd("validate", dir+"/robot.urdf", dir+"/robot.yaml")
	m := regexp.MustCompile(`ok, (\d+) movable joints, (\d+) devices;`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("validate %s: %s", example, out)
	}
	return m[2] + " devices, " + m[1] + " joints"
}

// TestRunStopsOnSignal runs the daemon on the sim, waits for its status
// lines to show it cycling enabled, then signals it: it must make every
// output neutral and exit 0.
func TestRunStopsOnSignal(t *testing.T) {
	for _, c := range []struct {
		sig syscall.Signal
		ros bool // with the ROS bridge and its embedded master
	}{{syscall.SIGTERM, true}, {syscall.SIGINT, false}} {
		sig := c.sig
		t.Run(sig.String(), func(t *testing.T) {
			saved := filepath.Join(t.TempDir(), "scenario.json")
			logs := t.TempDir()
			args := []string{"run", "--sim", "--no-ros", "--status", "20ms", "--seed", "5", "--save-scenario", saved, "--wpilibws", "127.0.0.1:0",
				"--nt", "127.0.0.1:0", "--log", logs, "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"}
			want := []string{"frcd: competition on the simulated HAL at 100 Hz, " + validatedCounts(t, "competition"), "joints=14/16", "frcd: stopped; every output neutral", "frcd: saved the scenario to " + saved,
				"frcd: WPILib simulation WebSocket on ws://127.0.0.1:", "frcd: NetworkTables 4 on ws://127.0.0.1:", "frcd: logging to " + logs + "/frcd_"}
			var uri string
			if c.ros {
				args = append(args[:2], args[3:]...)
				l, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				uri = "http://" + l.Addr().String()
				l.Close()
				want = append(want, "frcd: ROS node /frcd, master "+uri+"/ (embedded); publishing /joint_states every 20ms")
			}
			cmd := frcdProcess(args...)
			if c.ros {
				cmd.Env = append(cmd.Env, "ROS_MASTER_URI="+uri, "ROS_IP=127.0.0.1")
			}
			out, stderr := startChild(t, cmd)
			// A guard against a hung child only: the test waits on the
			// child's output, not on a clock.
			guard := time.AfterFunc(60*time.Second, func() { _ = cmd.Process.Kill() })
			defer guard.Stop()
			sc := bufio.NewScanner(out)
			var lines []string
			statuses := 0
			for sc.Scan() {
				line := sc.Text()
				lines = append(lines, line)
				// At the third status line it has been cycling
				// enabled for a while: stop it.
				if strings.Contains(line, " enabled cycles=") {
					if statuses++; statuses == 3 {
						if err := cmd.Process.Signal(sig); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				t.Fatalf("exit %d after %v\nstdout:\n%s\nstderr:\n%s", exit.ExitCode(), sig, strings.Join(lines, "\n"), stderr.String())
			} else if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(lines, "\n")
			for _, want := range want {
				if !strings.Contains(all, want) {
					t.Errorf("output lacks %q:\n%s\nstderr:\n%s", want, all, stderr.String())
				}
			}
			scen, err := sim.LoadScenario(saved)
			if err != nil || scen.Seed != 5 || scen.Robot != "competition" || !scen.Enabled || scen.BatteryV != 12.8 {
				t.Errorf("saved scenario %+v, %v", scen, err)
			}
			// the log, closed whole on the signal
			files, _ := filepath.Glob(filepath.Join(logs, "frcd_*.wpilog"))
			if len(files) != 1 {
				t.Fatalf("log files %v, want one", files)
			}
			code, summary, errOut := runFrcd("log", "summary", files[0])
			if code != exitOK || !strings.Contains(summary, "/frcd/loop/cycles") || !strings.Contains(summary, "/SmartDashboard/Alerts/errors") {
				t.Errorf("frcd log summary: exit %d\n%s%s", code, summary, errOut)
			}
		})
	}
}

func TestRunRefuses(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"run", "a.urdf", "b.yaml"}, 2, "which HAL? add --hal sim (or --sim)"},
		{[]string{"run", "--hal", "roborrio", "a.urdf", "b.yaml"}, 2, `--hal roborrio: want sim, linux, roborio or systemcore (did you mean "roborio"?)`},
		{[]string{"run", "--sim", "--hal", "linux", "a.urdf", "b.yaml"}, 2, "--sim and --hal linux contradict each other"},
		{[]string{"run", "--hal", "linux", "--seed", "3", "--disabled", "a.urdf", "b.yaml"}, 2, "--disabled, --seed only apply to the simulated HAL"},
		{[]string{"run", "--sim", "--master=embeded", "a.urdf", "b.yaml"}, 2, "--master=embeded: want embedded or external"},
		{[]string{"run", "--sim", "--no-ros", "only.urdf"}, 2, "usage: frcd run"},
		{[]string{"run", "--sim", "--no-ros", "testdata/validate/typos/robot.urdf", "testdata/validate/typos/robot.yaml"}, 1, `unknown device type "tallon"`},
		{[]string{"run", "--sim", "--no-ros", "--scenario", "testdata/scenario/typo.json", "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"}, 1, `testdata/scenario/typo.json:4:3: unknown field "seeds"`},
		{[]string{"run", "--sim", "--no-ros", "--scenario", "testdata/scenario/other-robot.json", "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"}, 1, `the scenario is for robot "minimal", not "competition"`},
		{[]string{"run", "--sim", "--no-ros", "--scenario", "testdata/scenario/none.json", "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"}, 1, `none.json: no such file`},
	}
	for _, c := range cases {
		code, out, errOut := runFrcd(c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.out) {
			t.Errorf("frcd %v: exit %d, want %d; output lacks %q:\n%s%s", c.args, code, c.code, c.out, out, errOut)
		}
	}
}

// TestRunLinuxWithoutInterface: on a machine without the robot's CAN
// interface (this one has none), run and can scan on the Linux backend
// fail with one line naming the interface and what to check, exit 3,
// and never start the loop.
func TestRunLinuxWithoutInterface(t *testing.T) {
	dir := t.TempDir()
	yaml, err := os.ReadFile("../../examples/minimal/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yamlPath := filepath.Join(dir, "robot.yaml")
	if err := os.WriteFile(yamlPath, append(yaml, "\nlinux: {can: [frcdnone7], heartbeat: auto}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--hal", "linux", "--no-ros", "../../examples/minimal/robot.urdf", yamlPath},
		{"can", "scan", "--hal", "linux", "../../examples/minimal/robot.urdf", yamlPath},
	} {
		code, out, errOut := runFrcd(args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != exitUnavailable || len(lines) != 1 || !strings.Contains(errOut, "frcdnone7: no such network interface") || strings.Contains(out, "Hz") {
			t.Errorf("frcd %v: exit %d, want %d and one line naming the interface:\n%s%s", args, code, exitUnavailable, out, errOut)
		}
	}
}
