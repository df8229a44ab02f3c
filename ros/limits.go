package ros

import (
	"sync"

	"github.com/bluenviron/goroslib/v2"
)

// refusals totals what goroslib's fork refused for its limits across
// sessions: messages over a subscriber's size limit, and TCPROS and node
// API connections closed for their address's share. Safe from any
// goroutine.
type refusals struct {
	mu     sync.Mutex
	base   [2]uint64        // of the sessions closed
	now    func() [2]uint64 // the running session's, or nil
	logged [2]uint64        // last logged
}

// counts are the totals: oversize messages, connections.
func (r *refusals) counts() [2]uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.base
	if r.now != nil {
		n := r.now()
		c[0], c[1] = c[0]+n[0], c[1]+n[1]
	}
	return c
}

// attach counts s's node and subscribers from now on.
func (r *refusals) attach(node *goroslib.Node, subs []*goroslib.Subscriber) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now = func() [2]uint64 {
		var c [2]uint64
		for _, s := range subs {
			c[0] += s.Refused()
		}
		c[1] = node.TCPROSRefused() + node.NodeAPIRefused()
		return c
	}
}

// detach keeps what the session counted, before its node closes.
func (r *refusals) detach() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.now != nil {
		n := r.now()
		r.base[0], r.base[1] = r.base[0]+n[0], r.base[1]+n[1]
		r.now = nil
	}
}

// news returns the counts when they grew since it last did (to log).
func (r *refusals) news() (c [2]uint64, grew bool) {
	c = r.counts()
	r.mu.Lock()
	defer r.mu.Unlock()
	grew = c != r.logged
	r.logged = c
	return c, grew
}
