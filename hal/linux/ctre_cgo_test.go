//go:build ctre && cgo

package linux

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/internal/tooltest"
)

// On a coprocessor, CTRE's libraries are found by name in
// LD_LIBRARY_PATH, Phoenix 6's default bus is the first CAN interface, and
// the enable is fed while the robot is enabled (a fake library built from
// hal/ctre's testdata records the calls).
func TestCTREOnLinux(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	dir := t.TempDir()
	lib := filepath.Join(dir, "libCTRE_PhoenixTools.so")
	if b, err := exec.Command("cc", "-shared", "-fPIC", "-o", lib, filepath.Join("..", "ctre", "testdata", "fakectre.c")).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, b)
	}
	log := filepath.Join(dir, "log")
	t.Setenv("LD_LIBRARY_PATH", dir)
	t.Setenv("FAKECTRE_LOG", log)
	o := Options{CAN: []string{"can7", "can1"}}
	v, err := openCTRE(o)
	if err != nil {
		t.Fatal(err)
	}
	b := New(o, Parts{CTRE: v})
	if got := hal.CapsOf(b); got != Caps {
		t.Errorf("the backend provides %s; Caps says %s", got, Caps)
	}
	p6, err := phoenix6.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p6.OpenCANcoder("", 2); err != nil {
		t.Fatal(err)
	}
	b.AdvanceTo(0) // disabled: no feed
	b.SetEnabled(true)
	b.AdvanceTo(0)
	got, _ := os.ReadFile(log)
	want := []string{`c_ctre_phoenix6_encode_device 2 "cancoder" "can7"`, "c_FeedEnable 100", "c_ctre_phoenix6_unmanaged_feed_enable 100"}
	if strings.TrimSpace(string(got)) != strings.Join(want, "\n") {
		t.Errorf("CTRE calls:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
