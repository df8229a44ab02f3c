package sim

import (
	"bytes"
	"errors"
	"testing"

	"github.com/frcd/frcd/hal"
)

// Addressable LEDs on the sim: each channel writes its window of the one
// buffer, which LEDs reads back; a window beyond the buffer, colours of
// the wrong length and a channel taken twice are refused.
func TestAddressableLEDs(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	a, err := s.OpenAddressableLED(20, 0, 2, hal.LEDGRB)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.OpenAddressableLED(21, 1020, 4, hal.LEDRGB)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SetColors([]byte{1, 2, 3, 4, 5, 6}); err != nil {
		t.Fatal(err)
	}
	if err := b.SetColors(bytes.Repeat([]byte{9}, 12)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3*maxLEDs)
	if n := s.LEDs(buf); n != len(buf) {
		t.Fatalf("copied %d bytes", n)
	}
	if !bytes.Equal(buf[:6], []byte{1, 2, 3, 4, 5, 6}) || !bytes.Equal(buf[3*1020:], bytes.Repeat([]byte{9}, 12)) ||
		!bytes.Equal(buf[6:3*1020], make([]byte, 3*1020-6)) {
		t.Errorf("buffer: %v ... %v", buf[:9], buf[3*1019:])
	}
	if err := a.SetColors([]byte{1, 2, 3}); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("one LED's colours for two: %v", err)
	}
	if _, err := s.OpenAddressableLED(22, 1020, 5, hal.LEDRGB); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("a window past the buffer: %v", err)
	}
	if _, err := s.OpenDigitalIn(20); err == nil {
		t.Error("DIO 20 opened twice")
	}
}
