package sim

import (
	"math"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
)

func init() { registerPart("duty_cycle_encoder", part{sensor: dutyCycleSensorOf}) }

// dutyCycleFrequency is the frequency of an emulated absolute encoder's
// PWM output, Hz (REV's Through Bore: a period of 1025 µs).
const dutyCycleFrequency = 1e6 / 1025

// dutyCycleSensor is a YAML duty_cycle_encoder: an absolute encoder's PWM
// output on a DIO channel.
type dutyCycleSensor struct {
	j          *joint
	full, zero float64
}

// dutyCycleSensorOf wires an absolute encoder's PWM output on its DIO
// channel to its joint's position.
func dutyCycleSensorOf(s *Sim, d *config.Device, j *joint) {
	if ch := d.Int("dio_channel"); ch >= 0 && ch < numDIO {
		s.dio[ch].abs = &dutyCycleSensor{j: j, full: d.Float("full_range"), zero: d.Float("expected_zero")}
	}
}

// output is the duty cycle the encoder puts out at its joint's position:
// what frcd's duty_cycle_encoder reads back as that position, modulo
// full_range.
func (d *dutyCycleSensor) output() float64 {
	if d.j == nil || d.full == 0 {
		return 0
	}
	f := (d.j.pos + d.zero) / d.full
	return f - math.Floor(f)
}

// OpenDutyCycleIn opens a DIO channel, 0-25, as a duty-cycle input: it
// measures the absolute encoder wired there, or sees no signal (0 Hz).
func (s *Sim) OpenDutyCycleIn(ch int) (hal.DutyCycleIn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openDIO(ch, dioDutyIn); err != nil {
		return nil, err
	}
	return &dutyCycleIn{s: s, ch: ch}, nil
}

type dutyCycleIn struct {
	s  *Sim
	ch int
}

// Output is the wired encoder's duty cycle, 0 with none.
func (d *dutyCycleIn) Output() (float64, error) {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	if a := d.s.dio[d.ch].abs; a != nil {
		return a.output(), nil
	}
	return 0, nil
}

// Frequency is the wired encoder's, 0 with none.
func (d *dutyCycleIn) Frequency() (float64, error) {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	if d.s.dio[d.ch].abs != nil {
		return dutyCycleFrequency, nil
	}
	return 0, nil
}
