// Package admit bounds the clients of a server, per remote address and in
// total, so that a handful of hostile clients cannot fill it against a
// real one: when a bound is reached, a newcomer takes the place of the
// idlest client that has done nothing a real client does (subscribed, sent
// a message), and is refused only when every client in its way has. The
// NT4 and HAL-sim WebSocket servers admit their clients through it.
package admit

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
)

// Limits bound a Gate's clients.
type Limits struct {
	PerAddr int // clients from one remote IP address
	Total   int // clients in all
	// Forgeable says the remote addresses cost a client nothing (UDP,
	// whose source any host may write): at Total a newcomer never takes
	// an older client's place from another address by count. It evicts
	// the idlest useless client of its own address, else the newest
	// useless client (so the clients known longest keep their places),
	// else it is refused.
	Forgeable bool
}

// ErrFull is the error of a refused client.
var ErrFull = errors.New("too many clients")

// Gate admits clients under Limits. Safe for concurrent use.
type Gate struct {
	l      Limits
	mu     sync.Mutex
	in     map[*Ticket]struct{}
	byAddr map[string]int
	clock  atomic.Uint64 // activity order: each Touch and admission ticks it

	refused, evicted atomic.Uint64
}

// New returns a Gate of limits l.
func New(l Limits) *Gate {
	return &Gate{l: l, in: map[*Ticket]struct{}{}, byAddr: map[string]int{}}
}

// Ticket is one admitted client.
type Ticket struct {
	g      *Gate
	addr   string
	useful atomic.Bool
	last   atomic.Uint64 // the gate's clock at its last activity
	// admitted is the gate's clock at its admission.
	admitted uint64

	mu      sync.Mutex
	evicted bool
	onEvict func()
}

// Admit admits a client from remote (host:port, as http.Request's
// RemoteAddr), evicting the idlest useless client in its way when a limit
// is reached; it refuses (ErrFull, counted) when every client in the way
// is useful. The evicted client's OnEvict function is called.
func (g *Gate) Admit(remote string) (*Ticket, error) {
	addr := Host(remote)
	g.mu.Lock()
	var victim *Ticket
	full := ""
	switch {
	case g.byAddr[addr] >= g.l.PerAddr:
		victim, full = g.idlest(func(t *Ticket) bool { return t.addr == addr }), fmt.Sprintf("%d from %s", g.l.PerAddr, addr)
	case len(g.in) >= g.l.Total && g.l.Forgeable:
		victim = g.idlest(func(t *Ticket) bool { return t.addr == addr })
		if victim == nil {
			victim = g.newest()
		}
		full = fmt.Sprintf("%d in all", g.l.Total)
	case len(g.in) >= g.l.Total:
		victim, full = g.idlest(func(*Ticket) bool { return true }), fmt.Sprintf("%d in all", g.l.Total)
	}
	if full != "" && victim == nil {
		g.mu.Unlock()
		g.refused.Add(1)
		return nil, fmt.Errorf("%w: %s, each of them active", ErrFull, full)
	}
	if victim != nil {
		g.leaveLocked(victim)
		g.evicted.Add(1)
	}
	t := &Ticket{g: g, addr: addr, admitted: g.clock.Add(1)}
	t.last.Store(t.admitted)
	g.in[t] = struct{}{}
	g.byAddr[addr]++
	g.mu.Unlock()
	if victim != nil {
		victim.evict()
	}
	return t, nil
}

// idlest is the useless client matching ok that was active longest ago,
// from the address holding the most clients; nil if none. g.mu held.
func (g *Gate) idlest(ok func(*Ticket) bool) *Ticket {
	var best *Ticket
	for t := range g.in {
		if t.useful.Load() || !ok(t) {
			continue
		}
		if best == nil || g.byAddr[t.addr] > g.byAddr[best.addr] ||
			(g.byAddr[t.addr] == g.byAddr[best.addr] && t.last.Load() < best.last.Load()) {
			best = t
		}
	}
	return best
}

// newest is the useless client admitted last; nil if none. g.mu held.
func (g *Gate) newest() *Ticket {
	var best *Ticket
	for t := range g.in {
		if !t.useful.Load() && (best == nil || t.admitted > best.admitted) {
			best = t
		}
	}
	return best
}

func (g *Gate) leaveLocked(t *Ticket) {
	if _, ok := g.in[t]; !ok {
		return
	}
	delete(g.in, t)
	if g.byAddr[t.addr]--; g.byAddr[t.addr] <= 0 {
		delete(g.byAddr, t.addr)
	}
}

// Stats are a Gate's counts.
type Stats struct {
	Clients          int
	Refused, Evicted uint64
}

// Stats returns the gate's counts.
func (g *Gate) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return Stats{Clients: len(g.in), Refused: g.refused.Load(), Evicted: g.evicted.Load()}
}

// Leave gives the client's place back; safe to call twice, and after an
// eviction.
func (t *Ticket) Leave() {
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	t.g.leaveLocked(t)
}

// Touch records activity of the client; useful marks it as doing what
// only a real client does, which no newcomer evicts.
func (t *Ticket) Touch(useful bool) {
	t.last.Store(t.g.clock.Add(1))
	if useful {
		t.useful.Store(true)
	}
}

// OnEvict sets what closes the client when a newcomer evicts it; if it
// was evicted already, f runs at once.
func (t *Ticket) OnEvict(f func()) {
	t.mu.Lock()
	evicted := t.evicted
	t.onEvict = f
	t.mu.Unlock()
	if evicted {
		f()
	}
}

// Evicted says whether a newcomer took the client's place.
func (t *Ticket) Evicted() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.evicted
}

func (t *Ticket) evict() {
	t.mu.Lock()
	t.evicted = true
	f := t.onEvict
	t.mu.Unlock()
	if f != nil {
		f()
	}
}

// Host is the IP address of a host:port (the whole string if it has no
// port).
func Host(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}
