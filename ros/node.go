package ros

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"syscall"
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

// ErrShutdown ends a registration when the master (or rosnode kill)
// tells the node to shut down: another node took its name, or someone
// asked it to stop. The node leaves the graph; the bridge reports itself
// down and registers again once its name is free (Run). Anyone who can
// reach the node's API can send that request, so it never ends frcd: the
// robot's loop, its other transports and its outputs go on.
var ErrShutdown = errors.New("ros: the master shut this node down")

// nameHeldError: another node that answers holds the bridge's name, so
// registering would shut it down (rosmaster) or be refused (frcd's
// embedded master protects its own daemon's name).
type nameHeldError struct{ name, api string }

func (e *nameHeldError) Error() string {
	return fmt.Sprintf("the name %s is held by the running node at %s (another frcd with the same name?); "+
		"this one stays off the ROS graph until the name is free: give it another name (__name:=), namespace (__ns:=) or master (ROS_MASTER_URI)",
		e.name, e.api)
}

// checkName refuses to register while another node holding the bridge's
// name answers its API: two frcd with the same name on one master do not
// shut each other down in turn, and the first keeps the name.
func (b *Bridge) checkName(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	v, err := master.CallLimit(ctx, 4<<10, b.masterURI, "lookupNode", b.names.Node(), b.names.Node())
	r, ok := v.([]any)
	if err != nil || !ok || len(r) != 3 || r[0] != 1 {
		return nil // unknown to the master: free
	}
	api, _ := r[2].(string)
	if api == "" || !strings.HasPrefix(api, "http://") {
		return nil
	}
	v, err = master.CallLimit(ctx, 4<<10, api, "getPid", b.names.Node())
	if r, ok := v.([]any); err != nil || !ok || len(r) != 3 || r[0] != 1 {
		return nil // its holder is gone: registering takes it over
	}
	return &nameHeldError{b.names.Node(), api}
}

// whyNotRegistered says why a registration failed, for NodeDown: the same
// words for the same cause, so that a retry that fails alike is no news.
func (b *Bridge) whyNotRegistered(err error) string {
	var held *nameHeldError
	switch {
	case errors.As(err, &held):
		return err.Error()
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("no ROS master answers at %s; trying every %s", b.masterURI, b.o.Retry)
	}
	return fmt.Sprintf("cannot register with the master at %s (trying every %s): %v", b.masterURI, b.o.Retry, err)
}

// nodeDown records why the node is off the graph ("" once it is
// registered) and tells Options.NodeDown, or the log, when that changed.
func (b *Bridge) nodeDown(why string) {
	b.mu.Lock()
	changed := b.stats.NodeDown != why
	b.stats.NodeDown = why
	b.mu.Unlock()
	switch {
	case !changed:
	case b.o.NodeDown != nil:
		b.o.NodeDown(why)
	case why != "":
		b.o.Logf("ros: off the ROS graph, the robot runs on: %s", why)
	}
}

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
