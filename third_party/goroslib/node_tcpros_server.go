package goroslib

import (
	"net"
	"sync"
	"time"

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

func (n *Node) runTcprosServerConn(wg *sync.WaitGroup, nconn net.Conn) {
	defer wg.Done()

	ok := func() bool {
		select {
		case n.tcprosHandshakes <- struct{}{}:
		default:
			return false
		}
		tconn := prototcp.NewConn(nconn)

		nconn.SetReadDeadline(time.Now().Add(n.conf.ReadTimeout))
		rawHeader, err := tconn.ReadHeaderRaw()
		<-n.tcprosHandshakes
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
