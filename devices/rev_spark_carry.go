package devices

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/hal"
)

// sparkCarry keeps a SPARK's position continuous across a reboot. Its
// built-in (relative) encoder counts from 0 at power-up: REV documents
// RelativeEncoder.setPosition to set it and nothing that keeps it over a
// power cycle (codedocs.revrobotics.com, RelativeEncoder; the parameter
// table has no saved position), so frcd takes the safe assumption that a
// reboot restarts it at 0. A joint measured by it alone (examples/2026's
// arm) would then read a position off by where it was, its limits and
// position controllers in the wrong frame. So, at a sign of a reboot
// (sparkResetSigns), the first Status 2 the SPARK sends after it has
// acknowledged Set Statuses Enabled again (the configuration's first
// step: from then on it is surely the SPARK since the sign) decides: when
// its position is nearer 0 than the last position before the sign, the
// encoder restarted, and the offset added to what it reports becomes the
// position last reported before the sign (the mechanism cannot move far
// in the reboot's few hundred ms, neutral meanwhile); else (a CAN cable
// cut and restored, a "has reset" the encoder did not follow) nothing
// changes. Meanwhile Read fails as configuring, so the joint has no
// position from it until the question is settled.
// A carried position is a warning on /diagnostics and is logged (Events).
// A joint with a position sensor of its own (an absolute encoder, a
// CANcoder, a potentiometer) reads that one, whatever the SPARK says: the
// merge takes the motor controller's encoder only when no sensor on the
// joint gives a position (control/merge.go, srcRate before srcRatePos).
type sparkCarry struct {
	off     float64       // joint units added to the SPARK's own position
	pending bool          // a reboot sign seen, not yet decided
	acked   bool          // Set Statuses Enabled acknowledged since the sign,
	ackAt   time.Duration // at this time: the next Status 2 after decides
	rawLast float64       // the SPARK's own position last seen before the sign, joint units
	// sure: the sign was Status 1's "has reset" (the SPARK says it
	// rebooted), not only its statuses lost then back, which a cut and
	// restored cable shows too; signAt: Read's time at the sign; last2:
	// the time of the last Status 2 read; seen2: last2 at the sign (a
	// Status 2 of a later time was sent after the sign).
	sure         bool
	signAt       time.Duration
	last2, seen2 time.Duration
}

// rebooted notes a sign of a reboot (sure: the SPARK's own "has reset")
// and configures the SPARK again from its first step.
func (s *spark) rebooted(sure bool) {
	if !s.carry.pending {
		s.carry.sure = false
	}
	s.carry.sure = s.carry.sure || sure
	s.carry.pending, s.carry.acked, s.carry.signAt, s.carry.seen2 = true, false, s.now, s.carry.last2
	s.reconfigure()
}

// carryHold says whether the configuration's first step (Set Statuses
// Enabled) waits, after statuses lost and back (not a "has reset"), for
// the SPARK to show whether it kept them: one that rebooted sends no
// Status 2 (off at power-up, frc.SparkEnabledByDefault), one whose cable
// was cut and restored sends it every sparkPeriod(2) as before, its
// encoder having counted on. It waits two periods (the bus's jitter), or
// until such a Status 2 settles it; the SPARK is not driven meanwhile
// (its configuration starts over).
func (s *spark) carryHold(now time.Duration) bool {
	c := &s.carry
	return c.pending && !c.sure && !c.acked && now-c.signAt < 2*sparkPeriod(2)
}

// statusesAcked notes Set Statuses Enabled acknowledged at at.
func (s *spark) statusesAcked(at time.Duration) {
	if s.carry.pending && !s.carry.acked {
		s.carry.acked, s.carry.ackAt = true, at
	}
}

// position is the joint position of the SPARK's own position raw (joint
// units) in a Status 2 received at at: raw plus the offset, carried over
// at the deciding Status 2 after a reboot when the encoder restarted.
func (s *spark) position(raw float64, at time.Duration) float64 {
	c := &s.carry
	c.last2 = at
	switch {
	case !c.pending:
		c.rawLast = raw
	case !c.acked && !c.sure && at > c.seen2:
		// Statuses lost then back, and a Status 2 sent after that before
		// frcd has enabled it again (carryHold): the SPARK kept its
		// statuses (a reboot turns Status 2 off, frc.SparkEnabledByDefault),
		// so its encoder did not restart: a cut and restored cable,
		// nothing to carry, wherever the mechanism went meanwhile.
		c.pending = false
		c.rawLast = raw
	case c.acked && at > c.ackAt:
		c.pending = false
		if math.Abs(raw) < math.Abs(raw-c.rawLast) {
			c.off += c.rawLast
			s.carried(c.off)
		}
		c.rawLast = raw
	}
	return raw + c.off
}

// sparkMaxEvents bounds the events a SPARK keeps for Events.
const sparkMaxEvents = 8

// carried notes a position carried over, for Report and Events (it
// allocates the message, once per reboot).
func (s *spark) carried(off float64) {
	msg := fmt.Sprintf("%s: rebooted, its encoder restarted at 0: position carried over from before the reboot (offset %.4g)", s.name, off)
	s.mu.Lock()
	s.diag.carries++
	s.diag.carryOff = off
	if len(s.diag.events) < sparkMaxEvents {
		s.diag.events = append(s.diag.events, msg)
	}
	s.mu.Unlock()
}

// loopPosition is a joint position command as the SPARK's own encoder
// counts it (joint units, before position_factor): less the offset.
func (s *spark) loopPosition(v float64) float64 { return v - s.carry.off }

var _ Eventer = (*spark)(nil)

// Events hands over what the SPARK has to log (a position carried over a
// reboot), appended to dst. Safe from any goroutine.
func (s *spark) Events(dst []string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	dst = append(dst, s.diag.events...)
	s.diag.events = s.diag.events[:0]
	return dst
}

// carryNote marks a /diagnostics entry with a position carried over: a
// value, and a warning unless it is an error already.
func carryNote(r hal.Report, d *sparkDiag) hal.Report {
	if d.carries == 0 {
		return r
	}
	note := fmt.Sprintf("position carried over %d reboot(s) (offset %.4g): its encoder restarted at 0", d.carries, d.carryOff)
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
