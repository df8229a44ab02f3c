package control

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// A device still configuring (its Read failing with hal.ErrConfiguring)
// is in a state of its own: its readings are absent as after a failure,
// but nothing is counted and the snapshot says why it waits; back to
// counting once it has been at it for hal.MaxConfiguring without a pause,
// and once it fails otherwise.
func TestDeviceConfiguring(t *testing.T) {
	g := newRig(t)
	g.enc = interfaces.RateState{State: 0.5, Rate: 1.5}
	enc := g.devs["enc"]
	cfg := fmt.Errorf("enc: status frames not yet in: %w", hal.ErrConfiguring)
	snap := g.l.NewSnapshot()
	sample := func() DeviceSample {
		g.l.ReadSnapshot(snap)
		for _, d := range snap.Devices {
			if d.Name == "enc" {
				return d
			}
		}
		t.Fatal("no device enc in the snapshot")
		return DeviceSample{}
	}
	now := time.Duration(0)
	step := func() {
		now += 10 * time.Millisecond
		g.l.Cycle(now)
	}
	enc.readErr = cfg
	for range 50 {
		step()
	}
	if arm := g.joint(t, "arm"); arm.Has&interfaces.HasPosition != 0 {
		t.Errorf("arm while its encoder configures: %+v, want no position", arm)
	}
	if d := sample(); d.OK || d.Errors != 0 || d.LastErr != nil || d.Configuring != cfg || g.l.Stats().DeviceErrors != 0 {
		t.Errorf("configuring 0.5 s: %+v, %d device errors; want not OK, not counted, configuring", d, g.l.Stats().DeviceErrors)
	}
	for _, d := range g.devs {
		d.quiet = true
	}
	if a := testing.AllocsPerRun(100, step); a != 0 {
		t.Errorf("a cycle with a device configuring: %v allocations, want 0", a)
	}
	enc.readErr = nil
	step()
	if d := sample(); !d.OK || d.Configuring != nil || g.joint(t, "arm").Position != 0.5 {
		t.Errorf("configured: %+v, arm %+v", d, g.joint(t, "arm"))
	}
	// Configuring again (say, after a reset), for longer than the bound.
	enc.readErr = cfg
	step()
	start := now // its first cycle configuring
	for now-start < hal.MaxConfiguring-10*time.Millisecond {
		step()
	}
	if d := sample(); d.Errors != 0 || d.Configuring == nil {
		t.Fatalf("configuring just under %v: %+v", hal.MaxConfiguring, d)
	}
	step()
	step()
	if d := sample(); d.OK || d.Errors != 2 || d.LastErr != cfg || d.Configuring != nil || g.l.Stats().DeviceErrors != 2 {
		t.Errorf("configuring past %v: %+v, %d device errors; want 2 counted, no longer configuring", hal.MaxConfiguring, d, g.l.Stats().DeviceErrors)
	}
	// Another failure ends the configuring state at once.
	enc.readErr = nil
	step()
	enc.readErr = cfg
	step()
	if d := sample(); d.Configuring == nil || d.Errors != 2 {
		t.Fatalf("configuring again: %+v", d)
	}
	enc.readErr = errors.New("unplugged")
	step()
	if d := sample(); d.Configuring != nil || d.Errors != 3 || d.LastErr.Error() != "unplugged" {
		t.Errorf("failing: %+v", d)
	}
}
