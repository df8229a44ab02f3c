package daemon

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/frcd/frcd/ros"
)

// Optional parts: the NT4 server, the WPILib WebSocket server and the
// WPILOG log serve people, not the robot. One that cannot start (its port
// taken: a second frcd on the machine, say) or that fails (a full disk)
// never stops the robot: it is reported on the status line, on
// /diagnostics (and so as an NT4 Alert) and in the log, and the servers
// try their port again every PartRetry until it is free.

// PartRetry is how often a server whose port is taken tries it again.
const PartRetry = 5 * time.Second

// parts holds why each optional part is down. Safe from any goroutine.
type parts struct {
	mu   sync.Mutex
	down map[string]string // part -> why
}

// set records part as down for why, or up (why ""); it tells whether
// that changed.
func (p *parts) set(part, why string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down == nil {
		p.down = map[string]string{}
	}
	if p.down[part] == why {
		return false
	}
	if why == "" {
		delete(p.down, part)
	} else {
		p.down[part] = why
	}
	return true
}

// partDown reports part down for why (logged when it changes).
func (d *Daemon) partDown(part, why string) {
	if d.parts.set(part, why) {
		d.logf("frcd: %s is down, the robot runs on: %s", part, why)
	}
}

// partUp reports part running again (logged when it was down).
func (d *Daemon) partUp(part, what string) {
	if d.parts.set(part, "") {
		d.logf("frcd: %s is up: %s", part, what)
	}
}

// Down lists the optional parts that are down, each with why, sorted.
func (d *Daemon) Down() map[string]string {
	d.parts.mu.Lock()
	defer d.parts.mu.Unlock()
	out := make(map[string]string, len(d.parts.down))
	for k, v := range d.parts.down {
		out[k] = v
	}
	return out
}

// partStatuses appends a WARN status for each part that is down, and an
// OK one for each that runs, for /diagnostics.
func (d *Daemon) partStatuses(dst []ros.Status) []ros.Status {
	down := d.Down()
	for _, part := range d.partNames() {
		st := ros.Status{Name: "frcd: " + part, Level: ros.LevelOK, Message: "running"}
		if why, ok := down[part]; ok {
			st.Level, st.Message = ros.LevelWarn, why
		}
		dst = append(dst, st)
	}
	return dst
}

// partNames are the optional parts this daemon has.
func (d *Daemon) partNames() []string {
	var names []string
	if d.NT != nil {
		names = append(names, PartNT4)
	}
	if d.WS != nil {
		names = append(names, PartWS)
	}
	if o := d.opts.Telemetry; o != nil && o.LogDir != "" {
		names = append(names, PartLog)
	}
	if d.masterReported.Load() {
		names = append(names, PartMaster)
	}
	if d.nodeReported.Load() {
		names = append(names, PartNode)
	}
	return names
}

// masterDown is the ROS bridge's Options.MasterDown: the embedded master
// is a part once it was ever down (with an external master, or one that
// started at once, it is no part of this daemon's health).
func (d *Daemon) masterDown(why string) {
	if why == "" {
		d.partUp(PartMaster, "a ROS master answers")
		return
	}
	d.masterReported.Store(true)
	d.partDown(PartMaster, why)
}

// nodeDown is the ROS bridge's Options.NodeDown: the ROS node is a part
// once it was ever off the graph after it could have been on it (a lost
// master, a shutdown request, its name held by another node).
func (d *Daemon) nodeDown(why string) {
	if why == "" {
		d.partUp(PartNode, "registered with the ROS master")
		return
	}
	d.nodeReported.Store(true)
	d.partDown(PartNode, why)
}

// The optional parts, as Down names them.
const (
	PartNT4 = "NT4 server"
	PartWS  = "WPILib WebSocket server"
	PartLog = "WPILOG log"
	// PartMaster is the embedded ROS master when it cannot start (its port
	// taken by something that is not a master): the robot runs on without
	// ROS, and the bridge tries again every ros.EmbeddedRetry retries.
	PartMaster = "embedded ROS master"
	// PartNode is the ROS 1 node off the graph: no master answers, the
	// master shut it down (rosnode kill, a namesake), or another running
	// node holds its name. The robot runs on; the bridge registers again
	// as soon as it may (ros.Bridge.Run).
	PartNode = "ROS node"
)

// noteListen reports part down when its server could not listen yet
// (when it was made, so the first status line says so).
func (d *Daemon) noteListen(part string, listenErr error, addr string) {
	if listenErr != nil {
		d.partDown(part, fmt.Sprintf("cannot listen on %s (%v); trying again every %s", addr, listenErr, PartRetry))
	}
}

// watchListen reports part up once its server listens, until ctx ends.
func (d *Daemon) watchListen(ctx context.Context, part string, listening <-chan struct{}, addr func() string) {
	select {
	case <-ctx.Done():
	case <-listening:
		d.partUp(part, "listening on "+addr())
	}
}
