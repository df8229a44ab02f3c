package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	exampleURDF = "../../examples/competition/robot.urdf"
	exampleYAML = "../../examples/competition/robot.yaml"
)

// noConnection listens on a loopback port and fails the test if anything
// connected to it by the end of the test: deploy must refuse before.
func noConnection(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		select {
		case <-accepted:
			t.Error("deploy connected before refusing")
		default:
		}
	})
	return l.Addr().String()
}

// TestDeployRefusesInvalidRobot: the robot's findings, file:line:col, and
// exit 1, before any connection.
func TestDeployRefusesInvalidRobot(t *testing.T) {
	dir := "testdata/validate/typos"
	code, out, errOut := runDeploy("--host", noConnection(t), filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml"))
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// want.txt: the exit status, the findings, the CAN bus lines, the
	// summary.
	var findings string
	for _, l := range strings.Split(string(want), "\n")[1:] {
		if strings.Contains(l, ": error: ") || strings.Contains(l, ": warning: ") {
			findings += l + "\n"
		}
	}
	if !strings.HasPrefix(errOut, findings) || !strings.Contains(errOut, "frcd deploy: refusing to deploy a robot with errors") {
		t.Errorf("stderr:\n%s\nwant the findings of frcd validate:\n%s", errOut, findings)
	}
	if out != "" {
		t.Errorf("stdout: %s", out)
	}
}

func TestDeployChecksTheBinary(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ binary, want string }{
		{filepath.Join(t.TempDir(), "frcd-rio"), "frcd-rio not found: build frcd for the roboRIO with `make rio`"},
		{self, "not a 32-bit ARM executable for the roboRIO"},
		{"testdata/validate/typos/robot.yaml", "is not a Linux executable"},
	} {
		code, _, errOut := runDeploy("--host", noConnection(t), "--binary", c.binary, exampleURDF, exampleYAML)
		if code != exitUsage || !strings.Contains(errOut, "frcd deploy: ") || !strings.Contains(errOut, c.want) {
			t.Errorf("--binary %s: exit %d, stderr %s; want %q", c.binary, code, errOut, c.want)
		}
	}
}

func TestDeployUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{exampleURDF, exampleYAML}, "say where to deploy: --team N or --host ADDR"},
		{[]string{"--team", "30000", exampleURDF, exampleYAML}, "team number 30000 out of range"},
		{[]string{"--team", "1"}, "usage:"},
		{[]string{"--host", noConnection(t), "--run-flags", "--log /u/logs --nt-layout 2025", exampleURDF, exampleYAML}, "--run-flags: NetworkTables layout \"2025\": want 2026 or 2027"},
		{[]string{"--host", noConnection(t), "--run-flags", "--sim", exampleURDF, exampleYAML}, "--run-flags: flag provided but not defined: -sim"},
		{[]string{"--host", noConnection(t), "--run-flags", "--log /u/logs robot.urdf", exampleURDF, exampleYAML}, `"robot.urdf" is not one of frcd run's --nt`},
	} {
		code, _, errOut := runDeploy(c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %s; want %q", c.args, code, errOut, c.want)
		}
		if strings.Contains(errOut, "--root") {
			t.Errorf("usage shows the hidden flags:\n%s", errOut)
		}
	}
}

func runDeploy(args ...string) (code int, stdout, stderr string) {
	var o, e strings.Builder
	code = deployRobot(args, &o, &e)
	return code, o.String(), e.String()
}

// frcd deploy --systemcore: its own binary check and defaults, and what it
// refuses, all before any connection.
func TestDeploySystemcoreFlags(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	u, y := "../../examples/systemcore/robot.urdf", "../../examples/systemcore/robot.yaml"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--systemcore", "--host", noConnection(t), "--binary", filepath.Join(t.TempDir(), "frcd-systemcore"), u, y}, "build frcd for Systemcore with `make systemcore`"},
		{[]string{"--systemcore", "--host", noConnection(t), "--binary", self, u, y}, "not a 64-bit ARM executable for Systemcore"},
		{[]string{"--systemcore", "--team", "1234", u, y}, "not by team number"},
		{[]string{"--systemcore", "--host", noConnection(t), "--log-lines", "3", u, y}, "shows no log"},
	} {
		code, _, errOut := runDeploy(c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %s; want %q", c.args, code, errOut, c.want)
		}
	}
}
