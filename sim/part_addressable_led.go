package sim

import (
	"fmt"

	"github.com/frcd/frcd/hal"
)

// An addressable_led needs no wiring: the Sim keeps the LED buffer its
// windows write (OpenAddressableLED, LEDs).
func init() { registerPart("addressable_led", part{provider: "Sim.OpenAddressableLED"}) }

// maxLEDs is the LEDs of the one buffer every channel's addressable LEDs
// are a window of, as in Systemcore's 2027 HAL (HAL_ADDRESSABLE_LED_MAX_LEN).
const maxLEDs = 1024

var _ hal.AddressableLEDs = (*Sim)(nil)

// OpenAddressableLED opens a DIO channel, 0-25, as addressable LEDs: a
// window of length LEDs from start of the shared buffer, written off.
// The colour order changes nothing here: LEDs reads r, g, b.
func (s *Sim) OpenAddressableLED(ch, start, length int, order hal.LEDOrder) (hal.AddressableLED, error) {
	if start < 0 || length < 1 || start+length > maxLEDs {
		return nil, fmt.Errorf("sim: LEDs %d to %d: not within the %d LEDs of the buffer: %w", start, start+length-1, maxLEDs, hal.ErrNoDevice)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openDIO(ch, dioLED); err != nil {
		return nil, err
	}
	clear(s.leds[3*start : 3*(start+length)])
	return &addressableLED{s: s, start: start, n: length}, nil
}

// LEDs copies the LED buffer (r, g, b per LED) into buf, as far as it
// goes, and returns the number of bytes copied.
func (s *Sim) LEDs(buf []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return copy(buf, s.leds[:])
}

type addressableLED struct {
	s        *Sim
	start, n int
}

// SetColors writes the window of the buffer.
func (l *addressableLED) SetColors(rgb []byte) error {
	if len(rgb) != 3*l.n {
		return fmt.Errorf("sim: %d bytes of colour for %d LEDs: %w", len(rgb), l.n, hal.ErrUnsupported)
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	copy(l.s.leds[3*l.start:], rgb)
	return nil
}
