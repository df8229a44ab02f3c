package sim

import (
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
)

// A battery with a high internal resistance sags under a motor's stall
// current: the roboRIO's input falls below 6.75 V and it reports brownout;
// once the motor is neutral the voltage recovers and so does the state.
func TestBrownout(t *testing.T) {
	s := newSim(t, competition(t), Options{Battery: Battery{Voltage: 12.8, Resistance: 0.5}})
	if b, err := s.BrownedOut(); err != nil || b {
		t.Fatalf("at rest: browned out %v, %v", b, err)
	}
	s.SetDS(enabled)
	talon, err := s.OpenCANMotor(frc.TalonSRX, 1)
	if err != nil {
		t.Fatal(err)
	}
	var sagged bool
	for now := time.Millisecond; now <= 20*time.Millisecond; now += time.Millisecond {
		talon.SetDuty(1)
		s.AdvanceTo(now)
		vin, _ := s.Vin()
		b, err := s.BrownedOut()
		if err != nil {
			t.Fatal(err)
		}
		if b != (vin < BrownoutVolts) {
			t.Fatalf("at %v: Vin %.3f V, browned out %v", now, vin, b)
		}
		sagged = sagged || b
	}
	if !sagged {
		v, a := s.Battery()
		t.Fatalf("a stalled motor on a 0.5 Ω battery never browned out: %.2f V at %.1f A", v, a)
	}
	for now := 21 * time.Millisecond; now <= 40*time.Millisecond; now += time.Millisecond {
		talon.SetDuty(0)
		s.AdvanceTo(now)
	}
	if b, _ := s.BrownedOut(); b {
		vin, _ := s.Vin()
		t.Errorf("neutral again: still browned out at %.2f V", vin)
	}
	// A flat battery is in brownout from the start.
	flat := newSim(t, competition(t), Options{Battery: Battery{Voltage: 6.7}})
	if b, _ := flat.BrownedOut(); !b {
		t.Errorf("a 6.7 V battery: not browned out")
	}
}
