package goroslib

import (
	"net"
	"sync"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/peerlimit"
	"github.com/bluenviron/goroslib/v2/pkg/protocommon"
	"github.com/bluenviron/goroslib/v2/pkg/prototcp"
)

func (n *Node) runTcprosServer(wg *sync.WaitGroup) {
	defer wg.Done()

	for {
		conn, err := n.tcprosListener.Accept()
		if err != nil {
			break
		}

		select {
		case n.tcpConnNew <- conn:
		case <-n.ctx.Done():
			conn.Close()
		}
	}
}

// MaxTCPROSHandshakes bounds the TCPROS connections that have not yet sent
// their whole header, from other computers, and as many from this one
// (peerlimit.Pool): a flood of half-open connections costs at most this
// many headers of at most protocommon's header limit. (frcd's fork:
// upstream had no bound but the read timeout.)
const MaxTCPROSHandshakes = 64

// MaxTCPROSHandshakesPerAddr bounds those of one remote address. Past it,
// or past the total, the handshake that has waited longest is closed for
// the new connection (frcd issue 37; issue 32 closed the new one, which
// let 20 addresses of slow handshakes lock every subscriber out).
const MaxTCPROSHandshakesPerAddr = 16

// TCPROSRefused counts the TCPROS connections closed at once, and
// TCPROSEvicted the handshakes closed to make room for a newer one.
// (frcd's fork.)
func (n *Node) TCPROSRefused() uint64 { return n.tcprosPool.Refused() }

// TCPROSEvicted counts the TCPROS handshakes closed to make room.
func (n *Node) TCPROSEvicted() uint64 { return n.tcprosPool.Evicted() }

// NodeAPIRefused counts the node API's connections closed at once for
// their address's share (xmlrpc.Limits.MaxConnsPerAddr). (frcd's fork.)
func (n *Node) NodeAPIRefused() uint64 { return n.apiSlaveServer.Refused() }

func (n *Node) runTcprosServerConn(wg *sync.WaitGroup, nconn net.Conn) {
	defer wg.Done()

	ok := func() bool {
		// A slot of the handshakes' pool: past its address's share or
		// the total, the handshake that has waited longest is closed to
		// make room (frcd issue 37), so half-open connections cost
		// their own; refused only if none is (cannot happen: every
		// entry is a handshake).
		e, ok := n.tcprosPool.Admit(nconn)
		if !ok {
			if r := n.tcprosPool.Refused(); r == 1 || r%100 == 0 {
				n.Log(LogLevelWarn, "TCPROS: %s: every handshake slot busy: closed a connection (%d so far)",
					peerlimit.Host(nconn.RemoteAddr()), r)
			}
			return false
		}
		tconn := prototcp.NewConn(nconn)

		nconn.SetReadDeadline(time.Now().Add(n.conf.ReadTimeout))
		rawHeader, err := tconn.ReadHeaderRaw()
		e.Release()
		if err != nil {
			return false
		}

		if _, ok := rawHeader["topic"]; ok {
			var header prototcp.HeaderSubscriber
			err = protocommon.HeaderDecode(rawHeader, &header)
			if err != nil {
				return false
			}

			select {
			case n.tcpConnSubscriber <- tcpConnSubscriberReq{
				nconn:  nconn,
				tconn:  tconn,
				header: &header,
			}:
			case <-n.ctx.Done():
			}
			return true
		} else if _, ok := rawHeader["service"]; ok {
			var header prototcp.HeaderServiceClient
			err = protocommon.HeaderDecode(rawHeader, &header)
			if err != nil {
				return false
			}

			select {
			case n.tcpConnServiceClient <- tcpConnServiceClientReq{
				nconn:  nconn,
				tconn:  tconn,
				header: &header,
			}:
			case <-n.ctx.Done():
			}
			return true
		}

		return false
	}()
	if !ok {
		nconn.Close()

		select {
		case n.tcpConnClose <- nconn:
		case <-n.ctx.Done():
		}
	}
}
