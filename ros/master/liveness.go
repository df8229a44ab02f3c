package master

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Liveness of the registered nodes. rosmaster keeps a node that exited
// without unregistering (killed, its computer gone) until someone runs
// `rosnode cleanup`; so did this master until a restart. Now:
//   - every SweepEvery the master asks each node's API for its pid, as
//     rosnode cleanup pings them: a node whose API refuses the connection
//     is dropped at once, one that does not answer sweepFailures times in
//     a row is dropped then (everything it registered, its topics'
//     subscribers told);
//   - a table or quota that is full (admit.go) is first emptied of its
//     dead: the nodes in it are asked at once, and those that do not
//     answer within evictTimeout are dropped before a living node is
//     refused;
//   - a protected name (Options.Protect: the daemon's own node) is not
//     handed to a node at another API while the node holding it answers,
//     as rosmaster would (it tells the old node to shut down): a client
//     on the network cannot take the robot's node off the graph by
//     registering its name.
// Each API (host and port) is asked once however many names registered
// it, at most probeConcurrency at a time.

const (
	// DefaultSweepEvery is how often the registered nodes are checked.
	DefaultSweepEvery = 30 * time.Second
	// sweepTimeout bounds one node's answer to a sweep, and sweepFailures
	// is how many sweeps in a row a node may miss (a busy node, a lossy
	// radio) before it is dropped.
	sweepTimeout  = 2 * time.Second
	sweepFailures = 2
	// evictTimeout bounds a node's answer when a full table is checked for
	// the dead, and evictEvery is the most often that is done: a table
	// full of living nodes costs one check a second, not one per refused
	// registration.
	evictTimeout = time.Second
	evictEvery   = time.Second
	// probeConcurrency bounds the checks in flight.
	probeConcurrency = 32
	// guardTimeout bounds the check of a protected name's holder, and
	// guardFresh is how long an answer from it holds.
	guardTimeout = time.Second
	guardFresh   = time.Second
)

// liveness is what asking a node's API found.
type liveness int

const (
	alive   liveness = iota
	refused          // nothing listens: the node is gone
	silent           // no answer in time, or not a node's answer
)

// probe asks the API of each of apis for its pid, each API host and port
// once, and returns what it found per apiHostPort. An API not asked
// (ctx ended) is absent.
func (m *Master) probe(ctx context.Context, apis []string, timeout time.Duration) map[string]liveness {
	one := map[string]string{} // host:port -> an API there
	for _, a := range apis {
		if hp := apiHostPort(a); one[hp] == "" {
			one[hp] = a
		}
	}
	out := make(map[string]liveness, len(one))
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, probeConcurrency)
	for hp, api := range one {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return out
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st := m.ask(ctx, api, timeout)
			if ctx.Err() != nil {
				return
			}
			mu.Lock()
			out[hp] = st
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// ask asks one API for its pid.
func (m *Master) ask(ctx context.Context, api string, timeout time.Duration) liveness {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	v, err := m.client.CallLimit(ctx, 4<<10, api, "getPid", "/master")
	switch {
	case err != nil && errors.Is(err, syscall.ECONNREFUSED):
		return refused
	case err != nil:
		return silent
	}
	if r, ok := v.([]any); !ok || len(r) != 3 || r[0] != 1 {
		return silent
	}
	return alive
}

// snapshot lists the nodes in scope, by name, with their APIs.
func (m *Master) snapshot(scope func(*nodeRef) bool) map[string]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	nodes := make(map[string]string, len(m.reg.nodes))
	for id, n := range m.reg.nodes {
		if scope(n) {
			nodes[id] = n.api
		}
	}
	return nodes
}

func apisOf(nodes map[string]string) []string {
	apis := make([]string, 0, len(nodes))
	for _, a := range nodes {
		apis = append(apis, a)
	}
	return apis
}

// sweep checks every registered node and drops the dead (see above); it
// returns how many it dropped.
func (m *Master) sweep(ctx context.Context) int {
	nodes := m.snapshot(func(*nodeRef) bool { return true })
	found := m.probe(ctx, apisOf(nodes), sweepTimeout)
	m.mu.Lock()
	defer m.mu.Unlock()
	var dead []string
	for id, api := range nodes {
		n := m.reg.nodes[id]
		st, asked := found[apiHostPort(api)]
		if n == nil || n.api != api || !asked {
			continue // gone, registered again meanwhile, or not asked
		}
		switch st {
		case alive:
			n.failed = 0
		case refused:
			dead = append(dead, id)
		default:
			if n.failed++; n.failed >= sweepFailures {
				dead = append(dead, id)
			}
		}
	}
	m.dropLocked(dead, "its API does not answer")
	return len(dead)
}

// evictDead checks the nodes in scope at once and drops those that do
// not answer: a full table or quota makes room from the dead before it
// refuses the living. One check runs at a time, at most every
// evictEvery; a caller that waited for another's check takes its result.
func (m *Master) evictDead(scope func(*nodeRef) bool) {
	gen := m.evictGen.Load()
	m.evictMu.Lock()
	defer m.evictMu.Unlock()
	if m.evictGen.Load() != gen || (!m.lastEvict.IsZero() && m.now().Sub(m.lastEvict) < evictEvery) {
		return
	}
	defer func() { m.lastEvict = m.now(); m.evictGen.Add(1) }()
	nodes := m.snapshot(scope)
	found := m.probe(m.ctx, apisOf(nodes), evictTimeout)
	m.mu.Lock()
	defer m.mu.Unlock()
	var dead []string
	for id, api := range nodes {
		n := m.reg.nodes[id]
		if st, asked := found[apiHostPort(api)]; n != nil && n.api == api && asked && st != alive {
			dead = append(dead, id)
		}
	}
	m.dropLocked(dead, "the table is full and its API does not answer")
}

// dropLocked drops nodes ids with everything they registered, tells
// their topics' subscribers, and logs how many (one line). m.mu is held.
func (m *Master) dropLocked(ids []string, why string) {
	if len(ids) == 0 {
		return
	}
	for _, id := range ids {
		for _, t := range m.reg.dropNode(id) {
			m.notifyTopic(t)
		}
	}
	m.dropped.Add(uint64(len(ids)))
	first := ids[0]
	if len(ids) > 1 {
		first += fmt.Sprintf(" and %d more", len(ids)-1)
	}
	m.logf("ros master: dropped %s: %s", first, why)
	if m.persist != nil {
		select {
		case m.persist.dirty <- struct{}{}:
		default:
		}
	}
}

// Dropped counts the nodes the liveness checks dropped.
func (m *Master) Dropped() uint64 { return m.dropped.Load() }

// sweepLoop sweeps every every until the master closes.
func (m *Master) sweepLoop(every time.Duration) {
	defer close(m.sweepDone)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
			m.sweep(m.ctx)
		}
	}
}

// guardName refuses a registration of a protected name from another API
// while the node holding the name answers.
func (m *Master) guardName(id, api string) error {
	if !m.protect[id] {
		return nil
	}
	m.mu.Lock()
	holder := ""
	if n := m.reg.nodes[id]; n != nil && n.api != api {
		holder = n.api
	}
	m.mu.Unlock()
	if holder == "" || !m.holderAnswers(id, holder) {
		return nil
	}
	return m.refuse(fmt.Errorf("the name %s is held by the running node at %s; this master does not hand it to another node: give the new one another name (__name:=) or namespace (__ns:=)", id, holder))
}

// holderAnswers says whether the node at api holding protected name id
// answers, asking it at most every guardFresh.
func (m *Master) holderAnswers(id, api string) bool {
	m.guardMu.Lock()
	defer m.guardMu.Unlock()
	if g, ok := m.guardSeen[id]; ok && g.api == api && m.now().Sub(g.at) < guardFresh {
		return g.alive
	}
	st := m.ask(m.ctx, api, guardTimeout)
	m.guardSeen[id] = guardEntry{api: api, at: m.now(), alive: st == alive}
	return st == alive
}

type guardEntry struct {
	api   string
	at    time.Time
	alive bool
}

// now is the time, as the liveness checks' rate limits see it.
func (m *Master) now() time.Time { return time.Now().Add(time.Duration(m.skew.Load())) }

// isLocal says whether from (requestFrom's) is this computer.
func isLocal(from string) bool { return from == "" }

// requestFrom is where a request came from, for the registration quotas:
// "" for this computer (its remote address is the connection's local
// one: 127.0.0.1 to itself, or the robot's address to itself), else the
// remote host.
func requestFrom(r *http.Request) string {
	host := peerHost(r.RemoteAddr)
	if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && peerHost(la.String()) == host {
		return ""
	}
	return host
}

// peerHost is the host of a request's remote address.
func peerHost(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}

// restoredFrom is where a node restored from the state file counts as
// registered from: this computer when its API is on a loopback address
// or this computer's name, else its API's host.
func restoredFrom(api string) string {
	u, err := url.Parse(api)
	if err != nil {
		return ""
	}
	h := u.Hostname()
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() || strings.EqualFold(h, "localhost") {
		return ""
	}
	if name, err := os.Hostname(); err == nil && strings.EqualFold(h, name) {
		return ""
	}
	return h
}

// apiHostPort is the host and port of a node's API URI, lower case: one
// server, whatever path each name gave.
func apiHostPort(api string) string {
	if u, err := url.Parse(api); err == nil && u.Host != "" {
		return strings.ToLower(u.Host)
	}
	return api
}
