package systemcore

import (
	"math/rand"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
	"github.com/frcd/frcd/internal/systemservertest"
)

// What the emulated server encodes, the decoder reads back: the control
// word's bits, match time, game data (cut to 8 bytes), joysticks' axes,
// buttons and POVs; more than six joysticks or twelve axes are dropped.
func TestControlDataRoundTrip(t *testing.T) {
	sticks := make([]systemservertest.Stick, 7)
	sticks[0] = systemservertest.Stick{Axes: []int16{-32768, -1, 0, 1, 32767}, Buttons: 1<<40 | 5, NumButtons: 41, POVs: []uint8{1, 2, 4, 8, 9, 0, 6, 12}}
	sticks[2] = systemservertest.Stick{Axes: make([]int16, 14)}
	c := systemservertest.Control{Enabled: true, EStop: true, DSConnected: true, FMSConnected: true, Watchdog: true, Mode: 3, Alliance: 5,
		MatchTime: -1, GameData: "0123456789", Sticks: sticks}
	var d controlData
	if err := decodeControlData(systemservertest.EncodeControlData(c), &d); err != nil {
		t.Fatal(err)
	}
	if want := uint32(cwEnabled | 3<<1 | cwEStop | cwFMS | cwDS | cwWatchdog | 5<<8); d.word != want {
		t.Errorf("word %#x, want %#x", d.word, want)
	}
	if d.matchTime != -1 || string(d.game[:d.nGame]) != "01234567" || d.nSticks != 6 {
		t.Errorf("match time %d, game %q, %d sticks", d.matchTime, d.game[:d.nGame], d.nSticks)
	}
	s := d.sticks[0]
	if s.nAxes != 5 || s.axes != [mrcAxes]int16{-32768, -1, 0, 1, 32767} || s.buttons != 1<<40|5 || s.availButtons != 1<<41-1 || s.povCount != 8 {
		t.Errorf("stick 0: %+v", s)
	}
	for i, want := range []int{0, 90, 180, 270, 315, -1, 135, 225} {
		if got := povDegrees(s.povs >> (4 * i)); got != want {
			t.Errorf("POV %d: %d°, want %d°", i, got, want)
		}
	}
	if d.sticks[2].nAxes != mrcAxes {
		t.Errorf("stick 2: %d axes", d.sticks[2].nAxes)
	}
	var m matchInfo
	if err := decodeMatchInfo(systemservertest.EncodeMatchInfo(systemservertest.Match{Event: "CAPH", Number: 7, Replay: 2, Type: 3}), &m); err != nil {
		t.Fatal(err)
	}
	if string(m.event[:m.nEvent]) != "CAPH" || m.number != 7 || m.replay != 2 || m.typ != 3 {
		t.Errorf("match %+v", m)
	}
	for _, bad := range [][]byte{{0x2a}, {0x2a, 5, 1}, {0x08}, {0x07}, {0x00, 0x01}, {0x29, 1, 2}} {
		if err := decodeControlData(bad, &d); err == nil {
			t.Errorf("% x decoded", bad)
		}
	}
}

// Decoding allocates nothing: it runs on the control loop.
func TestDecodeAllocatesNothing(t *testing.T) {
	b := systemservertest.EncodeControlData(systemservertest.Control{Enabled: true, DSConnected: true, GameData: "abc",
		Sticks: []systemservertest.Stick{{Axes: []int16{1, 2, 3}, NumButtons: 10, POVs: []uint8{1}}}})
	var d controlData
	if n := testing.AllocsPerRun(100, func() { decodeControlData(b, &d) }); n != 0 {
		t.Errorf("%v allocations a decode", n)
	}
}

// FuzzDecodeDS feeds the Driver Station's decoders any bytes: within a
// second of CPU time each (bounds.Slow), they never panic, keep every count within its array, and
// read back what the emulated server encodes from what they decoded.
func FuzzDecodeDS(f *testing.F) {
	r := rand.New(rand.NewSource(1))
	for range 4 {
		st := systemservertest.Stick{Axes: []int16{int16(r.Intn(65536) - 32768)}, Buttons: r.Uint64(), NumButtons: r.Intn(65), POVs: []uint8{uint8(r.Intn(16))}}
		f.Add(systemservertest.EncodeControlData(systemservertest.Control{Enabled: r.Intn(2) == 0, Mode: uint32(r.Intn(4)), MatchTime: r.Int31(), GameData: "xyz", Sticks: []systemservertest.Stick{st}}))
	}
	f.Add(systemservertest.EncodeMatchInfo(systemservertest.Match{Event: "event", Number: 3, Type: 2}))
	f.Fuzz(func(t *testing.T, b []byte) {
		defer bounds.Slow(t)()
		func() {
			var d controlData
			if decodeControlData(b, &d) == nil {
				if d.nSticks > mrcJoysticks || d.nGame > mrcGameData {
					t.Fatalf("%d sticks, %d bytes of game data", d.nSticks, d.nGame)
				}
				c := systemservertest.Control{MatchTime: d.matchTime, GameData: string(d.game[:d.nGame])}
				for i := range d.nSticks {
					s := d.sticks[i]
					if s.nAxes > mrcAxes {
						t.Fatalf("%d axes", s.nAxes)
					}
					c.Sticks = append(c.Sticks, systemservertest.Stick{Axes: s.axes[:s.nAxes]})
				}
				var again controlData
				if err := decodeControlData(systemservertest.EncodeControlData(c), &again); err != nil || again.matchTime != d.matchTime ||
					again.nSticks != d.nSticks || again.game != d.game {
					t.Fatalf("re-encoded: %v %+v, from %+v", err, again, d)
				}
				for i := range d.nSticks {
					if again.sticks[i].axes != d.sticks[i].axes {
						t.Fatalf("stick %d axes %v, from %v", i, again.sticks[i].axes, d.sticks[i].axes)
					}
				}
			}
			var m matchInfo
			if decodeMatchInfo(b, &m) == nil && m.nEvent > mrcEventName {
				t.Fatalf("event name of %d bytes", m.nEvent)
			}
		}()
	})
}
