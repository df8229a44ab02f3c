package control

import (
	"errors"
	"testing"
	"time"
)

// TestStopped: a stopped controller refuses commands (counted) and drops
// the one it held: its output is neutral at the next cycle; started
// again, it waits for a fresh command.
func TestStopped(t *testing.T) {
	g := newRig(t)
	ctl := g.l.Controller("arm_v")
	if err := ctl.Command(6, 0); err != nil {
		t.Fatal(err)
	}
	g.l.Cycle(10 * time.Millisecond)
	if !g.vcmd.Set || g.vcmd.Value != 6 {
		t.Fatalf("running: %+v", g.vcmd)
	}
	ctl.SetStopped(true)
	g.l.Cycle(20 * time.Millisecond)
	if g.vcmd.Set || !ctl.Stopped() {
		t.Errorf("stopped: output %+v", g.vcmd)
	}
	before := ctl.Refused()
	if err := ctl.Command(6, 20*time.Millisecond); !errors.Is(err, ErrStopped) || ctl.Refused() != before+1 {
		t.Errorf("a command while stopped: %v, refused %d -> %d", err, before, ctl.Refused())
	}
	g.l.Cycle(30 * time.Millisecond)
	if g.vcmd.Set {
		t.Errorf("a stopped controller drove its output: %+v", g.vcmd)
	}
	ctl.SetStopped(false)
	g.l.Cycle(40 * time.Millisecond)
	if g.vcmd.Set {
		t.Errorf("started again, the old command came back: %+v", g.vcmd)
	}
	if err := ctl.Command(5, 40*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	g.l.Cycle(50 * time.Millisecond)
	if !g.vcmd.Set || g.vcmd.Value != 5 {
		t.Errorf("started again with a fresh command: %+v", g.vcmd)
	}
}
