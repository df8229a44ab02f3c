package socketcan

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/hal"
)

// conn is the socket under a Bus, the seam the tests replace with a fake.
// recv is called by the bus's reader goroutine only; send from any
// goroutine, never at the same time as close; close once, after the
// reader has returned (closing a descriptor does not wake a read blocked
// on it, see the package doc).
type conn interface {
	// recv reads one frame into r. It returns errAgain when the receive
	// timeout passes with no frame. drops is the socket's running count
	// of frames the kernel dropped for want of queue space (0 until the
	// first drop, or where it is not known).
	recv(r *rawFrame) (drops uint32, err error)
	// send queues one frame without blocking.
	send(r rawFrame) error
	close() error
}

var (
	// errAgain is recv's timeout: no frame came within RecvTimeout.
	errAgain = errors.New("socketcan: receive timeout")
	// errReaderGaveUp wraps the error after which a reader stopped.
	errReaderGaveUp = errors.New("socketcan: the reader stopped after repeated receive errors")
)

// Options tune Open; the zero value gives the defaults.
type Options struct {
	// RecvTimeout is the socket's receive timeout (SO_RCVTIMEO): how
	// often a reader waiting on a quiet bus wakes to see whether the bus
	// is closing, so the longest Close waits. Default 50 ms.
	RecvTimeout time.Duration
	// MaxIDs bounds the newest-per-id table (default 2048); frames of
	// further ids are counted, but as Dropped, not kept.
	MaxIDs int
}

const (
	defaultRecvTimeout = 50 * time.Millisecond
	defaultMaxIDs      = 2048
	presizedIDs        = 256 // ids the table holds before it first grows
	maxRecvErrors      = 1000
)

func (o Options) withDefaults() Options {
	if o.RecvTimeout <= 0 {
		o.RecvTimeout = defaultRecvTimeout
	}
	if o.MaxIDs <= 0 {
		o.MaxIDs = defaultMaxIDs
	}
	return o
}

// dialer opens the socket of one bus.
type dialer func(name string, o Options) (conn, error)

// Buses are the SocketCAN buses Open opened, by name; the first is the
// default.
type Buses struct {
	buses []*Bus
}

// Open opens the SocketCAN interfaces of those names (can0, can1, ...),
// each with its reader goroutine stamping frames on clock (which must be
// safe to call from any goroutine). Every interface's problem is reported
// at once; on error nothing stays open.
func Open(names []string, clock hal.Clock, o Options) (*Buses, error) {
	return open(names, clock, o, dial)
}

func open(names []string, clock hal.Clock, o Options, d dialer) (*Buses, error) {
	if len(names) == 0 {
		return nil, errors.New("socketcan: no CAN interface named (can0, can1, ...)")
	}
	o = o.withDefaults()
	var errs []error
	bs := &Buses{}
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			errs = append(errs, fmt.Errorf("%s: named twice", name))
			continue
		}
		c, err := d(name, o)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		bs.buses = append(bs.buses, newBus(name, c, clock, o))
	}
	if len(errs) > 0 {
		for _, b := range bs.buses {
			_ = b.c.close() // no reader runs yet
		}
		return nil, errors.Join(errs...)
	}
	for _, b := range bs.buses {
		go b.read()
	}
	return bs, nil
}

// Bus returns the bus of that name, with its monitor and error details;
// "" is the default (the first).
func (bs *Buses) Bus(name string) (*Bus, error) {
	if name == "" {
		return bs.buses[0], nil
	}
	for _, b := range bs.buses {
		if b.name == name {
			return b, nil
		}
	}
	return nil, fmt.Errorf("CAN bus %q: not opened (the buses are %s): %w", name, bs.names(), hal.ErrNoDevice)
}

// All returns the buses in the order they were named.
func (bs *Buses) All() []*Bus { return slices.Clone(bs.buses) }

func (bs *Buses) names() string {
	s := ""
	for i, b := range bs.buses {
		if i > 0 {
			s += ", "
		}
		s += b.name
	}
	return s
}

// Close stops every reader and closes the sockets. It returns only when
// every reader goroutine has exited: within Options.RecvTimeout. Closing
// twice is harmless.
func (bs *Buses) Close() error {
	for _, b := range bs.buses {
		b.closing.Store(true) // all readers wind down together
	}
	var errs []error
	for _, b := range bs.buses {
		if err := b.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// slot is the newest frame of one id, and how often it came.
type slot struct {
	f     hal.Frame
	at    time.Duration
	count uint64
}

// Bus is one SocketCAN interface: a hal.CANBus (Send, Latest) and a
// hal.CANMonitor (Heard, Stats), safe for concurrent use. Its reader
// goroutine keeps the newest frame of every 29-bit id in a table that
// grows only when a new id arrives; Latest and Send never allocate.
type Bus struct {
	name  string
	clock hal.Clock
	c     conn
	o     Options

	rx rawFrame // the reader's buffer

	mu    sync.Mutex // guards everything below
	index map[uint32]int32
	slots []slot
	stats hal.CANStats // Load computed by Stats
	errs  BusErrors
	load  loadWindow
	drops uint32 // the socket's drop count last read

	life    sync.RWMutex // send holds it shared, close exclusive
	closing atomic.Bool
	done    chan struct{} // closed when the reader returns
	closed  bool          // under life
	readErr error         // why the reader stopped, if not closing; under mu
	errSend error
}

var (
	_ hal.CANBus     = (*Bus)(nil)
	_ hal.CANMonitor = (*Bus)(nil)
)

func newBus(name string, c conn, clock hal.Clock, o Options) *Bus {
	b := &Bus{
		name: name, clock: clock, c: c, o: o,
		index:   make(map[uint32]int32, presizedIDs),
		slots:   make([]slot, 0, presizedIDs),
		done:    make(chan struct{}),
		errSend: fmt.Errorf("%s: send: %w", name, hal.ErrClosed),
	}
	b.load.reset()
	return b
}

// Name is the interface's name.
func (b *Bus) Name() string { return b.name }

// Send queues f for transmission as an extended data frame without
// blocking. A full transmit queue (a bus-off or overloaded bus) or a down
// interface fails at once; failures count as TxErrors, frames queued as
// TxFrames and in the load.
func (b *Bus) Send(f hal.Frame) error {
	if f.Len > 8 {
		return errFrameLen
	}
	if f.ID > effMask {
		return errFrameID
	}
	b.life.RLock()
	if b.closed || b.closing.Load() {
		b.life.RUnlock()
		return b.errSend
	}
	err := b.c.send(encode(f))
	b.life.RUnlock()
	now := b.clock.Now()
	bits := hal.FrameBits(f)
	b.mu.Lock()
	if err != nil {
		b.stats.TxErrors++
	} else {
		b.stats.TxFrames++
		b.load.add(now, bits)
	}
	b.mu.Unlock()
	return err
}

// Latest returns the newest 29-bit data frame received with that id and
// when it arrived (on the clock given to Open). Frames the bus sent
// itself are not received.
func (b *Bus) Latest(id uint32) (hal.Frame, time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.index[id]
	if !ok {
		return hal.Frame{}, 0, false
	}
	s := &b.slots[i]
	return s.f, s.at, true
}

// Heard appends every 29-bit data frame id received since the bus opened
// to dst, in increasing id order.
func (b *Bus) Heard(dst []hal.Heard) []hal.Heard {
	b.mu.Lock()
	n := len(dst)
	for id, i := range b.index {
		s := &b.slots[i]
		dst = append(dst, hal.Heard{ID: id, Last: s.at, Count: s.count})
	}
	b.mu.Unlock()
	slices.SortFunc(dst[n:], func(a, c hal.Heard) int { return cmp.Compare(a.ID, c.ID) })
	return dst
}

// Stats returns the counters since the bus opened and the load over the
// last whole second.
func (b *Bus) Stats() hal.CANStats {
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.stats
	s.Load = b.load.load(now)
	return s
}

// Errors returns the error frames' details.
func (b *Bus) Errors() BusErrors {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.errs
}

// Err is why the reader stopped early (nil while it runs or after
// Close): more than a thousand receive errors in a row.
func (b *Bus) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.readErr
}

// Close stops the reader, waits for it (at most Options.RecvTimeout) and
// closes the socket. Closing twice is harmless.
func (b *Bus) Close() error {
	b.closing.Store(true)
	<-b.done
	b.life.Lock()
	defer b.life.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	if err := b.c.close(); err != nil {
		return fmt.Errorf("%s: close: %w", b.name, err)
	}
	return nil
}

// read is the reader goroutine: it takes frames from the socket into the
// table until Close. The socket's receive timeout wakes it on a quiet bus
// to see whether the bus is closing.
func (b *Bus) read() {
	defer close(b.done)
	defer func() {
		// A panic here (a decoder's bug) must not end the process with
		// every output as it was: the reader stops, and Err reports it,
		// as after repeated receive errors.
		if v := recover(); v != nil {
			b.mu.Lock()
			b.readErr = fmt.Errorf("%s: %w: panic: %v", b.name, errReaderGaveUp, v)
			b.mu.Unlock()
		}
	}()
	failures := 0
	for !b.closing.Load() {
		drops, err := b.c.recv(&b.rx)
		switch {
		case err == nil:
			failures = 0
			b.handle(&b.rx, drops)
		case err == errAgain:
		default:
			failures++
			b.mu.Lock()
			b.errs.RecvErrors++
			b.errs.LastRecvErr = err
			if failures >= maxRecvErrors {
				b.readErr = fmt.Errorf("%s: %w: %w", b.name, errReaderGaveUp, err)
			}
			b.mu.Unlock()
			if failures >= maxRecvErrors {
				return
			}
		}
	}
}

// handle takes one received frame into the table and the counters.
func (b *Bus) handle(r *rawFrame, drops uint32) {
	f, k := decode(r)
	now := b.clock.Now()
	bits := 0
	if k != kindError {
		bits = hal.FrameBits(f) // an 11-bit frame is 20 bits shorter: close enough
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.Dropped += uint64(drops - b.drops) // the kernel's count only grows (and may wrap)
	b.drops = drops
	if k == kindError {
		applyErrorFrame(f.ID, &f.Data, &b.stats, &b.errs)
		return
	}
	b.stats.RxFrames++
	b.load.add(now, bits)
	if k != kindData {
		return // remote requests and 11-bit frames carry no FRC device's data
	}
	i, ok := b.index[f.ID]
	if !ok {
		if len(b.slots) >= b.o.MaxIDs {
			b.stats.Dropped++
			return
		}
		i = int32(len(b.slots))
		b.slots = append(b.slots, slot{})
		b.index[f.ID] = i
	}
	s := &b.slots[i]
	s.f, s.at = f, now
	s.count++
}

// loadWindow sums the bits frames took on the wire in 100 ms buckets; the
// load is the sum over the last ten whole buckets, one second.
type loadWindow struct {
	bits  [loadBuckets + 1]uint64
	epoch [loadBuckets + 1]int64 // the bucket number each slot holds
}

const (
	loadBuckets = 10
	bucketDur   = time.Second / loadBuckets
)

func (w *loadWindow) reset() {
	for i := range w.epoch {
		w.epoch[i] = -1
	}
}

func (w *loadWindow) add(now time.Duration, bits int) {
	if now < 0 {
		return
	}
	k := int64(now / bucketDur)
	i := k % int64(len(w.bits))
	if w.epoch[i] != k {
		w.epoch[i], w.bits[i] = k, 0
	}
	w.bits[i] += uint64(bits)
}

// load is the fraction of the second before now's bucket that frames
// took at hal.CANBitRate, at most 1.
func (w *loadWindow) load(now time.Duration) float64 {
	k := int64(now / bucketDur)
	var sum uint64
	for j := k - loadBuckets; j < k; j++ {
		if j < 0 {
			continue
		}
		if i := j % int64(len(w.bits)); w.epoch[i] == j {
			sum += w.bits[i]
		}
	}
	return min(1, float64(sum)/hal.CANBitRate)
}
