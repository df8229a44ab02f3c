package devices

import (
	"errors"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/bounds"
)

// encodePCMStatus builds a Status1 frame as a PCM sends it (the test's
// own encoder, from PROTOCOLS.md).
func encodePCMStatus(id int, solenoids uint8, on, closedLoop, full bool, currentRaw uint16) hal.Frame {
	f := hal.Frame{ID: pcmStatus1ID + uint32(id), Len: 8}
	f.Data[0] = solenoids
	if on {
		f.Data[1] |= 0x01
	}
	if closedLoop {
		f.Data[1] |= 0x40
	}
	if full {
		f.Data[1] |= 0x80
	}
	f.Data[4] = byte(currentRaw >> 4 & 0x3F)
	f.Data[5] = byte(currentRaw << 4)
	return f
}

func TestDecodePCMStatus(t *testing.T) {
	// 0x2A3 = 675 units of 0.03125 A = 21.09375 A; fault bits 1-5 set.
	f := hal.Frame{Data: [8]byte{0xA5, 0x81 | 0x3E, 0xFF, 0xFF, 0xC0 | 0x2A, 0x3F, 0xFF, 0xFF}}
	got := decodePCMStatus(f.Data)
	want := pneuStatus{Solenoids: 0xA5, CompressorOn: true, ClosedLoop: false, PressureFull: true, Current: 21.09375}
	if got != want {
		t.Errorf("decode: %+v, want %+v", got, want)
	}
	g := encodePCMStatus(0, 0x5A, false, true, false, 675)
	if got := decodePCMStatus(g.Data); got != (pneuStatus{Solenoids: 0x5A, ClosedLoop: true, Current: 21.09375}) {
		t.Errorf("round trip: %+v", got)
	}
}

const pneumaticsYAML = `joints:
  - {name: compressor, type: compressor, pcm_id: 3}
  - {name: intake, type: double_solenoid, forward_id: 0, reverse_id: 1, pcm_id: 3}
  - {name: lock, type: solenoid, id: 2, pcm_id: 3}
  - {name: other, type: solenoid, id: 2, pcm_id: 4}
`

func TestPCMSharedFrame(t *testing.T) {
	r := bind(t, pneumaticsYAML)
	// Two PCMs first, then the entries in file order.
	if len(r.devs) != 6 || r.devs[0].Name() != "pcm 3" || r.devs[1].Name() != "pcm 4" || r.devs[2].Name() != "compressor" {
		names := []string{}
		for _, d := range r.devs {
			names = append(names, d.Name())
		}
		t.Fatalf("devices %v", names)
	}
	intake := command[interfaces.Tri](r, "intake", interfaces.Ternary)
	lock := command[bool](r, "lock", interfaces.Binary)
	comp := command[bool](r, "compressor", interfaces.Binary)
	ctl3, ctl4 := uint32(pcmControl1ID+3), uint32(pcmControl1ID+4)
	bus := &r.hal.Bus

	// No commands: closed loop on (the compressor's default), no solenoids.
	r.cycle2()
	if f := bus.Last[ctl3]; f != (hal.Frame{ID: ctl3, Len: 8, Data: [8]byte{0, 0, 0, 0x40}}) {
		t.Errorf("first frame %+v", f)
	}
	if f := bus.Last[ctl4]; f != (hal.Frame{ID: ctl4, Len: 8}) {
		t.Errorf("PCM 4 without a compressor: %+v", f)
	}
	// Forward (channel 0) and the lock (channel 2) go out in one frame, at once.
	intake.Put(interfaces.Forward, r.now)
	lock.Put(true, r.now)
	r.cycle2()
	if f := bus.Last[ctl3]; f.Data != [8]byte{0, 0, 0b101, 0x40} || bus.Count[ctl3] != 2 {
		t.Errorf("forward + lock: %+v, %d frames", f, bus.Count[ctl3])
	}
	if bus.Last[ctl4].Data[2] != 0 {
		t.Errorf("PCM 4 got PCM 3's bits")
	}
	// Reverse (channel 1), lock off, closed loop off.
	intake.Put(interfaces.Reverse, r.now)
	lock.Put(false, r.now)
	comp.Put(false, r.now)
	r.cycle2()
	if f := bus.Last[ctl3]; f.Data != [8]byte{0, 0, 0b010, 0} || bus.Count[ctl3] != 3 {
		t.Errorf("reverse: %+v, %d frames", f, bus.Count[ctl3])
	}
	// Unchanged: re-sent 20 ms after the last one, not before.
	for i := 1; i < 20; i++ {
		r.cycle2()
	}
	if bus.Count[ctl3] != 3 {
		t.Errorf("%d frames after 19 ms unchanged, want 3", bus.Count[ctl3])
	}
	r.cycle2()
	if bus.Count[ctl3] != 4 {
		t.Errorf("%d frames after 20 ms unchanged, want 4", bus.Count[ctl3])
	}
	// Off, and an invalid tri, are both channels off.
	intake.Put(5, r.now)
	r.cycle2()
	if bus.Last[ctl3].Data[2] != 0 {
		t.Errorf("invalid tri: bits %08b", bus.Last[ctl3].Data[2])
	}
	// Halt: all off, closed loop off, sent at once.
	intake.Put(interfaces.Forward, r.now)
	lock.Put(true, r.now)
	comp.Put(true, r.now)
	r.cycle2()
	n := bus.Count[ctl3]
	r.halt()
	if f := bus.Last[ctl3]; f.Data != [8]byte{} || bus.Count[ctl3] != n+1 {
		t.Errorf("after Halt: %+v, %d frames (was %d)", f, bus.Count[ctl3], n)
	}
	if st := state[interfaces.TernaryState](r, "intake", interfaces.Ternary); st.Value != interfaces.Off {
		t.Errorf("intake after Halt: %v", st.Value)
	}
	if st := state[interfaces.BinaryState](r, "lock", interfaces.Binary); st.Value {
		t.Errorf("lock after Halt: on")
	}
	if st := state[interfaces.BinaryState](r, "compressor", interfaces.Binary); st.Value {
		t.Errorf("compressor after Halt: closed loop on")
	}
}

func TestPCMStatus(t *testing.T) {
	r := bind(t, pneumaticsYAML)
	intake := command[interfaces.Tri](r, "intake", interfaces.Ternary)
	lock := command[bool](r, "lock", interfaces.Binary)
	intakeSt := state[interfaces.TernaryState](r, "intake", interfaces.Ternary)
	lockSt := state[interfaces.BinaryState](r, "lock", interfaces.Binary)
	compOn := state[interfaces.BinaryState](r, "compressor", interfaces.Binary)
	comp := state[interfaces.CompressorState](r, "compressor", interfaces.Compressor)

	// No status yet: stale, the PCM's and compressor's Reads say so, the
	// solenoids show what was commanded.
	intake.Put(interfaces.Reverse, 0)
	lock.Put(true, 0)
	if err := r.step(time.Millisecond); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("stale: %v", err)
	}
	if err := r.devs[0].Read(r.now, 0); err == nil || err.Error() != "pcm 3: status frame 0x09041403: timed out" {
		t.Errorf("PCM 3 stale: %v", err)
	}
	r.cycle2()
	if intakeSt.Value != interfaces.Reverse || !lockSt.Value || !compOn.Value || !comp.ClosedLoop {
		t.Errorf("stale: intake %v, lock %v, compressor %v %+v", intakeSt.Value, lockSt.Value, compOn.Value, *comp)
	}

	// A fresh status wins over the commands: forward on, lock off, closed
	// loop on, running, not full, 2.5 A (80 units).
	r.hal.Bus.Inject(encodePCMStatus(3, 0b001, true, true, false, 80), r.now)
	r.hal.Bus.Inject(encodePCMStatus(4, 0, false, false, false, 0), r.now)
	if err := r.step(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if intakeSt.Value != interfaces.Forward || lockSt.Value || !compOn.Value {
		t.Errorf("fresh: intake %v, lock %v, closed loop %v", intakeSt.Value, lockSt.Value, compOn.Value)
	}
	if *comp != (interfaces.CompressorState{ClosedLoop: true, Running: true, Current: 2.5}) {
		t.Errorf("compressor %+v", *comp)
	}
	// Both channels on reads forward, as WPILib's DoubleSolenoid does;
	// reverse alone reads reverse.
	for _, tc := range []struct {
		bits uint8
		want interfaces.Tri
	}{{0b011, interfaces.Forward}, {0b010, interfaces.Reverse}, {0b100, interfaces.Off}} {
		r.hal.Bus.Inject(encodePCMStatus(3, tc.bits, false, false, true, 0), r.now)
		r.hal.Bus.Inject(encodePCMStatus(4, 0, false, false, false, 0), r.now)
		r.cycle()
		if intakeSt.Value != tc.want || lockSt.Value != (tc.bits&4 != 0) || compOn.Value || !comp.Full {
			t.Errorf("bits %03b: intake %v, lock %v, closed loop %v, %+v", tc.bits, intakeSt.Value, lockSt.Value, compOn.Value, *comp)
		}
	}
	// 100 ms old is fresh; older is stale, and the commands show again.
	at := r.now
	r.hal.Bus.Inject(encodePCMStatus(3, 0b100, false, false, true, 0), at)
	r.hal.Bus.Forget(pcmStatus1ID + 4)
	for r.now-at < statusTimeout {
		r.cycle2()
		if err := r.devs[0].Read(r.now, 0); err != nil {
			t.Fatalf("PCM 3 at %v: %v", r.now-at, err)
		}
	}
	if intakeSt.Value != interfaces.Off {
		t.Errorf("at 100 ms: %v, want the status's off", intakeSt.Value)
	}
	r.cycle2()
	if err := r.devs[0].Read(r.now, 0); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("PCM 3 at 101 ms: %v", err)
	}
	if intakeSt.Value != interfaces.Reverse || !lockSt.Value {
		t.Errorf("stale again: intake %v, lock %v", intakeSt.Value, lockSt.Value)
	}
}

// cycle2 runs a cycle that only PCM staleness may fail.
func (r *rig) cycle2() {
	r.t.Helper()
	if err := r.step(time.Millisecond); err != nil && !errors.Is(err, hal.ErrTimeout) {
		r.t.Fatal(err)
	}
}

func TestPCMSendError(t *testing.T) {
	r := bind(t, "joints:\n  - {name: s, type: solenoid, id: 0}\n")
	boom := errors.New("bus off")
	r.hal.Bus.Err = boom
	if err := r.step(time.Millisecond); !errors.Is(err, boom) {
		t.Errorf("send: %v", err)
	}
	// Not sent, so sent again next cycle once the bus is back.
	r.hal.Bus.Err = nil
	r.cycle2()
	if r.hal.Bus.Count[pcmControl1ID] != 1 {
		t.Errorf("%d frames", r.hal.Bus.Count[pcmControl1ID])
	}
}

func FuzzPCMStatus(f *testing.F) {
	f.Add([]byte{0xA5, 0xC1, 0, 0, 0x3F, 0xF0, 0, 0})
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, data []byte) {
		defer bounds.Slow(t)()
		var b [8]byte
		copy(b[:], data)
		s := decodePCMStatus(b)
		if s.Current < 0 || s.Current > 1023*pcmCurrentLSB || s.Solenoids != uint16(b[0]) {
			t.Errorf("%x: %+v", b, s)
		}
		if s.CompressorOn != (b[1]&1 != 0) || s.ClosedLoop != (b[1]&0x40 != 0) || s.PressureFull != (b[1]&0x80 != 0) {
			t.Errorf("%x: flags %+v", b, s)
		}
	})
}
