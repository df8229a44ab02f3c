package daemon

import (
	"slices"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/interfaces"
)

// exampleDaemon runs an example robot, enabled, at 100 Hz, its YAML
// extended by extra.
func exampleDaemon(t *testing.T, example, extra string) *Daemon {
	t.Helper()
	r := exampleRobot(t, example, func(y string) string { return y + extra })
	d, err := NewSim(r, SimOptions{Enabled: true, Seed: 1}, Options{Rate: 100})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// failing lists the devices whose last Read failed.
func failing(s *control.Snapshot) []string {
	var out []string
	for _, dv := range s.Devices {
		if !dv.OK {
			out = append(out, dv.Name)
		}
	}
	slices.Sort(out)
	return out
}

func hasEffort(s *control.Snapshot, joint string) bool {
	for _, j := range s.Joints {
		if j.Name == joint {
			return j.State.Has&interfaces.HasEffort != 0
		}
	}
	return false
}

// Every CAN device type, silenced in the sim (a cut cable), is stale
// within 100 ms: its state goes absent (a PDP's or PDH's joints lose
// their effort), the loop goes on and every other device keeps working;
// heard again, it is fresh within 100 ms.
func TestSilentCANDevices(t *testing.T) {
	cases := []struct {
		example, silence string
		stale            []string // devices whose Read fails while it is silent
		effort           string   // a joint whose effort comes from it
	}{
		{"competition", "pdp", []string{"pdp"}, "left_front_wheel_joint"},
		{"competition", "climber_lock_joint", []string{"compressor", "pcm 0"}, ""}, // a solenoid: its PCM
		{"competition", "compressor", []string{"compressor", "pcm 0"}, ""},
		{"competition", "left_front_wheel_joint", []string{"left_front_wheel_joint", "pigeon"}, ""}, // the Pigeon on it too
		{"competition", "left_rear_wheel_joint", []string{"left_rear_wheel_joint"}, ""},
		{"rev", "pdh", []string{"pdh"}, "arm_joint"},
		{"rev", "hub", []string{"compressor", "hub", "ph 1"}, ""},
		{"rev", "latch_joint", []string{"compressor", "hub", "ph 1"}, ""},
		{"rev", "arm_joint", []string{"arm_joint"}, ""},
		{"rev", "shooter_joint", []string{"shooter_joint"}, ""},
		{"rev", "pigeon", []string{"pigeon"}, ""},
	}
	for _, c := range cases {
		t.Run(c.example+"/"+c.silence, func(t *testing.T) {
			d := exampleDaemon(t, c.example, "")
			snap := d.Loop.NewSnapshot()
			if c.effort != "" { // a voltage, so the channel carries current
				if err := driveForEffort(d, c.example, 0); err != nil {
					t.Fatal(err)
				}
			}
			run := func(until time.Duration) {
				for d.Now() < until {
					if c.effort != "" {
						driveForEffort(d, c.example, d.Now())
					}
					d.Step()
				}
				d.Loop.ReadSnapshot(snap)
			}
			run(300 * time.Millisecond)
			if f := failing(snap); len(f) != 0 {
				t.Fatalf("before: failing %v", f)
			}
			if c.effort != "" && !hasEffort(snap, c.effort) {
				t.Fatalf("before: %s has no effort", c.effort)
			}
			cycles := d.Loop.Stats().Cycles
			if err := d.Sim.SetCANSilent(c.silence, true); err != nil {
				t.Fatal(err)
			}
			run(300*time.Millisecond + 110*time.Millisecond)
			if f := failing(snap); !slices.Equal(f, c.stale) {
				t.Errorf("silent 110 ms: failing %v, want %v", f, c.stale)
			}
			if c.effort != "" && hasEffort(snap, c.effort) {
				t.Errorf("silent: %s still has an effort", c.effort)
			}
			if got := d.Loop.Stats().Cycles - cycles; got != 11 {
				t.Errorf("%d cycles in 110 ms, want 11: the loop stopped", got)
			}
			if err := d.Sim.SetCANSilent(c.silence, false); err != nil {
				t.Fatal(err)
			}
			run(300*time.Millisecond + 220*time.Millisecond)
			if f := failing(snap); len(f) != 0 {
				t.Errorf("heard again 110 ms: failing %v", f)
			}
			if c.effort != "" && !hasEffort(snap, c.effort) {
				t.Errorf("heard again: %s has no effort", c.effort)
			}
		})
	}
}

// driveForEffort commands the effort joint's motor, so that its channel
// carries current: examples/rev's arm at 2 V, examples/competition's
// base at 0.5 m/s through its drive controller.
func driveForEffort(d *Daemon, example string, now time.Duration) error {
	if example == "rev" {
		return d.Loop.Controller("arm_voltage").Command(2, now)
	}
	return d.Loop.Controller("drive").CommandGroup([]float64{0.5, 0, 0}, now)
}

// A `sim: can_faults:` entry silences its device on schedule.
func TestScheduledCANFault(t *testing.T) {
	d := exampleDaemon(t, "rev", "  can_faults:\n    - {name: pdh, from: 0.5, until: 0.8}\n")
	snap := d.Loop.NewSnapshot()
	var stale []time.Duration
	for d.Now() < time.Second {
		d.Step()
		d.Loop.ReadSnapshot(snap)
		if slices.Contains(failing(snap), "pdh") {
			stale = append(stale, d.Now())
		}
	}
	// Its last frames come at 0.48 s, stale after 0.58 s; heard again at
	// 0.8 s.
	if len(stale) == 0 || stale[0] != 590*time.Millisecond || stale[len(stale)-1] != 790*time.Millisecond {
		t.Errorf("stale at %v", stale)
	}
	if sc := d.Sim.Scenario(); len(sc.CANFaults) != 1 || sc.CANFaults[0].Device != "pdh" || sc.CANFaults[0].Until != 0.8 {
		t.Errorf("scenario CAN faults %+v", sc.CANFaults)
	}
}
