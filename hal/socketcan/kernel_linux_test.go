//go:build linux

package socketcan

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/qemutest"
	"github.com/frcd/frcd/internal/tooltest"
)

// kernelEnv names the vcan interface TestKernelSocket runs on; TestOnKernel
// sets it inside its VM.
const kernelEnv = "FRCD_CAN_VCAN"

// TestOnKernel boots a real Linux kernel under qemu (internal/qemutest)
// with vcan0 up and runs this package's TestKernelSocket there, built as
// a static test binary: the package's socket code against the kernel's
// CAN_RAW sockets, beside can-utils' cansend.
func TestOnKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("boots a VM")
	}
	k := qemutest.Require(t, "CONFIG_CAN", "CONFIG_CAN_RAW", "CONFIG_CAN_VCAN")
	cansend := tooltest.Tool{Name: "cansend", Package: "can-utils"}
	tooltest.Require(t, cansend)
	a := qemutest.NewInitramfs()
	bb, _ := exec.LookPath(qemutest.Busybox.Name)
	if err := a.Busybox(bb, "sh", "mount", "insmod", "ip", "stty", "poweroff", "cat", "sync"); err != nil {
		t.Fatal(err)
	}
	p, _ := exec.LookPath(cansend.Name)
	if err := a.Executable("/bin/cansend", p); err != nil {
		t.Fatal(err)
	}
	if err := a.GoBinary("/bin/socketcan.test", ".", t.TempDir(), true); err != nil {
		t.Fatal(err)
	}
	mods, err := a.Modules(k, "can", "can_raw", "vcan")
	if err != nil {
		t.Fatal(err)
	}
	lines, vm := qemutest.Run(t, k, a, mods, "ip link set lo up\nip link add dev vcan0 type vcan\nip link set vcan0 mtu 72\nip link set vcan0 up\n"+
		kernelEnv+"=vcan0 /bin/socketcan.test -test.run '^TestKernelSocket$' -test.v -test.count=1", 120*time.Second)
	out := strings.Join(lines, "\n")
	t.Logf("%s:\n%s", vm.Accel, out)
	if !strings.Contains(out, "--- PASS: TestKernelSocket") {
		t.Errorf("TestKernelSocket did not pass in the VM")
	}
}

// TestKernelSocket runs in TestOnKernel's VM, on a real kernel's vcan
// interface (kernelEnv, with the CAN FD MTU): Open's diagnoses of a
// missing, non-CAN and down interface, and of one too small for CAN FD;
// two buses on one interface exchanging frames (a bus does not hear
// itself); 11-bit and remote frames from cansend counted but not kept;
// CAN FD frames between two buses opened with Options.FD and from
// cansend, and not to a classic bus; the interface going down (ENETDOWN
// on send and on the reader) and up again; Close returning with the
// readers gone.
func TestKernelSocket(t *testing.T) {
	iface := os.Getenv(kernelEnv)
	if iface == "" {
		t.Skip("runs inside TestOnKernel's VM")
	}
	clock := wallClock{time.Now()}
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	ip("link", "add", "dev", "vcan9", "type", "vcan") // left down
	for name, want := range map[string]string{
		"frcdnone7": "frcdnone7: no such network interface",
		"lo":        "lo: not a CAN interface (link type 772; CAN is 280)",
		"vcan9":     "vcan9: the interface is down",
	} {
		if _, err := Open([]string{name}, clock, Options{}); err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, hal.ErrNoDevice) {
			t.Errorf("Open %s: %v, want %q", name, err, want)
		}
	}

	ip("link", "add", "dev", "vcan8", "type", "vcan") // vcan's default MTU is CAN FD's, 72
	ip("link", "set", "vcan8", "mtu", "16")
	ip("link", "set", "vcan8", "up")
	if bs, err := Open([]string{"vcan8"}, clock, Options{FD: true}); err == nil || !strings.Contains(err.Error(), "CAN FD needs the interface's MTU at 72 (it is 16)") {
		t.Errorf("Open vcan8 (MTU 16) for CAN FD: %v", err)
		if err == nil {
			bs.Close()
		}
	}

	a, err := Open([]string{iface}, clock, Options{FD: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open([]string{iface}, clock, Options{FD: true})
	if err != nil {
		t.Fatal(err)
	}
	busA, _ := a.Bus("")
	busB, _ := b.Bus("")
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 5 s", what)
			}
			time.Sleep(time.Millisecond)
		}
	}

	sent := frame(0x08041400, 1, 2, 3, 4, 5, 6, 7, 8)
	if err := busA.Send(sent); err != nil {
		t.Fatal(err)
	}
	waitFor("the frame on the other bus", func() bool { _, _, ok := busB.Latest(sent.ID); return ok })
	if got, _, _ := busB.Latest(sent.ID); got != sent {
		t.Errorf("received %v, want %v", got, sent)
	}
	if _, _, ok := busA.Latest(sent.ID); ok {
		t.Errorf("the sending bus heard its own frame")
	}

	before := busB.Stats().RxFrames
	for _, f := range []string{"123#11", "1FFFFFF1#R"} {
		if out, err := exec.Command("cansend", iface, f).CombinedOutput(); err != nil {
			t.Fatalf("cansend %s: %v: %s", f, err, out)
		}
	}
	waitFor("cansend's two frames counted", func() bool { return busB.Stats().RxFrames == before+2 })
	if _, _, ok := busB.Latest(0x1FFFFFF1); ok {
		t.Errorf("a remote request kept as data")
	}
	if h := busB.Heard(nil); len(h) != 1 || h[0].ID != sent.ID {
		t.Errorf("Heard %+v, want only %#x", h, sent.ID)
	}

	// CAN FD: between the two FD buses, and from cansend; a classic bus
	// on the same interface does not get them.
	c, err := Open([]string{iface}, clock, Options{})
	if err != nil {
		t.Fatal(err)
	}
	busC, _ := c.Bus("")
	fd := FDFrame{ID: 0x0A050001, Len: 64, BRS: true}
	for i := range fd.Data {
		fd.Data[i] = byte(i)
	}
	if err := busA.SendFD(fd); err != nil {
		t.Fatal(err)
	}
	waitFor("the CAN FD frame on the other bus", func() bool { _, _, ok := busB.LatestFD(fd.ID); return ok })
	if got, _, _ := busB.LatestFD(fd.ID); got != fd {
		t.Errorf("received CAN FD %+v, want %+v", got, fd)
	}
	if out, err := exec.Command("cansend", iface, "0A050002##1"+strings.Repeat("5A", 12)).CombinedOutput(); err != nil {
		t.Fatalf("cansend CAN FD: %v: %s", err, out)
	}
	waitFor("cansend's CAN FD frame", func() bool { _, _, ok := busB.LatestFD(0x0A050002); return ok })
	if got, _, _ := busB.LatestFD(0x0A050002); got.Len != 12 || !got.BRS || got.Data[0] != 0x5A || got.Data[11] != 0x5A {
		t.Errorf("cansend's CAN FD frame read as %+v", got)
	}
	if err := busC.SendFD(fd); !errors.Is(err, errNoFD) {
		t.Errorf("SendFD on a classic bus: %v", err)
	}
	rxC := busC.Stats().RxFrames
	if err := busA.Send(sent); err != nil { // a classic frame after the FD ones: the classic bus has it, and only it
		t.Fatal(err)
	}
	waitFor("the classic frame on the classic bus", func() bool { return busC.Stats().RxFrames > rxC })
	if s := busC.Stats(); s.RxFrames != rxC+1 {
		t.Errorf("the classic bus received %d frames, want 1 (no CAN FD ones)", s.RxFrames-rxC)
	}
	if err := c.Close(); err != nil {
		t.Error(err)
	}

	ip("link", "set", iface, "down")
	if err := busA.Send(sent); !errors.Is(err, unix.ENETDOWN) || !errors.Is(busA.Down(), unix.ENETDOWN) {
		t.Errorf("Send on a down interface: %v, Down %v; want ENETDOWN", err, busA.Down())
	}
	waitFor("the reader's ENETDOWN", func() bool { return busB.Down() != nil })
	ip("link", "set", iface, "up")
	if err := busA.Send(frame(0x08041440, 9)); err != nil || busA.Down() != nil {
		t.Errorf("Send once up again: %v, Down %v", err, busA.Down())
	}
	waitFor("the frame after the interface came back", func() bool { _, _, ok := busB.Latest(0x08041440); return ok })
	if err := busB.Down(); err != nil {
		t.Errorf("the receiving bus still down after a frame came: %v", err)
	}
	if s := busA.Stats(); s.TxFrames != 4 || s.TxErrors != 1 {
		t.Errorf("sending bus stats %+v, want 4 frames sent (2 classic, 1 CAN FD, 1 classic), 1 error", s)
	}

	begun := time.Now()
	if err := errors.Join(a.Close(), b.Close()); err != nil {
		t.Error(err)
	}
	t.Logf("Close took %v (the receive timeout is %v)", time.Since(begun), defaultRecvTimeout)
	for _, bus := range []*Bus{busA, busB} {
		select {
		case <-bus.done:
		default:
			t.Errorf("%s: Close returned with its reader running", bus.Name())
		}
		if err := bus.Send(sent); !errors.Is(err, hal.ErrClosed) {
			t.Errorf("Send after Close: %v", err)
		}
	}
}
