package nt4

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/internal/admit"
	"github.com/frcd/frcd/internal/ratelimit"
)

// subscription is one of a client's subscribe requests.
type subscription struct {
	patterns   []string
	prefix     bool
	topicsOnly bool
	all        bool // every value, not only the latest of each period
	period     time.Duration
	periodic   *float64 // the periodic option as asked, s (nil: the default)
	bytes      int      // of its patterns
}

// matches says whether the subscription wants the topic name: by name,
// or by prefix (a meta topic, $..., by a non-empty prefix only: meta.go).
func (sub *subscription) matches(name string) bool {
	for _, p := range sub.patterns {
		if name == p || sub.prefix && strings.HasPrefix(name, p) && !hidden(name, p) {
			return true
		}
	}
	return false
}

// client is one main connection. Its maps and slices are guarded by the
// server's mu; its queues are channels its writer drains.
type client struct {
	s           *Server
	name, proto string
	addr        string // the remote host:port
	// its meta topics, $clientsub$NAME and $clientpub$NAME (meta.go)
	metaSub, metaPub *topic

	subs      map[int64]*subscription
	subBytes  int              // the subscriptions' pattern bytes (maxSubBytes)
	pubs      map[int64]*topic // by pubuid
	announced []bool           // by topic id
	want      []bool           // by topic id: a subscription wants its values
	all       []bool           // by topic id: a subscription wants every value (queued in allBuf)
	sent      []uint64         // by topic id: the value seq last sent
	period    time.Duration

	// allBuf holds, in order, the values of the topics the client wants
	// every value of, as they came, until the writer sends them (bounded
	// by maxAllBytes: past it values are not kept, counted in allLost).
	allBuf             []byte
	allN               int // values in allBuf
	allLost, allLogged uint64
	lostLoggedAt       time.Duration
	refusals           ratelimit.Limiter

	text     chan []byte // control messages, each one JSON object
	rtt      chan []byte // time replies, sent at once
	slow     chan struct{}
	slowOnce sync.Once
	tk       *admit.Ticket // its place among the clients (admission.go)
}

var errSlow = errors.New("nt4: client too slow: its queue is full")

func newClient(s *Server, name, proto string) *client {
	return &client{s: s, name: name, proto: proto, subs: map[int64]*subscription{}, pubs: map[int64]*topic{},
		period: defaultPeriod, text: make(chan []byte, textQueue), rtt: make(chan []byte, 8), slow: make(chan struct{})}
}

// grow sizes the per-topic slices for topic id.
func (c *client) grow(id int) {
	for len(c.announced) <= id {
		c.announced, c.want, c.sent = append(c.announced, false), append(c.want, false), append(c.sent, 0)
		c.all = append(c.all, false)
	}
}

// queue adds a control message for the writer; a client whose queue is
// full is dropped. Under s.mu.
func (c *client) queue(method string, params any) {
	b, err := json.Marshal(struct {
		Method string `json:"method"`
		Params any    `json:"params"`
	}{method, params})
	if err != nil {
		return
	}
	select {
	case c.text <- b:
	default:
		c.slowOnce.Do(func() { close(c.slow); c.s.stats.Dropped++ })
	}
}

type announceParams struct {
	Name       string                     `json:"name"`
	ID         int                        `json:"id"`
	Type       string                     `json:"type"`
	PubUID     *int64                     `json:"pubuid,omitempty"`
	Properties map[string]json.RawMessage `json:"properties"`
}

// maybeAnnounce announces t to the client when a subscription matches it
// (or always, with pubuid, in answer to its publish), and notes whether
// the client wants its values. Under s.mu.
func (c *client) maybeAnnounce(t *topic, pubuid *int64) {
	match := c.subscribe(t)
	if pubuid == nil && (!match || c.announced[t.id]) {
		return
	}
	c.announced[t.id] = true
	c.queue("announce", announceParams{Name: t.name, ID: t.id, Type: t.typ, PubUID: pubuid, Properties: t.props})
}

// subscribe works out what the client's subscriptions ask of t (an
// announcement, its values, every value) and says whether one matches.
// A topic newly wanted gets its current value. Under s.mu.
func (c *client) subscribe(t *topic) (match bool) {
	c.grow(t.id)
	var values, all bool
	for _, sub := range c.subs {
		if sub.matches(t.name) {
			match = true
			values = values || !sub.topicsOnly
			all = all || sub.all && !sub.topicsOnly
		}
	}
	if values != c.want[t.id] {
		if values {
			c.sent[t.id] = 0 // send its current value
			if t.wants++; t.wants == 1 {
				c.s.poke() // the telemetry brings it up to date
			}
		} else {
			c.s.unwant(t)
		}
		c.s.interest++
	}
	c.want[t.id] = values
	switch {
	case all && !c.all[t.id]:
		c.all[t.id] = true
		t.allSubs++
		if len(t.value) > 0 {
			c.appendAll(t.value) // its current value, then every one
		}
	case !all && c.all[t.id]:
		c.all[t.id] = false
		t.allSubs--
		c.sent[t.id] = t.seq // its values went through allBuf
	}
	return match
}

// forget drops what the client wanted of t (t goes, or the client).
// Under s.mu.
func (c *client) forget(t *topic) {
	if t.id < len(c.all) && c.all[t.id] {
		c.all[t.id] = false
		t.allSubs--
	}
	if t.id < len(c.want) && c.want[t.id] {
		c.want[t.id] = false
		c.s.unwant(t)
		c.s.interest++
	}
}

// appendAll queues one value (a whole message) for a client that wants
// every value; past maxAllBytes waiting it is not kept, and counted.
// Under s.mu.
func (c *client) appendAll(v []byte) {
	if len(c.allBuf)+len(v) > maxAllBytes {
		c.allLost++
		c.s.stats.ValuesLost++
		return
	}
	c.allBuf = append(c.allBuf, v...)
	c.allN++
}

func (c *client) unannounce(t *topic) {
	if t.id < len(c.announced) && c.announced[t.id] {
		c.announced[t.id] = false
		c.forget(t)
		c.queue("unannounce", map[string]any{"name": t.name, "id": t.id})
	}
}

// serve reads the client's messages until it goes; a writer goroutine
// sends its announcements and values.
func (c *client) serve(ctx context.Context, conn *websocket.Conn) error {
	defer conn.CloseNow()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	werr := make(chan error, 1)
	go func() {
		err := c.write(ctx, conn)
		werr <- err
		cancel()
		conn.CloseNow()
	}()
	go c.ping(ctx, conn)
	for {
		typ, b, err := conn.Read(ctx)
		if err != nil {
			select {
			case e := <-werr:
				return e
			default:
				return err
			}
		}
		if typ == websocket.MessageText {
			msgs, err := DecodeText(b)
			if err != nil {
				continue // ignore what cannot be read, as the spec says
			}
			c.s.mu.Lock()
			for _, m := range msgs {
				c.handle(m)
			}
			c.s.mu.Unlock()
			continue
		}
		if err := DecodeBinary(b, c.value); err != nil {
			return err
		}
	}
}

// ping checks the client is alive; one that does not answer within
// writeTimeout is closed.
func (c *client) ping(ctx context.Context, conn *websocket.Conn) {
	t := time.NewTicker(pingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, writeTimeout)
		err := conn.Ping(pctx)
		cancel()
		if err != nil {
			conn.CloseNow()
			return
		}
	}
}

// handle acts on one control message; what it refuses is counted and
// logged with the reason. Under s.mu.
func (c *client) handle(m Control) {
	c.active(m.Method)
	s := c.s
	switch m.Method {
	case "publish":
		var p publishParams
		if json.Unmarshal(m.Params, &p) != nil || p.Name == "" || p.PubUID == nil || p.Type == "" {
			c.refuse(&s.stats.PublishRefused, "a publish refused: it needs a name, a pubuid and a type")
			return
		}
		if strings.HasPrefix(p.Name, "$") { // a meta topic a client to come would need
			c.refuse(&s.stats.PublishRefused, "publish %q refused: names starting with $ are the server's meta topics", p.Name)
			return
		}
		if len(p.Name) > maxNameBytes { // bounds the topics and their $clientpub$ value
			c.refuse(&s.stats.PublishRefused, "a publish refused: a name of %d bytes, %d is the limit", len(p.Name), maxNameBytes)
			return
		}
		if _, again := c.pubs[*p.PubUID]; !again && len(c.pubs) >= maxPublishers {
			c.refuse(&s.stats.PublishRefused, "publish %q refused: %d publishers is a client's limit", p.Name, maxPublishers)
			return
		}
		if t := s.byName[p.Name]; t != nil && t.own && !s.tunable(t) {
			c.refuse(&s.stats.PublishRefused, "publish %q refused: the topic is frcd's own, read-only", p.Name)
			return
		} else if t != nil && t.typ != p.Type {
			c.refuse(&s.stats.PublishRefused, "publish %q as %s refused: the topic is %s", p.Name, p.Type, t.typ)
			return
		}
		if f := s.o.CommandType; f != nil {
			if want, ok := f(p.Name); ok && want != p.Type {
				c.refuse(&s.stats.PublishRefused, "publish %q as %s refused: the command takes %s", p.Name, p.Type, want)
				return
			}
		}
		if old := c.pubs[*p.PubUID]; old != nil {
			delete(c.pubs, *p.PubUID)
			s.unpublishLocked(old)
		}
		var props map[string]json.RawMessage
		json.Unmarshal(p.Properties, &props)
		t := s.byName[p.Name]
		if t == nil {
			if s.created >= maxClientTopics {
				c.refuse(&s.stats.PublishRefused, "publish %q refused: %d topics of clients is the server's limit", p.Name, maxClientTopics)
				return
			}
			if t = s.addTopic(p.Name, p.Type, props, false); t == nil {
				c.refuse(&s.stats.PublishRefused, "publish %q refused: %d topics is the server's limit", p.Name, maxTopics)
				return
			}
			s.created++
			s.stats.ClientTopic++
		}
		t.pubs++
		c.pubs[*p.PubUID] = t
		c.maybeAnnounce(t, p.PubUID)
		c.updatePubMeta()
	case "unpublish":
		var p unpublishParams
		if json.Unmarshal(m.Params, &p) != nil || p.PubUID == nil {
			return
		}
		if t := c.pubs[*p.PubUID]; t != nil {
			delete(c.pubs, *p.PubUID)
			s.unpublishLocked(t)
			c.updatePubMeta()
		}
	case "setproperties":
		var p setPropertiesParams
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		t := s.byName[p.Name]
		switch {
		case t == nil:
			return // the spec: ignored
		case t.own:
			c.refuse(&s.stats.Refused, "setproperties %q refused: the topic is frcd's own, read-only", p.Name)
			return
		case len(p.Update) > 64:
			c.refuse(&s.stats.Refused, "setproperties %q refused: %d properties at once, 64 is the limit", p.Name, len(p.Update))
			return
		}
		for k, v := range p.Update {
			if string(v) == "null" {
				delete(t.props, k)
			} else {
				t.props[k] = v
			}
		}
		for _, o := range s.clients {
			if t.id < len(o.announced) && o.announced[t.id] {
				o.queue("properties", map[string]any{"name": t.name, "ack": true, "update": p.Update})
			}
		}
	case "subscribe":
		var p subscribeParams
		if json.Unmarshal(m.Params, &p) != nil || p.SubUID == nil {
			c.refuse(&s.stats.SubscribeRefused, "a subscribe refused: it needs a subuid")
			return
		}
		if n := len(p.Topics) + len(p.Prefixes); n > maxSubTopics {
			c.refuse(&s.stats.SubscribeRefused, "subscribe %d refused: %d topics, %d is the limit", *p.SubUID, n, maxSubTopics)
			return
		}
		if _, ok := c.subs[*p.SubUID]; !ok && len(c.subs) >= maxSubscriptions {
			c.refuse(&s.stats.SubscribeRefused, "subscribe %d refused: %d subscriptions is a client's limit", *p.SubUID, maxSubscriptions)
			return
		}
		sub := &subscription{patterns: p.Topics, prefix: p.Options.Prefix, topicsOnly: p.Options.TopicsOnly, all: p.Options.All, period: defaultPeriod}
		if len(p.Prefixes) > 0 { // 4.0's form
			sub.patterns, sub.prefix = append(p.Prefixes, p.Topics...), true
		}
		for _, pat := range sub.patterns {
			sub.bytes += len(pat)
		}
		held := c.subBytes + sub.bytes
		if old := c.subs[*p.SubUID]; old != nil {
			held -= old.bytes
		}
		if held > maxSubBytes { // bounds the memory and its $clientsub$ value
			c.refuse(&s.stats.SubscribeRefused, "subscribe %d refused: %d bytes of topic names in its subscriptions, %d is a client's limit", *p.SubUID, held, maxSubBytes)
			return
		}
		c.subBytes = held
		if p.Options.Periodic != nil && !math.IsNaN(*p.Options.Periodic) {
			sub.period = time.Duration(min(max(*p.Options.Periodic, 0), 10) * float64(time.Second))
			v := sub.period.Seconds()
			sub.periodic = &v
		}
		c.subs[*p.SubUID] = sub
		c.updateSubMeta()
		c.reperiod()
		for _, t := range s.topics {
			if t != nil {
				c.maybeAnnounce(t, nil)
			}
		}
	case "unsubscribe":
		var p unsubscribeParams
		if json.Unmarshal(m.Params, &p) != nil || p.SubUID == nil {
			return
		}
		if old := c.subs[*p.SubUID]; old != nil {
			c.subBytes -= old.bytes
		}
		delete(c.subs, *p.SubUID)
		c.updateSubMeta()
		c.reperiod()
		for id := range c.want {
			if t := s.topics[id]; t != nil {
				c.subscribe(t)
			}
		}
	}
}

// A client's refusals log refusalBurst lines at once, then refusalRate
// a second; the others are counted and the count said with the next
// line.
const (
	refusalBurst = 10.0
	refusalRate  = 1.0 // lines a second
)

// refuse counts a refusal in counter and logs why, as the client's
// limiter allows. Under s.mu.
func (c *client) refuse(counter *uint64, format string, args ...any) {
	*counter++
	r := &c.refusals
	if r.Rate == 0 {
		*r = ratelimit.Limiter{Rate: refusalRate, Burst: refusalBurst}
	}
	ok, quiet := r.Allow(c.s.o.Clock())
	if !ok {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if quiet > 0 {
		msg += fmt.Sprintf(" (and %d more refusals not logged)", quiet)
	}
	c.s.o.Logf("nt4: %s: %s", c.name, msg)
}

// reperiod takes the shortest period of the subscriptions, bounded.
func (c *client) reperiod() {
	p := maxPeriod
	for _, sub := range c.subs {
		p = min(p, sub.period)
	}
	c.period = max(p, minPeriod)
}

// value takes one MessagePack message from the client.
func (c *client) value(v Value) {
	s := c.s
	if v.ID == -1 {
		select {
		case c.rtt <- s.timeReply(nil, v):
		default: // a flood of time requests: answer what fits
		}
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := c.pubs[v.ID]
	switch {
	case t == nil:
		return // an unknown publisher: ignored, as the spec says
	case v.Type != t.typeID:
		c.refuse(&s.stats.Refused, "a value of %s refused: type id %d, the topic is %s", t.name, v.Type, t.typ)
		return
	case len(v.Raw) > maxClientValue:
		c.refuse(&s.stats.Refused, "a value of %s refused: %d bytes, %d is the limit", t.name, len(v.Raw), maxClientValue)
		return
	}
	if t.own { // a tunable: the value is a command, frcd's value stays
		err := errors.New("frcd takes no commands")
		if s.o.Commands != nil {
			err = s.o.Commands(t.name, v)
		}
		if err != nil {
			c.refuse(&s.stats.Refused, "%s refused: %v", t.name, err)
			if len(t.value) > 0 { // frcd's value again, to the client that set another too
				s.changed(t)
			}
		}
		return // taken: the source publishes the new value after the loop's next cycle
	}
	stamp := v.Time
	if stamp <= 0 {
		stamp = s.now()
	}
	t.value = append(appendHeader(t.value[:0], int64(t.id), stamp, v.Type), v.Raw...)
	s.changed(t)
	if o := s.o; o.Commands != nil && o.CommandPrefix != "" && strings.HasPrefix(t.name, o.CommandPrefix) {
		if err := o.Commands(t.name, v); err != nil {
			c.refuse(&s.stats.Refused, "%s refused: %v", t.name, err)
		}
	} else if o.Observe != nil {
		if err := o.Observe(t.name, v); err != nil {
			c.refuse(&s.stats.Refused, "%s refused: %v", t.name, err)
		}
	}
}
