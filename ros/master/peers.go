package master

import (
	"net"
	"net/http"
	"sync"
)

// Limits on what clients hold of the master's server, so that a slow or
// hostile sender cannot take the connections and the request buffers
// every other node needs. ROS nodes on the robot's own computer all come
// from 127.0.0.1: loopback connections have slots of their own, which no
// remote client can take (peerlimit.Pool).
const (
	// MaxConns bounds the connections the master serves at once from
	// other computers, and as many from this one; MaxConnsPerAddr those
	// of one remote address. Past either, the half-open connection (no
	// request yet, or idle between requests) that has waited longest is
	// closed to make room: a slowloris costs its own connections. With
	// every one busy the new one is closed at once (counted).
	MaxConns        = 512
	MaxConnsPerAddr = 64
	// MaxBodiesPerAddr bounds the request bodies (each up to MaxBodySize)
	// being read at once from one remote address: a request past it is
	// answered 503 before its body is read (counted, logged).
	MaxBodiesPerAddr = 8
)

func (m *Master) limitListener(l net.Listener) net.Listener {
	return m.conns.Listener(l)
}

// takeBody counts a request body about to be read from r's address, or
// answers 503 and returns ok false when the address reads MaxBodiesPerAddr
// already.
func (m *Master) takeBody(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	host := peerHost(r.RemoteAddr)
	m.bodyMu.Lock()
	if m.bodies[host] >= MaxBodiesPerAddr {
		m.bodyMu.Unlock()
		m.refusePeer("request body", r.RemoteAddr, MaxBodiesPerAddr)
		http.Error(w, "too many requests being sent from this address at once", http.StatusServiceUnavailable)
		return nil, false
	}
	m.bodies[host]++
	m.bodyCountedLocked(host)
	m.bodyMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			m.bodyMu.Lock()
			if m.bodies[host]--; m.bodies[host] <= 0 {
				delete(m.bodies, host)
			}
			m.bodyCountedLocked(host)
			m.bodyMu.Unlock()
		})
	}, true
}

// refusePeer counts a connection or request refused for its address's
// share, and logs the first and every 1000th.
func (m *Master) refusePeer(what, addr string, limit int) {
	if n := m.peerRefused.Add(1); n == 1 || n%1000 == 0 {
		m.logf("ros master: refused a %s from %s: its address holds %d, its limit (%d refused so far)", what, addr, limit, n)
	}
}

// PeerRefused counts the connections and requests the master refused
// because their remote address held its share (MaxConnsPerAddr,
// MaxBodiesPerAddr) and every connection was busy.
func (m *Master) PeerRefused() uint64 { return m.peerRefused.Load() + m.conns.Refused() }

// PeerEvicted counts the half-open connections closed to make room for
// new ones.
func (m *Master) PeerEvicted() uint64 { return m.conns.Evicted() }

func (m *Master) bodyCountedLocked(host string) {
	if m.onBody != nil {
		m.onBody(host, m.bodies[host])
	}
}
