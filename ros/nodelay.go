package ros

import (
	"context"
	"fmt"
	"time"

	"github.com/frcd/frcd/ros/master"
)

// TCP_NODELAY on every publication. goroslib v2.1.5 turns Nagle's
// algorithm on for each subscriber whose connection header says
// tcp_nodelay: 0, the default of roscpp and rospy, and has no option
// against it; at 1 kHz that holds /joint_states back ~40 ms at p99 (the
// subscriber's delayed ACK). So the bridge finds its node's TCPROS port
// (requestTopic to its own slave API) and, every noDelayEvery, sets
// TCP_NODELAY again on the sockets of that port (nodelay_linux.go): a new
// subscriber is batched for at most that long.

// noDelayEvery is how often the sockets are swept.
const noDelayEvery = 50 * time.Millisecond

// tcprosPort asks the node (by its name) for the TCPROS port it serves
// topic on.
func (b *Bridge) tcprosPort(ctx context.Context, topic string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	v, err := master.Call(ctx, b.masterURI, "lookupNode", b.names.Node(), b.names.Node())
	r, ok := v.([]any)
	if err != nil || !ok || len(r) != 3 || r[0] != 1 {
		return 0, fmt.Errorf("lookupNode %s: %v %v", b.names.Node(), v, err)
	}
	api, _ := r[2].(string)
	v, err = master.Call(ctx, api, "requestTopic", b.names.Node(), topic, []any{[]any{"TCPROS"}})
	r, ok = v.([]any)
	if err != nil || !ok || len(r) != 3 || r[0] != 1 {
		return 0, fmt.Errorf("requestTopic %s: %v %v", topic, v, err)
	}
	p, _ := r[2].([]any)
	if len(p) != 3 {
		return 0, fmt.Errorf("requestTopic %s: %v", topic, r[2])
	}
	port, ok := p[2].(int)
	if !ok || port <= 0 {
		return 0, fmt.Errorf("requestTopic %s: port %v", topic, p[2])
	}
	return port, nil
}

// keepNoDelay sweeps the TCPROS port's sockets until ctx ends.
func (b *Bridge) keepNoDelay(ctx context.Context, topic string) {
	port, err := b.tcprosPort(ctx, topic)
	if err != nil {
		b.o.Logf("ros: TCP_NODELAY not kept on the publications: %v", err)
		return
	}
	t := time.NewTicker(noDelayEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			b.noDelaySet.Add(uint64(setNoDelay(port)))
		}
	}
}
