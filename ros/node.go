package ros

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/frcd/frcd/ros/master"
)

// Names frcd uses, before resolution: relative ones are in the node's
// namespace, private ones (~) under the node's name, as ros_control's
// nodes have them. With the defaults (namespace /, node frcd) they are
// /joint_states, /robot_description, /frcd/enable and so on.
const (
	JointStatesTopic = "joint_states"
	// DiagnosticsTopic is global, as diagnostic_updater has it: one
	// aggregator reads every node's statuses.
	DiagnosticsTopic = "/diagnostics"
	DescriptionParam = "robot_description"
	EnableService    = "~enable"
	ListService      = "~list_controllers"
)

// ErrShutdown ends Run when the master (or rosnode kill) tells the node
// to shut down: another node took its name, or someone asked it to stop.
// frcd leaves the graph then, so it must stop: every output neutral, and
// a non-zero exit status (cmd/frcd exits 4) so that roslaunch's respawn
// starts it again.
var ErrShutdown = errors.New("ros: the master shut this node down")

// shutdownError carries who shut the node down and why.
type shutdownError struct{ detail string }

func (e *shutdownError) Error() string { return ErrShutdown.Error() + ": " + e.detail }
func (e *shutdownError) Unwrap() error { return ErrShutdown }

// goroslibShutdown is how goroslib v2.1.5 reports the slave API's
// shutdown request (node_api_slave_server.go), at LogLevelInfo, before it
// cancels the node: the only sign of it outside the node.
const goroslibShutdown = "got shutdown request from "

// Names returns the bridge's name resolver.
func (b *Bridge) Names() *Names { return b.names }

// setPrivateParams sets the command line's _param:=value parameters
// under the node's name, as rospy and roscpp do at start.
func (b *Bridge) setPrivateParams() error {
	keys := make([]string, 0, len(b.o.Params))
	for k := range b.o.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		key := b.names.Resolve("~" + k)
		if err := b.setParam(key, xmlrpcValue(b.o.Params[k])); err != nil {
			return fmt.Errorf("set %s: %w", key, err)
		}
	}
	return nil
}

// xmlrpcValue turns a YAML-decoded value into one XML-RPC encodes:
// maps with string keys, lists, and scalars.
func xmlrpcValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = xmlrpcValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = xmlrpcValue(e)
		}
		return out
	case int, bool, float64, string:
		return x
	case int64:
		return int(x)
	case uint64:
		return float64(x)
	}
	return fmt.Sprint(v)
}

// onNodeLog watches goroslib's log for the shutdown request and passes
// its detail to shutdown (once; the channel holds one).
func onNodeLog(shutdown chan<- string) func(level int, msg string) {
	return func(_ int, msg string) {
		if detail, ok := strings.CutPrefix(msg, goroslibShutdown); ok {
			select {
			case shutdown <- detail:
			default:
			}
		}
	}
}

// RateParam is frcd's private parameter for the state topics' rate, Hz
// (a launch file's <param name="publish_rate">): it overrides the YAML's
// publish_rate, as PublishRate (--rate's companion) does.
const RateParam = "~publish_rate"

// readRate applies RateParam when the master has it, at each
// registration.
func (b *Bridge) readRate(ctx context.Context) error {
	key := b.names.Resolve(RateParam)
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	v, err := master.Call(ctx, b.masterURI, "getParam", b.names.Node(), key)
	if err != nil {
		return fmt.Errorf("get %s: %w", key, err)
	}
	r, ok := v.([]any)
	if !ok || len(r) != 3 || r[0] != 1 {
		return nil // not set
	}
	var rate float64
	switch x := r[2].(type) {
	case int:
		rate = float64(x)
	case float64:
		rate = x
	default:
		return fmt.Errorf("%s is %v: want a rate in Hz", key, r[2])
	}
	if !(rate > 0 && rate <= 1e6) {
		return fmt.Errorf("%s is %v: want a rate in Hz", key, rate)
	}
	every := PublishPeriod(b.o.Config, b.o.Loop.Period(), rate)
	b.mu.Lock()
	b.every, b.stats.PublishEvery = every, every
	b.mu.Unlock()
	return nil
}

// boolParam reads a private bool parameter, def when unset or not a bool
// (logged).
func (b *Bridge) boolParam(name string, def bool) bool {
	key := b.names.Resolve(name)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	v, err := master.Call(ctx, b.masterURI, "getParam", b.names.Node(), key)
	r, ok := v.([]any)
	if err != nil || !ok || len(r) != 3 || r[0] != 1 {
		return def
	}
	on, ok := r[2].(bool)
	if !ok {
		b.o.Logf("ros: %s is %v: want true or false; taking %v", key, r[2], def)
		return def
	}
	return on
}
