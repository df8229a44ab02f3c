package socketcan

import (
	"encoding/binary"
	"errors"
	"testing"
)

func fdFrame(id uint32, n uint8, brs bool) FDFrame {
	f := FDFrame{ID: id, Len: n, BRS: brs}
	for i := range f.Data[:min(n, 64)] {
		f.Data[i] = byte(i + 1)
	}
	return f
}

// TestFDFrames: SendFD writes struct canfd_frame (the FDF flag, BRS when
// asked, the length, the data and nothing past it), refuses lengths CAN
// FD cannot say and buses opened without Options.FD; a received CAN FD
// frame is kept apart from the classic ones (LatestFD) and counted.
func TestFDFrames(t *testing.T) {
	c := newClock(ms(5))
	bs, conns := openFakeWith(t, c, Options{FD: true}, "can_s0")
	fc := conns["can_s0"]
	bus, _ := bs.Bus("")

	sent := fdFrame(0x0A050001, 64, true)
	if err := bus.SendFD(sent); err != nil {
		t.Fatal(err)
	}
	if err := bus.SendFD(fdFrame(1, 3, false)); err != nil {
		t.Fatal(err)
	}
	if len(fc.sentFD) != 2 {
		t.Fatalf("sent %d CAN FD frames, want 2", len(fc.sentFD))
	}
	r := fc.sentFD[0]
	if id := binary.NativeEndian.Uint32(r[0:4]); id != effFlag|0x0A050001 || r[4] != 64 || r[5] != fdFDF|fdBRS || r[8] != 1 || r[71] != 64 {
		t.Errorf("canfd_frame % x", r)
	}
	if r := fc.sentFD[1]; r[4] != 3 || r[5] != fdFDF || r[10] != 3 || r[11] != 0 {
		t.Errorf("3-byte canfd_frame % x: want length 3, FDF only, nothing past the length", r)
	}
	if got, k := decodeFD(&fc.sentFD[0]); got != sent || k != kindData {
		t.Errorf("decodeFD(encodeFD(f)) = %v, %v", got, k)
	}
	for _, n := range []uint8{9, 11, 33, 65} {
		if err := bus.SendFD(fdFrame(1, n, false)); !errors.Is(err, errFDLen) {
			t.Errorf("%d bytes: %v, want refused", n, err)
		}
	}
	if err := bus.SendFD(FDFrame{ID: 1 << 29}); !errors.Is(err, errFrameID) {
		t.Errorf("30-bit id: %v", err)
	}

	in := encodeFD(FDFrame{ID: 0x0A050002, Len: 12, ESI: true})
	in[5] |= fdESI
	fc.deliver(t, item{fd: &in, drops: 2})
	got, at, ok := bus.LatestFD(0x0A050002)
	if !ok || at != ms(5) || got.Len != 12 || !got.ESI || got.BRS {
		t.Errorf("LatestFD = %+v, %v, %v", got, at, ok)
	}
	if _, _, ok := bus.Latest(0x0A050002); ok {
		t.Errorf("a CAN FD frame in the classic table")
	}
	if s := bus.Stats(); s.RxFrames != 1 || s.TxFrames != 2 || s.Dropped != 2 {
		t.Errorf("stats %+v, want 1 received, 2 sent, 2 dropped", s)
	}

	classic, conns2 := openFake(t, c, "can0")
	b2, _ := classic.Bus("")
	if err := b2.SendFD(sent); !errors.Is(err, errNoFD) || len(conns2["can0"].sentFD) != 0 {
		t.Errorf("SendFD without Options.FD: %v", err)
	}
}

func TestFDMTU(t *testing.T) {
	if err := fdMTUProblem("vcan0", 72); err != nil {
		t.Error(err)
	}
	if err := fdMTUProblem("vcan0", 16); err == nil {
		t.Error("MTU 16 taken for CAN FD")
	}
}

// FuzzDecodeFD feeds arbitrary struct canfd_frame bytes through the
// receive path: no panic, a length within 64, a data frame kept as
// decoded.
func FuzzDecodeFD(f *testing.F) {
	r := encodeFD(fdFrame(0x0A050001, 64, true))
	f.Add(r[:])
	f.Add(make([]byte, 72))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r rawFDFrame
		copy(r[:], data)
		b := newBus("can_s0", newFakeConn(), newClock(ms(3)), Options{FD: true}.withDefaults())
		b.handleFD(&r, 0)
		fr, k := decodeFD(&r)
		if fr.Len > 64 || fr.ID > effMask {
			t.Fatalf("decodeFD gave %+v", fr)
		}
		got, at, ok := b.LatestFD(fr.ID)
		if (k == kindData) != ok || (ok && (got != fr || at != ms(3))) {
			t.Fatalf("kind %v: LatestFD = %+v, %v, %v; decoded %+v", k, got, at, ok, fr)
		}
	})
}
