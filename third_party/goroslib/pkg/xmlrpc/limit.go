package xmlrpc

import (
	"net"
	"sync"

	"github.com/bluenviron/goroslib/v2/pkg/peerlimit"
)

// limitListener serves at most n connections at once, at most perAddr of
// them from one remote address: Accept waits for a slot before it takes a
// connection from the backlog, closes at once a connection whose address
// holds perAddr already (counted), and a connection's Close gives its
// slots back. (frcd's fork.)
type limitListener struct {
	net.Listener
	slots chan struct{}
	peers *peerlimit.Limit
	done  chan struct{}
	once  sync.Once
}

func newLimitListener(l net.Listener, n, perAddr int) *limitListener {
	if perAddr <= 0 {
		perAddr = n
	}
	return &limitListener{Listener: l, slots: make(chan struct{}, n), peers: peerlimit.New(perAddr), done: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
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
			c.Close() // one source holds its share: the others keep theirs
			continue
		}
		return &limitConn{Conn: c, release: func() { release(); <-l.slots }}, nil
	}
}

func (l *limitListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
