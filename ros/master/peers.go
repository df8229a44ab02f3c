package master

import (
	"net"
	"net/http"
	"sync"

	"github.com/bluenviron/goroslib/v2/pkg/peerlimit"
)

// Limits on what one remote address holds of the master's server, so that
// a slow or hostile sender cannot take the connections and the request
// buffers every other node needs. ROS nodes on the robot's own computer
// all come from 127.0.0.1, so the per-address limits leave them room: a
// node holds one or two connections to the master.
const (
	// MaxConns bounds the connections the master serves at once, and
	// MaxConnsPerAddr those of one remote IP address; a connection past
	// an address's share is closed at once (counted, logged).
	MaxConns        = 512
	MaxConnsPerAddr = 64
	// MaxBodiesPerAddr bounds the request bodies (each up to MaxBodySize)
	// being read at once from one remote address: a request past it is
	// answered 503 before its body is read (counted, logged).
	MaxBodiesPerAddr = 8
)

// peerListener applies MaxConns and MaxConnsPerAddr to a listener.
type peerListener struct {
	net.Listener
	m     *Master
	slots chan struct{}
	peers *peerlimit.Limit
	done  chan struct{}
	once  sync.Once
}

func (m *Master) limitListener(l net.Listener) net.Listener {
	return &peerListener{Listener: l, m: m, slots: make(chan struct{}, MaxConns), peers: peerlimit.New(MaxConnsPerAddr), done: make(chan struct{})}
}

// Accept waits for one of MaxConns slots before it takes a connection from
// the backlog, and closes a connection whose address holds its share.
func (l *peerListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.slots
			return nil, err
		}
		release, ok := l.peers.Take(c.RemoteAddr())
		if !ok {
			l.m.refusePeer("connection", c.RemoteAddr().String(), MaxConnsPerAddr)
			c.Close()
			continue
		}
		return &peerConn{Conn: c, release: func() { release(); <-l.slots }}, nil
	}
}

func (l *peerListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type peerConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *peerConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// takeBody counts a request body about to be read from r's address, or
// answers 503 and returns ok false when the address reads MaxBodiesPerAddr
// already.
func (m *Master) takeBody(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
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
// MaxBodiesPerAddr).
func (m *Master) PeerRefused() uint64 { return m.peerRefused.Load() }

func (m *Master) bodyCountedLocked(host string) {
	if m.onBody != nil {
		m.onBody(host, m.bodies[host])
	}
}
