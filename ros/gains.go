package ros

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/ros/master"
)

// Controllers on the parameter server, as ros_control's are: each under
// its name, with its type, its joint(s) and its PID gains where
// ros_controllers keep them (ros-controls/ros_controllers noetic-devel
// 678b92adfd92, control_toolbox noetic-devel de05a5c282f9):
//
//   - a joint's PID controller: NAME/pid/{p,i,d,i_clamp} (effort_controllers'
//     JointPositionController inits its Pid from NodeHandle(n, "pid");
//     control_toolbox's Pid::init reads p, i, d, i_clamp), and frcd's
//     feedforward NAME/pid/f;
//   - a joint trajectory controller: NAME/gains/JOINT/{p,i,d,i_clamp}
//     (hardware_interface_adapter.h: NodeHandle(controller_nh,
//     "gains/" + joint)) and its velocity feedforward NAME/velocity_ff/JOINT.
//
// A gain set there at run time (rosparam set, any node's setParam) reaches
// the running controller without polling: frcd subscribes to each gain's
// key with the master API's subscribeParam, as roscpp's getParamCached
// does, and the master calls the node's paramUpdate with the new value
// (ros_comm 1.15.15 tools/rosmaster/src/rosmaster/paramserver.py
// compute_param_updates: on a set of the key, of a namespace holding it,
// or under it, and with an empty namespace when it is deleted; never for
// the node's own setParam). A changed gain goes to Controller.SetGain,
// which the loop takes between two cycles. A value SetGain refuses (not a
// number, out of its YAML key's range) is logged and counted, and the
// parameter set back to the gain the controller kept, so the server never
// shows a gain that is not running; a gain retuned through another
// transport (NT4, ROS 2, dynamic_reconfigure) is set there too, when
// Controller.WatchGains signals it. The subscriptions end with the
// session (unsubscribeParam); a master that restarts has forgotten them
// and ends the session (watchMaster), and the next one subscribes again,
// reading every gain afresh: no resync is kept beside the events (see
// gainWatch). control_toolbox's i_clamp_min and i_clamp_max are not read:
// frcd's integral clamp is symmetric (i_clamp).

// gainParam is one gain on the parameter server.
type gainParam struct {
	c    *control.Controller
	id   control.GainID
	key  string // resolved: NAME/pid/TERM, NAME/gains/JOINT/TERM, NAME/velocity_ff/JOINT
	last float64
}

// gainParamOf places a controller's gain on the parameter server: its
// namespace resolved (and remapped) as a whole, as before.
func (b *Bridge) gainParamOf(c *control.Controller, id control.GainID) gainParam {
	ns, path := c.Name+"/gains", id.Joint+"/"+id.Term
	switch {
	case id.Joint == "":
		ns, path = c.Name+"/pid", id.Term
	case id.Term == control.GainF:
		ns, path = c.Name+"/velocity_ff", id.Joint
	}
	return gainParam{c: c, id: id, key: b.names.Resolve(ns) + "/" + path}
}

// gainUpdate is a gain's value as the master last sent it.
type gainUpdate struct {
	v       any
	present bool // false: deleted
}

// gainWatch keeps a session's gains and their parameters the same. Its
// goroutine wakes only for an event: a paramUpdate from the master
// (wake), a gain changed through another transport (changed), the end of
// the session.
//
// No periodic resync is kept. roscpp's parameter cache has none either:
// it trusts paramUpdate. The master sends each update once (rosmaster's
// thread pool, the embedded master's notifier), over loopback to a slave
// API whose local connections have their own slots (goroslib's fork,
// FORK.md, issue 37); a master that restarts ends the session, and the
// next subscribes afresh. What is left: an update the slave API refuses
// (a value over its 1 MiB request limit, which no number is) is not
// heard of until the gain's next change.
type gainWatch struct {
	b      *Bridge
	params []gainParam
	limit  ratelimit.Refusals
	reconf []*reconfServer // dynamic_reconfigure servers, following the gains

	changed chan struct{} // Controller.WatchGains'
	wake    chan struct{} // a paramUpdate is pending

	mu      sync.Mutex
	pending map[int]gainUpdate // by index in params: at most one each
}

// newGainWatch lists a bridge's gains; its paramUpdate is the node's
// callback (goroslib's NodeConf.OnParamUpdate), so it exists before the
// node does.
func (b *Bridge) newGainWatch() *gainWatch {
	w := &gainWatch{b: b, limit: ratelimit.Refusals{Rate: refusedRate, Burst: refusedBurst},
		changed: make(chan struct{}, 1), wake: make(chan struct{}, 1), pending: map[int]gainUpdate{}}
	for _, c := range b.o.Loop.Controllers() {
		for _, id := range c.GainIDs() {
			g := b.gainParamOf(c, id)
			g.last, _ = c.Gain(id)
			w.params = append(w.params, g)
		}
	}
	return w
}

// serveGains sets every controller's type, joints and gains on the
// parameter server, subscribes to the gains and follows them until the
// session closes: in a goroutine of its own, so that the calls (three or
// more per controller) never delay the topics and services of a
// registration.
func (s *session) serveGains() error {
	b, w := s.b, s.gains
	var err error
	if w.reconf, err = s.serveReconfigure(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	serve := guard(w.serve, b.o.OnPanic).(func(context.Context, string))
	api := s.node.APISlaveURL()
	go func() {
		defer close(done)
		serve(ctx, api)
	}()
	s.closers = append(s.closers, func() { cancel(); <-done })
	return nil
}

// list sets each controller's type, joint(s) and gains.
func (w *gainWatch) list() error {
	b := w.b
	for _, c := range b.o.Loop.Controllers() {
		if err := b.setParam(b.names.Resolve(c.Name+"/type"), c.Type); err != nil {
			return fmt.Errorf("set %s/type: %w", c.Name, err)
		}
		key, joints := "joints", any(toAny(c.Joints))
		if len(c.Joints) == 1 && c.Width() == 0 {
			key, joints = "joint", c.Joints[0]
		}
		if err := b.setParam(b.names.Resolve(c.Name+"/"+key), joints); err != nil {
			return fmt.Errorf("set %s/%s: %w", c.Name, key, err)
		}
	}
	for i := range w.params {
		g := &w.params[i]
		if err := b.setParam(g.key, g.last); err != nil {
			return fmt.Errorf("set %s: %w", g.key, err)
		}
	}
	return nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// serve lists the controllers, subscribes to the gains' keys at the
// master, then follows the events until ctx ends, and unsubscribes.
func (w *gainWatch) serve(ctx context.Context, api string) {
	if err := w.list(); err != nil {
		w.b.o.Logf("ros: the controllers' parameters: %v", err)
	}
	if len(w.params) == 0 {
		return
	}
	for _, c := range w.controllers() {
		defer c.WatchGains(w.changed)()
	}
	defer w.unsubscribe(api)
	w.subscribe(ctx, api)
	for {
		w.applyPending()
		w.follow()
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-w.changed:
		}
	}
}

// controllers are the controllers whose gains are watched, once each.
func (w *gainWatch) controllers() []*control.Controller {
	var out []*control.Controller
	for i := range w.params {
		if c := w.params[i].c; len(out) == 0 || out[len(out)-1] != c {
			out = append(out, c)
		}
	}
	return out
}

// maxGainReply bounds subscribeParam's reply: a gain is a number; a
// value over this (a string of kilobytes set on a gain's key) is refused
// as not a number without being read.
const maxGainReply = 64 << 10

// gainCallTimeout bounds each subscribeParam; unsubscribeTimeout all
// the unsubscribeParam of a session's end together, which a master that
// stopped answering would otherwise delay the next registration by.
const (
	gainCallTimeout    = 3 * time.Second
	unsubscribeTimeout = time.Second
)

// subscribe subscribes to every gain's key; each reply's value is the
// gain's first update, unless an update came first (a set after the
// master registered the subscription: newer than the reply).
func (w *gainWatch) subscribe(ctx context.Context, api string) {
	failed := 0
	var why error
	for i := range w.params {
		g := &w.params[i]
		cctx, cancel := context.WithTimeout(ctx, gainCallTimeout)
		v, err := master.CallLimit(cctx, maxGainReply, w.b.masterURI, "subscribeParam", w.b.names.Node(), api, g.key)
		cancel()
		if ctx.Err() != nil {
			return
		}
		u := gainUpdate{present: true}
		switch r, ok := v.([]any); {
		case errors.Is(err, master.ErrTooLarge):
			u.v = fmt.Sprintf("a value over %d bytes", maxGainReply)
		case err != nil:
			failed, why = failed+1, err
			continue
		case !ok || len(r) != 3 || r[0] != 1:
			failed, why = failed+1, fmt.Errorf("subscribeParam %s: unexpected answer %.200v", g.key, v)
			continue
		default:
			if f, isNum := number(r[2]); isNum && f == g.last {
				continue // as list set it: a gain retuned since is set there by follow
			}
			u = present(r[2])
		}
		w.mu.Lock()
		if _, newer := w.pending[i]; !newer {
			w.pending[i] = u
		}
		w.mu.Unlock()
	}
	if failed > 0 {
		w.b.o.Logf("ros: %d of %d gains not subscribed to on the parameter server (%v): a change there does not reach them until the next registration", failed, len(w.params), why)
	}
}

// unsubscribe ends the subscriptions (unsubscribeParam, as roscpp does
// at shutdown since ros_comm PR #2068), within unsubscribeTimeout for all
// of them: at the first failure the master is taken to be gone.
func (w *gainWatch) unsubscribe(api string) {
	ctx, cancel := context.WithTimeout(context.Background(), unsubscribeTimeout)
	defer cancel()
	for i := range w.params {
		if _, err := master.CallLimit(ctx, 4<<10, w.b.masterURI, "unsubscribeParam", w.b.names.Node(), api, w.params[i].key); err != nil {
			return
		}
	}
}

// present is an update's value: an empty namespace is a deleted key.
func present(v any) gainUpdate {
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return gainUpdate{}
	}
	return gainUpdate{v: v, present: true}
}

// paramUpdate takes the master's paramUpdate (the node's callback, in
// the slave API's goroutine): it records the value of each gain the key
// holds and wakes the watch, never blocking. The key is the gain's, a
// namespace above it (its value a tree) or a key below it (the gain made
// a namespace: not a number). Any other key is ignored: the slave API
// answers anyone. At most one update per gain is pending, the last.
func (w *gainWatch) paramUpdate(key string, value any) {
	if !strings.HasPrefix(key, "/") { // the master sends global names
		w.b.paramIgnored.Add(1)
		return
	}
	prefix := key
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	w.mu.Lock()
	took := false
	for i := range w.params {
		gk := w.params[i].key
		switch {
		case gk == key:
			w.pending[i] = present(value)
		case strings.HasPrefix(gk, prefix):
			v, ok := lookup(value, gk[len(prefix):])
			if ok {
				w.pending[i] = present(v)
			} else {
				w.pending[i] = gainUpdate{}
			}
		case strings.HasPrefix(key, gk+"/"):
			w.pending[i] = gainUpdate{v: "a namespace", present: true}
		default:
			continue
		}
		took = true
	}
	w.mu.Unlock()
	if !took {
		w.b.paramIgnored.Add(1)
		return
	}
	w.b.paramUpdates.Add(1)
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// applyPending hands each pending update to its gain.
func (w *gainWatch) applyPending() {
	w.mu.Lock()
	pending := w.pending
	if len(pending) == 0 {
		w.mu.Unlock()
		return
	}
	w.pending = map[int]gainUpdate{}
	w.mu.Unlock()
	for i, u := range pending {
		w.apply(&w.params[i], u)
	}
}

// apply takes a gain's new value from the parameter server: a number
// SetGain takes goes to the controller; anything else is refused
// (counted, logged, the parameter set back); a deleted gain is set back
// (as a ros_control controller, frcd keeps its gains).
func (w *gainWatch) apply(g *gainParam, u gainUpdate) {
	g.last, _ = g.c.Gain(g.id) // retuned elsewhere meanwhile: the newest set decides
	if !u.present {
		w.restore(g, "deleted")
		return
	}
	f, isNum := number(u.v)
	if isNum && f == g.last {
		return
	}
	var err error
	if !isNum {
		g.c.Refuse()
		err = fmt.Errorf("%s is not a number", describe(u.v))
	} else if err = g.c.SetGain(g.id, f, w.b.o.Clock()); err == nil {
		w.b.o.Logf("ros: %s: %g -> %g", g.key, g.last, f)
		g.last = f
		return
	}
	w.refused(g, err)
}

// follow sets on the parameter server each gain retuned through another
// transport, and has dynamic_reconfigure publish the gains that changed.
func (w *gainWatch) follow() {
	for i := range w.params {
		g := &w.params[i]
		if cur, _ := g.c.Gain(g.id); cur != g.last {
			g.last = cur
			w.restore(g, "retuned elsewhere")
		}
	}
	for _, r := range w.reconf {
		r.follow()
	}
}

// lookup finds path ("a/b") in a parameter tree.
func lookup(tree any, path string) (any, bool) {
	for _, k := range strings.Split(path, "/") {
		m, ok := tree.(map[string]any)
		if !ok {
			return nil, false
		}
		if tree, ok = m[k]; !ok {
			return nil, false
		}
	}
	return tree, true
}

// describe names a value that is not a number in a bounded string: a
// string's first 100 bytes, a tree, a list or binary by their size ("%.100v"
// bounds strings only: it formats every element of a tree, and each byte
// of a []byte as 100 digits).
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%.100q", x)
	case map[string]any:
		return fmt.Sprintf("a namespace of %d keys", len(x))
	case []any:
		return fmt.Sprintf("a list of %d values", len(x))
	case []byte:
		return fmt.Sprintf("%d bytes of binary", len(x))
	case bool:
		return fmt.Sprint(x)
	}
	return fmt.Sprintf("a %T", v)
}

// number is a parameter's value as a float64: rosparam sets 12 as an int.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// refused logs a gain the controller refused (a few at once, then one a
// second) and sets the parameter back to the gain it kept.
func (w *gainWatch) refused(g *gainParam, err error) {
	if ok, more := w.limit.Allow(w.b.o.Clock()); ok {
		w.b.o.Logf("ros: %s refused: %v; keeping %g%s", g.key, err, g.last, more)
	}
	w.restore(g, "refused")
}

// restore sets a gain's parameter back to the controller's value.
func (w *gainWatch) restore(g *gainParam, why string) {
	if err := w.b.setParam(g.key, g.last); err != nil {
		w.b.o.Logf("ros: %s %s: cannot set it back to %g: %v", g.key, why, g.last, err)
	}
}
