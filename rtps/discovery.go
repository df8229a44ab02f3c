package rtps

// Discovery: SPDP (participants announce themselves and are dropped when
// their lease ends) and SEDP (their endpoints, matched to ours by topic,
// type and QoS). The participant's sockets, timers and message handling
// are in participant.go.

import (
	"net/netip"
	"slices"
	"time"

	"github.com/frcd/frcd/internal/ratelimit"
)

// spdpTargets is where announcements go: the multicast group, each
// peer's probed ports, and every known participant.
func (p *Participant) spdpTargets() []netip.AddrPort {
	var to []netip.AddrPort
	if p.cfg.Multicast {
		to = append(to, netip.AddrPortFrom(SPDPMulticastAddr, uint16(p.ports.SPDPMulticast())))
	}
	for _, a := range p.cfg.Peers {
		for id := 0; id <= p.cfg.MaxPeerID; id++ {
			port := Ports{Domain: p.cfg.Domain, Participant: id}.MetaUnicast()
			if a == p.cfg.Addr && port == p.ports.MetaUnicast() {
				continue
			}
			to = append(to, netip.AddrPortFrom(a, uint16(port)))
		}
	}
	for _, r := range p.remotes {
		to = append(to, r.meta...)
	}
	return to
}

func (p *Participant) spdpData() *ParticipantData {
	user := UDPv4(netip.AddrPortFrom(p.cfg.Addr, uint16(p.ports.UserUnicast())))
	meta := UDPv4(netip.AddrPortFrom(p.cfg.Addr, uint16(p.ports.MetaUnicast())))
	d := &ParticipantData{
		GUID: p.guid, DomainID: uint32(p.cfg.Domain), HasDomainID: true,
		MetaUnicast: []Locator{meta}, DefaultUnicast: []Locator{user},
		BuiltinEndpoints: BuiltinParticipantAnnouncer | BuiltinParticipantDetector | BuiltinPublicationsAnnouncer |
			BuiltinPublicationsDetector | BuiltinSubscriptionsAnnouncer | BuiltinSubscriptionsDetector,
		LeaseDuration: p.cfg.LeaseDuration, UserData: p.cfg.UserData, EntityName: p.cfg.Name,
	}
	if p.cfg.Multicast {
		d.MetaMulticast = []Locator{UDPv4(netip.AddrPortFrom(SPDPMulticastAddr, uint16(p.ports.SPDPMulticast())))}
	}
	return d
}

// sendSPDP sends the participant's announcement (a best-effort, stateless
// writer: §8.5.3).
func (p *Participant) sendSPDP(to []netip.AddrPort, class sendClass) {
	p.spdpSN++
	m := p.startMessage(GuidPrefix{})
	m.Data(&Data{Reader: EntitySPDPReader, Writer: EntitySPDPWriter, SN: p.spdpSN, Payload: p.spdpData().Marshal(nil)})
	p.sendAs(m, to, class, nil)
}

// onSPDP takes a participant's announcement: a new participant is
// admitted (admitParticipant), answered at once and matched with the
// SEDP endpoints.
func (p *Participant) onSPDP(now time.Time, src GuidPrefix, from netip.AddrPort, d *Data) {
	if d.Payload == nil {
		// It is leaving. Only a participant itself may say so: the
		// message's GUID prefix is its own (as Cyclone DDS checks,
		// ddsi_discovery_spdp.c ddsi_handle_spdp) and, since any sender
		// may write any prefix, it comes from one of its addresses.
		k, ok := d.InlineQoS.KeyHash()
		if r := p.remotes[k.Prefix]; ok && r != nil && k.Prefix == src && d.InlineQoS.StatusInfo() != 0 {
			if !p.sentBy(r, from.Addr()) {
				p.spoofed("leave", k.Prefix, from, r)
				return
			}
			p.dropParticipant(k.Prefix)
		}
		return
	}
	pd, err := DecodeParticipantData(d.Payload)
	if err != nil {
		p.stats.bad.Add(1)
		return
	}
	if pd.HasDomainID && pd.DomainID != uint32(p.cfg.Domain) || pd.GUID.Prefix == p.guid.Prefix {
		return
	}
	if pd.GUID.Prefix != src {
		p.stats.bad.Add(1) // another participant's announcement (Cyclone ignores it too)
		return
	}
	if r, ok := p.remotes[pd.GUID.Prefix]; ok {
		// Its addresses were fixed at its admission: an announcement from
		// another (any host may write its prefix) neither adds one nor
		// keeps its lease.
		if !p.sentBy(r, from.Addr()) {
			p.spoofed("announcement", pd.GUID.Prefix, from, r)
			return
		}
		r.lastSeen = now
		r.ticket.Touch(false)
		return
	}
	r := &remoteParticipant{data: pd, lastSeen: now, meta: addrs(pd.MetaUnicast), user: addrs(pd.DefaultUnicast),
		from: from.Addr(), admitted: now, lease: min(pd.LeaseDuration, p.cfg.MaxLease)}
	if r.lease <= 0 {
		r.lease = p.cfg.MaxLease
	}
	if len(r.meta) == 0 {
		r.meta = addrs(pd.MetaMulticast)
	}
	r.ips = append(r.ips, r.from)
	for _, a := range append(r.meta, r.user...) {
		if ip := a.Addr(); !slices.Contains(r.ips, ip) && len(r.ips) < maxParticipantAddrs {
			r.ips = append(r.ips, ip)
		}
	}
	if !p.admitParticipant(r) {
		return
	}
	p.remotes[pd.GUID.Prefix] = r
	p.cfg.Logf("rtps: participant %v (vendor %x) at %v from %v", pd.GUID.Prefix, pd.Vendor, r.meta, from)
	p.sendSPDP(r.meta, unearned)
	sedp := QoS{Reliable, TransientLocal, KeepAll, 0}
	prefix := pd.GUID.Prefix
	if pd.BuiltinEndpoints&BuiltinPublicationsDetector != 0 {
		p.sedpPub.matchReader(GUID{prefix, EntitySEDPPubReader}, r.meta, sedp)
	}
	if pd.BuiltinEndpoints&BuiltinSubscriptionsDetector != 0 {
		p.sedpSub.matchReader(GUID{prefix, EntitySEDPSubReader}, r.meta, sedp)
	}
	if pd.BuiltinEndpoints&BuiltinPublicationsAnnouncer != 0 {
		p.readers[EntitySEDPPubReader].matchWriter(GUID{prefix, EntitySEDPPubWriter}, r.meta, sedp)
	}
	if pd.BuiltinEndpoints&BuiltinSubscriptionsAnnouncer != 0 {
		p.readers[EntitySEDPSubReader].matchWriter(GUID{prefix, EntitySEDPSubWriter}, r.meta, sedp)
	}
}

func addrs(ls []Locator) []netip.AddrPort {
	var a []netip.AddrPort
	for _, l := range ls {
		if ap, ok := l.AddrPort(); ok {
			a = append(a, ap)
		}
	}
	return a
}

// maxParticipantAddrs bounds the addresses kept of a participant.
const maxParticipantAddrs = 8

// sentBy says whether a message from ip may be a participant's own: ip is
// one of its addresses, or the loopback and it is on this host (Fast DDS
// sends to a participant of its own host by 127.0.0.1, and no packet from
// another host arrives from a loopback address).
func (p *Participant) sentBy(r *remoteParticipant, ip netip.Addr) bool {
	if slices.Contains(r.ips, ip) {
		return true
	}
	return ip.IsLoopback() && (slices.Contains(r.ips, p.cfg.Addr) || slices.ContainsFunc(r.ips, netip.Addr.IsLoopback))
}

// spoofed counts a message of a known participant (its GUID prefix in
// the header) from an address not its own, which is ignored; the first
// and then every power of two are logged.
func (p *Participant) spoofed(what string, prefix GuidPrefix, from netip.AddrPort, r *remoteParticipant) {
	if n := p.stats.spoofed.Add(1); n&(n-1) == 0 {
		p.cfg.Logf("rtps: %s of participant %v from %v, not one of its addresses %v: ignored (%d so far)", what, prefix, from, r.ips, n)
	}
}

// forgedSEDP says whether a message to or from one of a known
// participant's SEDP endpoints (entity) came from an address not its
// own: it is counted and dropped before a reliable SEDP reader or writer
// takes its sequence numbers, so no other host can dispose of the
// participant's endpoints, nor move its SEDP streams on.
func (p *Participant) forgedSEDP(prefix GuidPrefix, entity EntityID, from netip.AddrPort) bool {
	switch entity {
	case EntitySEDPPubWriter, EntitySEDPSubWriter, EntitySEDPPubReader, EntitySEDPSubReader:
	default:
		return false
	}
	r := p.remotes[prefix]
	if r == nil || p.sentBy(r, from.Addr()) {
		return false
	}
	p.spoofed("SEDP message", prefix, from, r)
	return true
}

// admitParticipant gives a new participant its place: at most AdmitRate
// newcomers a second from one address (after a burst of
// MaxParticipantsPerAddr), at most MaxParticipantsPerAddr from one
// address and MaxParticipants in all, a newcomer over a bound taking the
// place of an unproven one (useful): of its own address, else the newest
// (admit.Gate with Forgeable limits: a spoofer's many addresses cost
// the peers known longest nothing), refused when there is none. It says
// whether r was admitted; a refusal is counted.
func (p *Participant) admitParticipant(r *remoteParticipant) bool {
	lim := p.admitRate[r.from]
	if lim == nil {
		if len(p.admitRate) >= 4*p.cfg.MaxParticipants {
			p.forgetRate()
		}
		lim = &admitLimiter{Limiter: ratelimit.Limiter{Rate: p.cfg.AdmitRate, Burst: float64(p.cfg.MaxParticipantsPerAddr)}}
		p.admitRate[r.from] = lim
	}
	p.admitUses++
	lim.used = p.admitUses
	if ok, _ := lim.Allow(time.Duration(p.now.UnixNano())); !ok {
		p.stats.ignored.Add(1)
		return false
	}
	t, err := p.places.Admit(r.from.String())
	if err != nil {
		p.stats.ignored.Add(1)
		return false
	}
	prefix := r.data.GUID.Prefix
	t.OnEvict(func() {
		// Called from places.Admit, with p.mu held.
		p.stats.evicted.Add(1)
		p.cfg.Logf("rtps: participant %v from %v evicted for a newcomer", prefix, r.from)
		p.dropParticipant(prefix)
	})
	r.ticket = t
	return true
}

// admitLimiter is the admission rate of one address (admitParticipant).
type admitLimiter struct {
	ratelimit.Limiter
	used uint64 // the order of its latest announcement of a newcomer (Participant.admitUses)
}

// forgetRate makes room in the bounded admitRate: it forgets the
// address whose newcomers were announced longest ago (the likeliest to
// have its whole burst back), never all of them, so that cycling through
// spoofed addresses does not give an address in use its burst again.
func (p *Participant) forgetRate() {
	var oldest netip.Addr
	var at uint64
	for a, l := range p.admitRate {
		if !oldest.IsValid() || l.used < at {
			oldest, at = a, l.used
		}
	}
	delete(p.admitRate, oldest)
}

// sawSEDP notes that a participant takes part in endpoint discovery: a
// message of one of its SEDP endpoints (entity) came.
func (p *Participant) sawSEDP(prefix GuidPrefix, entity EntityID) {
	switch entity {
	case EntitySEDPPubWriter, EntitySEDPSubWriter, EntitySEDPPubReader, EntitySEDPSubReader:
		if r := p.remotes[prefix]; r != nil && !r.sedp {
			r.sedp = true
			r.ticket.Touch(false)
		}
	}
}

// matched notes that remote endpoint g matched a local one.
func (p *Participant) matched(g GUID) {
	if e := p.endpoints[g]; e != nil {
		e.matched = true
	}
}

// prove makes useful the remote endpoints matched with a local one and
// known for DiscoveryTimeout: an attacker's endpoint must take part in
// discovery that long, from one of its few admissions, to keep a place.
func (p *Participant) prove(now time.Time) {
	for g, e := range p.endpoints {
		if e.matched && !e.proven && now.Sub(e.since) >= p.cfg.DiscoveryTimeout {
			p.useful(g)
		}
	}
}

// expire drops the participants whose (capped) lease ended, and those
// that took no part in endpoint discovery within DiscoveryTimeout.
func (p *Participant) expire(now time.Time) {
	p.prove(now)
	for prefix, r := range p.remotes {
		switch {
		case now.Sub(r.lastSeen) > r.lease:
			p.cfg.Logf("rtps: participant %v lease expired", prefix)
			p.dropParticipant(prefix)
		case !r.sedp && now.Sub(r.admitted) > p.cfg.DiscoveryTimeout:
			p.stats.evicted.Add(1)
			p.cfg.Logf("rtps: participant %v from %v: no endpoint discovery in %v, dropped", prefix, r.from, p.cfg.DiscoveryTimeout)
			p.dropParticipant(prefix)
		}
	}
}

// dropParticipant forgets a participant and everything of it.
func (p *Participant) dropParticipant(prefix GuidPrefix) {
	defer p.notify()
	if r := p.remotes[prefix]; r != nil && r.ticket != nil {
		r.ticket.Leave()
	}
	delete(p.remotes, prefix)
	for _, w := range p.writers {
		for g := range w.readers {
			if g.Prefix == prefix {
				delete(w.readers, g)
			}
		}
	}
	for _, r := range p.readers {
		for g := range r.writers {
			if g.Prefix == prefix {
				r.dropWriter(g)
			}
		}
	}
	for g := range p.remoteWriters {
		if g.Prefix == prefix {
			delete(p.remoteWriters, g)
			p.leaveEndpoint(g)
		}
	}
	for g := range p.remoteReaders {
		if g.Prefix == prefix {
			delete(p.remoteReaders, g)
			p.leaveEndpoint(g)
		}
	}
}

// leaveEndpoint gives a remote endpoint's place back.
func (p *Participant) leaveEndpoint(g GUID) {
	if e := p.endpoints[g]; e != nil {
		e.ticket.Leave()
		delete(p.endpoints, g)
	}
}

// admitEndpoint gives a new remote endpoint its place, counted against
// its participant's address (admitParticipant's rules, MaxEndpoints and
// MaxEndpointsPerAddr); it says whether it was admitted.
func (p *Participant) admitEndpoint(g GUID, writer bool) bool {
	r := p.remotes[g.Prefix]
	if r == nil {
		return false
	}
	t, err := p.endpointPlaces.Admit(r.from.String())
	if err != nil {
		p.stats.ignored.Add(1)
		return false
	}
	t.OnEvict(func() {
		// Called from endpointPlaces.Admit, with p.mu held.
		p.stats.evicted.Add(1)
		delete(p.endpoints, g)
		p.dropEndpoint(g, writer)
	})
	p.endpoints[g] = &endpointPlace{ticket: t, since: p.now}
	return true
}

// useful notes that a remote endpoint g did what only a real peer does:
// a reader acknowledged a local writer's samples, a writer sent samples
// to a local reader, or it has been matched with a local endpoint for
// DiscoveryTimeout (a best-effort reader never acknowledges; prove). It
// and its participant are useful, which no newcomer evicts (an endpoint
// that has just matched, or a participant that only took part in
// discovery, costs an attacker nothing).
func (p *Participant) useful(g GUID) {
	if e := p.endpoints[g]; e != nil {
		e.ticket.Touch(true)
		e.proven = true
	}
	if r := p.remotes[g.Prefix]; r != nil && r.ticket != nil {
		r.ticket.Touch(true)
	}
}

// onSEDP takes an endpoint announcement (called with p.mu held).
func (p *Participant) onSEDP(s Sample, writer bool) {
	key, _ := s.Inline.KeyHash()
	if s.Payload == nil || s.Inline.StatusInfo()&(StatusDisposed|StatusUnregistered) != 0 {
		if key.Prefix == s.Writer.Prefix { // only a participant's own endpoints
			p.dropEndpoint(key, writer)
		}
		return
	}
	e, err := DecodeEndpointData(s.Payload, writer, key)
	if err != nil {
		p.stats.bad.Add(1)
		p.cfg.Logf("rtps: SEDP from %v: %v", s.Writer.Prefix, err)
		return
	}
	if e.GUID.Prefix != s.Writer.Prefix {
		p.stats.bad.Add(1)
		return
	}
	known := p.remoteReaders
	if writer {
		known = p.remoteWriters
	}
	if _, ok := known[e.GUID]; !ok && !p.admitEndpoint(e.GUID, writer) {
		return
	}
	known[e.GUID] = &e
	p.cfg.Logf("rtps: remote %s %v %q %q %+v", map[bool]string{true: "writer", false: "reader"}[writer], e.GUID, e.Topic, e.Type, e.QoS)
	if writer {
		for _, r := range p.readers {
			if !r.internal {
				p.tryMatchReader(r, e.GUID, &e)
			}
		}
		return
	}
	for _, w := range p.writers {
		if !w.builtin {
			p.tryMatch(w, e.GUID, &e)
		}
	}
}

func (p *Participant) dropEndpoint(g GUID, writer bool) {
	defer p.notify()
	p.leaveEndpoint(g)
	if writer {
		delete(p.remoteWriters, g)
		for _, r := range p.readers {
			r.dropWriter(g)
		}
		return
	}
	delete(p.remoteReaders, g)
	for _, w := range p.writers {
		delete(w.readers, g)
	}
}

// endpointAddrs is where a remote endpoint listens: its own locators, or
// its participant's defaults.
func (p *Participant) endpointAddrs(e *EndpointData) []netip.AddrPort {
	if a := addrs(e.Unicast); len(a) > 0 {
		return a
	}
	if r, ok := p.remotes[e.GUID.Prefix]; ok {
		return r.user
	}
	return nil
}

// tryMatch matches a local writer with a remote reader of the same topic
// and type whose QoS it satisfies.
func (p *Participant) tryMatch(w *Writer, g GUID, e *EndpointData) {
	if a := p.matchable(w.topic, w.typ, w.qos, e.QoS, e); a != nil {
		w.matchReader(g, a, e.QoS)
		p.matched(g)
	}
}

// tryMatchReader matches a local reader with a remote writer.
func (p *Participant) tryMatchReader(r *Reader, g GUID, e *EndpointData) {
	if a := p.matchable(r.topic, r.typ, e.QoS, r.qos, e); a != nil {
		r.matchWriter(g, a, e.QoS)
		p.matched(g)
	}
}

// matchable returns the remote endpoint e's addresses when it has the
// local one's topic and type and the writer's QoS w satisfies the
// reader's r; nil otherwise.
func (p *Participant) matchable(topic, typ string, w, r QoS, e *EndpointData) []netip.AddrPort {
	if e.Topic != topic || e.Type != typ {
		return nil
	}
	if !Compatible(w, r) {
		p.cfg.Logf("rtps: %q: writer offers %+v, reader requests %+v: %v not matched", topic, w, r, e.GUID)
		return nil
	}
	return p.endpointAddrs(e)
}
