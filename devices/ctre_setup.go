package devices

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
)

// A CTRE motor controller's configuration (its neutral mode, current
// limits, signal rates and slot gains) goes through blocking CTRE calls
// (a config apply waits up to 0.1 s for the device's answer, a Phoenix 5
// config 30 ms each): they are made off the loop, by Configure, and
// retried until the device answers. An unpowered or cut-off controller
// at boot does not stop frcd from starting: it stays "configuring"
// (Read fails with hal.ErrConfiguring, as a SPARK's start-up does), kept
// neutral and never driven, until every part of its configuration is
// acknowledged; after ctreConfigTimeout its Read fails with hal.ErrTimeout
// instead, a counted error on the status line, /diagnostics and Alerts,
// while Configure goes on retrying. A controller that reports a reset
// (ctreResetter: Phoenix 5 and 6's HasResetOccurred) loses its RAM
// settings and is configured again the same way.

// ctreSetupDoc is what the CTRE motor controllers' type docs say of it.
const ctreSetupDoc = " A controller that does not answer its configuration at start (unpowered, cut off the bus) does not stop frcd: it is " +
	"configuring, kept neutral (a warning; after 2 s an error) while frcd retries every 0.25 s, off the loop, and is configured " +
	"again the same way after it reports a reset (HasResetOccurred). With required: true the robot does not enable meanwhile."

// Configurer is a device whose configuration is applied by blocking
// vendor calls, off the loop. The daemon calls Configure from a goroutine
// beside the loop (Run), or in Step on a stepped backend (the sim, whose
// calls return at once); now is the loop's clock. Safe beside the loop's
// Read, Write and Halt.
type Configurer interface {
	Configure(now time.Duration)
	// Configured reports whether the device's configuration is in (for
	// `required` devices, which keep the robot from enabling until it is).
	Configured() bool
}

// AskedConfigurer is a Configurer the loop asks questions of, answered
// at its turns (a Talon FX: whether it has reset, while its position is
// held): while Asked, the daemon gives the turns at their quick cadence,
// as when one is not configured, so that the answers come soon.
type AskedConfigurer interface {
	Configurer
	Asked() bool
}

// ctreResetter is a CTRE device that tells whether it has reset since it
// was last asked: ParentDevice.HasResetOccurred in Phoenix 6 ("Returns
// true if device has reset since the previous call of this routine",
// api.ctr-electronics.com phoenix6 ParentDevice) and
// BaseMotorController.HasResetOccurred in Phoenix 5. A backend without it
// leaves resets undetected here (a SPARK's are detected on the wire).
type ctreResetter interface {
	HasResetOccurred() (bool, error)
}

const (
	// ctreConfigTimeout is how long a CTRE controller may go configuring
	// before its Read is a counted error (frcd's bound, as a SPARK's).
	ctreConfigTimeout = sparkConfigTimeout
	// ctreConfigRetry is how often Configure tries the apply again while
	// the device does not answer, and checks a configured one for a
	// reset.
	ctreConfigRetry = 250 * time.Millisecond
)

// ctreSetup is one CTRE controller's configuration state. The loop reads
// done (atomic); Configure alone calls apply; Report reads the rest
// under mu.
type ctreSetup struct {
	apply func() (note string, err error) // the blocking apply and read-back
	reset ctreResetter                    // nil when the backend cannot tell
	errs  startupErr                      // Read's prebuilt errors

	done atomic.Bool
	late atomic.Bool // configuring past ctreConfigTimeout (pending), for Report

	next  time.Duration // Configure's own: the next attempt
	once  bool          // Configure's own: configured at least once
	asked bool          // Configure's own: its last turn found a question (Asked)

	// The loop's questions whether the controller has reset (a Talon FX's
	// position carried over a reboot, fxCarry): ask is the last one asked,
	// answered the last one Configure has answered; resetN counts the
	// resets seen, set before the answer.
	ask, answered, resetN atomic.Uint32

	// The loop's own: when the current configuring phase started.
	on bool
	at time.Duration

	mu      sync.Mutex
	note    string // the read-back's note once applied
	lastErr error  // the last attempt's failure, nil after a success
	tries   int    // attempts in the current phase
	resets  int    // resets seen
}

// newCTRESetup makes the setup of d's controller and makes its first
// attempt; dev is the HAL device, checked for ctreResetter.
func newCTRESetup(d *config.Device, what string, dev any, apply func() (string, error)) *ctreSetup {
	s := &ctreSetup{apply: apply, errs: newStartupErr(d, what+" not yet acknowledged")}
	s.reset, _ = dev.(ctreResetter)
	return s.first()
}

// first makes the first attempt, at Build: a controller that answers is
// configured before the loop starts, as before; one that does not is left
// configuring, for Configure.
func (s *ctreSetup) first() *ctreSetup {
	s.attempt()
	return s
}

// Configure applies the configuration when it is due (at once the first
// time, then every ctreConfigRetry until it is in) and, once in, checks
// for a reset every ctreConfigRetry, which starts it over.
// A question the loop asks (askReset) is answered at the next turn,
// before all else: a reset found starts the configuration over at once.
func (s *ctreSetup) Configure(now time.Duration) {
	a := s.ask.Load()
	s.asked = a != s.answered.Load()
	if s.asked {
		switch {
		case s.reset == nil: // cannot tell: no reset
			s.answered.Store(a)
		default:
			if r, err := s.reset.HasResetOccurred(); err == nil { // else asked again at the next turn
				if r {
					s.resetSeen()
					s.next = now
				}
				s.answered.Store(a)
			}
		}
	}
	if now < s.next {
		return
	}
	s.next = now + ctreConfigRetry
	if s.done.Load() {
		if s.reset == nil {
			return
		}
		if r, err := s.reset.HasResetOccurred(); err != nil || !r {
			return
		}
		s.resetSeen()
	}
	s.attempt()
}

// resetSeen notes a reset: configured again from the start, and counted
// for the loop (resetN) and Report.
func (s *ctreSetup) resetSeen() {
	s.done.Store(false)
	s.resetN.Add(1)
	s.mu.Lock()
	s.resets++
	s.tries = 0
	s.mu.Unlock()
}

// askReset asks Configure whether the controller has reset (on the loop;
// it does not block): answeredTo tells when the answer is in, resetN
// whether a reset was seen by then.
func (s *ctreSetup) askReset() uint32 { return s.ask.Add(1) }

// Asked reports whether the loop is asking: a question is unanswered,
// or Configure's last turn answered one (a "no" is asked again at the
// loop's next cycle, until fxSignWait after the sign). From Configure's
// goroutine (AskedConfigurer).
func (s *ctreSetup) Asked() bool { return s.asked || s.ask.Load() != s.answered.Load() }

// answeredTo reports whether question a has been answered.
func (s *ctreSetup) answeredTo(a uint32) bool { return s.answered.Load() == a }

// attempt applies the configuration once.
func (s *ctreSetup) attempt() {
	note, err := s.apply()
	s.mu.Lock()
	s.tries++
	s.lastErr = err
	if err == nil {
		s.note, s.tries = note, 0
	}
	s.mu.Unlock()
	if err == nil {
		// The boot's own reset is the one just configured; a reset after
		// the first configuration (one that came while it was being
		// configured again) is counted.
		if s.reset != nil {
			if r, err := s.reset.HasResetOccurred(); err == nil && r && s.once {
				s.resetN.Add(1)
				s.mu.Lock()
				s.resets++
				s.mu.Unlock()
			}
		}
		s.once = true
		s.done.Store(true)
	}
}

// Configured reports whether the configuration is in.
func (s *ctreSetup) Configured() bool { return s.done.Load() }

// pending is Read's check, on the loop: nil once the configuration is in;
// else hal.ErrConfiguring within ctreConfigTimeout of the phase's start
// (at boot or a reset), hal.ErrTimeout after. It does not allocate.
func (s *ctreSetup) pending(now time.Duration) error {
	if s.done.Load() {
		if s.on {
			s.on = false
			s.late.Store(false)
		}
		return nil
	}
	if !s.on {
		s.on, s.at = true, now
	}
	if now-s.at < ctreConfigTimeout {
		return s.errs.within
	}
	if !s.late.Load() {
		s.late.Store(true)
	}
	return s.errs.late
}

// report adds the setup's state to a /diagnostics entry: the read-back
// note once configured; while configuring, a warning naming the last
// failure, an error once configuring has gone on past ctreConfigTimeout.
func (s *ctreSetup) report(r hal.Report) hal.Report {
	s.mu.Lock()
	note, lastErr, tries, resets := s.note, s.lastErr, s.tries, s.resets
	s.mu.Unlock()
	if resets > 0 {
		r.Values = append(r.Values, [2]string{"resets seen", fmt.Sprint(resets)})
	}
	if s.done.Load() {
		return configNote(r, note)
	}
	msg := "configuring: " + s.errs.why
	if lastErr != nil {
		msg += fmt.Sprintf(" (%d attempts, the last: %v)", tries, lastErr)
	}
	r.Values = append(r.Values, [2]string{"configuration", msg})
	switch {
	case s.late.Load():
		r.Error, r.Warn, r.Message = true, false, msg
	case !r.Error:
		r.Warn, r.Message = true, msg
	}
	return r
}
