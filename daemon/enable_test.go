package daemon

import (
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
)

// deaf is a backend whose software enable does not take: its Driver
// Station keeps the robot disabled.
type deaf struct{ *haltest.Backend }

func (deaf) SetEnabled(bool) {}

// TestEnableTruthful: Enable (what /frcd/enable answers) succeeds only
// when the robot will run enabled; e-stopped, without a Driver Station,
// inhibited, deactivated (its hardware set inactive) or kept disabled by the Driver Station, it says why, and the
// outputs stay neutral. Disabling always succeeds.
func TestEnableTruthful(t *testing.T) {
	d := competition(t, 100, false)
	d.Step()
	if err := d.Enable(true); err != nil {
		t.Fatalf("the sim, enabled: %v", err)
	}
	d.Loop.Inhibit("the PDP is missing")
	if err := d.Enable(true); err == nil || !strings.Contains(err.Error(), "inhibited: the PDP is missing") {
		t.Errorf("inhibited: %v", err)
	}
	d.Loop.Uninhibit()
	d.Loop.Deactivate("hardware component frcd set inactive")
	if err := d.Enable(true); err == nil || !strings.Contains(err.Error(), "inactive: hardware component frcd set inactive") {
		t.Errorf("deactivated: %v", err)
	}
	d.Loop.Activate()
	d.Sim.UpdateDS(func(ds *hal.DSState) { ds.Attached = false })
	if err := d.Enable(true); err == nil || !strings.Contains(err.Error(), "no Driver Station") {
		t.Errorf("no Driver Station: %v", err)
	}
	d.Sim.UpdateDS(func(ds *hal.DSState) { ds.Attached, ds.EStop = true, true })
	d.Step()
	d.Sim.UpdateDS(func(ds *hal.DSState) { ds.EStop = false }) // the sim holds it
	err := d.Enable(true)
	if err == nil || !strings.Contains(err.Error(), "e-stopped") {
		t.Errorf("e-stopped: %v", err)
	}
	command(d)
	d.Step()
	if bad := notNeutral(d); len(bad) > 0 || !strings.Contains(d.StatusLine(), " e-stopped ") {
		t.Errorf("after the refused enable: %s; %s", strings.Join(bad, "; "), d.StatusLine())
	}
	if err := d.Enable(false); err != nil {
		t.Errorf("disable: %v", err)
	}

	b := deaf{haltest.New()}
	b.DSState = hal.DSState{Attached: true}
	r := exampleRobot(t, "minimal", func(y string) string { return y + "linux: {ros_enable: true}\n" })
	h, err := New(r, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Enable(true); err == nil || !strings.Contains(err.Error(), "the Driver Station keeps the robot disabled") {
		t.Errorf("a Driver Station that keeps it disabled: %v", err)
	}
}
