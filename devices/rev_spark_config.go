package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// A SPARK's start-up and configuration (rev_spark.go's spark): the
// version request, the configuration steps and their acknowledgements,
// and configuring again after a reset.

// sparkStartup: a SPARK's start-up is a state, not a failure. Until it
// has answered the version request, until every configuration step is
// acknowledged, and until its status frames come at the periods set,
// Read fails with a startupErr wrapping hal.ErrConfiguring, which the
// loop does not count as an error (the SPARK's readings are absent all
// the same, and it is not driven). Each phase (the version, then the
// configuration) has sparkConfigTimeout; a SPARK still at it after that fails with the same
// reason wrapping hal.ErrTimeout, an error counted and on /diagnostics.
// On the sim the version comes in a cycle and the configuration in about
// 0.15 s (one step acknowledged a cycle). The bound is frcd's choice, not
// REV's (REV documents no time to answer): eight version requests
// (sparkVersionRetry apart); for the configuration, room for all its
// steps (about 12, one a cycle when answered) and several retries.
const sparkConfigTimeout = 2 * time.Second

// startupErr is a start-up phase's pair of prebuilt errors (Read does not
// allocate): within sparkConfigTimeout, and past it.
type startupErr struct {
	why          string // what it waits for, for Report
	within, late error
}

func newStartupErr(d *config.Device, why string) startupErr {
	return startupErr{why: why,
		within: fmt.Errorf("%s: %s: %w", d, why, hal.ErrConfiguring),
		late:   fmt.Errorf("%s: %s after %v: %w", d, why, sparkConfigTimeout, hal.ErrTimeout)}
}

// starting is Read's error while the SPARK starts up, waiting for e: as
// configuring within sparkConfigTimeout of its phase's start, a timeout
// after; Report shows which.
func (s *spark) starting(e *startupErr) error {
	err, cfg := e.late, ""
	if s.now-s.cfgAt < sparkConfigTimeout {
		err, cfg = e.within, e.why
	}
	s.mu.Lock()
	s.diag.cfg = cfg
	s.mu.Unlock()
	s.cfgShown = cfg != ""
	return err
}

// started notes the start-up over (Report shows its health again).
func (s *spark) started() {
	if !s.cfgShown {
		return
	}
	s.mu.Lock()
	s.diag.cfg = ""
	s.mu.Unlock()
	s.cfgShown = false
}

// reconfigure starts the configuration again from its first step (a new
// start-up phase, sparkStartup).
func (s *spark) reconfigure() {
	s.stepAt, s.stepSent = 0, false
	s.cfgDone, s.cfgAt = false, s.now
}

// sparkResetSigns: REV keeps parameter writes and status enables in RAM
// only, so a SPARK that resets (a brown-out, a power cycle, a cut and
// restored supply) sends Status 0 and 1 at its defaults and no Status 2,
// and runs its loop with the gains in its flash (factory defaults, or an
// old team's), while frcd would keep sending set points. Read takes
// either of two signs of a reset as one and configures it again from the
// first step (reconfigure), the SPARK getting no set point and no
// enabling heartbeat meanwhile, as before the first acknowledgement:
//
//   - Status 1's active "has reset" warning turning on (seen off, then
//     on). REV sets it at every power-up; whether and when the firmware
//     clears the active bit again is not documented, so this sign alone
//     would miss a reset while it is still on from the last one.
//   - Every status frame stale (none within statusTimeout) and then fresh
//     again: a reboot's bootloader and start-up send nothing for longer
//     than that. This one does not depend on the warning's semantics; it
//     also catches a cut and restored CAN cable, where writing the gains
//     again costs a few cycles of neutral output and nothing else.
//
// Configuring it again is always safe (the values are frcd's own), so a
// false sign costs only those cycles.
const sparkHasReset = 1 << 6 // frc.SparkWarningNames[6], "has reset"

// reconfigure starts the configuration again from its first step.
// takeAck takes the acknowledgement of the step last sent: what it set
// held, the next step; refused (a result code other than 0, another value
// held, a status left disabled), an error for good.
func (s *spark) takeAck() {
	if s.stepAt >= len(s.steps) || !s.stepSent {
		return
	}
	st := s.steps[s.stepAt]
	id := s.idAck
	if st.statuses {
		id = s.idSR
	}
	f, at, ok := s.can.Latest(id)
	if !ok || at < s.stepSentAt {
		return
	}
	d := f.Data[:min(int(f.Len), 8)]
	if st.statuses {
		r, ok := frc.DecodeSparkStatusesResponse(d)
		if !ok || r.Mask != sparkStatusMask {
			return
		}
		if r.Result != 0 || r.Enabled&sparkStatusMask != sparkStatusMask {
			s.refused(fmt.Errorf("%s: the SPARK refused to enable Status 0-2: result %d, statuses enabled %#04x", s.name, r.Result, r.Enabled))
			return
		}
		s.statusesAcked(at)
	} else {
		a, ok := frc.DecodeSparkParameterAck(d)
		if !ok || a.Param != st.param {
			return
		}
		if a.Result != 0 || a.Type != st.typ || a.Value != st.bits {
			s.refused(fmt.Errorf("%s: the SPARK refused %s = %s (parameter %d): result %d, type %d, holds %s",
				s.name, st.key, st.value(st.bits), st.param, a.Result, a.Type, st.value(a.Value)))
			return
		}
	}
	s.stepAt++
	s.stepSent = false
}

// refused stops the SPARK for good with err: a configuration step it
// did not take.
func (s *spark) refused(err error) {
	s.stepErr = err
	s.mu.Lock()
	s.diag.stepEr = err
	s.mu.Unlock()
}

// prepare sends what comes before driving: the version request until the
// SPARK answers, then the configuration one step at a time, each retried
// every sparkVersionRetry until acknowledged. ready is false until the
// SPARK can be driven, once every step is in (its idle mode and current
// limits among them), and for good after a refusal. None
// of these frames enables the motor, so Halt sends them too: a refused
// firmware or step shows before the first enable.
func (s *spark) prepare(now time.Duration, e *opError) (ready bool, err error) {
	if !s.fwKnown {
		if !s.asked || now-s.askedAt >= sparkVersionRetry {
			s.asked, s.askedAt = true, now
			// A remote frame asking for the answer's 8 bytes, as REV's
			// specification has GET_FIRMWARE_VERSION.
			return false, e.wrap(s.can.Send(hal.Frame{ID: s.idVer, Len: frc.SparkVersionLen, RTR: true}))
		}
		return false, nil
	}
	if s.fwErr != nil || s.stepErr != nil {
		return false, nil
	}
	if s.stepAt < len(s.steps) {
		if s.stepAt == 0 && s.carryHold(now) {
			return false, nil // a reboot or a cut cable? sparkCarryWait
		}
		if !s.stepSent || now-s.stepSentAt >= sparkVersionRetry {
			st := s.steps[s.stepAt]
			f := hal.Frame{ID: s.idParam}
			if st.statuses {
				f.ID = s.idStatuses
				f.Data, f.Len = frc.EncodeSparkSetStatusesEnabled(sparkStatusMask, sparkStatusMask)
			} else {
				f.Data, f.Len = frc.EncodeSparkParameterBits(st.param, st.bits)
			}
			s.stepSent, s.stepSentAt = true, now
			return false, e.wrap(s.can.Send(f))
		}
		return false, nil
	}
	return true, nil
}
