package control

import (
	"strings"
	"testing"
	"time"
)

// An inhibited loop runs as if disabled, whatever the Driver Station says,
// and says why; enabling resumes only once the inhibit clears, and a
// command from before is gone.
func TestInhibit(t *testing.T) {
	g := newRig(t)
	snap := g.l.NewSnapshot()
	ctl := g.l.Controller("arm_v")
	if g.l.Inhibited() != "" {
		t.Fatalf("a new loop is inhibited: %q", g.l.Inhibited())
	}
	_ = ctl.Command(6, 0)
	g.l.Cycle(0)
	if !strings.HasPrefix(g.log[0], "write") {
		t.Fatalf("enabled loop: %v, want writes", g.log)
	}

	g.l.Inhibit("required CAN device talon_srx \"arm\" (id 3 on can0) is missing")
	g.log = nil
	g.l.Cycle(10 * time.Millisecond)
	if want := "halt claw,halt flap,halt lo,halt up,halt enc,halt arm,halt pdp"; strings.Join(g.log, ",") != want {
		t.Errorf("inhibited, DS enabled: %v, want every device halted", g.log)
	}
	if g.vcmd.Set {
		t.Errorf("voltage command kept while inhibited: %+v", g.vcmd)
	}
	g.l.ReadSnapshot(snap)
	if snap.Enabled || snap.Inhibit == "" || snap.State() != `inhibited: required CAN device talon_srx "arm" (id 3 on can0) is missing` {
		t.Errorf("snapshot enabled %v, inhibit %q, state %q", snap.Enabled, snap.Inhibit, snap.State())
	}
	// A command while inhibited is dropped too.
	_ = ctl.Command(4, 15*time.Millisecond)
	g.l.Cycle(20 * time.Millisecond)
	if g.vcmd.Set {
		t.Errorf("a command taken while inhibited reached the handle: %+v", g.vcmd)
	}
	st := g.l.Stats()
	if st.Inhibited != 2 || st.Disabled != 2 {
		t.Errorf("inhibited %d, disabled %d cycles; want 2, 2", st.Inhibited, st.Disabled)
	}
	g.l.Cycle(30 * time.Millisecond)

	// Cleared: the loop enables again, with nothing held.
	g.l.Uninhibit()
	g.log = nil
	g.l.Cycle(40 * time.Millisecond)
	g.l.ReadSnapshot(snap)
	if !snap.Enabled || snap.Inhibit != "" || snap.State() != "enabled" || g.l.Inhibited() != "" {
		t.Errorf("uninhibited: enabled %v, inhibit %q, state %q", snap.Enabled, snap.Inhibit, snap.State())
	}
	if !strings.HasPrefix(g.log[0], "write") || g.vcmd.Set {
		t.Errorf("uninhibited: %v, command %+v; want writes and no old command", g.log, g.vcmd)
	}
	_ = ctl.Command(2, 45*time.Millisecond)
	g.l.Cycle(50 * time.Millisecond)
	if !g.vcmd.Set || g.vcmd.Value != 2 {
		t.Errorf("a new command after the inhibit cleared: %+v, want 2 V", g.vcmd)
	}
	// An empty reason still inhibits.
	g.l.Inhibit("")
	if g.l.Inhibited() == "" {
		t.Error("Inhibit(\"\") did not inhibit")
	}
	// E-stop reads e-stopped, inhibited or not.
	g.ds.st.EStop = true
	g.l.Cycle(60 * time.Millisecond)
	g.l.ReadSnapshot(snap)
	if snap.State() != "e-stopped" {
		t.Errorf("inhibited and e-stopped: state %q", snap.State())
	}
}

// TestDeactivate: a deactivated loop (its hardware set inactive) runs as
// if disabled and says why; Uninhibit does not lift it, nor Activate an
// Inhibit; once active again a command from before is gone.
func TestDeactivate(t *testing.T) {
	g := newRig(t)
	snap := g.l.NewSnapshot()
	ctl := g.l.Controller("arm_v")
	_ = ctl.Command(6, 0)
	g.l.Deactivate("hardware component frcd set inactive")
	g.l.Cycle(0)
	if want := "halt claw,halt flap,halt lo,halt up,halt enc,halt arm,halt pdp"; strings.Join(g.log, ",") != want || g.vcmd.Set {
		t.Errorf("deactivated, DS enabled: %v, command %+v; want every device halted", g.log, g.vcmd)
	}
	g.l.ReadSnapshot(snap)
	if snap.Enabled || snap.State() != "inhibited: hardware component frcd set inactive" || g.l.Deactivated() == "" || g.l.Inhibited() != "" {
		t.Errorf("snapshot enabled %v, state %q, deactivated %q, inhibited %q", snap.Enabled, snap.State(), g.l.Deactivated(), g.l.Inhibited())
	}
	// The inventory's inhibit comes and goes: still deactivated.
	g.l.Inhibit("required CAN device missing")
	g.l.Uninhibit()
	g.log = nil
	g.l.Cycle(10 * time.Millisecond)
	if strings.Contains(strings.Join(g.log, ","), "write") {
		t.Errorf("deactivated after Uninhibit: %v, want no writes", g.log)
	}
	// Activate does not lift an Inhibit.
	g.l.Inhibit("required CAN device missing")
	g.l.Activate()
	g.l.Cycle(20 * time.Millisecond)
	g.l.ReadSnapshot(snap)
	if snap.Enabled || g.l.Deactivated() != "" || snap.Inhibit != "required CAN device missing" {
		t.Errorf("activated, inhibited: enabled %v, deactivated %q, inhibit %q", snap.Enabled, g.l.Deactivated(), snap.Inhibit)
	}
	g.l.Uninhibit()
	g.log = nil
	g.l.Cycle(30 * time.Millisecond)
	g.l.ReadSnapshot(snap)
	if !snap.Enabled || snap.State() != "enabled" || !strings.HasPrefix(g.log[0], "write") || g.vcmd.Set {
		t.Errorf("active: enabled %v, state %q, %v, command %+v; want writes and no old command", snap.Enabled, snap.State(), g.log, g.vcmd)
	}
	if st := g.l.Stats(); st.Inhibited != 3 {
		t.Errorf("%d inhibited cycles, want 3", st.Inhibited)
	}
	g.l.Deactivate("")
	if g.l.Deactivated() == "" {
		t.Error(`Deactivate("") did not deactivate`)
	}
}

// TestEStopHolds: an e-stop holds until the loop is made again (frcd
// restarts): the Driver Station clearing it and enabling leaves every
// output halted and the state e-stopped.
func TestEStopHolds(t *testing.T) {
	g := newRig(t)
	snap := g.l.NewSnapshot()
	ctl := g.l.Controller("arm_v")
	_ = ctl.Command(6, 0)
	g.l.Cycle(0)
	g.ds.st.EStop = true
	g.l.Cycle(10 * time.Millisecond)
	g.ds.st.EStop, g.ds.st.Enabled = false, true // as a client clearing it would
	_ = ctl.Command(6, 15*time.Millisecond)
	g.log = nil
	g.l.Cycle(20 * time.Millisecond)
	g.l.ReadSnapshot(snap)
	if snap.Enabled || snap.State() != "e-stopped" || !snap.DS.EStop {
		t.Errorf("after the e-stop cleared: enabled %v, state %q", snap.Enabled, snap.State())
	}
	if !strings.HasPrefix(g.log[0], "halt") || g.vcmd.Set {
		t.Errorf("after the e-stop cleared: %v, command %+v; want every device halted", g.log, g.vcmd)
	}
}

// Inhibited cycles do not allocate either.
func TestInhibitedCycleAllocs(t *testing.T) {
	g := newRig(t)
	for _, f := range g.devs {
		f.quiet = true
	}
	g.l.Inhibit("missing device")
	now := time.Duration(0)
	g.l.Cycle(now)
	a := testing.AllocsPerRun(200, func() {
		now += time.Millisecond
		g.l.Cycle(now)
	})
	if a != 0 {
		t.Errorf("an inhibited Cycle allocates %v", a)
	}
}
