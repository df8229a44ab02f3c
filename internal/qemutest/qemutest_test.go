package qemutest

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestModuleName(t *testing.T) {
	for in, want := range map[string]string{
		"kernel/net/can/can-raw.ko":                "can_raw",
		"kernel/net/can/can.ko.xz":                 "can",
		"kernel/drivers/net/can/vcan.ko.zst":       "vcan",
		"kernel/drivers/net/can/dev/can-dev.ko.gz": "can_dev",
	} {
		if got := moduleName(in); got != want {
			t.Errorf("moduleName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCPIOHeader checks the newc layout: the 110-byte header, the name
// with its NUL padded to 4 bytes, the data padded to 4, the trailer.
func TestCPIOHeader(t *testing.T) {
	a := &Initramfs{entries: map[string]entry{}}
	a.File("/a", []byte("hello"), 0o644)
	var b bytes.Buffer
	if _, err := a.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	want := "070701" + "00000001" + "000081A4" + "00000000" + "00000000" + "00000001" + "00000000" + "00000005" +
		"00000000" + "00000000" + "00000000" + "00000000" + "00000002" + "00000000" + "a\x00" + "hello\x00\x00\x00"
	if !strings.HasPrefix(s, want) {
		t.Fatalf("archive starts %q, want %q", s[:min(len(s), len(want))], want)
	}
	if rest := s[len(want):]; !strings.HasPrefix(rest, "070701") || !strings.Contains(rest, "TRAILER!!!\x00") || len(s)%4 != 0 {
		t.Errorf("no trailer entry after the file, or length %d not a multiple of 4: %q", len(s), rest)
	}
}

// TestBoot boots the installed kernel on an initramfs with busybox and a
// dynamically linked program (its libraries found and copied), loads the
// vcan module with its dependency, and reads the guest's report.
func TestBoot(t *testing.T) {
	if testing.Short() {
		t.Skip("boots a VM")
	}
	k := Require(t, "CONFIG_CAN_VCAN")
	dir := t.TempDir()
	a := NewInitramfs()
	bb, _ := exec.LookPath(Busybox.Name)
	if err := a.Busybox(bb, "sh", "mount", "insmod", "stty", "poweroff", "cat", "sync", "uname", "ip"); err != nil {
		t.Fatal(err)
	}
	env, err := exec.LookPath("env") // coreutils: dynamically linked
	if err != nil {
		t.Skip(err)
	}
	if err := a.Executable("/bin/dynenv", env); err != nil {
		t.Fatal(err)
	}
	mods, err := a.Modules(k, "vcan")
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) != 2 || !strings.HasSuffix(mods[1], "/vcan.ko") {
		t.Errorf("modules %v, want can_dev then vcan", mods)
	}
	a.File("/init", InitScript(mods, "uname -r\n/bin/dynenv -i GREETING=hi /bin/dynenv\nip link add dev vcan9 type vcan && echo vcan ok"), 0o755)
	initrd, err := WriteInitramfs(a, dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	begin := time.Now()
	vm, err := Boot(ctx, Config{Kernel: k, Initrd: initrd, Console: filepath.Join(dir, "console.log"), CPUs: 1, MemoryMiB: 256})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for l := range vm.Lines() {
		lines = append(lines, l)
	}
	if err := vm.Wait(time.Now().Add(10 * time.Second)); err != nil {
		t.Error(err)
	}
	t.Logf("%s boot and power-off: %s", vm.Accel, time.Since(begin).Round(time.Millisecond))
	want := []string{k.Release, "GREETING=hi", "vcan ok", "qemutest: exit 0"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("the guest said %q, want %q\nconsole:\n%s", lines, want, vm.Console())
	}
}
