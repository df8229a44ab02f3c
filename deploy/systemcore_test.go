package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/sshdtest"
	"github.com/frcd/frcd/internal/tooltest"
)

// fakeSystemcore is a Systemcore's file tree in a directory: sudo,
// systemctl and setcap are stand-ins that record their calls, and
// `systemctl start robot` runs robotCommand into robot.log, as the robot
// service does. (The deploy sources etc/profile.d/natinst-path.sh when it
// exists, as on a roboRIO; a Systemcore has none, here it puts the
// stand-ins on PATH.)
func newFakeSystemcore(t *testing.T) *fakeRIO {
	t.Helper()
	root := t.TempDir()
	f := &fakeRIO{root: root, calls: filepath.Join(root, "calls.log"), log: filepath.Join(root, "robot.log")}
	write, record := treeWriter(t, root), recorder(f.calls)
	write("etc/profile.d/natinst-path.sh", fmt.Sprintf("PATH=%s/fakebin:$PATH\n", root), 0o644)
	write("fakebin/sudo", record+"exec \"$@\"\n", 0o755)
	write("fakebin/setcap", record, 0o755)
	write("fakebin/ldconfig", record, 0o755)
	write("fakebin/systemctl", record+fmt.Sprintf("if [ \"$1 $2\" = \"start robot\" ]; then sh %s/home/systemcore/robotCommand >> %s 2>&1; fi\n", root, f.log), 0o755)
	if err := os.MkdirAll(filepath.Join(root, "home/systemcore"), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// wpilibLibs is a directory with stand-ins for the WPILib libraries of
// SystemcoreLibs, all but skip.
func wpilibLibs(t *testing.T, skip string) string {
	dir := t.TempDir()
	for _, lib := range SystemcoreLibs {
		if lib != skip {
			if err := os.WriteFile(filepath.Join(dir, lib), []byte("ELF stand-in "+lib), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// TestDeployToFakeSystemcore deploys examples/systemcore over OpenSSH to
// a fake Systemcore tree: the files and their modes in /home/systemcore,
// WPILib's HAL libraries in WPILib's library directory with ldconfig run
// on it, the exact robotCommand (--hal systemcore, that directory on
// LD_LIBRARY_PATH), the robot service stopped before the copy and started
// after it, the capability through sudo, and the robot service having run
// frcd with the robot's files. A library missing here or on the robot is
// named.
func TestDeployToFakeSystemcore(t *testing.T) {
	srv := sshdtest.Start(t)
	sc := newFakeSystemcore(t)
	var out bytes.Buffer
	o := options(t, srv, sc, &out)
	o.URDF, o.YAML = "../examples/systemcore/robot.urdf", "../examples/systemcore/robot.yaml"

	// Neither given nor on the robot: refused, each library named.
	if _, err := DeploySystemcore(context.Background(), o); err == nil ||
		!strings.Contains(err.Error(), "libwpiHal.so, libntcore.so, libwpinet.so, libwpiutil.so not in "+SystemcoreLibDir+" on the robot") {
		t.Errorf("without the libraries: %v", err)
	}
	// One missing from --wpilib-libs: refused before logging in.
	o.WPILibDir = wpilibLibs(t, "libwpinet.so")
	if _, err := DeploySystemcore(context.Background(), o); err == nil || !strings.Contains(err.Error(), "has no libwpinet.so: frcd needs libwpiHal.so, libntcore.so, libwpinet.so, libwpiutil.so") {
		t.Errorf("libwpinet.so missing: %v", err)
	}
	o.WPILibDir = wpilibLibs(t, "")
	os.Remove(sc.calls)
	res, err := DeploySystemcore(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	home := filepath.Join(sc.root, "home/systemcore")
	for name, want := range map[string]os.FileMode{"frcd": 0o755, "robot.urdf": 0o644, "robot.yaml": 0o644, "robotCommand": 0o755} {
		if got := mode(t, filepath.Join(home, name)); got != want {
			t.Errorf("%s: mode %v, want %v", name, got, want)
		}
	}
	if len(res.Files) != 8 {
		t.Errorf("files written: %v", res.Files)
	}
	for _, lib := range SystemcoreLibs {
		if got := mode(t, filepath.Join(sc.root, SystemcoreLibDir, lib)); got != 0o755 {
			t.Errorf("%s: mode %v", lib, got)
		}
	}
	cmd, err := os.ReadFile(filepath.Join(home, "robotCommand"))
	if err != nil {
		t.Fatal(err)
	}
	wantCmd := "LD_LIBRARY_PATH=" + SystemcoreLibDir + " " + home + "/frcd run --hal systemcore " + home + "/robot.urdf " + home + "/robot.yaml\n"
	if string(cmd) != wantCmd {
		t.Errorf("robotCommand:\n%q\nwant\n%q", cmd, wantCmd)
	}
	wantCalls := "sudo systemctl stop robot\nsystemctl stop robot\n" +
		"sudo ldconfig " + SystemcoreLibDir + "\nldconfig " + SystemcoreLibDir + "\n" +
		"sudo setcap cap_sys_nice+eip " + home + "/frcd\nsetcap cap_sys_nice+eip " + home + "/frcd\n" +
		"sudo systemctl start robot\nsystemctl start robot\n"
	if got := sc.callLog(t); got != wantCalls {
		t.Errorf("calls on Systemcore:\n%s\nwant:\n%s", got, wantCalls)
	}
	ran, err := os.ReadFile(sc.log)
	if err != nil {
		t.Fatalf("the robot service never ran robotCommand: %v\n%s", err, out.String())
	}
	if want := "fake frcd: run --hal systemcore " + home + "/robot.urdf " + home + "/robot.yaml\n"; !strings.HasPrefix(string(ran), want) {
		t.Errorf("the robot service ran:\n%s\nwant:\n%s", ran, want)
	}
	if !strings.Contains(out.String(), "deploy: done: frcd runs on "+srv.Addr) {
		t.Errorf("output:\n%s", out.String())
	}

	// A WPILib install: the libraries come out of its linuxsystemcore zips.
	o.WPILibDir = fakeWPILib(t, "", "2027.1.0")
	if _, err := DeploySystemcore(context.Background(), o); err != nil {
		t.Fatalf("from a WPILib install: %v\n%s", err, out.String())
	}
	if b, _ := os.ReadFile(filepath.Join(sc.root, SystemcoreLibDir, "libwpiHal.so")); string(b) != "linux/systemcore/shared/libwpiHal.so 2027.1.0" {
		t.Errorf("libwpiHal.so from the install: %q", b)
	}
	if !strings.Contains(out.String(), "deploy: from the WPILib install "+o.WPILibDir+": hal-cpp 2027.1.0, ntcore-cpp 2027.1.0") {
		t.Errorf("output:\n%s", out.String())
	}

	// Once there, the libraries need not be given again.
	o.WPILibDir = ""
	if _, err := DeploySystemcore(context.Background(), o); err != nil {
		t.Errorf("with the libraries on the robot: %v\n%s", err, out.String())
	}
}

// Without a key the server accepts, the login tries Systemcore's default
// password and says so when it is refused.
func TestDeploySystemcoreTriesDefaultPassword(t *testing.T) {
	srv := sshdtest.Start(t)
	sc := newFakeSystemcore(t)
	var out bytes.Buffer
	o := options(t, srv, sc, &out)
	o.URDF, o.YAML = "../examples/systemcore/robot.urdf", "../examples/systemcore/robot.yaml"
	o.SSHDir = t.TempDir() // no keys
	_, err := DeploySystemcore(context.Background(), o)
	var le *LoginError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "the target's default password") || strings.Contains(err.Error(), "the empty password") {
		t.Fatalf("%v, want a LoginError that tried the default password\n%s", err, out.String())
	}
}

// CheckSystemcoreBinary takes a dynamically linked arm64 executable only
// (cgo: WPILib's HAL is loaded at run time).
func TestCheckSystemcoreBinary(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "x")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := CheckSystemcoreBinary(bin); err == nil || !strings.Contains(err.Error(), "statically linked, so it cannot load WPILib's HAL") {
		t.Errorf("a static arm64 binary: %v", err)
	}
	tooltest.Require(t, tooltest.AArch64CC)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport \"C\"\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build = exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "CGO_ENABLED=1", "GOOS=linux", "GOARCH=arm64", "CC=aarch64-linux-gnu-gcc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := CheckSystemcoreBinary(bin); err != nil {
		t.Errorf("a cgo arm64 binary: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOARCH != "arm64" {
		if err := CheckSystemcoreBinary(self); err == nil || !strings.Contains(err.Error(), "not a 64-bit ARM executable") {
			t.Errorf("this %s test binary: %v", runtime.GOARCH, err)
		}
	}
	if err := CheckSystemcoreBinary(filepath.Join(dir, "main.go")); err == nil || !strings.Contains(err.Error(), "not a Linux executable") {
		t.Errorf("a Go source file: %v", err)
	}
	if err := CheckSystemcoreBinary(filepath.Join(dir, "none")); err == nil || !strings.Contains(err.Error(), "make systemcore") {
		t.Errorf("a missing file: %v", err)
	}
}
