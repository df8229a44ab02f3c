package sim

import (
	"math"
	"testing"
)

// An absolute encoder on a DIO channel puts out the duty cycle that
// frcd's duty_cycle_encoder reads back as its joint's position (modulo
// full_range), at a connected frequency; a channel with nothing wired
// sees no signal; the channel is taken once.
func TestDutyCycleEncoderPart(t *testing.T) {
	r := competitionWith(t, "{name: hood_pot,      type: analog_input, ain_channel: 1, scale: 4.712, offset: -0.35}",
		"{name: hood_pot, type: duty_cycle_encoder, dio_channel: 20, expected_zero: 0.3}")
	s := newSim(t, r, Options{})
	in, err := s.OpenDutyCycleIn(20)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []float64{0.5, 0, 0.2} {
		if err := s.SetJoint("hood_joint", q, 0); err != nil {
			t.Fatal(err)
		}
		out, err := in.Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := math.Mod(out*2*math.Pi-0.3+2*math.Pi, 2*math.Pi); math.Abs(got-q) > 1e-12 {
			t.Errorf("hood at %v: duty %v reads back %v", q, out, got)
		}
		if hz, err := in.Frequency(); err != nil || hz < 100 {
			t.Errorf("frequency %v, %v", hz, err)
		}
	}
	other, err := s.OpenDutyCycleIn(21)
	if err != nil {
		t.Fatal(err)
	}
	if hz, _ := other.Frequency(); hz != 0 {
		t.Errorf("nothing wired on DIO 21: %v Hz", hz)
	}
	if _, err := s.OpenDigitalIn(20); err == nil {
		t.Error("DIO 20 opened twice")
	}
}
