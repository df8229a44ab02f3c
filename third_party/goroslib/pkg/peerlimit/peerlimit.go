// Package peerlimit bounds the connections one remote address holds, so
// that one source cannot take every slot of a server's shared limit and
// lock other sources out. (frcd's fork: not in goroslib v2.1.5.)
package peerlimit

import (
	"net"
	"sync"
	"sync/atomic"
)

// Limit counts connections per remote IP address, at most Per each.
// Safe for concurrent use.
type Limit struct {
	per     int
	mu      sync.Mutex
	n       map[string]int
	refused atomic.Uint64
}

// New returns a Limit of per connections per remote address.
func New(per int) *Limit { return &Limit{per: per, n: map[string]int{}} }

// Take counts one connection from addr, or refuses it (false) when addr
// holds Per already; release gives a taken one back, once.
func (l *Limit) Take(addr net.Addr) (release func(), ok bool) {
	host := Host(addr)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[host] >= l.per {
		l.refused.Add(1)
		return nil, false
	}
	l.n[host]++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.n[host]--; l.n[host] <= 0 {
				delete(l.n, host)
			}
		})
	}, true
}

// Refused counts the connections Take refused.
func (l *Limit) Refused() uint64 { return l.refused.Load() }

// Host is addr's IP address as text (the whole address when it has no
// IP: a Unix socket's).
func Host(addr net.Addr) string {
	if t, ok := addr.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	if addr == nil {
		return ""
	}
	if h, _, err := net.SplitHostPort(addr.String()); err == nil {
		return h
	}
	return addr.String()
}
