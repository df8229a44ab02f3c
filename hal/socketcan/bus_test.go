package socketcan

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/heartbeat"
	"github.com/frcd/frcd/internal/bounds"
)

const (
	pdpStatus1 = 0x08041400 // PDP 0's Status1 (PROTOCOLS.md)
	pdpStatus2 = 0x08041440
)

func TestLatestKeepsNewestFramePerID(t *testing.T) {
	c := newClock(ms(5))
	bs, conns := openFake(t, c, "can0")
	fc := conns["can0"]
	bus, _ := bs.Bus("can0")

	if _, _, ok := bus.Latest(pdpStatus1); ok {
		t.Fatal("Latest before any frame: ok")
	}
	fc.frame(t, frame(pdpStatus1, 1, 2, 3))
	c.Set(ms(7))
	fc.frame(t, frame(pdpStatus2, 9))
	c.Set(ms(25))
	fc.frame(t, frame(pdpStatus1, 4, 5, 6, 7, 8, 9, 10, 11))

	f, at, ok := bus.Latest(pdpStatus1)
	if !ok || at != ms(25) || f != frame(pdpStatus1, 4, 5, 6, 7, 8, 9, 10, 11) {
		t.Errorf("Latest(Status1) = %v, %v, %v; want the second frame at 25ms", f, at, ok)
	}
	f, at, ok = bus.Latest(pdpStatus2)
	if !ok || at != ms(7) || f != frame(pdpStatus2, 9) {
		t.Errorf("Latest(Status2) = %v, %v, %v", f, at, ok)
	}

	// A remote request and an 11-bit frame are counted, not kept.
	var rtr rawFrame
	binary.NativeEndian.PutUint32(rtr[0:4], effFlag|rtrFlag|0x08052600)
	fc.deliver(t, item{r: rtr})
	var sff rawFrame
	binary.NativeEndian.PutUint32(sff[0:4], 0x123)
	sff[4] = 1
	fc.deliver(t, item{r: sff})
	for _, id := range []uint32{0x08052600, 0x123} {
		if _, _, ok := bus.Latest(id); ok {
			t.Errorf("Latest(%#x): ok; remote requests and 11-bit frames are not kept", id)
		}
	}

	heard := bus.Heard([]hal.Heard{{ID: 1}})
	want := []hal.Heard{{ID: 1}, {ID: pdpStatus1, Last: ms(25), Count: 2}, {ID: pdpStatus2, Last: ms(7), Count: 1}}
	if len(heard) != len(want) {
		t.Fatalf("Heard = %v, want %v", heard, want)
	}
	for i := range want {
		if heard[i] != want[i] {
			t.Errorf("Heard[%d] = %+v, want %+v", i, heard[i], want[i])
		}
	}
	if s := bus.Stats(); s.RxFrames != 5 || s.ErrorFrames != 0 || s.Dropped != 0 {
		t.Errorf("Stats = %+v, want 5 frames received", s)
	}
}

func TestSendEncodesExtendedFramesAndCounts(t *testing.T) {
	c := newClock(0)
	bs, conns := openFake(t, c, "can0")
	fc := conns["can0"]
	bus, _ := bs.Bus("")

	hb := hal.HeartbeatOf(hal.DSState{Enabled: true, Attached: true}).Frame()
	if err := bus.Send(hb); err != nil {
		t.Fatal(err)
	}
	if err := bus.Send(frame(0x09041C00, 0, 0, 0x05)); err != nil {
		t.Fatal(err)
	}
	if len(fc.sent) != 2 {
		t.Fatalf("sent %d frames, want 2", len(fc.sent))
	}
	r := fc.sent[0]
	if id := binary.NativeEndian.Uint32(r[0:4]); id != effFlag|hal.HeartbeatID {
		t.Errorf("can_id = %#x, want the EFF flag and %#x", id, hal.HeartbeatID)
	}
	if r[4] != 8 || [8]byte(r[8:16]) != hb.Data {
		t.Errorf("heartbeat frame bytes % x", r)
	}
	r = fc.sent[1]
	if r[4] != 3 || r[10] != 0x05 || r[11] != 0 {
		t.Errorf("PCM frame bytes % x: want length 3, b2 0x05 and nothing past the length", r)
	}
	if got, _ := decode(&fc.sent[1]); got != frame(0x09041C00, 0, 0, 0x05) {
		t.Errorf("decode(encode(f)) = %v", got)
	}

	// A remote frame (a SPARK's version request): the EFF and RTR flags,
	// the length asked for, no data.
	rtr := encode(hal.Frame{ID: 0x02052603, Len: 8, RTR: true, Data: [8]byte{1, 2, 3}})
	if id := binary.NativeEndian.Uint32(rtr[0:4]); id != effFlag|rtrFlag|0x02052603 || rtr[4] != 8 || [8]byte(rtr[8:16]) != [8]byte{} {
		t.Errorf("remote frame bytes % x", rtr)
	}
	if _, k := decode(&rtr); k != kindRemote {
		t.Errorf("a remote frame decoded as kind %d", k)
	}

	if err := bus.Send(hal.Frame{ID: 1, Len: 9}); !errors.Is(err, errFrameLen) {
		t.Errorf("9-byte frame: %v", err)
	}
	if err := bus.Send(hal.Frame{ID: 1 << 29}); !errors.Is(err, errFrameID) {
		t.Errorf("30-bit id: %v", err)
	}
	fc.mu.Lock()
	fc.sendErr = errTest
	fc.mu.Unlock()
	if err := bus.Send(hb); err != errTest {
		t.Errorf("Send with a full queue: %v, want the socket's error", err)
	}
	if s := bus.Stats(); s.TxFrames != 2 || s.TxErrors != 1 {
		t.Errorf("Stats = %+v, want 2 sent, 1 error", s)
	}
}

func TestErrorFramesDecodeIntoStats(t *testing.T) {
	c := newClock(0)
	bs, conns := openFake(t, c, "can0")
	fc := conns["can0"]
	bus, _ := bs.Bus("")
	steps := []struct {
		name  string
		class uint32
		data  [8]byte
		state ErrorState
	}{
		{"warning", errCtrl | errCnt, [8]byte{1: ctrlTxWarning, 6: 97, 7: 3}, ErrorWarning},
		{"passive", errCtrl | errCnt, [8]byte{1: ctrlTxPassive, 6: 130, 7: 3}, ErrorPassive},
		{"stuff error, no ACK", errProt | errBusError | errAck, [8]byte{2: 0x04, 3: 0x19}, ErrorPassive},
		{"bus-off", errBusOff, [8]byte{}, BusOff},
		{"restarted", errRestarted, [8]byte{}, ErrorActive},
		{"rx overflow", errCtrl, [8]byte{1: ctrlRxOverflow}, ErrorActive},
		{"tx timeout, lost arbitration, transceiver", errTxTimeout | errLostArb | errTrx, [8]byte{0: 3, 4: 0x04}, ErrorActive},
		{"back to active", errCtrl | errCnt, [8]byte{1: ctrlActive, 6: 0, 7: 0}, ErrorActive},
	}
	for _, s := range steps {
		fc.deliver(t, item{r: errorFrame(s.class, s.data)})
		if e := bus.Errors(); e.State != s.state {
			t.Errorf("after %s: state %v, want %v", s.name, e.State, s.state)
		}
		if s.name == "passive" {
			if e := bus.Errors(); !e.CountersKnown || e.TxErrorCounter != 130 || e.RxErrorCounter != 3 {
				t.Errorf("after passive: counters %d/%d known %v, want 130/3", e.TxErrorCounter, e.RxErrorCounter, e.CountersKnown)
			}
		}
	}
	st := bus.Stats()
	if st.ErrorFrames != uint64(len(steps)) || st.BusOff != 1 || st.TxErrors != 1 || st.Dropped != 1 || st.RxFrames != 0 {
		t.Errorf("Stats = %+v, want %d error frames, 1 bus-off, 1 tx error, 1 dropped, no data frames", st, len(steps))
	}
	e := bus.Errors()
	want := BusErrors{State: ErrorActive, CountersKnown: true, Restarts: 1, LostArbitration: 1,
		ProtocolErrors: 1, AckErrors: 1, TxTimeouts: 1, Overflows: 1, Transceiver: 1}
	if e != want {
		t.Errorf("Errors = %+v\nwant     %+v", e, want)
	}
	if st.Load != 0 {
		t.Errorf("Load = %v: error frames are the driver's reports, not bus traffic", st.Load)
	}
}

func TestDroppedCountsKernelDropsAndTableOverflow(t *testing.T) {
	c := newClock(0)
	conns := map[string]*fakeConn{}
	bs, err := open([]string{"can0"}, c, Options{MaxIDs: 2}, func(name string, _ Options) (conn, error) {
		conns[name] = newFakeConn()
		return conns[name], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAll(t, bs, conns) })
	fc := conns["can0"]
	bus, _ := bs.Bus("")

	// The socket's SO_RXQ_OVFL count is cumulative: 3 lost before the
	// first frame read, then 7 more, then a wrap of the 32-bit counter.
	for _, d := range []uint32{3, 3, 10, math.MaxUint32 - 1, 4} {
		fc.deliver(t, item{r: encode(frame(pdpStatus1)), drops: d})
	}
	if got := bus.Stats().Dropped; got != 3+7+(math.MaxUint32-11)+6 {
		t.Errorf("Dropped = %d after kernel counts 3, 3, 10, 2^32-2, 4", got)
	}
	before := bus.Stats().Dropped
	fc.deliver(t, item{r: encode(frame(pdpStatus2)), drops: 4}) // the count stays
	fc.deliver(t, item{r: encode(frame(0x08041480)), drops: 4}) // a third id: past MaxIDs
	if _, _, ok := bus.Latest(0x08041480); ok {
		t.Error("a third id was kept with MaxIDs 2")
	}
	if got := bus.Stats().Dropped - before; got != 1 {
		t.Errorf("Dropped grew by %d for a frame past MaxIDs, want 1", got)
	}
}

func TestLoadIsLastWholeSecondOfFrameBits(t *testing.T) {
	c := newClock(0)
	bs, conns := openFake(t, c, "can0")
	fc := conns["can0"]
	bus, _ := bs.Bus("")

	var bits [11]int // per 100 ms bucket
	for i := 0; i < 110; i++ {
		at := ms(10 * i) // a frame every 10 ms for 1.1 s
		c.Set(at)
		f := frame(pdpStatus1+uint32(i%4)*0x40, byte(i), byte(i*7), 0xFF, 0, 0x55, 0xAA, byte(i>>1), 1)
		if i%10 == 3 {
			if err := bus.Send(f); err != nil { // sent frames load the bus too
				t.Fatal(err)
			}
		} else {
			fc.frame(t, f)
		}
		bits[i/10] += hal.FrameBits(f)
	}
	sum := func(from, to int) float64 {
		s := 0
		for _, b := range bits[from:to] {
			s += b
		}
		return float64(s) / hal.CANBitRate
	}
	for _, tc := range []struct {
		now      time.Duration
		from, to int
	}{
		{ms(999), 0, 9},    // the window ends at the start of the current bucket
		{ms(1000), 0, 10},  // one whole second
		{ms(1099), 0, 10},  // still
		{ms(1100), 1, 11},  // the first 100 ms have left
		{ms(1950), 9, 11},  // only the last 200 ms remain
		{ms(2100), 11, 11}, // a quiet second
	} {
		c.Set(tc.now)
		if got, want := bus.Stats().Load, sum(tc.from, tc.to); math.Abs(got-want) > 1e-12 {
			t.Errorf("Load at %v = %.6f, want %.6f", tc.now, got, want)
		}
	}
	// 100 eight-byte frames a second, each 130-160 bits: 1.3-1.6 %.
	c.Set(ms(1000))
	if l := bus.Stats().Load; l < 0.013 || l > 0.016 {
		t.Errorf("Load = %v for 100 eight-byte frames in a second", l)
	}
}

func TestLoadSaturatesAtOne(t *testing.T) {
	var w loadWindow
	w.reset()
	w.add(ms(50), 3*hal.CANBitRate)
	if l := w.load(ms(1000)); l != 1 {
		t.Errorf("load = %v, want 1 at most", l)
	}
	w.add(-ms(1), 100) // before the clock's start: ignored
	if l := w.load(ms(100)); l != 1 {
		t.Errorf("load = %v", l)
	}
}

func TestCloseWaitsForTheReaderThenClosesTheSocket(t *testing.T) {
	c := newClock(0)
	conns := map[string]*fakeConn{}
	bs, err := open([]string{"can0", "can1"}, c, Options{}, func(name string, _ Options) (conn, error) {
		conns[name] = newFakeConn()
		return conns[name], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	conns["can0"].frame(t, frame(pdpStatus1, 1))
	conns["can1"].frame(t, frame(pdpStatus2, 2))

	closeAll(t, bs, conns) // the readers wake only by their receive timeouts
	for name, fc := range conns {
		fc.mu.Lock()
		if fc.closeInRecv {
			t.Errorf("%s: the socket was closed while its reader was in recv", name)
		}
		if fc.closes != 1 {
			t.Errorf("%s: closed %d times, want 1", name, fc.closes)
		}
		fc.mu.Unlock()
	}
	for _, b := range bs.All() {
		select {
		case <-b.done:
		default:
			t.Errorf("%s: Close returned before the reader exited", b.Name())
		}
		if err := b.Send(frame(pdpStatus1)); !errors.Is(err, hal.ErrClosed) {
			t.Errorf("%s: Send after Close: %v, want hal.ErrClosed", b.Name(), err)
		}
		if _, _, ok := b.Latest(pdpStatus1 + 0x40*uint32(b.Name()[3]-'0')); !ok {
			t.Errorf("%s: Latest after Close lost the frames", b.Name())
		}
	}
	if err := bs.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if conns["can0"].closes != 1 {
		t.Error("a second Close closed the socket again")
	}
}

func TestReceiveErrorsAreCountedAndRepeatedOnesStopTheReader(t *testing.T) {
	c := newClock(0)
	bs, conns := openFake(t, c, "can0")
	fc := conns["can0"]
	bus, _ := bs.Bus("")
	down := errors.New("network is down")
	fc.deliver(t, item{err: down})
	fc.frame(t, frame(pdpStatus1))
	if e := bus.Errors(); e.RecvErrors != 1 || e.LastRecvErr != down || bus.Err() != nil {
		t.Errorf("after one error: %+v, Err %v", e, bus.Err())
	}
	if _, _, ok := bus.Latest(pdpStatus1); !ok {
		t.Error("the reader stopped after one error")
	}
	for i := 0; i < maxRecvErrors-1; i++ {
		fc.deliver(t, item{err: errTest})
	}
	fc.in <- item{err: errTest} // the thousandth in a row: the reader stops
	<-bus.done
	if err := bus.Err(); !errors.Is(err, errReaderGaveUp) || !errors.Is(err, errTest) || !strings.HasPrefix(err.Error(), "can0: ") {
		t.Errorf("Err = %v", err)
	}
}

func TestOpenReportsEveryBusProblemAndClosesTheRest(t *testing.T) {
	conns := map[string]*fakeConn{}
	_, err := open([]string{"can0", "can1", "can2", "can0"}, newClock(0), Options{}, func(name string, _ Options) (conn, error) {
		if name == "can0" {
			conns[name] = newFakeConn()
			return conns[name], nil
		}
		return nil, interfaceProblem(name, errTest, -1, false)
	})
	if err == nil {
		t.Fatal("Open succeeded")
	}
	msg := err.Error()
	for _, s := range []string{"can1: no such network interface", "can2: no such network interface", "can0: named twice"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q lacks %q", msg, s)
		}
	}
	if conns["can0"].closes != 1 {
		t.Error("the bus that opened was not closed")
	}
	if _, err := open(nil, newClock(0), Options{}, nil); err == nil {
		t.Error("Open with no names succeeded")
	}
}

func TestBusesByName(t *testing.T) {
	bs, _ := openFake(t, newClock(0), "can1", "can0")
	for name, want := range map[string]string{"": "can1", "can1": "can1", "can0": "can0"} {
		b, err := bs.Bus(name)
		if err != nil || b.Name() != want {
			t.Errorf("Bus(%q) = %v, %v; want %s", name, b, err, want)
		}
	}
	_, err := bs.Bus("can2")
	if !errors.Is(err, hal.ErrNoDevice) || !strings.Contains(err.Error(), "can1, can0") {
		t.Errorf("Bus(can2): %v", err)
	}
}

func TestInterfaceProblems(t *testing.T) {
	for _, tc := range []struct {
		lookup error
		typ    int
		up     bool
		want   string
	}{
		{errTest, -1, false, "can1: no such network interface: is the USB-CAN adapter plugged in? `ip link show`"},
		{nil, 1, true, "can1: not a CAN interface (link type 1; CAN is 280)"},
		{nil, 280, false, "can1: the interface is down: bring it up at 1 Mbit/s with `sudo ip link set can1 up type can bitrate 1000000`"},
		{nil, -1, false, "can1: the interface is down"},
	} {
		err := interfaceProblem("can1", tc.lookup, tc.typ, tc.up)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, hal.ErrNoDevice) {
			t.Errorf("interfaceProblem(%v, %d, %v) = %v, want %q...", tc.lookup, tc.typ, tc.up, err, tc.want)
		}
	}
	if err := interfaceProblem("vcan0", nil, 280, false); err == nil || err.Error() != "vcan0: the interface is down: bring it up with `sudo ip link set vcan0 up`: no such device or channel" {
		t.Errorf("a vcan down: %v", err)
	}
	if err := interfaceProblem("can0", nil, 280, true); err != nil {
		t.Errorf("an up CAN interface: %v", err)
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		id   uint32
		n    byte
		kind kind
		want uint32
	}{
		{effFlag | 0x01011840, 8, kindData, 0x01011840},
		{effFlag | rtrFlag | 0x08052600, 0, kindRemote, 0x08052600},
		{0x7FF, 2, kindStandard, 0x7FF},
		{rtrFlag | 0x123, 0, kindStandard, 0x123},
		{errFlag | errBusOff, 8, kindError, errBusOff},
		{effFlag | 0x1FFFFFFF, 15, kindData, 0x1FFFFFFF}, // DLC 15 reads as 8
	} {
		var r rawFrame
		binary.NativeEndian.PutUint32(r[0:4], tc.id)
		r[4] = tc.n
		for i := 8; i < 16; i++ {
			r[i] = byte(i)
		}
		f, k := decode(&r)
		if k != tc.kind || f.ID != tc.want || f.Len != min(tc.n, 8) {
			t.Errorf("decode(%#x, %d) = %v, %v", tc.id, tc.n, f, k)
		}
		for i := int(f.Len); i < 8; i++ {
			if f.Data[i] != 0 {
				t.Errorf("decode(%#x, %d): byte %d past the length is %d", tc.id, tc.n, i, f.Data[i])
			}
		}
	}
}

// The steady-state paths allocate nothing: a frame of a known id, Latest
// and Send.
func TestNoAllocationsPerFrame(t *testing.T) {
	b := newBus("can0", newFakeConn(), newClock(ms(1)), Options{}.withDefaults())
	r := encode(frame(pdpStatus1, 1, 2, 3, 4, 5, 6, 7, 8))
	b.handle(&r, 0) // the id's first frame may allocate
	if n := testing.AllocsPerRun(1000, func() { b.handle(&r, 1) }); n != 0 {
		t.Errorf("handle: %v allocations per frame", n)
	}
	e := errorFrame(errCtrl, [8]byte{1: ctrlRxWarning})
	if n := testing.AllocsPerRun(1000, func() { b.handle(&e, 1) }); n != 0 {
		t.Errorf("handle of an error frame: %v allocations", n)
	}
	if n := testing.AllocsPerRun(1000, func() { _, _, _ = b.Latest(pdpStatus1) }); n != 0 {
		t.Errorf("Latest: %v allocations", n)
	}
	fc := &nullConn{}
	b.c = fc
	f := frame(0x09041C00, 0, 0, 1)
	if n := testing.AllocsPerRun(1000, func() { _ = b.Send(f) }); n != 0 {
		t.Errorf("Send: %v allocations", n)
	}
}

// nullConn discards what is sent.
type nullConn struct{ fakeConn }

func (*nullConn) send(rawFrame) error { return nil }

// FuzzDecode feeds arbitrary struct can_frame bytes through the receive
// path: it must not panic, and a data frame must come back from Latest
// as decoded.
func FuzzDecode(f *testing.F) {
	d := encode(frame(pdpStatus1, 1, 2, 3))
	f.Add(d[:])
	e := errorFrame(errCtrl|errBusOff|errCnt, [8]byte{1: 0xFF, 6: 255, 7: 255})
	f.Add(e[:])
	f.Add(make([]byte, 16))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer bounds.Slow(t)()
		var r rawFrame
		copy(r[:], data)
		b := newBus("can0", newFakeConn(), newClock(ms(3)), Options{}.withDefaults())
		b.handle(&r, 0)
		fr, k := decode(&r)
		if fr.Len > 8 || fr.ID > effMask {
			t.Fatalf("decode gave %v", fr)
		}
		got, at, ok := b.Latest(fr.ID)
		if (k == kindData) != ok || (ok && (got != fr || at != ms(3))) {
			t.Fatalf("kind %v: Latest = %v, %v, %v; decoded %v", k, got, at, ok, fr)
		}
		s := b.Stats()
		if (k == kindError) != (s.ErrorFrames == 1) || (k != kindError) != (s.RxFrames == 1) {
			t.Fatalf("kind %v: stats %+v", k, s)
		}
	})
}

// The heartbeat sender over a bus: its own frames do not come back, so it
// keeps sending; a roboRIO's heartbeat arriving through the reader stops
// it at once.
func TestHeartbeatOverTheBus(t *testing.T) {
	c := newClock(0)
	bs, conns := openFake(t, c, "can0")
	fc := conns["can0"]
	bus, _ := bs.Bus("")
	hb := heartbeat.New(bus, heartbeat.Auto)
	ds := hal.DSState{Enabled: true, Attached: true}
	for now := ms(0); now <= ms(200); now += ms(10) {
		c.Set(now)
		if err := hb.Tick(now, ds); err != nil {
			t.Fatal(err)
		}
	}
	sent := len(fc.sent)
	if sent != 6 || hb.Status().State != heartbeat.Sending { // 100, 120, ... 200 ms
		t.Fatalf("sent %d heartbeats in 200 ms alone, status %v", sent, hb.Status())
	}
	c.Set(ms(205))
	fc.frame(t, hal.HeartbeatOf(ds).Frame()) // a roboRIO
	c.Set(ms(210))
	_ = hb.Tick(ms(210), ds)
	if len(fc.sent) != sent || hb.Status().State != heartbeat.Yielding {
		t.Errorf("sent %d more after a foreign heartbeat, status %v", len(fc.sent)-sent, hb.Status())
	}
}

// TestReaderPanicStopsTheReader: a panic on the reader's goroutine does not
// end the process; the reader stops and the bus reports it, so its
// devices go stale and the loop's inhibit makes the outputs neutral.
func TestReaderPanicStopsTheReader(t *testing.T) {
	bs, conns := openFake(t, newClock(0), "can0")
	bus, _ := bs.Bus("")
	conns["can0"].in <- item{panics: "decoder bug"}
	<-bus.done
	if err := bus.Err(); !errors.Is(err, errReaderGaveUp) || !strings.Contains(err.Error(), "can0: ") || !strings.Contains(err.Error(), "panic: decoder bug") {
		t.Errorf("Err = %v", err)
	}
}
