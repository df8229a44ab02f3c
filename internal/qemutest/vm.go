package qemutest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
)

// The tools a VM needs, from Debian (scripts/install-deps.sh installs
// them; the kernel is linux-image-amd64).
var (
	Qemu    = tooltest.Tool{Name: "qemu-system-x86_64", Package: "qemu-system-x86"}
	Busybox = tooltest.Tool{Name: "busybox", Package: "busybox-static"}
)

// AccelEnv names the environment variable that picks the accelerator:
// kvm, tcg, or unset for KVM when /dev/kvm can be opened and TCG (plain
// emulation) otherwise.
const AccelEnv = "FRCD_QEMU_ACCEL"

// KVMUsable reports whether this process may use KVM: /dev/kvm exists
// and opens for reading and writing (it does not in most containers, or
// for a user outside the kvm group).
func KVMUsable() bool {
	f, err := os.OpenFile("/dev/kvm", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// Accel returns the accelerator to use for kernel k: AccelEnv's, or kvm
// when /dev/kvm opens and a probe boot of k prints its banner within
// 15 s, else tcg. The probe runs once per process. (Nested KVM inside
// some cloud VMs opens but cannot run a guest: qemu aborts on a model
// specific register, or the guest never gets past the decompressor.)
func Accel(k *Kernel) (string, error) {
	switch v := os.Getenv(AccelEnv); v {
	case "kvm", "tcg":
		return v, nil
	case "":
		kvmOnce.Do(func() { kvmWorks = KVMUsable() && probeKVM(k) })
		if kvmWorks {
			return "kvm", nil
		}
		return "tcg", nil
	default:
		return "", fmt.Errorf("%s=%q: want kvm or tcg", AccelEnv, v)
	}
}

var (
	kvmOnce  sync.Once
	kvmWorks bool
)

// probeKVM boots k under KVM with no initramfs and reports whether it
// printed its "Linux version" banner on the serial port within 15 s.
func probeKVM(k *Kernel) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, Qemu.Name, "-nodefaults", "-no-user-config", "-no-reboot", "-display", "none", "-nic", "none",
		"-machine", "accel=kvm", "-cpu", "host", "-m", "256", "-kernel", k.Image, "-append", "console=ttyS0 panic=-1 no_timer_check", "-serial", "stdio")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	out, err := cmd.StdoutPipe()
	if err != nil || cmd.Start() != nil {
		return false
	}
	defer func() { _ = cmd.Cancel(); _ = cmd.Wait() }()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "Linux version") {
			return true
		}
	}
	return false
}

// Require skips the test when qemu or busybox is missing (fails it under
// FRCD_REQUIRE_TOOLS=1, as make test runs), and returns a kernel with
// those build options, likewise.
func Require(t testing.TB, options ...string) *Kernel {
	t.Helper()
	tooltest.Require(t, Qemu, Busybox)
	k, err := FindKernel(options...)
	if err != nil {
		if os.Getenv("FRCD_REQUIRE_TOOLS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return k
}

// Config is a VM to boot.
type Config struct {
	Kernel *Kernel
	// Initrd is the initramfs file (Initramfs.Write) whose /init runs.
	Initrd string
	// Append is added to the kernel's command line.
	Append string
	// MemoryMiB defaults to 512, CPUs to 2.
	MemoryMiB, CPUs int
	// Console is the file that gets the first serial port (ttyS0: the
	// kernel's messages and whatever init writes to /dev/ttyS0).
	Console string
}

// VM is a running qemu-system-x86_64. The guest's second serial port
// (/dev/ttyS1) comes to the host line by line (Lines): the channel a test
// reads the guest's results from.
type VM struct {
	Accel string // kvm or tcg
	Args  []string

	cmd     *exec.Cmd
	lines   chan string
	done    chan struct{}
	err     error
	console string
	stderr  strings.Builder // read only after Wait, which waits for its copying
}

// Boot starts the VM. It stops when the guest powers off (poweroff -f:
// qemu runs with -no-reboot) or when ctx ends (killed).
func Boot(ctx context.Context, c Config) (*VM, error) {
	accel, err := Accel(c.Kernel)
	if err != nil {
		return nil, err
	}
	if c.MemoryMiB == 0 {
		c.MemoryMiB = 512
	}
	if c.CPUs == 0 {
		c.CPUs = 2
	}
	cpu := "max"
	if accel == "kvm" {
		cpu = "host"
	}
	args := []string{
		"-nodefaults", "-no-user-config", "-no-reboot", "-display", "none", "-nic", "none",
		"-machine", "accel=" + accel, "-cpu", cpu, "-smp", strconv.Itoa(c.CPUs), "-m", strconv.Itoa(c.MemoryMiB),
		"-kernel", c.Kernel.Image, "-initrd", c.Initrd,
		// no_timer_check: the kernel's boot test of the timer interrupt
		// panics ("IO-APIC + timer doesn't work") when an emulated CPU is
		// starved by a loaded host; the test proves nothing about a VM.
		"-append", strings.TrimSpace("console=ttyS0 panic=-1 loglevel=4 no_timer_check " + c.Append),
		"-serial", "file:" + c.Console, // ttyS0
		"-serial", "stdio", // ttyS1
	}
	vm := &VM{Accel: accel, Args: args, lines: make(chan string, 4096), done: make(chan struct{}), console: c.Console}
	cmd := exec.CommandContext(ctx, Qemu.Name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Stderr = &vm.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", Qemu.Name, err)
	}
	vm.cmd = cmd
	go func() {
		defer close(vm.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			vm.lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(vm.lines)
		vm.err = cmd.Wait()
		if vm.err != nil {
			vm.err = fmt.Errorf("%s: %w: %s", Qemu.Name, vm.err, strings.TrimSpace(vm.stderr.String()))
		}
	}()
	return vm, nil
}

// Lines delivers the guest's /dev/ttyS1 line by line (carriage returns
// dropped); it is closed when qemu exits.
func (vm *VM) Lines() <-chan string { return vm.lines }

// Wait waits for qemu to exit, at most until the deadline (then it kills
// it), and returns its error.
func (vm *VM) Wait(deadline time.Time) error {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	go func() {
		for range vm.lines { // drain what nobody reads any more
		}
	}()
	select {
	case <-vm.done:
		return vm.err
	case <-t.C:
		vm.Kill()
		<-vm.done
		return errors.New("qemu did not exit in time: killed")
	}
}

// Kill stops qemu at once.
func (vm *VM) Kill() { _ = syscall.Kill(-vm.cmd.Process.Pid, syscall.SIGKILL) }

// Console returns what the guest wrote to its first serial port so far
// (the kernel's log and init's messages), for a failing test to show.
func (vm *VM) Console() string {
	b, err := os.ReadFile(vm.console)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// InitScript makes a busybox shell /init: it mounts /proc, /sys, /dev
// (devtmpfs) and /tmp, loads the modules (Initramfs.Modules' order), runs
// body with its standard output on /dev/ttyS1 (the host's Lines) and its
// standard error on the console, writes "qemutest: exit N" with body's
// exit status to ttyS1, and powers the machine off.
func InitScript(modules []string, body string) []byte {
	var b strings.Builder
	b.WriteString("#!/bin/busybox sh\nexport PATH=/bin:/usr/bin:/sbin:/usr/sbin HOME=/tmp\n")
	b.WriteString("mount -t proc proc /proc\nmount -t sysfs sys /sys\nmount -t devtmpfs dev /dev\nmount -t tmpfs tmp /tmp\n")
	b.WriteString("stty -F /dev/ttyS1 raw -echo 2>/dev/null\n")
	for _, m := range modules {
		fmt.Fprintf(&b, "insmod %s || echo \"qemutest: insmod %s failed\" >/dev/ttyS1\n", m, m)
	}
	b.WriteString("cat > /tmp/body.sh <<'QEMUTEST_BODY'\n" + body + "\nQEMUTEST_BODY\n")
	b.WriteString("sh /tmp/body.sh >/dev/ttyS1 2>/dev/ttyS0 </dev/null\n")
	b.WriteString("echo \"qemutest: exit $?\" >/dev/ttyS1\nsync\npoweroff -f\n")
	return []byte(b.String())
}

// WriteInitramfs writes a to dir/initrd.cpio and returns its path.
func WriteInitramfs(a *Initramfs, dir string) (string, error) {
	p := filepath.Join(dir, "initrd.cpio")
	return p, a.Write(p)
}

// GoBinary builds the Go package pkg (a directory, as go build takes it)
// as a static linux/amd64 program (CGO_ENABLED=0), or its test binary
// when test is set (go test -c), in the directory tmp, and adds it at
// dst.
func (a *Initramfs) GoBinary(dst, pkg, tmp string, test bool) error {
	out := filepath.Join(tmp, filepath.Base(dst))
	args := []string{"build", "-trimpath", "-o", out, pkg}
	if test {
		args = []string{"test", "-c", "-trimpath", "-o", out, pkg}
	}
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, msg)
	}
	return a.HostFile(dst, out)
}

// Run boots k on a, whose /init it sets to InitScript(modules, body),
// within timeout, and returns the lines body wrote to its standard output
// and the VM (for Accel, Console). It fails the test, showing the lines
// and the console, when the VM cannot start, body exits non-zero or the
// VM does not power off.
func Run(t testing.TB, k *Kernel, a *Initramfs, modules []string, body string, timeout time.Duration) ([]string, *VM) {
	t.Helper()
	dir := t.TempDir()
	a.File("/init", InitScript(modules, body), 0o755)
	initrd, err := WriteInitramfs(a, dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	vm, err := Boot(ctx, Config{Kernel: k, Initrd: initrd, Console: filepath.Join(dir, "console.log")})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	exit := ""
	for l := range vm.Lines() {
		if s, ok := strings.CutPrefix(l, "qemutest: exit "); ok {
			exit = s
			break
		}
		lines = append(lines, l)
	}
	werr := vm.Wait(time.Now().Add(20 * time.Second))
	if exit != "0" || werr != nil {
		t.Fatalf("the VM's script: exit %q, qemu: %v\nits output:\n%s\nconsole:\n%s", exit, werr, strings.Join(lines, "\n"), vm.Console())
	}
	return lines, vm
}
