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

// scripts/install-deps.sh leaves the machine as it found it: it says what
// it installs and why before apt runs; no service may start during the
// install (a policy-rc.d of its own, removed after); each service link the
// install adds (a systemd unit, a SysV start link: openssh-server's ssh)
// is disabled again, and those that were there stay. On a tree standing
// for / with a fake apt-get that installs a package enabling a service.
func TestInstallDepsLeavesNoService(t *testing.T) {
	tooltest.Require(t, tooltest.Tool{Name: "bash", Package: "bash"})
	tmp := t.TempDir()
	root, fake := filepath.Join(tmp, "root"), filepath.Join(tmp, "bin")
	wants := filepath.Join(root, "etc/systemd/system/multi-user.target.wants")
	for _, d := range []string{wants, filepath.Join(root, "etc/rc2.d"), filepath.Join(root, "usr/sbin"), fake} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/lib/systemd/system/old.service", filepath.Join(wants, "old.service")); err != nil {
		t.Fatal(err)
	}
	tool := filepath.Join(tmp, "fake-tool")
	scripts := map[string]string{
		// install: record whether the policy refuses starts, then do what
		// openssh-server's postinst does: enable the unit, its alias and
		// its SysV links, and install the tool
		"apt-get": `#!/bin/sh
case " $* " in *" install "*) ;; *) exit 0 ;; esac
"` + root + `/usr/sbin/policy-rc.d" ssh start; echo "policy $?" >"` + tmp + `/policy"
ln -s /lib/systemd/system/fakesshd.service "` + wants + `/fakesshd.service"
ln -s /lib/systemd/system/fakesshd.service "` + root + `/etc/systemd/system/fakesshd-alias.service"
ln -s ../init.d/fakesshd "` + root + `/etc/rc2.d/S01fakesshd"
touch "` + tool + `"
`,
		// disable: what systemctl --root does for a unit with an alias
		"systemctl": `#!/bin/sh
[ "$1" = "--root=` + root + `" ] && [ "$2" = disable ] || exit 1
rm -f "` + wants + `/$3" "` + root + `/etc/systemd/system/fakesshd-alias.service"
`,
	}
	for name, text := range scripts {
		if err := os.WriteFile(filepath.Join(fake, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("bash", "../../scripts/install-deps.sh")
	cmd.Env = append(os.Environ(), "PATH="+fake+":"+os.Getenv("PATH"), "INSTALL_DEPS_SYSROOT="+root,
		"INSTALL_DEPS_TABLE=\n# a fake SSH server, for this test\n# (a second comment line)\n"+tool+" fake-sshd\n"+tool+" fake-ssh-keys\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install-deps.sh: %v\n%s", err, out)
	}
	for _, want := range []string{
		"install-deps: installing 2 Debian package(s) the tests need, with apt-get (output in ",
		"install-deps:   a fake SSH server, for this test (a second comment line):\ninstall-deps:     fake-sshd fake-ssh-keys\n",
		"install-deps: fakesshd.service: a system service the install enabled, disabled again (nothing is left running)\n",
		"install-deps: fakesshd: a system service the install enabled, disabled again (nothing is left running)\n",
		"install-deps: installed fake-sshd (for " + tool + ")\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(tmp, "policy")); string(b) != "policy 101\n" {
		t.Errorf("during the install the policy said %q, want 101 (no service starts)", b)
	}
	links, _ := filepath.Glob(filepath.Join(root, "etc/*/*"))
	more, _ := filepath.Glob(filepath.Join(root, "etc/systemd/system/*/*"))
	var left []string
	for _, l := range append(links, more...) {
		if fi, err := os.Lstat(l); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			rel, _ := filepath.Rel(root, l)
			left = append(left, rel)
		}
	}
	want := []string{"etc/rc2.d/K01fakesshd", "etc/systemd/system/multi-user.target.wants/old.service"}
	if strings.Join(left, " ") != strings.Join(want, " ") {
		t.Errorf("service links after: %v, want %v", left, want)
	}
	if _, err := os.Lstat(filepath.Join(root, "usr/sbin/policy-rc.d")); !os.IsNotExist(err) {
		t.Errorf("the policy-rc.d of the install is left: %v", err)
	}
}

// scripts/phase.sh, make test's phases: each says its name, passes its
// command's output and exit status through, and ends with its time;
// --total gives the time since --start.
func TestPhaseTimes(t *testing.T) {
	tooltest.Require(t, tooltest.Tool{Name: "bash", Package: "bash"})
	env := append(os.Environ(), "PHASE_START_FILE="+filepath.Join(t.TempDir(), "start"))
	phase := func(args ...string) (string, int) {
		cmd := exec.Command("bash", append([]string{"../../scripts/phase.sh"}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	if out, code := phase("--start"); code != 0 || out != "" {
		t.Fatalf("--start: exit %d, %q", code, out)
	}
	took := `(\d+\.\d s|\d+ min \d\d s)`
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"vet", "echo", "checked"}, 0, `^== vet\nchecked\n== vet: ok in ` + took + `\n$`},
		{[]string{"race: tests", "sh", "-c", "echo broke >&2; exit 3"}, 3, `^== race: tests\nbroke\n== race: tests: FAILED \(exit 3\) after ` + took + `\n$`},
		{[]string{"--total"}, 0, `^== make test: all phases passed in ` + took + `\n$`},
		{nil, 2, "\nUsage: scripts/phase.sh --start"},
	} {
		out, code := phase(c.args...)
		if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
			t.Errorf("phase.sh %q: exit %d, want %d; output %q, want %s", c.args, code, c.code, out, c.want)
		}
	}
}
