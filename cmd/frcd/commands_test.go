package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal/backends"
	"github.com/frcd/frcd/internal/tooltest"
)

// Every subcommand's --help (and -h, and --help among other arguments)
// prints its usage on stdout and exits 0.
func TestHelpExitsZero(t *testing.T) {
	for _, c := range commands() {
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {c.name, "a.urdf", "--help", "b.yaml"}} {
			code, out, errOut := runFrcd(args...)
			if code != exitOK || errOut != "" || out == "" {
				t.Errorf("frcd %v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
			}
			if c.name != "version" && !strings.Contains(strings.ToLower(out), "usage") {
				t.Errorf("frcd %v: no usage:\n%s", args, out)
			}
		}
	}
	// a -h after -- is a file name, not a request for help
	if code, _, _ := runFrcd("validate", "--", "-h", "b.yaml"); code != exitUsage {
		t.Errorf("frcd validate -- -h b.yaml: exit %d, want %d", code, exitUsage)
	}
}

// The backends register themselves in the order help texts have always
// listed them, and each help text that takes --hal names every one.
func TestHelpNamesEveryBackend(t *testing.T) {
	if got, want := strings.Join(backends.Names(), " "), "sim linux roborio systemcore"; got != want {
		t.Errorf("registered backends %q, want %q", got, want)
	}
	_, usage, _ := runFrcd("help")
	for _, args := range [][]string{{"run", "--help"}, {"validate", "--help"}, {"can", "scan", "--help"}} {
		_, out, _ := runFrcd(args...)
		for _, name := range backends.Names() {
			for _, text := range []string{out, usage} {
				if !regexp.MustCompile(`\b` + name + `\b`).MatchString(text) {
					t.Errorf("frcd %v or the usage omits backend %q:\n%s", args, name, text)
				}
			}
		}
		if !strings.Contains(out, halChoices) {
			t.Errorf("frcd %v: no %q:\n%s", args, halChoices, out)
		}
	}
	if _, out, _ := runFrcd("run", "--help"); !strings.Contains(out, "the HAL: sim (simulated robot), linux (a Linux coprocessor: SocketCAN, GPIO, spidev; the YAML's linux: section), roborio (the roboRIO's FPGA through the WPILib HAL) or systemcore (WPILib's 2027 controller; docs/systemcore.md)") {
		t.Errorf("run --help: --hal's text is not built from every backend's Help:\n%s", out)
	}
}

// Without --hal, run names each registered backend and where it runs; an
// unknown one gets a suggestion from the registered names.
func TestRunWithoutHAL(t *testing.T) {
	urdf, yaml := "../../examples/minimal/robot.urdf", "../../examples/minimal/robot.yaml"
	code, _, errOut := runFrcd("run", urdf, yaml)
	if want := "frcd run: which HAL? add --hal sim (or --sim) for the simulated robot, --hal linux on a coprocessor, --hal roborio on the roboRIO, --hal systemcore on Systemcore\n"; code != exitUsage || errOut != want {
		t.Errorf("run without --hal: exit %d, stderr %q, want %d, %q", code, errOut, exitUsage, want)
	}
	code, _, errOut = runFrcd("run", "--hal", "systemcor", urdf, yaml)
	if code != exitUsage || !strings.Contains(errOut, "want sim, linux, roborio or systemcore") || !strings.Contains(errOut, `"systemcore"`) {
		t.Errorf("run --hal systemcor: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runFrcd("run", "--sim", "--hal", "linux", urdf, yaml)
	if code != exitUsage || !strings.Contains(errOut, "--sim and --hal linux contradict each other") {
		t.Errorf("run --sim --hal linux: exit %d, stderr %q", code, errOut)
	}
}

// The usage's "Exit status:" paragraph matches the codes the program uses.
func TestExitCodesAsDocumented(t *testing.T) {
	doc := usage[strings.Index(usage, "Exit status:"):]
	for code, words := range map[int]string{
		exitOK: "ok", exitInvalid: "the robot has errors", exitUsage: "usage or I/O trouble",
		exitUnavailable: "the hardware could not be opened",
		exitPanic:       "a panic", exitSignal: "a second signal exits at once",
	} {
		if !strings.Contains(doc, strconv.Itoa(code)+" "+words) && !strings.Contains(doc, words+" ("+strconv.Itoa(code)+")") {
			t.Errorf("usage does not document exit %d as %q:\n%s", code, words, doc)
		}
	}
	// and the program returns them
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"version"}, exitOK},
		{[]string{"validate", "testdata/validate/good-urdf-bad-yaml/robot.urdf", "testdata/validate/good-urdf-bad-yaml/robot.yaml"}, exitInvalid},
		{[]string{"validate", "nowhere.urdf", "nowhere.yaml"}, exitUsage},
		{[]string{"run", "--hal", "rio", "a.urdf", "b.yaml"}, exitUsage},
	} {
		if code, out, errOut := runFrcd(c.args...); code != c.code {
			t.Errorf("frcd %v: exit %d, want %d\n%s%s", c.args, code, c.code, out, errOut)
		}
	}
}

// make install puts a working frcd in $(DESTDIR)$(PREFIX)/bin, and
// make uninstall takes it away.
func TestMakeInstall(t *testing.T) {
	tooltest.Require(t, tooltest.Tool{Name: "make", Package: "make"})
	if testing.Short() {
		t.Skip("builds frcd: skipped with -short")
	}
	dest := t.TempDir()
	mk := func(target string) {
		cmd := exec.Command("make", "-C", "../..", target, "DESTDIR="+dest, "PREFIX=/opt/frc")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make %s: %v\n%s", target, err, out)
		}
	}
	mk("install")
	bin := filepath.Join(dest, "opt/frc/bin/frcd")
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "frcd ") {
		t.Fatalf("%s version: %q, %v", bin, out, err)
	}
	mk("uninstall")
	if _, err := os.Stat(bin); !os.IsNotExist(err) {
		t.Errorf("after make uninstall: %v", err)
	}
}

// scripts/install-deps.sh's tables read whole: its --check (which
// installs nothing) runs no stray shell and finds no malformed line. A
// quote in a table's comment once ended the table's string early, and
// make test failed before any test ran. Missing packages (exit 1) are
// not this test's concern.
func TestInstallDepsTables(t *testing.T) {
	tooltest.Require(t, tooltest.Tool{Name: "bash", Package: "bash"})
	out, err := exec.Command("bash", "../../scripts/install-deps.sh", "--check").CombinedOutput()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code > 1 || strings.Contains(string(out), "command not found") || strings.Contains(string(out), "table line") {
		t.Fatalf("install-deps.sh --check: exit %d\n%s", code, out)
	}
}
