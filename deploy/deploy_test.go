package deploy

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/frcd/frcd/internal/sshdtest"
	"github.com/frcd/frcd/internal/tooltest"
)

const (
	exampleURDF = "../examples/competition/robot.urdf"
	exampleYAML = "../examples/competition/robot.yaml"
)

// fakeRIO is a roboRIO's file tree in a directory: the scripts GradleRIO
// runs there record their calls in calls.log, and the restart runs
// robotCommand with its output in the log, as the launcher does.
type fakeRIO struct {
	root, calls, log string
}

func newFakeRIO(t *testing.T) *fakeRIO {
	t.Helper()
	root := t.TempDir()
	f := &fakeRIO{root: root, calls: filepath.Join(root, "calls.log"), log: filepath.Join(root, "var/local/natinst/log/FRC_UserProgram.log")}
	write, record := treeWriter(t, root), recorder(f.calls)
	// natinst-path.sh puts the FRC tools on PATH: here, recording stand-ins
	// for the system tools the deploy must not really run.
	write("etc/profile.d/natinst-path.sh", fmt.Sprintf("PATH=%s/fakebin:$PATH\n", root), 0o644)
	write("fakebin/setcap", record, 0o755)
	write("fakebin/ldconfig", record, 0o755)
	// The restart appends to the log, or starts it anew when the file
	// "truncate" exists.
	write("usr/local/frc/bin/frcKillRobot.sh", record+fmt.Sprintf(`case " $* " in *" -r "*)
	if [ -e %[1]s/truncate ]; then : > %[2]s; fi
	sh %[1]s/home/lvuser/robotCommand >> %[2]s 2>&1 ;;
esac
`, root, f.log), 0o755)
	write("var/local/natinst/log/FRC_UserProgram.log", "line of the previous run\n", 0o644)
	for _, dir := range []string{"usr/local/frc/third-party/lib", "home/lvuser"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(f.log, filepath.Join(root, "home/lvuser/FRC_UserProgram.log")); err != nil {
		t.Fatal(err)
	}
	return f
}

// treeWriter writes files of a fake tree below root, making directories.
func treeWriter(t *testing.T, root string) func(rel, text string, mode os.FileMode) {
	return func(rel, text string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// recorder is a shell script's start that appends its name and
// arguments to calls.
func recorder(calls string) string {
	return fmt.Sprintf("#!/bin/sh\necho \"$(basename \"$0\") $*\" >> %s\n", calls)
}

func (f *fakeRIO) callLog(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(f.calls)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fakeBinary is the "frcd" deployed: a script that prints its arguments.
func fakeBinary(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "frcd-rio")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho \"fake frcd: $*\"\necho \"fake frcd: second line\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// options deploys the example robot to the fake tree through srv, with a
// private ~/.ssh holding srv's client key.
func options(t *testing.T, srv *sshdtest.Server, rio *fakeRIO, out *bytes.Buffer) Options {
	t.Helper()
	sshDir := t.TempDir()
	key, err := os.ReadFile(srv.ClientKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sshDir, "id_ed25519"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	return Options{
		URDF: exampleURDF, YAML: exampleYAML, Binary: fakeBinary(t),
		Hosts: []string{srv.Addr}, SSHDir: sshDir,
		Target:   Target{Root: rio.root, User: srv.User, Owner: srv.User},
		LogLines: 2, LogWait: tooltest.Timeout, Out: out,
	}
}

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestDeployToFakeRoboRIO deploys the example robot over OpenSSH to a fake
// roboRIO tree and checks every step: the files and their modes, the exact
// robotCommand, the stop before the copy and the restart after it, the
// capability, the new log lines (and not the old), the trusted host key;
// frcd run's arguments for a match (RunArgs) in robotCommand.
func TestDeployToFakeRoboRIO(t *testing.T) {
	srv := sshdtest.Start(t)
	rio := newFakeRIO(t)
	var out bytes.Buffer
	o := options(t, srv, rio, &out)
	o.RunArgs = []string{"--log", "/u/logs", "--nt", "0.0.0.0:5810"}
	res, err := Deploy(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	home := filepath.Join(rio.root, "home/lvuser")
	wantModes := map[string]os.FileMode{"frcd": 0o755, "robot.urdf": 0o644, "robot.yaml": 0o644, "robotCommand": 0o755}
	for name, want := range wantModes {
		if got := mode(t, filepath.Join(home, name)); got != want {
			t.Errorf("%s: mode %v, want %v", name, got, want)
		}
	}
	for local, remote := range map[string]string{exampleURDF: "robot.urdf", exampleYAML: "robot.yaml", o.Binary: "frcd"} {
		a, _ := os.ReadFile(local)
		b, _ := os.ReadFile(filepath.Join(home, remote))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from %s", remote, local)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(home, "*.deploying"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	cmd, err := os.ReadFile(filepath.Join(home, "robotCommand"))
	if err != nil {
		t.Fatal(err)
	}
	wantCmd := home + "/frcd run --hal roborio --log /u/logs --nt 0.0.0.0:5810 " + home + "/robot.urdf " + home + "/robot.yaml\n"
	if string(cmd) != wantCmd {
		t.Errorf("robotCommand:\n%q\nwant\n%q", cmd, wantCmd)
	}
	wantCalls := "frcKillRobot.sh -t\n" + "setcap cap_sys_nice+eip " + home + "/frcd\n" + "frcKillRobot.sh -t -r\n"
	if got := rio.callLog(t); got != wantCalls {
		t.Errorf("calls on the roboRIO:\n%s\nwant:\n%s", got, wantCalls)
	}
	wantLines := []string{"fake frcd: run --hal roborio --log /u/logs --nt 0.0.0.0:5810 " + home + "/robot.urdf " + home + "/robot.yaml", "fake frcd: second line"}
	if strings.Join(res.LogLines, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("streamed log lines %q, want %q", res.LogLines, wantLines)
	}
	text := out.String()
	for _, want := range []string{
		"rio| " + wantLines[0],
		"deploy: " + srv.Addr + " answered",
		"trusting its ssh-ed25519 host key " + ssh.FingerprintSHA256(srv.HostKey),
		"libwpiHal.so and libwpiutil.so not in /usr/local/frc/third-party/lib",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "previous run") {
		t.Errorf("streamed the previous run's log:\n%s", text)
	}

	// A second deploy finds the recorded key and installs the WPILib
	// libraries, then runs ldconfig. The first run printed more (as frcd
	// does each second) and the restart starts the log anew: the new
	// run's lines are streamed from its start; fewer than LogLines come,
	// so the streaming ends at LogWait.
	f, err := os.OpenFile(rio.log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		fmt.Fprintf(f, "status line %d of the first run\n", i)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(rio.root, "truncate"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	o.LogLines, o.LogWait = 5, 300*time.Millisecond
	libs := t.TempDir()
	for _, lib := range WPILibLibs {
		if err := os.WriteFile(filepath.Join(libs, lib), []byte("ELF "+lib), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out.Reset()
	o.WPILibDir = libs
	res, err = Deploy(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if strings.Join(res.LogLines, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("second deploy streamed %q, want %q", res.LogLines, wantLines)
	}
	if !strings.Contains(out.String(), "host key "+ssh.FingerprintSHA256(srv.HostKey)+" is the one in") {
		t.Errorf("second deploy did not check the recorded key:\n%s", out.String())
	}
	for _, lib := range WPILibLibs {
		p := filepath.Join(rio.root, "usr/local/frc/third-party/lib", lib)
		if b, _ := os.ReadFile(p); string(b) != "ELF "+lib {
			t.Errorf("%s: %q", lib, b)
		}
		if m := mode(t, p); m != 0o755 {
			t.Errorf("%s: mode %v", lib, m)
		}
	}
	if !strings.Contains(rio.callLog(t), "ldconfig \n") {
		t.Errorf("ldconfig did not run after the libraries:\n%s", rio.callLog(t))
	}
}

// TestDeployHostFallback: the first two addresses refuse, the third
// answers.
func TestDeployHostFallback(t *testing.T) {
	srv := sshdtest.Start(t)
	rio := newFakeRIO(t)
	var out bytes.Buffer
	o := options(t, srv, rio, &out)
	closed1 := fmt.Sprintf("127.0.0.1:%d", tooltest.FreePort(t))
	closed2 := fmt.Sprintf("127.0.0.1:%d", tooltest.FreePort(t))
	o.Hosts = []string{closed1, closed2, srv.Addr}
	res, err := Deploy(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Host != srv.Addr {
		t.Errorf("deployed to %s, want %s", res.Host, srv.Addr)
	}
	text := out.String()
	i1 := strings.Index(text, "deploy: "+closed1+": no answer")
	i2 := strings.Index(text, "deploy: "+closed2+": no answer")
	i3 := strings.Index(text, "deploy: "+srv.Addr+" answered")
	if i1 < 0 || i2 < i1 || i3 < i2 {
		t.Errorf("want %s then %s refused, then %s answering:\n%s", closed1, closed2, srv.Addr, text)
	}

	// None answering is one error naming each address.
	o.Hosts = []string{closed1, closed2}
	_, err = Deploy(context.Background(), o)
	var na *NoAnswerError
	if !errors.As(err, &na) || len(na.Tried) != 2 || !strings.Contains(err.Error(), closed2) {
		t.Errorf("no host answering: %v", err)
	}
}

// TestDeployWrongKey: a key the roboRIO does not accept fails with a
// clear message naming the key, and nothing is copied.
func TestDeployWrongKey(t *testing.T) {
	srv := sshdtest.Start(t)
	rio := newFakeRIO(t)
	var out bytes.Buffer
	o := options(t, srv, rio, &out)
	o.Identity = filepath.Join(t.TempDir(), "other_key")
	other := sshdtest.NewKey(t, o.Identity)
	_, err := Deploy(context.Background(), o)
	var le *LoginError
	if !errors.As(err, &le) {
		t.Fatalf("want a LoginError, got %v\n%s", err, out.String())
	}
	for _, want := range []string{srv.User + "@" + srv.Addr + " refused the login", ssh.FingerprintSHA256(other), "the empty password", "--identity"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if _, err := os.Stat(filepath.Join(rio.root, "home/lvuser/frcd")); err == nil {
		t.Error("copied frcd without logging in")
	}
}

// TestDeployChangedHostKey: known_hosts has another key for the address,
// as after a reimage: refused, with the command that forgets the old key.
func TestDeployChangedHostKey(t *testing.T) {
	srv := sshdtest.Start(t)
	rio := newFakeRIO(t)
	var out bytes.Buffer
	o := options(t, srv, rio, &out)
	old := sshdtest.NewKey(t, filepath.Join(t.TempDir(), "old_host_key"))
	known := filepath.Join(o.SSHDir, "known_hosts")
	line := "[127.0.0.1]:" + strings.TrimPrefix(srv.Addr, "127.0.0.1:") + " " + string(ssh.MarshalAuthorizedKey(old))
	if err := os.WriteFile(known, []byte("# a comment\n"+line), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Deploy(context.Background(), o)
	var hk *HostKeyError
	if !errors.As(err, &hk) {
		t.Fatalf("want a HostKeyError, got %v\n%s", err, out.String())
	}
	for _, want := range []string{ssh.FingerprintSHA256(srv.HostKey), known + ":2", "ssh-keygen -f " + known + " -R '[127.0.0.1]:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if _, err := os.Stat(filepath.Join(rio.root, "home/lvuser/frcd")); err == nil {
		t.Error("copied frcd to a host with a changed key")
	}
}

// TestDeployRefusesInvalidRobot: a robot with errors is refused with its
// findings before any connection.
func TestDeployRefusesInvalidRobot(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	dir := t.TempDir()
	urdf, _ := os.ReadFile(exampleURDF)
	yamlPath := filepath.Join(dir, "robot.yaml")
	if err := os.WriteFile(yamlPath, []byte("joints:\n  - name: left_front_wheel_joint\n    type: talon_srx\n    id: 99\n  - {name: ghost, type: spark, id: 0}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	urdfPath := filepath.Join(dir, "robot.urdf")
	if err := os.WriteFile(urdfPath, urdf, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	_, err = Deploy(context.Background(), Options{URDF: urdfPath, YAML: yamlPath, Binary: fakeBinary(t),
		Hosts: []string{l.Addr().String()}, SSHDir: t.TempDir(), Out: &out})
	var inv *InvalidRobotError
	if !errors.As(err, &inv) {
		t.Fatalf("want an InvalidRobotError, got %v", err)
	}
	if inv.Findings.Errors() == 0 {
		t.Fatal("no findings")
	}
	var text bytes.Buffer
	if err := inv.Findings.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), yamlPath+":4:") {
		t.Errorf("findings lack file:line:col of the bad can_id:\n%s", text.String())
	}
	select {
	case <-accepted:
		t.Error("connected before refusing")
	default:
	}
}

func TestHosts(t *testing.T) {
	for team, want := range map[int]string{
		1:     "roboRIO-1-FRC.local 10.0.1.2 172.22.11.2",
		254:   "roboRIO-254-FRC.local 10.2.54.2 172.22.11.2",
		1234:  "roboRIO-1234-FRC.local 10.12.34.2 172.22.11.2",
		10234: "roboRIO-10234-FRC.local 10.102.34.2 172.22.11.2",
	} {
		got, err := Hosts(team)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("Hosts(%d) = %v, %v; want %s", team, got, err, want)
		}
	}
	for _, team := range []int{0, -1, 25600} {
		if _, err := Hosts(team); err == nil {
			t.Errorf("Hosts(%d): no error", team)
		}
	}
}

func TestRobotCommandQuoting(t *testing.T) {
	got := RobotCommand("/home/lvuser/frcd", "/home/lvuser/my robot.urdf", "/home/lvuser/it's.yaml")
	want := `/home/lvuser/frcd run --hal roborio '/home/lvuser/my robot.urdf' '/home/lvuser/it'\''s.yaml'` + "\n"
	if got != want {
		t.Errorf("got %q want %q", got, want)
	}
	got = RobotCommand("/home/lvuser/frcd", "r.urdf", "r.yaml", "--log", "/u/my logs", "--nt-layout", "2027")
	want = `/home/lvuser/frcd run --hal roborio --log '/u/my logs' --nt-layout 2027 r.urdf r.yaml` + "\n"
	if got != want {
		t.Errorf("with arguments: got %q want %q", got, want)
	}
	for in, want := range map[string]string{"roborio-1-frc.local": "roborio-1-frc.local:22", "10.0.1.2:2222": "10.0.1.2:2222", "::1": "[::1]:22", "[::1]:22": "[::1]:22"} {
		if got := withPort(in); got != want {
			t.Errorf("withPort(%q) = %q, want %q", in, got, want)
		}
	}
}

// elfHeader is the 52-byte header of a 32-bit little-endian ELF file for
// the machine, with no sections or segments.
func elfHeader(class elf.Class, machine elf.Machine) []byte {
	h := make([]byte, 52)
	copy(h, elf.ELFMAG)
	h[elf.EI_CLASS], h[elf.EI_DATA], h[elf.EI_VERSION] = byte(class), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT)
	binary.LittleEndian.PutUint16(h[16:], uint16(elf.ET_EXEC))
	binary.LittleEndian.PutUint16(h[18:], uint16(machine))
	binary.LittleEndian.PutUint32(h[20:], uint32(elf.EV_CURRENT))
	binary.LittleEndian.PutUint16(h[40:], 52) // e_ehsize
	return h
}

func TestCheckBinary(t *testing.T) {
	dir := t.TempDir()
	arm := filepath.Join(dir, "arm")
	if err := os.WriteFile(arm, elfHeader(elf.ELFCLASS32, elf.EM_ARM), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckBinary(arm); err != nil {
		t.Errorf("32-bit ARM refused: %v", err)
	}
	x86 := filepath.Join(dir, "x86")
	if err := os.WriteFile(x86, elfHeader(elf.ELFCLASS32, elf.EM_386), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckBinary(x86); err == nil || !strings.Contains(err.Error(), "EM_386") {
		t.Errorf("32-bit x86: %v", err)
	}
}
