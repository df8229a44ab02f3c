package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

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

// Each help text that takes --hal names every backend, and every backend
// name is one backendCaps knows (and no other is).
func TestHelpNamesEveryBackend(t *testing.T) {
	for _, name := range backendNames {
		if _, ok := backendCaps(name); !ok {
			t.Errorf("backend %q listed but unknown to backendCaps", name)
		}
	}
	if _, ok := backendCaps("rio"); ok {
		t.Error("backendCaps knows a name that is not a backend")
	}
	_, usage, _ := runFrcd("help")
	for _, args := range [][]string{{"run", "--help"}, {"validate", "--help"}, {"can", "scan", "--help"}} {
		_, out, _ := runFrcd(args...)
		for _, name := range backendNames {
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
}

// The usage's "Exit status:" paragraph matches the codes the program uses.
func TestExitCodesAsDocumented(t *testing.T) {
	doc := usage[strings.Index(usage, "Exit status:"):]
	for code, words := range map[int]string{
		exitOK: "ok", exitInvalid: "the robot has errors", exitUsage: "usage or I/O trouble",
		exitUnavailable: "the hardware could not be opened", exitShutdown: "the ROS master shut the node down",
		exitPanic: "a panic", exitSignal: "a second signal exits at once",
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
		t.Skip("builds frcd")
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
