package rtps

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/internal/admit"
)

// Stats counts what the participant sent, refused or dropped.
type Stats struct {
	BadMessages     uint64 // datagrams or submessages that did not decode
	Dropped         uint64 // samples dropped (reader limits)
	IgnoredPeers    uint64 // participants or endpoints over the limits (or the admission rate)
	Evicted         uint64 // participants and endpoints that made room for newcomers, or never took part in endpoint discovery
	SpoofedLeaves   uint64 // a participant's leave, announcement or SEDP message not from its addresses, ignored
	DeafReaders     uint64 // reliable readers that stopped getting samples (heartbeats unanswered)
	SentBytes       uint64 // bytes sent (each datagram once per address)
	SentDatagrams   uint64
	SendDropped     uint64 // datagrams not sent: over Config.EgressLimit
	RepairsDropped  uint64 // repairs not sent: over Config.RepairLimit
	Participants    int    // remote participants known
	RemoteEndpoints int
}

type stats struct {
	bad, dropped, ignored, evicted, spoofed, deaf atomic.Uint64
	sentBytes, sentDatagrams                      atomic.Uint64
	sendDropped, repairsDropped                   atomic.Uint64
}

// remoteParticipant is a participant found by SPDP.
type remoteParticipant struct {
	data     ParticipantData
	lastSeen time.Time
	meta     []netip.AddrPort
	user     []netip.AddrPort
	// from: the address its first announcement came from, which its
	// place is counted against; ips: the addresses it may send from,
	// fixed at its admission (from and the locators it announced): its
	// leave, lease refreshes and SEDP messages are taken only from them.
	from     netip.Addr
	ips      []netip.Addr
	admitted time.Time
	lease    time.Duration // its announced lease, capped (Config.MaxLease)
	sedp     bool          // an SEDP message came from it
	ticket   *admit.Ticket
}

// endpointPlace is a remote endpoint's place (admitEndpoint).
type endpointPlace struct {
	ticket  *admit.Ticket
	since   time.Time // admitted
	matched bool      // matched with a local endpoint
	proven  bool      // useful: never evicted
}

// delivery is a user reader's sample, handed over after p.mu is released.
type delivery struct {
	f func(Sample)
	s Sample
}

// Participant is a DomainParticipant: it finds other participants and
// their endpoints, and carries its writers' and readers' samples.
type Participant struct {
	cfg   Config
	guid  GUID
	ports Ports
	conns []*net.UDPConn // discovery unicast, user unicast, then out if apart, then SPDP multicast if on
	out   *sender        // the socket sends leave from (p.mu held)

	mu              sync.Mutex
	closed          bool
	nextEntity      uint32
	writers         map[EntityID]*Writer
	readers         map[EntityID]*Reader
	remotes         map[GuidPrefix]*remoteParticipant
	remoteWriters   map[GUID]*EndpointData
	remoteReaders   map[GUID]*EndpointData
	spdpSN          SequenceNumber
	sedpPub         *Writer
	sedpSub         *Writer
	reassemblyBytes int
	queue           []delivery
	msg             Builder
	lastAnnounce    time.Time
	lastHeartbeat   time.Time
	beats           int // heartbeat periods so far
	announced       int
	changed         chan struct{} // closed and replaced when a match is made or lost

	// now is the participant's clock for its budgets: the latest time
	// Handle or tick was given.
	now       time.Time
	egress    bucket // Config.EgressLimit
	repairs   bucket // Config.RepairLimit
	repairFor *readerProxy
	// places admits remote participants, per address and in all;
	// endpointPlaces their endpoints (by their participant's address).
	places         *admit.Gate
	endpointPlaces *admit.Gate
	endpoints      map[GUID]*endpointPlace
	admitRate      map[netip.Addr]*admitLimiter
	admitUses      uint64
	// withdrawn are the local endpoints withdrawn from discovery, with
	// what Restore announces again (withdraw.go).
	withdrawn map[GUID]*EndpointData

	stats stats
	// dropSend, when set (by tests), drops the datagrams it returns true for.
	dropSend func(b []byte) bool
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// Open creates a participant: it binds its discovery and user ports (the
// first free participant id of the domain on cfg.Addr), then announces
// itself and runs until Close.
func Open(cfg Config) (*Participant, error) {
	p, err := newParticipant(cfg)
	if err != nil {
		return nil, err
	}
	if err := p.bind(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	for _, c := range p.conns {
		p.wg.Add(1)
		go p.receive(c)
	}
	p.wg.Add(1)
	go p.run(ctx)
	return p, nil
}

// newParticipant makes a participant with its builtin endpoints, no
// socket and no goroutine yet.
func newParticipant(cfg Config) (*Participant, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	p := &Participant{
		cfg: cfg, writers: map[EntityID]*Writer{}, readers: map[EntityID]*Reader{},
		remotes: map[GuidPrefix]*remoteParticipant{}, remoteWriters: map[GUID]*EndpointData{}, remoteReaders: map[GUID]*EndpointData{},
		changed: make(chan struct{}), cancel: func() {},
		egress:         newBucket(float64(cfg.EgressLimit), egressBurst(cfg.EgressLimit)),
		repairs:        newBucket(float64(cfg.RepairLimit), float64(cfg.RepairLimit)),
		places:         admit.New(admit.Limits{PerAddr: cfg.MaxParticipantsPerAddr, Total: cfg.MaxParticipants, Forgeable: true}),
		endpointPlaces: admit.New(admit.Limits{PerAddr: cfg.MaxEndpointsPerAddr, Total: cfg.MaxEndpoints, Forgeable: true}),
		endpoints:      map[GUID]*endpointPlace{}, admitRate: map[netip.Addr]*admitLimiter{},
	}
	if _, err := rand.Read(p.guid.Prefix[:]); err != nil {
		return nil, err
	}
	p.guid.Entity = EntityParticipant
	sedp := QoS{Reliable, TransientLocal, KeepAll, 0}
	p.sedpPub = p.newWriter(EntitySEDPPubWriter, "DCPSPublication", "", sedp, cfg.MaxEndpoints, true)
	p.sedpSub = p.newWriter(EntitySEDPSubWriter, "DCPSSubscription", "", sedp, cfg.MaxEndpoints, true)
	p.newReader(EntitySEDPPubReader, "DCPSPublication", "", sedp, func(s Sample) { p.onSEDP(s, true) }, true)
	p.newReader(EntitySEDPSubReader, "DCPSSubscription", "", sedp, func(s Sample) { p.onSEDP(s, false) }, true)
	return p, nil
}

// bind takes the first participant id whose two unicast ports are free.
func (p *Participant) bind() error {
	at := p.cfg.Addr
	if !at.IsLoopback() {
		at = netip.IPv4Unspecified() // see Config.Addr
	}
	var last error
	for id := 0; id <= maxParticipantID; id++ {
		ports := Ports{Domain: p.cfg.Domain, Participant: id}
		meta, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(at, uint16(ports.MetaUnicast()))))
		if err != nil {
			last = err
			continue
		}
		user, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(at, uint16(ports.UserUnicast()))))
		if err != nil {
			meta.Close()
			last = err
			continue
		}
		// Room for bursts of fragments (the kernel caps it at net.core.rmem_max).
		_ = user.SetReadBuffer(4 << 20)
		_ = meta.SetReadBuffer(1 << 20)
		p.ports, p.conns, p.out = ports, []*net.UDPConn{meta, user}, newSender(user)
		if at != p.cfg.Addr {
			// Sends leave from Addr, so by its interface, multicast too
			// (Linux routes a multicast from a bound source address out of
			// that address's interface, with no route for the group).
			out, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(p.cfg.Addr, 0)))
			if err != nil {
				meta.Close()
				user.Close()
				return fmt.Errorf("rtps: bind %v: %w", p.cfg.Addr, err)
			}
			p.conns, p.out = append(p.conns, out), newSender(out)
		}
		if p.cfg.Multicast {
			group := &net.UDPAddr{IP: SPDPMulticastAddr.AsSlice(), Port: ports.SPDPMulticast()}
			mc, err := net.ListenMulticastUDP("udp4", p.cfg.Interface, group)
			if err != nil {
				for _, c := range p.conns {
					c.Close()
				}
				return fmt.Errorf("rtps: join %v: %w", group, err)
			}
			p.conns = append(p.conns, mc)
		}
		return nil
	}
	return fmt.Errorf("rtps: no free participant id in domain %d on %v: %w", p.cfg.Domain, p.cfg.Addr, last)
}

// GUID is the participant's GUID.
func (p *Participant) GUID() GUID { return p.guid }

// Logf logs through the participant's Config.Logf.
func (p *Participant) Logf(format string, args ...any) { p.cfg.Logf(format, args...) }

// Ports is the participant's port mapping (its domain and participant id).
func (p *Participant) Ports() Ports { return p.ports }

// Stats returns the participant's counters.
func (p *Participant) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Stats{BadMessages: p.stats.bad.Load(), Dropped: p.stats.dropped.Load(), IgnoredPeers: p.stats.ignored.Load(),
		Evicted: p.stats.evicted.Load(), SpoofedLeaves: p.stats.spoofed.Load(), DeafReaders: p.stats.deaf.Load(),
		SentBytes: p.stats.sentBytes.Load(), SentDatagrams: p.stats.sentDatagrams.Load(),
		SendDropped: p.stats.sendDropped.Load(), RepairsDropped: p.stats.repairsDropped.Load(),
		Participants: len(p.remotes), RemoteEndpoints: len(p.remoteWriters) + len(p.remoteReaders)}
}

// Close stops the participant and closes its sockets.
func (p *Participant) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.leave()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	for _, c := range p.conns {
		c.Close()
	}
	p.wg.Wait()
	return nil
}

// leave tells the peers at once that the participant and its endpoints
// are gone, rather than letting them wait out its lease (§8.5.3.3, §9.6.3.9:
// a DATA with the key hash and status info disposed|unregistered, no
// payload): each endpoint on SEDP, then the participant on SPDP. Best
// effort: nothing waits for acknowledgements.
func (p *Participant) leave() {
	gone := uint32(StatusDisposed | StatusUnregistered)
	for _, w := range p.writers {
		if !w.builtin {
			p.sedpPub.add(nil, KeyHashList(w.guid, gone))
		}
	}
	for _, r := range p.readers {
		if !r.internal {
			p.sedpSub.add(nil, KeyHashList(r.guid, gone))
		}
	}
	p.spdpSN++
	m := p.startMessage(GuidPrefix{})
	m.Data(&Data{Reader: EntitySPDPReader, Writer: EntitySPDPWriter, SN: p.spdpSN, InlineQoS: KeyHashList(p.guid, gone)})
	p.send(m, p.spdpTargets())
}

// NewWriter creates a writer of topic with type typ (DDS names: ROS 2's
// rt/ prefix and ::dds_:: type names are the caller's) and announces it.
func (p *Participant) NewWriter(topic, typ string, q QoS) (*Writer, error) {
	return p.NewWriterUserData(topic, typ, q, nil)
}

// NewWriterUserData is NewWriter announcing the writer with USER_DATA
// userData (nil: none), as ROS 2 from Iron on gives each endpoint its
// type hash.
func (p *Participant) NewWriterUserData(topic, typ string, q QoS, userData []byte) (*Writer, error) {
	if err := checkQoS(&q); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	limit := int(q.Depth)
	if q.History == KeepAll {
		limit = 1 << 16
	}
	w := p.newWriter(p.entity(entityKindWriterNoKey), topic, typ, q, limit, false)
	p.announce(p.sedpPub, &EndpointData{GUID: w.guid, Participant: p.guid, Topic: topic, Type: typ, QoS: q, UserData: userData})
	for g, e := range p.remoteReaders {
		p.tryMatch(w, g, e)
	}
	return w, nil
}

// NewReader creates a reader of topic with type typ and announces it.
// handler gets each sample in order, on the participant's receiving
// goroutine: it must return soon.
func (p *Participant) NewReader(topic, typ string, q QoS, handler func(Sample)) (*Reader, error) {
	return p.NewReaderUserData(topic, typ, q, nil, handler)
}

// NewReaderUserData is NewReader announcing the reader with USER_DATA
// userData (nil: none).
func (p *Participant) NewReaderUserData(topic, typ string, q QoS, userData []byte, handler func(Sample)) (*Reader, error) {
	if err := checkQoS(&q); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	r := p.newReader(p.entity(entityKindReaderNoKey), topic, typ, q, handler, false)
	p.announce(p.sedpSub, &EndpointData{GUID: r.guid, Participant: p.guid, Topic: topic, Type: typ, QoS: q, UserData: userData})
	for g, e := range p.remoteWriters {
		p.tryMatchReader(r, g, e)
	}
	return r, nil
}

func checkQoS(q *QoS) error {
	if q.Reliability == 0 {
		q.Reliability = Reliable
	}
	if q.Reliability != BestEffort && q.Reliability != Reliable || q.Durability > TransientLocal {
		return fmt.Errorf("rtps: unsupported QoS %+v", *q)
	}
	if q.History == KeepLast && q.Depth < 1 {
		q.Depth = 1
	}
	return nil
}

func (p *Participant) entity(kind uint32) EntityID {
	p.nextEntity++
	return EntityID(p.nextEntity<<8 | kind)
}

func (p *Participant) newWriter(id EntityID, topic, typ string, q QoS, limit int, builtin bool) *Writer {
	w := &Writer{p: p, guid: GUID{p.guid.Prefix, id}, topic: topic, typ: typ, qos: q, limit: limit, builtin: builtin, readers: map[GUID]*readerProxy{}}
	p.writers[id] = w
	return w
}

func (p *Participant) newReader(id EntityID, topic, typ string, q QoS, handler func(Sample), internal bool) *Reader {
	r := &Reader{p: p, guid: GUID{p.guid.Prefix, id}, topic: topic, typ: typ, qos: q, handler: handler, internal: internal, writers: map[GUID]*writerProxy{}}
	p.readers[id] = r
	return r
}

// announce publishes a local endpoint on an SEDP writer. The payload's
// PID_ENDPOINT_GUID is its key: no inline key hash, which @foxglove/rtps
// 1.6.0 cannot skip (it reads a DATA's payload at a fixed offset).
func (p *Participant) announce(w *Writer, e *EndpointData) {
	w.add(e.Marshal(nil), ParamList{})
}

// run drives the timers: SPDP announcements, heartbeats, lease expiry.
func (p *Participant) run(ctx context.Context) {
	defer p.wg.Done()
	p.tick(time.Now())
	t := time.NewTicker(p.cfg.HeartbeatPeriod / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			p.tick(now)
		}
	}
}

// tick does what is due at now.
func (p *Participant) tick(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.advance(now)
	// Announce often at first (peers may start at the same time), then
	// every AnnouncePeriod.
	period := p.cfg.AnnouncePeriod
	if p.announced < 5 {
		period = min(period, 200*time.Millisecond)
	}
	if now.Sub(p.lastAnnounce) >= period {
		p.lastAnnounce = now
		p.announced++
		p.sendSPDP(p.spdpTargets(), earned)
	}
	if now.Sub(p.lastHeartbeat) >= p.cfg.HeartbeatPeriod {
		p.lastHeartbeat = now
		p.beats++
		for _, w := range p.writers {
			w.tick(p.beats)
		}
	}
	p.expire(now)
}

// advance moves the participant's clock to now (never back).
func (p *Participant) advance(now time.Time) {
	if now.After(p.now) {
		p.now = now
	}
}

// startMessage starts p.msg: header, INFO_TS now, and INFO_DST when dst
// is a participant.
func (p *Participant) startMessage(dst GuidPrefix) *Builder {
	p.msg.Reset(p.msg.b, p.guid.Prefix)
	p.msg.InfoTS(TimeOf(time.Now()))
	if dst != (GuidPrefix{}) {
		p.msg.InfoDst(dst)
	}
	return &p.msg
}

// send sends m to each address as earned traffic (sendAs).
func (p *Participant) send(m *Builder, to []netip.AddrPort) { _ = p.sendAs(m, to, earned, nil) }

// sendAs sends m to each address when the budgets of its class allow
// (a repair's to reader r), and says whether they did; a failure to send
// is counted, not returned (the reliable protocol repeats what matters).
func (p *Participant) sendAs(m *Builder, to []netip.AddrPort, class sendClass, r *readerProxy) bool {
	if len(to) == 0 {
		return true
	}
	if !p.admitSend(len(m.Bytes()), to, class, r) {
		return false
	}
	p.stats.sentBytes.Add(uint64(len(m.Bytes()) * len(to)))
	p.stats.sentDatagrams.Add(uint64(len(to)))
	if p.dropSend != nil && p.dropSend(m.Bytes()) {
		return true
	}
	for _, a := range to {
		if err := p.out.send(m.Bytes(), a); err != nil && !p.closed {
			p.cfg.Logf("rtps: send to %v: %v", a, err)
		}
	}
	return true
}

// notify wakes the goroutines waiting for a match (p.mu held).
func (p *Participant) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// waitFor waits until cond (called with p.mu held) holds, or ctx ends.
func (p *Participant) waitFor(ctx context.Context, cond func() bool) error {
	for {
		p.mu.Lock()
		ok, ch := cond(), p.changed
		p.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
