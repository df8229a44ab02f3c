// Package heartbeat sends the FRC universal heartbeat (PROTOCOLS.md) on a
// CAN bus that no roboRIO drives, such as a Linux coprocessor's USB-CAN
// bus.
//
// FRC CAN devices (motor controllers, pneumatics hubs) act only while
// they hear a heartbeat with the enabled and system watchdog bits set,
// and treat 100 ms without one (hal.HeartbeatTimeout) as disabled. A
// roboRIO's NetComm sends it every 20 ms; on a bus without a roboRIO the
// controller must. The Sender is ticked from the control loop, not from a
// timer of its own, on purpose: when the loop stalls the heartbeats stop
// and the devices disable themselves 100 ms after the last one.
//
// Two senders on one bus cause arbitration trouble and fight over the
// enable bit, so a Sender in Auto mode never sends while it hears a
// heartbeat that is not its own: it listens for a HeartbeatTimeout
// before its first frame, stops at once when another sender appears, and
// resumes only when that one has been silent for longer than a
// HeartbeatTimeout. It tells its own frames apart because a CAN bus does
// not hand a sender its own frames back (hal.CANBus.Latest holds received
// frames; SocketCAN's CAN_RAW_RECV_OWN_MSGS is off).
//
// Use (the daemon):
//
//	hb := heartbeat.New(bus, mode)          // once the bus is open; mode auto, on or off
//	each cycle: hb.Tick(now, ds)            // before the loop's cycle (hal/linux's AdvanceTo), now on the bus's clock; never allocates
//	if st := hb.Status(); st != last { log(st) } // and put st on /diagnostics (st.Warning())
package heartbeat

import (
	"fmt"
	"sync"
	"time"

	"github.com/frcd/frcd/hal"
)

// Mode says whether a Sender sends.
type Mode int

const (
	// Auto sends unless another sender's heartbeat is on the bus.
	Auto Mode = iota
	// On always sends, warning when another sender is heard.
	On
	// Off never sends (a roboRIO drives the bus).
	Off
)

func (m Mode) String() string {
	switch m {
	case On:
		return "on"
	case Off:
		return "off"
	}
	return "auto"
}

// ParseMode reads "auto", "on" or "off".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "auto":
		return Auto, nil
	case "on":
		return On, nil
	case "off":
		return Off, nil
	}
	return Auto, fmt.Errorf("heartbeat mode %q: want auto, on or off", s)
}

// State is what a Sender is doing.
type State int

const (
	// Listening: in Auto, before the first frame, making sure no other
	// sender is on the bus.
	Listening State = iota
	// Sending a heartbeat every hal.HeartbeatPeriod.
	Sending
	// Yielding: in Auto, silent because another sender is on the bus.
	Yielding
	// Silent: mode Off.
	Silent
)

func (s State) String() string {
	switch s {
	case Sending:
		return "sending"
	case Yielding:
		return "yielding"
	case Silent:
		return "silent"
	}
	return "listening"
}

// Status is a Sender's situation; it is comparable, so a caller can log
// it when it changes.
type Status struct {
	Mode  Mode
	State State
	// Foreign is true while another sender's heartbeat is heard (one
	// came within the last hal.HeartbeatTimeout).
	Foreign bool
}

// Warning is true when the heartbeat is doubled: mode On while another
// sender is on the bus.
func (s Status) Warning() bool { return s.Mode == On && s.Foreign }

func (s Status) String() string {
	switch {
	case s.Warning():
		return "heartbeat on: sending, but another heartbeat sender (a roboRIO?) is on the bus: two senders disturb the bus; use auto or off"
	case s.State == Yielding:
		return "heartbeat auto: another sender (a roboRIO?) drives the bus; not sending"
	case s.State == Listening:
		return "heartbeat auto: listening for another sender before sending"
	case s.State == Sending:
		return "heartbeat " + s.Mode.String() + ": sending every 20 ms"
	case s.Foreign:
		return "heartbeat off: another sender drives the bus"
	}
	return "heartbeat off: not sending, and no other sender heard: CAN devices stay disabled"
}

// Sender sends the heartbeat on one bus. Tick it from the control loop;
// Status and Counts are safe from any goroutine.
type Sender struct {
	bus  hal.CANBus
	mode Mode

	mu      sync.Mutex
	started bool
	start   time.Duration // the first tick
	next    time.Duration // when the next frame is due
	st      Status
	sent    uint64
	errs    uint64
	lastErr error
	enabled bool // the last frame sent had the enable bits
}

// New returns a Sender for the bus in that mode.
func New(bus hal.CANBus, mode Mode) *Sender {
	s := &Sender{bus: bus, mode: mode}
	s.st = Status{Mode: mode, State: Listening}
	switch mode {
	case On:
		s.st.State = Sending
	case Off:
		s.st.State = Silent
	}
	return s
}

// Tick sends the heartbeat for the Driver Station state ds when one is
// due (every hal.HeartbeatPeriod, on average, at any tick rate) and the
// mode allows it. now is on the bus's clock. It returns the send's
// error, if any; the Sender keeps its schedule regardless.
func (s *Sender) Tick(now time.Duration, ds hal.DSState) error {
	_, at, ok := s.bus.Latest(hal.HeartbeatID)
	foreign := ok && now-at <= hal.HeartbeatTimeout
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		s.started, s.start = true, now
	}
	s.st.Foreign = foreign
	switch s.mode {
	case Off:
		return nil
	case Auto:
		switch {
		case foreign:
			s.st.State = Yielding
			return nil
		case s.st.State == Listening && now-s.start < hal.HeartbeatTimeout:
			return nil
		case s.st.State != Sending:
			s.st.State, s.next = Sending, now
		}
	}
	hb := hal.HeartbeatOf(ds)
	// A disable goes out at once, not up to a period later: the devices
	// stop on the first frame without the enable bits.
	disabling := s.enabled && !hb.Enabled
	if now < s.next && !disabling {
		return nil
	}
	s.next += hal.HeartbeatPeriod
	if s.next <= now || disabling { // the loop stalled, or a disable: start afresh rather than burst
		s.next = now + hal.HeartbeatPeriod
	}
	if err := s.bus.Send(hb.Frame()); err != nil {
		s.errs++
		s.lastErr = err
		return err
	}
	s.enabled = hb.Enabled
	s.sent++
	return nil
}

// Status returns the mode, what the Sender does and whether another
// sender is heard.
func (s *Sender) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// Counts returns the heartbeats sent, the sends that failed and the last
// failure.
func (s *Sender) Counts() (sent, failed uint64, last error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent, s.errs, s.lastErr
}
