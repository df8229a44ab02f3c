package peerlimit

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
)

// Pool admits a server's connections within budgets that a slow client
// cannot use to lock others out (frcd issue 37; not in goroslib v2.1.5):
//   - connections from this computer (SameHost) and from elsewhere each
//     have Total slots of their own, so remote clients never starve the
//     robot's local nodes;
//   - a remote address has at most PerAddr of the remote slots;
//   - a connection is half-open until it is busy (its request read, being
//     served) and again when idle between requests; when a new
//     connection finds its address's share or its slots full, the
//     half-open connection that has waited longest (of that address, or
//     of the slots) is closed to make room. Only when every connection
//     that holds them is busy is the new one refused.
//
// So a slowloris, which never finishes a request, costs its own
// connections: each new client takes the place of the oldest of them.
// Safe for concurrent use.
type Pool struct {
	total, per int

	mu     sync.Mutex
	seq    uint64
	all    map[*Entry]struct{}
	local  int
	remote int
	byAddr map[string]int

	refused, evicted atomic.Uint64
}

// Entry is one admitted connection.
type Entry struct {
	p     *Pool
	conn  net.Conn
	host  string
	local bool
	busy  bool
	since uint64 // when it last became half-open (the pool's sequence)
	gone  bool
}

// NewPool returns a Pool of total slots for local connections and total
// for remote ones, at most perAddr of them from one remote address.
func NewPool(total, perAddr int) *Pool {
	if perAddr <= 0 || perAddr > total {
		perAddr = total
	}
	return &Pool{total: total, per: perAddr, all: map[*Entry]struct{}{}, byAddr: map[string]int{}}
}

// SameHost says whether c comes from this computer: its remote address is
// its local one (127.0.0.1 to 127.0.0.1, or the robot's own address to
// itself, as a node with ROS_IP set to it connects).
func SameHost(c net.Conn) bool {
	l, r := c.LocalAddr(), c.RemoteAddr()
	return l != nil && r != nil && Host(l) == Host(r)
}

// Admit takes a slot for c, half-open, closing the half-open connection
// that has waited longest when c's address or its slots are full; false
// (counted in Refused) when every connection there is busy: the caller
// closes c.
func (p *Pool) Admit(c net.Conn) (*Entry, bool) {
	host := Host(c.RemoteAddr())
	e := &Entry{p: p, conn: c, host: host, local: SameHost(c)}
	p.mu.Lock()
	var victim *Entry
	switch {
	case !e.local && p.byAddr[host] >= p.per:
		victim = p.oldestLocked(func(o *Entry) bool { return o.host == host })
	case e.local && p.local >= p.total, !e.local && p.remote >= p.total:
		victim = p.oldestLocked(func(o *Entry) bool { return o.local == e.local })
	default:
		p.addLocked(e)
		p.mu.Unlock()
		return e, true
	}
	if victim == nil {
		p.mu.Unlock()
		p.refused.Add(1)
		return nil, false
	}
	p.removeLocked(victim)
	p.addLocked(e)
	p.mu.Unlock()
	p.evicted.Add(1)
	victim.conn.Close()
	return e, true
}

func (p *Pool) oldestLocked(in func(*Entry) bool) *Entry {
	var old *Entry
	for o := range p.all {
		if !o.busy && in(o) && (old == nil || o.since < old.since) {
			old = o
		}
	}
	return old
}

func (p *Pool) addLocked(e *Entry) {
	p.seq++
	e.since = p.seq
	p.all[e] = struct{}{}
	p.byAddr[e.host]++
	if e.local {
		p.local++
	} else {
		p.remote++
	}
}

func (p *Pool) removeLocked(e *Entry) {
	if e.gone {
		return
	}
	e.gone = true
	delete(p.all, e)
	if p.byAddr[e.host]--; p.byAddr[e.host] <= 0 {
		delete(p.byAddr, e.host)
	}
	if e.local {
		p.local--
	} else {
		p.remote--
	}
}

// Busy marks the connection as serving a request: it is not closed to
// make room.
func (e *Entry) Busy() {
	e.p.mu.Lock()
	e.busy = true
	e.p.mu.Unlock()
}

// Idle marks the connection half-open again (between requests), from now.
func (e *Entry) Idle() {
	e.p.mu.Lock()
	e.busy = false
	e.p.seq++
	e.since = e.p.seq
	e.p.mu.Unlock()
}

// Release gives the connection's slot back (it closed); more than once is
// harmless.
func (e *Entry) Release() {
	e.p.mu.Lock()
	e.p.removeLocked(e)
	e.p.mu.Unlock()
}

// Refused counts the connections Admit refused; Evicted those it closed
// to make room.
func (p *Pool) Refused() uint64 { return p.refused.Load() }

// Evicted counts the half-open connections closed to make room.
func (p *Pool) Evicted() uint64 { return p.evicted.Load() }

// Listener wraps l: each accepted connection is admitted to p (one
// refused is closed at once) and gives its slot back when it closes.
func (p *Pool) Listener(l net.Listener) net.Listener { return &poolListener{Listener: l, p: p} }

type poolListener struct {
	net.Listener
	p *Pool
}

func (l *poolListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		e, ok := l.p.Admit(c)
		if !ok {
			c.Close()
			continue
		}
		return &poolConn{Conn: c, e: e}, nil
	}
}

type poolConn struct {
	net.Conn
	e *Entry
}

func (c *poolConn) Close() error {
	err := c.Conn.Close()
	c.e.Release()
	return err
}

type connKey struct{}

// ConnContext is an http.Server's ConnContext for a server on a
// Listener: it lets Serving find a request's connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if pc, ok := c.(*poolConn); ok {
		return context.WithValue(ctx, connKey{}, pc.e)
	}
	return ctx
}

// Serving marks the connection of a request (ctx: the request's context)
// busy, and returns what marks it half-open again once the reply is
// written.
func Serving(ctx context.Context) (done func()) {
	e, ok := ctx.Value(connKey{}).(*Entry)
	if !ok {
		return func() {}
	}
	e.Busy()
	return e.Idle
}
