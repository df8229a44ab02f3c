package daemon

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
)

// faultyCompetition is the example robot with the given `sim: sensors:`
// entries, enabled, at 100 Hz.
func faultyCompetition(t *testing.T, sensors string) *Daemon {
	t.Helper()
	return exampleDaemon(t, "competition", "  sensors:\n"+sensors)
}

func joint(t *testing.T, s *control.Snapshot, name string) (pos float64, ok bool) {
	t.Helper()
	for _, j := range s.Joints {
		if j.Name == name {
			return j.State.Position, j.State.Has != 0
		}
	}
	t.Fatalf("no joint %q in the snapshot", name)
	return 0, false
}

func imuOK(t *testing.T, s *control.Snapshot, name string) bool {
	t.Helper()
	for _, m := range s.IMUs {
		if m.Name == name {
			return m.OK
		}
	}
	t.Fatalf("no IMU %q in the snapshot", name)
	return false
}

// TestMeasurementApartFromTruth runs the example robot through the loop
// with faulty sensors: what the loop measures (what /joint_states
// publishes) differs from the sim's truth exactly as configured, and
// IMUs that lose their reads are marked failed, not crashed on.
func TestMeasurementApartFromTruth(t *testing.T) {
	d := faultyCompetition(t, `    - {name: shoulder_pot, noise: {mu: 0.05}}
    - {name: elevator_encoder, drift: {mu: 0.01}}
    - {name: turret_encoder, disconnected: true, fault_at: 0.5}
    - {name: navx, dropout: 1}
    - {name: pigeon, dropout: 0.5}
`)
	snap := d.Loop.NewSnapshot()
	turret := d.Loop.Controller("turret_position")
	var pigeonOK, cycles int
	var turretAtFault float64
	for d.Now() < 3e9 {
		if err := turret.Command(min(d.Now().Seconds(), 2), d.Now()); err != nil { // a ramp, 1 rad/s, to 2 rad (the limit is 2.5)
			t.Fatal(err)
		}
		d.Step()
		d.Loop.ReadSnapshot(snap)
		now := d.Now().Seconds()

		// The pot reads the shoulder 0.05 rad high, exactly (volts are
		// not quantized).
		pos, ok := joint(t, snap, "shoulder_joint")
		tr, _ := d.Sim.Joint("shoulder_joint")
		if !ok || math.Abs(pos-tr.Position-0.05) > 1e-9 {
			t.Fatalf("at %.2f s: shoulder measured %v (ok %v), truth %v: want 0.05 more", now, pos, ok, tr.Position)
		}
		// The elevator encoder drifts 0.01 m/s, to its count of 1.2468 mm.
		pos, _ = joint(t, snap, "elevator_joint")
		tr, _ = d.Sim.Joint("elevator_joint")
		if off := pos - tr.Position; math.Abs(off-0.01*now) > 0.0012468+1e-9 {
			t.Fatalf("at %.2f s: elevator measured %v, truth %v: off by %v, want %v", now, pos, tr.Position, off, 0.01*now)
		}
		// The turret encoder stops counting at 0.5 s: the loop's turret
		// stands still while its PID drives the real one on.
		pos, _ = joint(t, snap, "turret_joint")
		switch {
		case now == 0.5:
			turretAtFault = pos
		case now > 0.5 && pos != turretAtFault:
			t.Fatalf("at %.2f s: turret measured %v after its cable was pulled at %v", now, pos, turretAtFault)
		}
		// The navX has answered nothing valid: its reads fail once it is
		// stale (100 ms), and its state is never a navX's.
		if now > 0.15 && imuOK(t, snap, "navx") {
			t.Fatalf("at %.2f s: the navX that drops every read is OK", now)
		}
		if imuOK(t, snap, "pigeon") {
			pigeonOK++
		}
		cycles++
	}
	if tr, _ := d.Sim.Joint("turret_joint"); tr.Position < turretAtFault+1 {
		t.Errorf("turret truth %v, measured %v: the PID should have driven it past its frozen reading", tr.Position, turretAtFault)
	}
	if p, n := 0.5, float64(cycles); math.Abs(float64(pigeonOK)-n*p) > 5*math.Sqrt(n*p*(1-p)) {
		t.Errorf("Pigeon OK in %d of %d cycles, want half ± %.0f", pigeonOK, cycles, 5*math.Sqrt(n*p*(1-p)))
	}
	var navxErr, pigeonErr error
	for _, dv := range snap.Devices {
		switch dv.Name {
		case "navx":
			navxErr = dv.LastErr
		case "pigeon":
			pigeonErr = dv.LastErr
		}
	}
	if navxErr == nil || !strings.Contains(navxErr.Error(), "CRC") || !errors.Is(pigeonErr, hal.ErrTimeout) {
		t.Errorf("last errors: navx %v, pigeon %v; want a failed CRC and a timeout", navxErr, pigeonErr)
	}
}
