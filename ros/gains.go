package ros

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
// the running controller: frcd reads them back every gainPoll and hands a
// changed one to Controller.SetGain, which the loop takes between two
// cycles. A value SetGain refuses (not a number, out of its YAML key's
// range) is logged and counted, and the parameter set back to the gain the
// controller kept, so the server never shows a gain that is not running;
// a gain retuned through another transport (NT4, ROS 2) is set there too.
// control_toolbox's i_clamp_min and i_clamp_max are not read: frcd's
// integral clamp is symmetric (i_clamp).

// gainPoll is how often the gains on the parameter server are read back.
const gainPoll = 200 * time.Millisecond

// gainParam is one gain on the parameter server.
type gainParam struct {
	c    *control.Controller
	id   control.GainID
	ns   string // the key read back (NAME/pid, NAME/gains, NAME/velocity_ff), resolved
	path string // the gain's key under ns ("p", "JOINT/p", "JOINT")
	last float64
}

func (g *gainParam) key() string { return g.ns + "/" + g.path }

// gainParamOf places a controller's gain on the parameter server.
func (b *Bridge) gainParamOf(c *control.Controller, id control.GainID) gainParam {
	switch {
	case id.Joint == "":
		return gainParam{c: c, id: id, ns: b.names.Resolve(c.Name + "/pid"), path: id.Term}
	case id.Term == control.GainF:
		return gainParam{c: c, id: id, ns: b.names.Resolve(c.Name + "/velocity_ff"), path: id.Joint}
	}
	return gainParam{c: c, id: id, ns: b.names.Resolve(c.Name + "/gains"), path: id.Joint + "/" + id.Term}
}

// gainWatch reads a session's gains back from the parameter server.
type gainWatch struct {
	b      *Bridge
	params []gainParam
	limit  ratelimit.Refusals
	reconf []*reconfServer // dynamic_reconfigure servers, following the gains
}

// serveGains sets every controller's type, joints and gains on the
// parameter server, then reads the gains back every gainPoll until the
// session closes: in a goroutine of its own, so that the calls (three or
// more per controller) never delay the topics and services of a
// registration.
func (s *session) serveGains() error {
	b := s.b
	w := &gainWatch{b: b, limit: ratelimit.Refusals{Rate: refusedRate, Burst: refusedBurst}}
	for _, c := range b.o.Loop.Controllers() {
		for _, id := range c.GainIDs() {
			g := b.gainParamOf(c, id)
			g.last, _ = c.Gain(id)
			w.params = append(w.params, g)
		}
	}
	var err error
	if w.reconf, err = s.serveReconfigure(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	serve := guard(w.serve, b.o.OnPanic).(func(context.Context))
	go func() {
		defer close(done)
		serve(ctx)
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
		if err := b.setParam(g.key(), g.last); err != nil {
			return fmt.Errorf("set %s: %w", g.key(), err)
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

// serve lists the controllers, then reads the gains back until ctx ends.
func (w *gainWatch) serve(ctx context.Context) {
	if err := w.list(); err != nil {
		w.b.o.Logf("ros: the controllers' parameters: %v", err)
	}
	if len(w.params) == 0 {
		return
	}
	tick := time.NewTicker(gainPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		w.poll(ctx)
		for _, r := range w.reconf {
			r.follow()
		}
	}
}

// poll reads each namespace of gains once and hands the changed ones to
// their controllers.
func (w *gainWatch) poll(ctx context.Context) {
	got := map[string]any{}
	for i := range w.params {
		g := &w.params[i]
		tree, ok := got[g.ns]
		if !ok {
			tree = w.get(ctx, g.ns)
			got[g.ns] = tree
		}
		if ctx.Err() != nil {
			return
		}
		if tree == nil {
			continue // the master did not answer: next time
		}
		if cur, _ := g.c.Gain(g.id); cur != g.last { // retuned elsewhere (NT4, ROS 2): the server follows
			g.last = cur
			w.restore(g, "retuned elsewhere")
			continue
		}
		v, present := lookup(tree, g.path)
		if !present {
			w.restore(g, "deleted") // as a ros_control controller, frcd keeps its gains
			continue
		}
		f, isNum := number(v)
		if isNum && f == g.last {
			continue
		}
		var err error
		if !isNum {
			g.c.Refuse()
			err = fmt.Errorf("%v is not a number", v)
		} else if err = g.c.SetGain(g.id, f, w.b.o.Clock()); err == nil {
			w.b.o.Logf("ros: %s: %g -> %g", g.key(), g.last, f)
			g.last = f
			continue
		}
		w.refused(g, err)
	}
}

// maxGainsReply bounds the reply to one namespace of gains read back: a
// controller's take a few hundred bytes.
const maxGainsReply = 64 << 10

// get returns the value of key on the parameter server, or nil when the
// master does not answer or the value is over maxGainsReply (logged); a
// key that is not set is an empty tree.
func (w *gainWatch) get(ctx context.Context, key string) any {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	v, err := master.CallLimit(ctx, maxGainsReply, w.b.masterURI, "getParam", w.b.names.Node(), key)
	if errors.Is(err, master.ErrTooLarge) {
		if ok, _ := w.limit.Allow(w.b.o.Clock()); ok {
			w.b.o.Logf("ros: %s is over %d bytes: its gains are not read until it is smaller", key, maxGainsReply)
		}
		return nil
	}
	if err != nil {
		return nil
	}
	r, ok := v.([]any)
	if !ok || len(r) != 3 {
		return nil
	}
	if r[0] != 1 {
		return map[string]any{}
	}
	return r[2]
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
		w.b.o.Logf("ros: %s refused: %v; keeping %g%s", g.key(), err, g.last, more)
	}
	w.restore(g, "refused")
}

// restore sets a gain's parameter back to the controller's value.
func (w *gainWatch) restore(g *gainParam, why string) {
	if err := w.b.setParam(g.key(), g.last); err != nil {
		w.b.o.Logf("ros: %s %s: cannot set it back to %g: %v", g.key(), why, g.last, err)
	}
}
