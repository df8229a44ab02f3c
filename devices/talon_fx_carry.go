package devices

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
)

// fxCarry keeps a Talon FX's position continuous across a reboot. CTRE:
// "The Talon FX and CANcoder sensors are always initialized to their
// absolute position in Phoenix 6" (Phoenix6-Documentation,
// docs/migration/migration-guide/feature-replacements-guide.rst, "Sensor
// Initialization Strategy"), the absolute integrated rotor sensor being
// within one rotor rotation (FeedbackConfigs.FeedbackRotorOffset: "This
// can be used to zero the rotor in applications that are within one rotor
// rotation"): after a reboot its rotor position restarts within one
// rotation and the whole turns counted are lost. Its configs are kept
// ("Devices support persistent settings through the use of configs",
// docs/api-reference/api-usage/configuration.rst), so only the position
// needs frcd. A joint measured by the rotor alone would jump, its limits
// and position controllers in the wrong frame.
//
// The signs, on the loop: the position comes back after a Read that gave
// none (its status lost, or configuring again after a reset Configure
// found), or it jumps by more than half a rotation from where its
// velocity would take it, to within one rotation. Then the joint has no
// position from the Talon (Read fails as configuring) and it is held
// neutral while frcd asks whether it rebooted (ctreSetup.askReset:
// HasResetOccurred off the loop, hal/ctre's the sticky BootDuringEnable
// fault, whose signal comes at 4 Hz: a "no" is asked again until
// fxSignWait after the sign). A reboot seen since the position last
// settled carries: the Talon's reported position differs from before by
// whole rotor rotations (both are the absolute position plus whole
// turns), so the offset grows by the last position before the sign less
// the first after, rounded to whole rotations; a mechanism that moved
// less than half a rotor rotation meanwhile is carried exactly. No
// reboot (a CAN dropout) carries nothing. A question unanswered after
// ctreConfigTimeout settles with nothing carried.
type fxCarry struct {
	off    float64       // rotor rotations added to the Talon's own position
	last   float64       // the Talon's own position last settled, rotations
	vel    float64       // its velocity then, rotations/s
	lastAt time.Duration // when
	have   bool          // last is set
	gap    bool          // a Read gave no position since last

	pending bool          // a sign seen, not yet decided
	first   float64       // the Talon's first position after the sign
	signAt  time.Duration // when
	ask     uint32        // the question asked (ctreSetup.askReset)
	base    uint32        // ctreSetup.resetN when last settled

	held error // Read's error while pending (prebuilt)
}

// fxSignWait is how long after a sign a "no reset" answer is asked again:
// two periods of the sticky fault's default 4 Hz signal (phoenix6 26.1.0
// get_sticky_fault_boot_during_enable: "Default Rates: CAN: 4.0 Hz"), so a
// fault set at the boot has reached frcd.
const fxSignWait = 500 * time.Millisecond

func newFXCarry(d *config.Device) fxCarry {
	return fxCarry{held: fmt.Errorf("%s: position held: asking whether the Talon FX rebooted: %w", d, hal.ErrConfiguring)}
}

// position takes the Talon's own position raw (rotor rotations) and
// velocity at now and gives the carried position, or the held error
// while a sign is being decided. It does not allocate but the message of
// a carry, once per reboot.
func (t *talonFX) position(raw, vel float64, now time.Duration) (float64, error) {
	c, s := &t.carry, t.setup
	if !c.pending {
		if !c.have || !(c.gap || c.jumped(raw, now)) {
			c.settle(raw, vel, now, s.resetN.Load())
			return raw + c.off, nil
		}
		c.pending, c.first, c.signAt, c.ask = true, raw, now, s.askReset()
	}
	c.gap = false
	n := s.resetN.Load()
	switch {
	case n != c.base:
		if k := math.Round(c.last - c.first); k != 0 { // else it rebooted within the rotation it started in
			c.off += k
			t.carried(k, c.off)
		}
	case !s.answeredTo(c.ask) && now-c.signAt < ctreConfigTimeout:
		return 0, c.held
	case s.answeredTo(c.ask) && now-c.signAt < fxSignWait:
		c.ask = s.askReset()
		return 0, c.held
	}
	c.pending = false
	c.settle(raw, vel, now, n)
	return raw + c.off, nil
}

// jumped reports whether raw is more than half a rotation from where the
// last velocity takes the last position, and near 0, where a reboot puts
// it: within one rotation, or two with a FeedbackRotorOffset (-1 to 1
// rotation, CTRE's FeedbackConfigs) set in Tuner X.
func (c *fxCarry) jumped(raw float64, now time.Duration) bool {
	want := c.last + c.vel*(now-c.lastAt).Seconds()
	return math.Abs(raw-want) > 0.5 && math.Abs(raw) < 2
}

func (c *fxCarry) settle(raw, vel float64, now time.Duration, n uint32) {
	c.last, c.vel, c.lastAt, c.have, c.gap, c.base = raw, vel, now, true, false, n
}

// fxMaxEvents bounds the events a Talon FX keeps for Events.
const fxMaxEvents = 8

// carried notes k whole rotor rotations carried over a reboot.
func (t *talonFX) carried(k, off float64) {
	msg := fmt.Sprintf("%s: rebooted, its rotor position restarted within one rotation: position carried over from before the reboot (%+g rotor rotations, offset %g)", t.name, k, off)
	t.mu.Lock()
	t.carries++
	t.carryOff = off
	if len(t.events) < fxMaxEvents {
		t.events = append(t.events, msg)
	}
	t.mu.Unlock()
}

var _ Eventer = (*talonFX)(nil)

// Events hands over what the Talon has to log (a position carried over a
// reboot), appended to dst. Safe from any goroutine.
func (t *talonFX) Events(dst []string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	dst = append(dst, t.events...)
	t.events = t.events[:0]
	return dst
}

// carryReport marks a /diagnostics entry with a position carried over.
func (t *talonFX) carryReport(r hal.Report) hal.Report {
	t.mu.Lock()
	n, off := t.carries, t.carryOff
	t.mu.Unlock()
	if n == 0 {
		return r
	}
	note := fmt.Sprintf("position carried over %d reboot(s) (offset %g rotor rotations): its rotor position restarted within one rotation", n, off)
	r.Values = append(r.Values, [2]string{"position carried over", note})
	switch {
	case r.Error:
	case r.Warn:
		r.Message += "; " + note
	default:
		r.Warn, r.Message = true, note
	}
	return r
}
