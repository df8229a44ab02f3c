package systemcore

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/nt4"
)

// NumSmartIO is how many SmartIO channels Systemcore has (WPILib's
// PortsInternal.hpp: kNumSmartIo = 6); PWM, DIO and analog inputs are all
// SmartIO channels, numbered 0 to 5, one use each.
const NumSmartIO = 6

// SmartIO modes, the values of /io/<ch>/type (WPILib's SmartIo.hpp at
// 71ed28f768^, enum SmartIoMode).
const (
	modeDigitalIn  = 0
	modeDigitalOut = 1
	modeAnalogIn   = 2
	modePWMIn      = 3
	modePWMOut     = 4
)

// Values of /io/<ch>/valset and periodset (SmartIo.cpp, PWM.cpp at
// 71ed28f768^).
const (
	pwmDisabled   = 0      // no pulses
	pwmAlwaysHigh = 0xFFFF // kPwmAlwaysHigh
	pwmMaxMicros  = 4095   // SetPwmMicroseconds clamps to it
	digitalHigh   = 255    // SetDigitalOutput: 255 high, 0 low
	period20ms    = 0      // PwmOutputPeriod: 0 20 ms, 1 10 ms, 2 5 ms, 3 2 ms
	period2ms     = 3
	noPeriod      = -1
)

// dutyPeriod is the PWM period a duty-cycle output runs at (periodset 3).
const dutyPeriod = 2000 // µs

// smartIO is one open SmartIO channel: the loop stores its output (set),
// the link's goroutine publishes it; inputs are read from the link's
// latest values.
type smartIO struct {
	l      *link
	ch     int
	mode   int64
	period int64 // periodset to publish, or noPeriod
	set    atomic.Int64

	// topic names, made once
	typeTopic, setTopic, getTopic, periodTopic string

	// the link's goroutine's own
	gen                     uint64 // the connection the topics were published on
	pubType, pubSet, pubPer int64
	sent                    int64
}

func (l *link) open(ch int, mode, period int64, what string) (*smartIO, error) {
	if l == nil {
		return nil, errNoServer
	}
	if ch < 0 || ch >= NumSmartIO {
		return nil, fmt.Errorf("%s %d: Systemcore has SmartIO channels 0-%d: %w", what, ch, NumSmartIO-1, hal.ErrNoDevice)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.io[ch] != nil {
		return nil, fmt.Errorf("SmartIO channel %d (PWM, DIO and analog inputs share Systemcore's six channels): %w", ch, hal.ErrInUse)
	}
	p := "/io/" + strconv.Itoa(ch) + "/"
	s := &smartIO{l: l, ch: ch, mode: mode, period: period,
		typeTopic: p + "type", setTopic: p + "valset", getTopic: p + "valget", periodTopic: p + "periodset"}
	l.io[ch] = s
	return s, nil
}

// flush publishes the channel on connection gen: its topics, mode, period
// and output the first time, then the output when it changed. WPILib sets
// the output to 0 before the mode (SmartIo.cpp, InitializeMode).
func (s *smartIO) flush(c *nt4.Conn, gen uint64, t int64) error {
	v := s.set.Load()
	if s.gen != gen {
		again := s.gen != 0 // published on an earlier connection
		var err error
		if s.pubType, err = c.Publish(s.typeTopic, "int"); err != nil {
			return err
		}
		if s.pubSet, err = c.Publish(s.setTopic, "int"); err != nil {
			return err
		}
		if s.period != noPeriod {
			if s.pubPer, err = c.Publish(s.periodTopic, "int"); err != nil {
				return err
			}
		}
		if s.mode == modePWMOut || s.mode == modeDigitalOut {
			if err := c.SetInt(s.pubSet, t, 0); err != nil {
				return err
			}
		}
		if err := c.SetInt(s.pubType, t, s.mode); err != nil {
			return err
		}
		if s.period != noPeriod {
			if err := c.SetInt(s.pubPer, t, s.period); err != nil {
				return err
			}
		}
		s.gen, s.sent = gen, 0
		if again {
			// A new connection starts neutral: the loop's next command
			// (which needs the Driver Station's enable, on this
			// connection) sets it again.
			s.set.CompareAndSwap(v, 0)
			v = 0
		}
	}
	if (s.mode == modePWMOut || s.mode == modeDigitalOut) && v != s.sent {
		if err := c.SetInt(s.pubSet, t, v); err != nil {
			return err
		}
		s.sent = v
	}
	return nil
}

// value reads the channel's valget as an integer.
func (s *smartIO) value() (int64, error) {
	var v float64
	ok := false
	err := s.l.get(s.getTopic, func(t *nt4.ClientTopic) {
		if t.Value.Raw != nil {
			v, ok = t.Value.Double()
		}
	})
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, s.l.topicErr(errNoValue, s.getTopic, func() error {
			return fmt.Errorf("%s: no integer value yet: %w", s.getTopic, hal.ErrTimeout)
		})
	}
	return int64(v), nil
}

// smartPWM is a SmartIO channel in PWM output mode: valset is the pulse in
// µs (0 disabled, 0xFFFF always high).
type smartPWM struct{ s *smartIO }

func (p smartPWM) SetPulse(width time.Duration) error {
	us := int64(pwmDisabled)
	switch {
	case width == hal.AlwaysHigh:
		us = pwmAlwaysHigh
	case width > 0:
		us = min(max(int64((width+time.Microsecond/2)/time.Microsecond), 1), pwmMaxMicros)
	}
	p.s.set.Store(us)
	return nil
}

// smartDigitalOut is a SmartIO channel in digital output mode.
type smartDigitalOut struct{ s *smartIO }

func (d smartDigitalOut) Set(high bool) error {
	v := int64(0)
	if high {
		v = digitalHigh
	}
	d.s.set.Store(v)
	return nil
}

// smartDigitalIn is a SmartIO channel in digital input mode: valget is
// nonzero when high.
type smartDigitalIn struct{ s *smartIO }

func (d smartDigitalIn) Get() (bool, error) {
	v, err := d.s.value()
	return v != 0, err
}

// smartAnalogIn is a SmartIO channel in analog input mode: valget is in
// mV (AnalogInput.cpp: "Returns millivolts", HAL_GetAnalogVoltage divides
// by 1000).
type smartAnalogIn struct{ s *smartIO }

func (a smartAnalogIn) Voltage() (float64, error) {
	v, err := a.s.value()
	return float64(v) / 1000, err
}

// smartDutyOut is a SmartIO channel in PWM output mode at a 2 ms period,
// its pulse duty × 2000 µs: frcd's own use of the PWM mode (WPILib's
// Systemcore HAL had no duty-cycle output: HAL_AllocateDigitalPWM was
// unsupported).
type smartDutyOut struct{ s *smartIO }

func (d smartDutyOut) SetDutyCycle(duty float64) error {
	if duty != duty { // NaN
		duty = 0
	}
	duty = min(max(duty, 0), 1)
	us := int64(duty*dutyPeriod + 0.5)
	if duty >= 1 {
		us = pwmAlwaysHigh
	}
	d.s.set.Store(us)
	return nil
}

// OpenPWM opens a SmartIO channel as a PWM output, disabled.
func (b *Backend) OpenPWM(ch int) (hal.PWM, error) {
	// The period is published, not left at what the channel last ran:
	// after a 2 ms duty-cycle output, 1-2 ms pulses would be a motor near
	// full output. 20 ms suits every PWM motor controller and servo
	// (WPILib left it at the firmware's default).
	s, err := b.link.open(ch, modePWMOut, period20ms, "PWM")
	if err != nil {
		return nil, err
	}
	return smartPWM{s}, nil
}

// OpenDigitalIn opens a SmartIO channel as a digital input.
func (b *Backend) OpenDigitalIn(ch int) (hal.DigitalIn, error) {
	s, err := b.link.open(ch, modeDigitalIn, noPeriod, "DIO")
	if err != nil {
		return nil, err
	}
	return smartDigitalIn{s}, nil
}

// OpenDigitalOut opens a SmartIO channel as a digital output, low.
func (b *Backend) OpenDigitalOut(ch int) (hal.DigitalOut, error) {
	s, err := b.link.open(ch, modeDigitalOut, noPeriod, "DIO")
	if err != nil {
		return nil, err
	}
	return smartDigitalOut{s}, nil
}

// OpenAnalogIn opens a SmartIO channel as an analog input. Systemcore
// averages as its firmware does: averageBits and oversampleBits (the
// roboRIO FPGA's) have no effect.
func (b *Backend) OpenAnalogIn(ch, averageBits, oversampleBits int) (hal.AnalogIn, error) {
	s, err := b.link.open(ch, modeAnalogIn, noPeriod, "analog input")
	if err != nil {
		return nil, err
	}
	return smartAnalogIn{s}, nil
}

// OpenDutyCycleOut opens a SmartIO channel as a duty-cycle output (PWM
// mode, 2 ms period), at 0.
func (b *Backend) OpenDutyCycleOut(ch int) (hal.DutyCycleOut, error) {
	s, err := b.link.open(ch, modePWMOut, period2ms, "duty-cycle output")
	if err != nil {
		return nil, err
	}
	return smartDutyOut{s}, nil
}
