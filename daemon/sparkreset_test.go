package daemon

import (
	"math"
	"strings"
	"testing"
	"time"
)

// A SPARK Flex closing its own velocity loop (closed_loop: device) that
// reboots (the emulated brown-out: its gains back to its flash's, 0, and
// its "has reset" warning set) is held neutral until the driver has
// written its gains again, each acknowledged, and then reaches its set
// point again. Before that fix the driver never wrote them again: the
// SPARK ran its loop on its flash's gains, here never moving again.
func TestSparkRebootRewritesGains(t *testing.T) {
	d := devloopDaemon(t)
	c := d.Loop.Controller("shooter_device_velocity")
	// run steps for dur, commanding 400 rad/s, and returns the most cycles
	// in a row the SPARK's gains were not all acknowledged (its device
	// configuring, waiting for them) and whether its voltage stayed 0
	// meanwhile.
	run := func(dur time.Duration) (pending int, neutral bool) {
		t.Helper()
		snap := d.Loop.NewSnapshot()
		neutral = true
		for end := d.Now() + dur; d.Now() < end; {
			if err := c.Command(400, d.Now()); err != nil {
				t.Fatal(err)
			}
			d.Step()
			d.Loop.ReadSnapshot(snap)
			waiting := false
			for _, dv := range snap.Devices {
				if dv.Name == "shooter_device" && dv.Configuring != nil && !dv.OK && strings.Contains(dv.Configuring.Error(), "gains not yet acknowledged") {
					waiting = true
				}
			}
			if !waiting {
				continue
			}
			pending++
			if j, _ := d.Sim.Joint("shooter_device"); j.Voltage != 0 {
				neutral = false
			}
		}
		return pending, neutral
	}
	speed := func() float64 {
		j, _ := d.Sim.Joint("shooter_device")
		return j.Velocity
	}
	run(3 * time.Second)
	if v := speed(); math.Abs(v-400) > 4 {
		t.Fatalf("shooter at %v rad/s before the reboot, want 400", v)
	}
	if p, _ := run(200 * time.Millisecond); p != 0 {
		t.Fatalf("gains pending for %d cycles while it ran", p)
	}
	if err := d.Sim.RebootCAN("shooter_device"); err != nil {
		t.Fatal(err)
	}
	// The gains are written again (4 writes, each acknowledged the cycle
	// after), neutral meanwhile; then the loop runs on them again.
	p, neutral := run(3 * time.Second)
	if p == 0 || !neutral {
		t.Errorf("after the reboot: %d cycles waiting for the gains, neutral meanwhile: %v", p, neutral)
	}
	if v := speed(); math.Abs(v-400) > 4 {
		t.Errorf("shooter at %v rad/s after the reboot, want 400 again", v)
	}
}
