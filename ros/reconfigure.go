package ros

import (
	"fmt"
	"sync"

	"github.com/bluenviron/goroslib/v2"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/ratelimit"
)

// dynamic_reconfigure, as rqt_reconfigure and dynparam use it: each PID
// controller's NAME/pid namespace (and each joint's NAME/gains/JOINT of a
// trajectory controller) is a dynamic_reconfigure server, as
// control_toolbox's Pid makes one there (control_toolbox noetic-devel
// src/pid.cpp: Pid::init(node) calls initDynamicReconfig(node) on the
// pid NodeHandle), offering the service NAME/pid/set_parameters
// (dynamic_reconfigure/Reconfigure) and the latched topics
// NAME/pid/parameter_descriptions (ConfigDescription) and
// NAME/pid/parameter_updates (Config) (ros/dynamic_reconfigure
// noetic-devel src/dynamic_reconfigure/server.py; its client.py waits for
// the service and both topics). Its parameters are frcd's gain terms
// (p, i, d, i_clamp, f: control_toolbox's cfg/Parameters.cfg has p, i, d,
// i_clamp_min, i_clamp_max and antiwindup; frcd's clamp is symmetric), in
// the ranges Controller.SetGain takes. A set_parameters request goes
// through SetGain: a value it refuses (NaN, negative, out of range) or a
// parameter the controller does not have is counted and logged, and the
// reply's Config, like parameter_updates, carries the gains still running.
// A gain retuned elsewhere (rosparam, NT4) is published on
// parameter_updates when its paramUpdate or Controller.WatchGains' signal
// arrives (gains.go).

// reconfServer is one controller's dynamic_reconfigure server.
type reconfServer struct {
	b       *Bridge
	c       *control.Controller
	ns      string
	joint   string           // the joint whose gains these are ("": the controller's)
	ids     []control.GainID // the gains offered
	updates *goroslib.Publisher

	mu    sync.Mutex
	last  []float64 // the gains last published on parameter_updates
	limit ratelimit.Refusals
}

// serveReconfigure serves dynamic_reconfigure for each controller whose
// gains are at NAME/pid, and for each joint of a trajectory controller at
// NAME/gains/JOINT (joint_trajectory_controller's
// hardware_interface_adapter.h inits a control_toolbox Pid per joint on
// NodeHandle(controller_nh, "gains/" + joint)).
func (s *session) serveReconfigure() ([]*reconfServer, error) {
	var out []*reconfServer
	for _, c := range s.b.o.Loop.Controllers() {
		byNS := map[string]*reconfServer{}
		var order []*reconfServer
		for _, id := range c.GainIDs() {
			ns := c.Name + "/pid"
			if id.Joint != "" {
				if id.Term == control.GainF {
					continue // NAME/velocity_ff/JOINT, not the joint's Pid
				}
				ns = c.Name + "/gains/" + id.Joint
			}
			r := byNS[ns]
			if r == nil {
				r = &reconfServer{b: s.b, c: c, ns: ns, joint: id.Joint, limit: ratelimit.Refusals{Rate: refusedRate, Burst: refusedBurst}}
				byNS[ns] = r
				order = append(order, r)
			}
			r.ids = append(r.ids, id)
		}
		for _, r := range order {
			if err := s.startReconfigure(r); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// startReconfigure advertises r's topics and service.
func (s *session) startReconfigure(r *reconfServer) error {
	r.last = make([]float64, len(r.ids))
	descr, err := s.latched(r.ns+"/parameter_descriptions", &DRConfigDescription{})
	if err != nil {
		return err
	}
	if r.updates, err = s.latched(r.ns+"/parameter_updates", &DRConfig{}); err != nil {
		return err
	}
	descr.Write(r.description())
	r.publish()
	return s.serve(r.ns+"/set_parameters", &Reconfigure{}, r.set)
}

// latched publishes a latched topic, its name resolved.
func (s *session) latched(topic string, msg any) (*goroslib.Publisher, error) {
	topic = s.b.names.Resolve(topic)
	p, err := goroslib.NewPublisher(goroslib.PublisherConf{Node: s.node, Topic: topic, Msg: msg, Latch: true})
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", topic, err)
	}
	s.closers = append(s.closers, p.Close)
	return p, nil
}

var gainDoc = map[string]string{
	control.GainP: "Proportional gain.", control.GainI: "Integral gain.", control.GainD: "Derivative gain.",
	control.GainIClamp: "Bound of the integral term (symmetric).", control.GainF: "Feedforward gain.",
}

// defaultGroup is the group every parameter is in, as dynamic_reconfigure
// names its top group (id 0, parent 0).
func defaultGroup() []DRGroupState {
	return []DRGroupState{{Key: "Default", State: true}}
}

// description is the server's ConfigDescription: the gains, their ranges,
// and the YAML's values as the defaults.
func (r *reconfServer) description() *DRConfigDescription {
	d := &DRConfigDescription{Groups: []DRGroup{{Key: "Default"}}}
	for _, id := range r.ids {
		lo, hi, _ := r.c.GainRange(id)
		v, _ := r.c.Gain(id)
		d.Groups[0].Parameters = append(d.Groups[0].Parameters, DRParamDescription{Key: id.Term, Type: "double", Level: 1, Description: gainDoc[id.Term]})
		d.Min.Doubles = append(d.Min.Doubles, DRDouble{Key: id.Term, Value: lo})
		d.Max.Doubles = append(d.Max.Doubles, DRDouble{Key: id.Term, Value: hi})
		d.Dflt.Doubles = append(d.Dflt.Doubles, DRDouble{Key: id.Term, Value: v})
	}
	d.Min.Groups, d.Max.Groups, d.Dflt.Groups = defaultGroup(), defaultGroup(), defaultGroup()
	return d
}

// config is the gains running now; the caller holds r.mu.
func (r *reconfServer) config() *DRConfig {
	c := &DRConfig{Groups: defaultGroup()}
	for i, id := range r.ids {
		r.last[i], _ = r.c.Gain(id)
		c.Doubles = append(c.Doubles, DRDouble{Key: id.Term, Value: r.last[i]})
	}
	return c
}

// publish sends the running gains on parameter_updates.
func (r *reconfServer) publish() *DRConfig {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.config()
	r.updates.Write(c)
	return c
}

// follow publishes the gains when one changed since they were last
// published (retuned by rosparam, NT4, ROS 2).
func (r *reconfServer) follow() {
	r.mu.Lock()
	changed := false
	for i, id := range r.ids {
		if v, _ := r.c.Gain(id); v != r.last[i] {
			changed = true
		}
	}
	r.mu.Unlock()
	if changed {
		r.publish()
	}
}

// maxReconfigure bounds the parameters of one set_parameters request.
const maxReconfigure = 64

// set is set_parameters: each double (or int) parameter to SetGain.
func (r *reconfServer) set(req *ReconfigureReq) (*ReconfigureRes, bool) {
	cfg := &req.Config
	now := r.b.o.Clock()
	n := len(cfg.Doubles) + len(cfg.Ints) + len(cfg.Bools) + len(cfg.Strs)
	if n > maxReconfigure {
		r.c.Refuse()
		r.refused(fmt.Errorf("%d parameters in one request, over %d", n, maxReconfigure))
		return &ReconfigureRes{Config: *r.publish()}, true
	}
	setOne := func(name string, v float64) {
		id := control.GainID{Joint: r.joint, Term: name}
		old, _ := r.c.Gain(id)
		if err := r.c.SetGain(id, v, now); err != nil {
			r.refused(err)
			return
		}
		r.b.o.Logf("ros: %s (dynamic_reconfigure): %s %g -> %g", r.b.names.Resolve(r.ns), name, old, v)
	}
	for _, d := range cfg.Doubles {
		setOne(d.Key, d.Value)
	}
	for _, d := range cfg.Ints {
		setOne(d.Key, float64(d.Value))
	}
	for _, d := range cfg.Bools {
		r.c.Refuse()
		r.refused(fmt.Errorf("%s: no boolean parameter", d.Key))
	}
	for _, d := range cfg.Strs {
		r.c.Refuse()
		r.refused(fmt.Errorf("%s: no string parameter", d.Key))
	}
	return &ReconfigureRes{Config: *r.publish()}, true
}

// refused logs a refused parameter: a few at once, then one a second.
func (r *reconfServer) refused(err error) {
	if ok, more := r.limit.Allow(r.b.o.Clock()); ok {
		r.b.o.Logf("ros: %s/set_parameters refused: %v; keeping the running gain%s", r.b.names.Resolve(r.ns), err, more)
	}
}
