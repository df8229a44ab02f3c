package sim

import (
	"fmt"
	"sort"
	"time"

	"github.com/frcd/frcd/hal"
)

// canSlot holds the newest frame of one id the emulated devices send, and
// how many came.
type canSlot struct {
	id    uint32
	f     hal.Frame
	at    time.Duration
	ok    bool
	count uint64
}

// loadWindow is the span the measured load is over, in 1 ms buckets.
const loadWindow = 1000

// canBus is one of the sim's CAN buses, a hal.CANBus and hal.CANMonitor:
// drivers' frames go to the emulated devices on it, whose frames are kept
// newest-per-id in a fixed table of slots; every frame both ways is
// counted and its bit time (hal.FrameBits) added to the load of the last
// simulated second. The slots are made when the bus's devices are; in
// steady state nothing allocates.
type canBus struct {
	s     *Sim
	name  string
	slot  map[uint32]int // id -> index into slots
	slots []canSlot
	order []int // slot indices in id order, for Heard

	pdps map[uint32]*pdp // by Control1 id
	pcms map[uint32]*pcm // by Control1 id (PCM), SetAll and CompressorConfig id (PH)
	pdhs map[uint32]*pdh // by SetSwitch id
	// recv are the emulated devices that hear frames of an id (a part's
	// addReceiver): the SPARKs, their set points and their bus's heartbeat.
	recv map[uint32][]frameReceiver

	rx, tx  uint64
	bits    [loadWindow]uint32 // bit times per 1 ms bucket, ring
	bitSum  uint64
	bucket  int64 // the ms the ring is advanced to
	started bool
}

var (
	_ hal.CANBus     = (*canBus)(nil)
	_ hal.CANMonitor = (*canBus)(nil)
	_ hal.NamedCAN   = (*Sim)(nil)
)

func newCANBus(s *Sim, name string) *canBus {
	return &canBus{s: s, name: name, slot: map[uint32]int{}, pdps: map[uint32]*pdp{}, pcms: map[uint32]*pcm{}, pdhs: map[uint32]*pdh{}}
}

// busFor returns the bus of that name, making it the first time: any name
// is a bus of its own, "" the default one. Call with s.mu held.
func (s *Sim) busFor(name string) *canBus {
	if b := s.buses[name]; b != nil {
		return b
	}
	b := newCANBus(s, name)
	s.buses[name] = b
	return b
}

// CANBus returns the CAN bus of that name (hal.NamedCAN): "" is CAN's
// default bus, any other name a bus of its own, with the emulated devices
// whose YAML can_bus names it.
func (s *Sim) CANBus(name string) (hal.CANBus, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busFor(name), nil
}

// CANBuses lists the names of the buses, sorted ("" first).
func (s *Sim) CANBuses() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sortedKeys(s.buses)
}

// addSlot returns the slot of an id an emulated device sends, adding it.
func (b *canBus) addSlot(id uint32) int {
	if i, ok := b.slot[id]; ok {
		return i
	}
	b.slots = append(b.slots, canSlot{id: id})
	i := len(b.slots) - 1
	b.slot[id] = i
	b.order = append(b.order, i)
	sort.Slice(b.order, func(x, y int) bool { return b.slots[b.order[x]].id < b.slots[b.order[y]].id })
	return i
}

// Send delivers a frame to the emulated device it is addressed to; frames
// to no emulated device (or a silent one) go unanswered, as on a bus
// where nobody listens. Every frame counts toward the load.
func (b *canBus) Send(f hal.Frame) error {
	if f.Len > 8 {
		return errFrameLen
	}
	if f.ID > 0x1FFFFFFF {
		return errFrameID
	}
	s := b.s
	s.mu.Lock()
	defer s.mu.Unlock()
	b.tx++
	b.addBits(f, s.t)
	if p := b.pcms[f.ID]; p != nil && !p.silent() {
		p.receive(f, s.t)
		return nil
	}
	if p := b.pdps[f.ID]; p != nil && !p.silent() && f.Len >= 1 && f.Data[0]&0x40 != 0 {
		p.energy = 0
	}
	if h := b.pdhs[f.ID]; h != nil && !h.silent() && f.Len >= 1 {
		h.sw = f.Data[0]&1 != 0
	}
	for _, r := range b.recv[f.ID] {
		r.receive(f, s.t)
	}
	return nil
}

// frameReceiver is an emulated device that hears frames of the ids it was
// added for (addReceiver), with the Sim's lock held; it must not allocate
// and must ignore frames while silent.
type frameReceiver interface {
	receive(f hal.Frame, at time.Duration)
}

// addReceiver makes r hear the frames sent with that id.
func (b *canBus) addReceiver(id uint32, r frameReceiver) {
	if b.recv == nil {
		b.recv = map[uint32][]frameReceiver{}
	}
	b.recv[id] = append(b.recv[id], r)
}

// Latest returns the newest frame of that id an emulated device sent.
func (b *canBus) Latest(id uint32) (hal.Frame, time.Duration, bool) {
	s := b.s
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := b.slot[id]
	if !ok || !b.slots[i].ok {
		return hal.Frame{}, 0, false
	}
	return b.slots[i].f, b.slots[i].at, true
}

// put is an emulated device sending f at time at.
func (b *canBus) put(i int, f hal.Frame, at time.Duration) {
	sl := &b.slots[i]
	f.ID = sl.id
	sl.f, sl.at, sl.ok = f, at, true
	sl.count++
	b.rx++
	b.addBits(f, at)
}

// addBits adds a frame's bit time to the bucket of its time, first
// emptying the buckets that have left the window.
func (b *canBus) addBits(f hal.Frame, at time.Duration) {
	b.advance(at)
	n := uint32(hal.FrameBits(f))
	b.bits[b.bucket%loadWindow] += n
	b.bitSum += uint64(n)
}

// advance moves the window to the ms of time at.
func (b *canBus) advance(at time.Duration) {
	ms := int64(at / time.Millisecond)
	if !b.started {
		b.bucket, b.started = ms, true
		return
	}
	if ms-b.bucket >= loadWindow {
		b.bits, b.bitSum, b.bucket = [loadWindow]uint32{}, 0, ms
		return
	}
	for b.bucket < ms {
		b.bucket++
		i := b.bucket % loadWindow
		b.bitSum -= uint64(b.bits[i])
		b.bits[i] = 0
	}
}

// Heard appends every id an emulated device on the bus has sent, with its
// last time and count, in increasing id order.
func (b *canBus) Heard(dst []hal.Heard) []hal.Heard {
	s := b.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, i := range b.order {
		if sl := &b.slots[i]; sl.count > 0 {
			dst = append(dst, hal.Heard{ID: sl.id, Last: sl.at, Count: sl.count})
		}
	}
	return dst
}

// Stats counts the frames both ways since the Sim was made; Load is the
// bit time they took over the last simulated second, at hal.CANBitRate.
// The sim's bus has no errors, bus-off or drops.
func (b *canBus) Stats() hal.CANStats {
	s := b.s
	s.mu.Lock()
	defer s.mu.Unlock()
	b.advance(s.t)
	return hal.CANStats{RxFrames: b.rx, TxFrames: b.tx, Load: float64(b.bitSum) / hal.CANBitRate}
}

// String names the bus for messages.
func (b *canBus) String() string {
	if b.name == "" {
		return "the default CAN bus"
	}
	return fmt.Sprintf("CAN bus %q", b.name)
}
