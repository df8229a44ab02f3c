package ros_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros/master"
)

// TestNoDelay: a subscriber with default transport hints (rostopic echo
// asks tcp_nodelay 0, which would leave Nagle's algorithm on) gets a
// socket with TCP_NODELAY: the bridge's publishers ask goroslib for it
// (PublisherConf.TCPNoDelay). Read back from this process's own sockets.
func TestNoDelay(t *testing.T) {
	integration(t, tooltest.Rostopic)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	d := namedDaemon(t, e, "", ros.MasterEmbedded)
	runDaemon(t, d)
	port := tcprosPort(t, e.MasterURI, "/joint_states")
	startProcess(t, e, "rostopic", "echo", "/joint_states/header/seq")
	// Every subscriber socket with TCP_NODELAY, once frcd has taken it:
	// a socket is seen the moment the kernel accepts it, before Go's
	// accept turns Nagle off and the publisher sets the option, so a
	// single look could catch that instant. A socket left without it
	// keeps the condition false to the deadline.
	eventually(t, "rostopic's connection, with TCP_NODELAY", func() bool {
		on, off := connections(port)
		return on > 0 && off == 0
	})
}

// tcprosPort asks the master for topic's publisher, then the publisher
// for the TCPROS port it serves it on.
func tcprosPort(t *testing.T, masterURI, topic string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), tooltest.Timeout)
	defer cancel()
	var api string
	for api == "" {
		v, err := master.Call(ctx, masterURI, "getSystemState", "/test")
		if err != nil {
			t.Fatal(err)
		}
		r, _ := v.([]any)
		if len(r) == 3 {
			state, _ := r[2].([]any)
			pubs, _ := state[0].([]any)
			for _, p := range pubs {
				if p, _ := p.([]any); len(p) == 2 && p[0] == topic {
					nodes, _ := p[1].([]any)
					if len(nodes) > 0 {
						v, err := master.Call(ctx, masterURI, "lookupNode", "/test", nodes[0])
						if r, _ := v.([]any); err == nil && len(r) == 3 {
							api, _ = r[2].(string)
						}
					}
				}
			}
		}
		if api == "" {
			select {
			case <-ctx.Done():
				t.Fatalf("no publisher of %s", topic)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	v, err := master.Call(ctx, api, "requestTopic", "/test", topic, []any{[]any{"TCPROS"}})
	r, _ := v.([]any)
	if err != nil || len(r) != 3 {
		t.Fatalf("requestTopic %s: %v %v", topic, v, err)
	}
	p, _ := r[2].([]any)
	if len(p) != 3 {
		t.Fatalf("requestTopic %s: %v", topic, r[2])
	}
	port, _ := p[2].(int)
	if port <= 0 {
		t.Fatalf("requestTopic %s: port %v", topic, p[2])
	}
	return port
}

// connections counts this process's TCP connections on the local port
// (not the listener) with TCP_NODELAY on and off.
func connections(port int) (on, off int) {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return 0, 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		fd, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		sa, err := syscall.Getsockname(fd)
		if err != nil {
			continue // not a socket, or closed meanwhile
		}
		var p int
		switch a := sa.(type) {
		case *syscall.SockaddrInet4:
			p = a.Port
		case *syscall.SockaddrInet6:
			p = a.Port
		}
		if p != port {
			continue
		}
		if l, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ACCEPTCONN); err != nil || l != 0 {
			continue
		}
		if v, err := syscall.GetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY); err == nil {
			if v != 0 {
				on++
			} else {
				off++
			}
		}
	}
	return on, off
}
