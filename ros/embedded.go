package ros

import (
	"fmt"
	"net"

	"github.com/frcd/frcd/ros/master"
)

// EmbeddedRetry is how many of the bridge's retries (Options.Retry) pass
// between two tries of an embedded master that could not start: five
// seconds by default, as the other optional parts' servers retry their
// ports.
const EmbeddedRetry = 5

// embeddedMaster is the bridge's embedded master, when it runs, and why it
// cannot start, while it cannot. Used by Run's goroutine only.
type embeddedMaster struct {
	b       *Bridge
	m       *master.Master
	why     string // why it is down; "" when it is not
	retries int
}

// down reports whether the embedded master could not start and may be
// tried again now (every EmbeddedRetry retries).
func (e *embeddedMaster) down() bool {
	if e.why == "" {
		return false
	}
	e.retries++
	return e.retries%EmbeddedRetry == 0
}

// start starts the embedded master at ROS_MASTER_URI, from its state file
// when there is one, and reports whether it runs; a failure is reported
// as the part down. The port is taken before the master is made: a port
// still taken costs a listen, not a read of the state file.
func (e *embeddedMaster) start() bool {
	b := e.b
	l, err := net.Listen("tcp", b.hostport)
	if err != nil {
		e.report(fmt.Sprintf("no master answers at %s and the embedded one cannot listen there (%v); trying again every %s",
			b.masterURI, err, EmbeddedRetry*b.o.Retry))
		return false
	}
	// The daemon's own name is protected: a client on the network cannot
	// take it (and so shut this node down) while the node answers.
	m := master.New(master.Options{Logf: b.masterLog, StateFile: b.o.Env.MasterState(b.hostport), Protect: []string{b.names.Node()}})
	if err := m.StartOn(l); err != nil {
		m.Close()
		e.report(fmt.Sprintf("the embedded master cannot start at %s: %v", b.hostport, err))
		return false
	}
	e.m = m
	b.mu.Lock()
	b.stats.EmbeddedURI = m.URI()
	b.mu.Unlock()
	b.o.Logf("ros: no master at %s: started an embedded one", b.masterURI)
	e.report("")
	return true
}

// report records why the embedded master is down ("": it is not) and
// tells Options.MasterDown, or the log, when that changed.
func (e *embeddedMaster) report(why string) {
	if why == e.why {
		return
	}
	e.why, e.retries = why, 0
	b := e.b
	b.mu.Lock()
	b.stats.EmbeddedDown = why
	b.mu.Unlock()
	switch {
	case b.o.MasterDown != nil:
		b.o.MasterDown(why)
	case why != "":
		b.o.Logf("ros: %s; the robot runs on without ROS", why)
	default:
		b.o.Logf("ros: the embedded master is no longer down")
	}
}

func (e *embeddedMaster) close() {
	if e.m != nil {
		e.m.Close()
	}
}
