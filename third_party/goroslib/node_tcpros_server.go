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
// their whole header: past it a new connection is closed at once (ROS
// clients retry), so a flood of half-open connections costs at most this
// many headers of at most protocommon's header limit. (frcd's fork:
// upstream had no bound but the read timeout.)
const MaxTCPROSHandshakes = 64

// MaxTCPROSHandshakesPerAddr bounds those of one remote address, so that
// one source's half-open connections cannot hold every handshake slot and
// lock other subscribers out (frcd issue 32); past it a connection is
// closed at once, counted (Node.TCPROSRefused).
const MaxTCPROSHandshakesPerAddr = 16

// TCPROSRefused counts the TCPROS connections closed at once for their
// address's share of the handshakes (MaxTCPROSHandshakesPerAddr).
// (frcd's fork.)
func (n *Node) TCPROSRefused() uint64 { return n.tcprosPeers.Refused() }

// NodeAPIRefused counts the node API's connections closed at once for
// their address's share (xmlrpc.Limits.MaxConnsPerAddr). (frcd's fork.)
func (n *Node) NodeAPIRefused() uint64 { return n.apiSlaveServer.Refused() }

func (n *Node) runTcprosServerConn(wg *sync.WaitGroup, nconn net.Conn) {
	defer wg.Done()

	ok := func() bool {
		release, ok := n.tcprosPeers.Take(nconn.RemoteAddr())
		if !ok {
			if r := n.tcprosPeers.Refused(); r == 1 || r%100 == 0 {
				n.Log(LogLevelWarn, "TCPROS: %s holds %d handshakes, its limit: closed a connection (%d so far)",
					peerlimit.Host(nconn.RemoteAddr()), MaxTCPROSHandshakesPerAddr, r)
			}
			return false
		}
		select {
		case n.tcprosHandshakes <- struct{}{}:
		default:
			release()
			return false
		}
		tconn := prototcp.NewConn(nconn)

		nconn.SetReadDeadline(time.Now().Add(n.conf.ReadTimeout))
		rawHeader, err := tconn.ReadHeaderRaw()
		<-n.tcprosHandshakes
		release()
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
