package devices

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/bounds"
)

// encodePDPCurrents packs six 10-bit currents (units of 0.125 A) as the
// PDP does (the test's own encoder, from PROTOCOLS.md).
func encodePDPCurrents(raw [6]uint16) [8]byte {
	return [8]byte{
		byte(raw[0] >> 2),
		byte(raw[0]&3)<<6 | byte(raw[1]>>4),
		byte(raw[1]&0xF)<<4 | byte(raw[2]>>6),
		byte(raw[2]&0x3F)<<2 | byte(raw[3]>>8),
		byte(raw[3]),
		byte(raw[4] >> 2),
		byte(raw[4]&3)<<6 | byte(raw[5]>>4),
		byte(raw[5]&0xF) << 4,
	}
}

func TestDecodePDPCurrents(t *testing.T) {
	// By hand: 80 (10 A), 1 (0.125 A), 0x200 (64 A), 0x155 (42.625 A), 0,
	// 0x3FF (127.875 A).
	b := [8]byte{0x14, 0x00, 0x18, 0x01, 0x55, 0x00, 0x3F, 0xF0}
	want := [6]float64{10, 0.125, 64, 42.625, 0, 127.875}
	if got := decodePDPCurrents(b); got != want {
		t.Errorf("decode %x: %v, want %v", b, got, want)
	}
	if got := encodePDPCurrents([6]uint16{80, 1, 0x200, 0x155, 0, 0x3FF}); got != b {
		t.Errorf("the test's encoder: %x, want %x", got, b)
	}
}

func TestDecodePDPStatus3AndEnergy(t *testing.T) {
	// 160 -> 160 x 0.05 + 4 = 12 V; 90 -> 90 x 1.0325... - 67.856... = 25.0693 °C.
	v, c := decodePDPStatus3([8]byte{6: 160, 7: 90})
	if v != 12 || !approx(c, 25.069303213291207, 1e-12) {
		t.Errorf("Status3: %v V, %v °C", v, c)
	}
	// Tmeas 20 ms; current 400 (50 A); power 0x12C0 (600 W); energy
	// 0x9123456 x 0.125 x 0.001 x 20 = 380469.975 J.
	a, w, j := decodePDPEnergy([8]byte{20, 0x19, 0x01, 0x2C, 0x09, 0x12, 0x34, 0x56})
	if a != 50 || w != 600 || !approx(j, 380469.975, 1e-6) {
		t.Errorf("Energy: %v A, %v W, %v J", a, w, j)
	}
}

func TestPDP(t *testing.T) {
	r := bind(t, "joints:\n  - {name: pdp, type: pdp, id: 2}\n")
	st := state[interfaces.PDPState](r, "pdp", interfaces.PDP)
	pdpDev := r.device("pdp")
	bus := &r.hal.Bus

	// Nothing received: stale, the state untouched.
	if err := pdpDev.Read(0, 0); !errors.Is(err, hal.ErrTimeout) || err.Error() != `pdp "pdp": status frames: timed out` {
		t.Errorf("no frames: %v", err)
	}

	// Channel k (0-15) draws k + 0.5 A: raw 8k + 4.
	var raw [16]uint16
	for k := range raw {
		raw[k] = uint16(8*k + 4)
	}
	s1 := encodePDPCurrents([6]uint16(raw[0:6]))
	s2 := encodePDPCurrents([6]uint16(raw[6:12]))
	s3 := encodePDPCurrents([6]uint16{raw[12], raw[13], raw[14], raw[15]})
	s3[5], s3[6], s3[7] = 14, 150, 90 // resistance (unused), 11.5 V, 25.0693 °C
	en := [8]byte{20, 0x19, 0x01, 0x2C, 0x09, 0x12, 0x34, 0x56}
	at := 50 * time.Millisecond
	bus.Inject(hal.Frame{ID: 0x08041402, Len: 8, Data: s1}, at)
	bus.Inject(hal.Frame{ID: 0x08041442, Len: 8, Data: s2}, at)
	bus.Inject(hal.Frame{ID: 0x08041482, Len: 8, Data: s3}, at)
	bus.Inject(hal.Frame{ID: 0x08041742, Len: 8, Data: en}, at)
	if err := pdpDev.Read(at+statusTimeout, 0); err != nil {
		t.Fatalf("fresh: %v", err)
	}
	want := interfaces.PDPState{Voltage: 11.5, Temperature: 25.069303213291207, TotalCurrent: 50, TotalPower: 600, TotalEnergy: 380469.975, Channels: 16}
	for k := range want.Current[:16] {
		want.Current[k] = float64(k) + 0.5
	}
	if !pdpNear(*st, want) {
		t.Errorf("state %+v,\nwant  %+v", *st, want)
	}

	// The Energy frame goes quiet: the rest still updates, Read says stale.
	bus.Forget(0x08041742)
	s1 = encodePDPCurrents([6]uint16{800})
	bus.Inject(hal.Frame{ID: 0x08041402, Len: 8, Data: s1}, at+statusTimeout)
	if err := pdpDev.Read(at+statusTimeout, 0); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("no Energy: %v", err)
	}
	if st.Current[0] != 100 || st.TotalEnergy != want.TotalEnergy {
		t.Errorf("channel 0 %v A, energy %v J", st.Current[0], st.TotalEnergy)
	}
	// Everything older than 100 ms: stale, the state as it was.
	bus.Inject(hal.Frame{ID: 0x08041742, Len: 8, Data: en}, at)
	before := *st
	if err := pdpDev.Read(at+statusTimeout+time.Millisecond, 0); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("old frames: %v", err)
	}
	if *st != before {
		t.Errorf("stale Read changed the state")
	}
	// Another PDP's frames are not this one's.
	r2 := bind(t, "joints:\n  - {name: pdp, type: pdp, id: 0}\n")
	r2.hal.Bus.Inject(hal.Frame{ID: 0x08041402, Len: 8, Data: s1}, 0)
	if err := r2.device("pdp").Read(0, 0); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("PDP 0 read PDP 2's frames: %v", err)
	}
}

func pdpNear(a, b interfaces.PDPState) bool {
	ok := approx(a.Voltage, b.Voltage, 1e-12) && approx(a.Temperature, b.Temperature, 1e-12) &&
		a.TotalCurrent == b.TotalCurrent && a.TotalPower == b.TotalPower && approx(a.TotalEnergy, b.TotalEnergy, 1e-6)
	return ok && a.Current == b.Current
}

func FuzzPDPStatus(f *testing.F) {
	f.Add([]byte{0x14, 0x00, 0x18, 0x01, 0x55, 0x00, 0x3F, 0xF0})
	f.Add([]byte{20, 0x19, 0x01, 0x2C, 0x09, 0x12, 0x34, 0x56})
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, data []byte) {
		defer bounds.Slow(t)()
		var b [8]byte
		copy(b[:], data)
		for i, c := range decodePDPCurrents(b) {
			if c < 0 || c > 127.875 || math.Mod(c, 0.125) != 0 {
				t.Errorf("%x: channel %d: %v A", b, i, c)
			}
		}
		v, temp := decodePDPStatus3(b)
		if v < 4 || v > 16.75 || temp < -67.86 || temp > 195.44 {
			t.Errorf("%x: %v V, %v °C", b, v, temp)
		}
		a, w, j := decodePDPEnergy(b)
		if a < 0 || a > 511.875 || w < 0 || w > 8191.875 || j < 0 || j > float64(1<<28-1)*0.125*0.001*255 {
			t.Errorf("%x: %v A, %v W, %v J", b, a, w, j)
		}
		// The packing round-trips.
		raw := [6]uint16{}
		for i, c := range decodePDPCurrents(b) {
			raw[i] = uint16(c / 0.125)
		}
		if got := encodePDPCurrents(raw); got[0] != b[0] || got[5] != b[5] || got[4] != b[4] {
			t.Errorf("%x: re-encoded %x", b, got)
		}
	})
}
