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
	// FD opens the sockets for CAN FD frames too (CAN_RAW_FD_FRAMES):
	// SendFD and LatestFD (fd.go). The interfaces must have the CAN FD
	// MTU, 72.
	FD bool
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

// table keeps the newest frame of each id, when it came and how often:
// a map from id to a slot in a slice, so that a known id costs no
// allocation.
type table[F any] struct {
	index map[uint32]int32
	slots []slot[F]
}

// slot is the newest frame of one id, and how often it came.
type slot[F any] struct {
	f     F
	at    time.Duration
	count uint64
}

func newTable[F any](n int) table[F] {
	return table[F]{index: make(map[uint32]int32, n), slots: make([]slot[F], 0, n)}
}

// put stores f as the newest of id; false (nothing stored) when id is new
// and the table already holds max ids.
func (t *table[F]) put(id uint32, f F, at time.Duration, max int) bool {
	i, ok := t.index[id]
	if !ok {
		if len(t.slots) >= max {
			return false
		}
		i = int32(len(t.slots))
		t.slots = append(t.slots, slot[F]{})
		t.index[id] = i
	}
	s := &t.slots[i]
	s.f, s.at = f, at
	s.count++
	return true
}

// get returns the newest frame of id and when it came.
func (t *table[F]) get(id uint32) (F, time.Duration, bool) {
	i, ok := t.index[id]
	if !ok {
		var zero F
		return zero, 0, false
	}
	s := &t.slots[i]
	return s.f, s.at, true
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

	mu     sync.Mutex // guards everything below
	frames table[hal.Frame]
	stats  hal.CANStats // Load computed by Stats
	// fdFrames is the CAN FD frames' table (LatestFD), made at the first
	// one.
	fdFrames table[FDFrame]
	errs     BusErrors
	load     loadWindow
	drops    uint32 // the socket's drop count last read

	// down is the error that said the interface is down (ENETDOWN, from
	// a send or the reader), nil once a frame goes or comes again.
	down atomic.Pointer[error]

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
		frames:  newTable[hal.Frame](presizedIDs),
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
	b.noteLink(err)
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
	return b.frames.get(id)
}

// Heard appends every 29-bit data frame id received since the bus opened
// to dst, in increasing id order.
func (b *Bus) Heard(dst []hal.Heard) []hal.Heard {
	b.mu.Lock()
	n := len(dst)
	for id, i := range b.frames.index {
		s := &b.frames.slots[i]
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

// Down returns the error that said the interface went down (`ip link set
// can0 down`, a USB-CAN adapter's driver resetting it), or nil while it
// is up: a send or a receive that fails with ENETDOWN marks it down, the
// next that succeeds marks it up. The bus stays bound meanwhile, so
// frames flow again as soon as the interface is back up.
func (b *Bus) Down() error {
	if p := b.down.Load(); p != nil {
		return *p
	}
	return nil
}

// noteLink marks the interface down or up by the outcome of a send or a
// receive. Only a change stores (and allocates).
func (b *Bus) noteLink(err error) {
	switch {
	case err == nil:
		if b.down.Load() != nil {
			b.down.Store(nil)
		}
	case isNetDown(err):
		if b.down.Load() == nil {
			e := fmt.Errorf("%s: %s: %w", b.name, downFix(b.name), err)
			b.down.Store(&e)
		}
	}
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
		switch err {
		case errAgain: // a quiet bus says nothing of the link
		case errFDRecv:
			b.noteLink(nil)
		default:
			b.noteLink(err)
		}
		switch {
		case err == nil:
			failures = 0
			b.handle(&b.rx, drops)
		case err == errAgain:
		case err == errFDRecv:
			failures = 0
			if fc, ok := b.c.(fdConn); ok {
				b.handleFD(fc.lastFD(), drops)
			}
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
	if !b.frames.put(f.ID, f, now, b.o.MaxIDs) {
		b.stats.Dropped++
	}
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
