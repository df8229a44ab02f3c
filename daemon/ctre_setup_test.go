package daemon

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
)

// A `required` Talon FX (devloop's turret_rio, held at 0.5 rad by the
// roboRIO's position controller) that reboots while cut off the bus (the
// sim's emulated reboot: its neutral mode and limits back to the
// factory's; a silent controller answers no config apply) is configured
// again: meanwhile it is "configuring" (a warning, then after the bound
// a counted timeout error on the status line), kept neutral, and the
// robot refuses to enable naming it; once it answers it is configured
// within a retry, the robot enables again and the turret returns to its
// set point.
func TestCTRERebootConfiguresAgain(t *testing.T) {
	dir := filepath.Join("testdata", "devloop")
	y, err := os.ReadFile(filepath.Join(dir, "robot.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	yaml := strings.Replace(string(y), "{name: turret_rio, type: talon_fx, id: 2,", "{name: turret_rio, type: talon_fx, id: 2, required: true, neutral_mode: brake, stator_current_limit: 40,", 1)
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "robot.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load(filepath.Join(dir, "robot.urdf"), filepath.Join(tmp, "robot.yaml"))
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	d, err := NewSim(r, SimOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Sim.SetDS(hal.DSState{Enabled: true, Attached: true})
	c := d.Loop.Controller("turret_rio_position")
	snap := d.Loop.NewSnapshot()
	step := func() {
		if err := c.Command(0.5, d.Now()); err != nil {
			t.Fatal(err)
		}
		d.Step()
		d.Loop.ReadSnapshot(snap)
	}
	turret := func() (pos, volts float64) { j, _ := d.Sim.Joint("turret_rio"); return j.Position, j.Voltage }
	dev := func() (cfg, last error, errs uint64) {
		for _, dv := range snap.Devices {
			if dv.Name == "turret_rio" {
				return dv.Configuring, dv.LastErr, dv.Errors
			}
		}
		t.Fatal("no turret_rio")
		return nil, nil, 0
	}
	for range 200 { // 2 s: heard, configured, at its set point
		step()
	}
	if p, _ := turret(); math.Abs(p-0.5) > 0.02 || d.Loop.Inhibited() != "" {
		t.Fatalf("before: turret at %v, inhibited %q", p, d.Loop.Inhibited())
	}
	if err := d.Sim.SetCANSilent("turret_rio", true); err != nil {
		t.Fatal(err)
	}
	if err := d.Sim.RebootCAN("turret_rio"); err != nil {
		t.Fatal(err)
	}
	sawConfiguring, sawLate := false, false
	for range 250 { // 2.5 s without an answer
		step()
		cfg, last, _ := dev()
		if _, v := turret(); v != 0 {
			t.Fatalf("at %v, the unconfigured Talon drives %v V", d.Now(), v)
		}
		if cfg != nil && strings.Contains(cfg.Error(), "not yet acknowledged") {
			sawConfiguring = true
		}
		if cfg == nil && errors.Is(last, hal.ErrTimeout) && strings.Contains(last.Error(), "not yet acknowledged after") {
			sawLate = true
		}
		if !strings.Contains(d.Loop.Inhibited(), `waiting for the required devices "turret_rio" to take their configuration`) && d.Now() > 2100*time.Millisecond {
			t.Fatalf("at %v, inhibited %q", d.Now(), d.Loop.Inhibited())
		}
	}
	if !sawConfiguring || !sawLate {
		t.Errorf("after the reboot: configuring seen %v, a timeout error after the bound %v", sawConfiguring, sawLate)
	}
	if line := d.StatusLine(); !strings.Contains(line, "turret_rio") {
		t.Errorf("status line %q does not name turret_rio", line)
	}
	if _, _, errs := dev(); errs == 0 {
		t.Errorf("no error counted after the bound")
	}
	if err := d.Sim.SetCANSilent("turret_rio", false); err != nil {
		t.Fatal(err)
	}
	for range 50 { // a retry (250 ms) and the inventory hearing it
		step()
	}
	if cfg, _, _ := dev(); cfg != nil || d.Loop.Inhibited() != "" {
		t.Fatalf("answering again: configuring %v, inhibited %q", cfg, d.Loop.Inhibited())
	}
	for range 200 {
		step()
	}
	if p, _ := turret(); math.Abs(p-0.5) > 0.02 {
		t.Errorf("after: turret at %v, want 0.5", p)
	}
}
