package socketcan

import (
	"testing"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// busIDs are 40 ids a competition robot's bus carries: a PDP's four
// status frames, then status frames of 36 other devices.
func busIDs() []uint32 {
	ids := []uint32{pdpStatus1, pdpStatus2, 0x08041480, 0x08041740}
	for i := 0; i < 36; i++ {
		ids = append(ids, frc.FRCID(frc.DevMotorController, frc.MfrREV, 0x60+i%6, 1+i/6))
	}
	return ids
}

func busFrames() []rawFrame {
	var rs []rawFrame
	for i, id := range busIDs() {
		rs = append(rs, encode(frame(id, byte(i), 2, 3, 4, 5, 6, 7, 8)))
	}
	return rs
}

// streamConn hands the reader n frames as fast as it takes them, then
// blocks until stopped.
type streamConn struct {
	frames []rawFrame
	i, n   int
	done   chan struct{}
	stop   chan struct{}
}

func (s *streamConn) recv(r *rawFrame) (uint32, error) {
	if s.i == s.n {
		close(s.done)
		<-s.stop
		return 0, errAgain
	}
	*r = s.frames[s.i%len(s.frames)]
	s.i++
	return 0, nil
}
func (s *streamConn) send(rawFrame) error { return nil }
func (s *streamConn) close() error        { return nil }

// BenchmarkReceive: frames per second the reader goroutine takes from the
// socket into the Latest table; one op is one frame, so allocs/op is
// allocations per frame.
func BenchmarkReceive(b *testing.B) {
	sc := &streamConn{frames: busFrames(), n: b.N, done: make(chan struct{}), stop: make(chan struct{})}
	bus := newBus("can0", sc, newClock(ms(1)), Options{}.withDefaults())
	for i := range sc.frames { // the ids' first frames, which may allocate
		bus.handle(&sc.frames[i], 0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	go bus.read()
	<-sc.done
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	bus.closing.Store(true)
	close(sc.stop)
	if err := bus.Close(); err != nil {
		b.Fatal(err)
	}
	if got := bus.Stats().RxFrames; got != uint64(b.N+len(sc.frames)) {
		b.Fatalf("received %d frames, want %d", got, b.N+len(sc.frames))
	}
}

// heardBus is a bus without a reader that has heard busFrames once.
func heardBus() (*Bus, []rawFrame) {
	rs := busFrames()
	bus := newBus("can0", &streamConn{}, newClock(ms(1)), Options{}.withDefaults())
	for i := range rs {
		bus.handle(&rs[i], 0)
	}
	return bus, rs
}

// BenchmarkHandle is the per-frame work alone: decode, stamp, table,
// counters and load (hal.FrameBits).
func BenchmarkHandle(b *testing.B) {
	bus, rs := heardBus()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bus.handle(&rs[i%len(rs)], 0)
	}
}

// BenchmarkLatest is a device's lookup of its frame, as each cycle does.
func BenchmarkLatest(b *testing.B) {
	bus, _ := heardBus()
	ids := busIDs()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, ok := bus.Latest(ids[i%len(ids)]); !ok {
			b.Fatal("missing")
		}
	}
}

// BenchmarkSend is a driver's send down to the socket.
func BenchmarkSend(b *testing.B) {
	bus := newBus("can0", &streamConn{}, newClock(ms(1)), Options{}.withDefaults())
	f := hal.HeartbeatOf(hal.DSState{Enabled: true, Attached: true}).Frame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := bus.Send(f); err != nil {
			b.Fatal(err)
		}
	}
}
