package ros

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/diagnostic_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/nav_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_srvs"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/ratelimit"
)

// errMasterLost ends a session when the master stops answering or
// answers with another pid (it restarted and forgot us).
var errMasterLost = errors.New("the master was lost or restarted")

// imuOwner is who publishes an IMU: the joint state controller with the
// state topics (ctl ""), or its IMU sensor controller
// (control.Broadcaster) at its own rate (pace; broadcast.go), stamped
// frame; last is the loop time of the last sample it published.
type imuOwner struct {
	owner
	frame string
}

// session is one registration with a master: a node and everything on it.
type session struct {
	b    *Bridge
	node *goroslib.Node
	pid  int
	// shutdown receives the detail of the master's shutdown request.
	shutdown chan string

	closers []func()
	subs    []*goroslib.Subscriber
	gains   *gainWatch // the gains on the parameter server, by paramUpdate
	snap    *control.Snapshot
	msgs    *builder

	joints      *goroslib.Publisher
	imus        []*goroslib.Publisher
	imuOwn      []imuOwner // per IMU: its IMU sensor controller, if it has one
	batteries   []*goroslib.Publisher
	currents    []*goroslib.Publisher
	compressors [][4]*goroslib.Publisher // running, closed_loop, pressure_switch, current
	diagnostics *goroslib.Publisher

	truth       Truth               // filled by Options.Truth
	jointsTruth *goroslib.Publisher // /sim/joint_states_truth, on the sim
	groundTruth *goroslib.Publisher // /sim/ground_truth, with a drive base
	linkDigital []*goroslib.Publisher
	linkAnalog  []*goroslib.Publisher
	ds          *dsPubs // the driver_station/ topics, with Options.DriverStation
	odom        *odomPubs
	ctlStates   *ctlStatePubs
	trajStates  []*trajStatePub
}

// connect registers a node and everything on it with the master.
func (b *Bridge) connect(ctx context.Context) (*session, error) {
	pid, err := b.probe(ctx)
	if err != nil {
		return nil, err
	}
	if err := b.checkName(ctx); err != nil {
		return nil, err
	}
	shutdown := make(chan string, 1)
	watch := onNodeLog(shutdown)
	gains := b.newGainWatch()
	n, err := goroslib.NewNode(goroslib.NodeConf{
		Namespace:       b.names.Namespace(),
		Name:            b.names.Base(),
		MasterAddress:   b.hostport,
		Host:            b.o.Env.Host(),
		LogLevel:        goroslib.LogLevelInfo, // the shutdown request is Info
		LogDestinations: goroslib.LogDestinationCallback | goroslib.LogDestinationRosout,
		// goroslib reports a refused connection (a wrong message type)
		// nowhere useful; checkTypes counts those. Its other news is noise
		// to a robot's log (a subscriber's EOF whenever rostopic exits),
		// but for the master's shutdown request.
		OnLog:         func(l goroslib.LogLevel, msg string) { watch(int(l), msg) },
		ReadTimeout:   3 * time.Second,
		WriteTimeout:  2 * time.Second,
		OnParamUpdate: gains.paramUpdate,
	})
	if err != nil {
		return nil, err
	}
	s := &session{b: b, node: n, pid: pid, shutdown: shutdown, snap: b.o.Loop.NewSnapshot(), gains: gains}
	s.closers = append(s.closers, n.Close, func() { b.out.setNode(nil) })
	if err := s.setup(); err != nil {
		s.close()
		return nil, err
	}
	b.out.setNode(n)
	b.refused.attach(n, s.subs)
	s.closers = append(s.closers, b.refused.detach) // closed first, the node last
	b.setConnected(true, pid)
	return s, nil
}

func (s *session) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// publisher publishes a topic, its name resolved (relative names are in
// the node's namespace, then remapped).
func (s *session) publisher(topic string, msg any) (*goroslib.Publisher, error) {
	topic = s.b.names.Resolve(topic)
	// TCP_NODELAY for every subscriber, whatever its header asks (roscpp's
	// and rospy's default ask for Nagle, which at 1 kHz holds
	// /joint_states back ~40 ms at p99: the subscriber's delayed ACK).
	p, err := goroslib.NewPublisher(goroslib.PublisherConf{Node: s.node, Topic: topic, Msg: msg, TCPNoDelay: true})
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", topic, err)
	}
	s.closers = append(s.closers, p.Close)
	return p, nil
}

// Message size limits of the subscribers whose type has variable-length
// fields (goroslib's fork limits the others to their type's size: a
// std_msgs/Float64 command is 8 bytes): a publisher that sends more is
// disconnected before the message is read, and counted.
const (
	// pushLimit: a sensor_msgs/JointState of about a thousand joints
	// with long names.
	pushLimit = 256 << 10
	// groupLayout: a Float64MultiArray's layout, whatever its labels.
	groupLayout = 4 << 10
)

// commandLimit is the largest command message controller c takes: 0 (the
// type's own size) but for a group's Float64MultiArray, its layout and one
// float64 per joint.
func commandLimit(c *control.Controller) int64 {
	if c.Takes() == control.Float64Array {
		return groupLayout + 8*int64(len(c.Joints))
	}
	return 0
}

// subscribe subscribes to topic, its name resolved, taking messages of at
// most maxBytes (0: the type's size, or goroslib's 16 MiB for a type of
// variable size).
func (s *session) subscribe(topic string, callback any, maxBytes int64) error {
	topic = s.b.names.Resolve(topic)
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: s.node, Topic: topic, Callback: guard(callback, s.b.o.OnPanic), MaxMessageBytes: maxBytes})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", topic, err)
	}
	s.closers = append(s.closers, sub.Close)
	s.subs = append(s.subs, sub)
	return nil
}

func (s *session) serve(name string, srv, callback any) error {
	name = s.b.names.Resolve(name)
	sp, err := goroslib.NewServiceProvider(goroslib.ServiceProviderConf{Node: s.node, Name: name, Srv: srv, Callback: guard(callback, s.b.o.OnPanic)})
	if err != nil {
		return fmt.Errorf("service %s: %w", name, err)
	}
	s.closers = append(s.closers, sp.Close)
	return nil
}

func (s *session) setup() error {
	b := s.b
	if b.o.URDF != "" {
		// Through our own XML-RPC client: goroslib's does not escape the
		// XML inside a string parameter.
		key := b.names.Resolve(DescriptionParam)
		if err := b.setParam(key, b.o.URDF); err != nil {
			return fmt.Errorf("set %s: %w", key, err)
		}
	}
	if err := b.setPrivateParams(); err != nil {
		return err
	}
	if err := b.readRate(context.Background()); err != nil {
		b.o.Logf("ros: %v: keeping a period of %s", err, b.every)
	}
	b.cm.FirstRegistration(b.boolParam(StartParam, true))
	s.msgs = newBuilder(s.snap, b)
	var err error
	if s.joints, err = s.publisher(JointStatesTopic, &sensor_msgs.JointState{}); err != nil {
		return err
	}
	for _, imu := range s.snap.IMUs {
		p, err := s.publisher(imu.Name+"/imu", &sensor_msgs.Imu{})
		if err != nil {
			return err
		}
		own := imuOwner{frame: imu.Name}
		if bc, ok := b.cm.BroadcasterOf(imu.Name); ok {
			own = imuOwner{owner{ctl: bc.Name, pace: ratelimit.Own(bc.Rate, b.every, b.o.Loop.Period())}, cmp.Or(bc.FrameID, imu.Name)}
		}
		s.imus, s.imuOwn = append(s.imus, p), append(s.imuOwn, own)
	}
	for _, pdp := range s.snap.PDPs {
		p, err := s.publisher(pdp.Name+"/battery", &sensor_msgs.BatteryState{})
		if err != nil {
			return err
		}
		c, err := s.publisher(pdp.Name+"/currents", &std_msgs.Float64MultiArray{})
		if err != nil {
			return err
		}
		s.batteries, s.currents = append(s.batteries, p), append(s.currents, c)
	}
	for _, c := range s.snap.Compressors {
		var ps [4]*goroslib.Publisher
		for i, t := range []string{"running", "closed_loop", "pressure_switch"} {
			if ps[i], err = s.publisher(c.Name+"/"+t, &std_msgs.Bool{}); err != nil {
				return err
			}
		}
		if ps[3], err = s.publisher(c.Name+"/current", &std_msgs.Float64{}); err != nil {
			return err
		}
		s.compressors = append(s.compressors, ps)
	}
	for _, d := range s.snap.LinkDigital {
		p, err := s.publisher(d.Name, &std_msgs.Bool{})
		if err != nil {
			return err
		}
		s.linkDigital = append(s.linkDigital, p)
	}
	for _, a := range s.snap.LinkAnalog {
		p, err := s.publisher(a.Name, &std_msgs.Float64{})
		if err != nil {
			return err
		}
		s.linkAnalog = append(s.linkAnalog, p)
	}
	if s.diagnostics, err = s.publisher(DiagnosticsTopic, &diagnostic_msgs.DiagnosticArray{}); err != nil {
		return err
	}
	if b.o.Truth != nil && b.o.Truth(&s.truth) {
		if s.jointsTruth, err = s.publisher("sim/joint_states_truth", &sensor_msgs.JointState{}); err != nil {
			return err
		}
		if s.truth.HasPose {
			if s.groundTruth, err = s.publisher("sim/ground_truth", &nav_msgs.Odometry{}); err != nil {
				return err
			}
		}
	}
	for _, c := range b.o.Loop.Controllers() {
		if c.Takes() == control.JointTrajectory {
			continue // serveTrajectories
		}
		if err := s.subscribe(c.Name+"/"+c.Topic(), b.commandCallback(c), commandLimit(c)); err != nil {
			return err
		}
	}
	if b.o.Push != nil {
		if err := s.subscribe(PushTopic, b.push, pushLimit); err != nil {
			return err
		}
	}
	if b.o.SetEnabled != nil { // the sim, or hardware whose YAML allows it
		if err := s.serve(EnableService, &std_srvs.SetBool{}, b.enable); err != nil {
			return err
		}
	}
	if err := s.serve(GetLoggersService, &GetLoggers{}, b.getLoggers); err != nil {
		return err
	}
	if err := s.serve(SetLoggerLevelService, &SetLoggerLevel{}, b.setLoggerLevel); err != nil {
		return err
	}
	if err := s.serve(ListService, &std_srvs.Trigger{}, b.listControllers); err != nil {
		return err
	}
	if err := s.setupDS(); err != nil {
		return err
	}
	if err := s.setupOdometry(); err != nil {
		return err
	}
	if err := s.setupControllerStates(); err != nil {
		return err
	}
	if err := s.serveTrajectories(); err != nil {
		return err
	}
	if err := s.setupTrajectoryStates(); err != nil {
		return err
	}
	if err := s.serveGains(); err != nil {
		return err
	}
	return s.serveControllerManager()
}

// commandCallback is a command topic's callback for c.
// A controller's refused commands log refusedBurst lines at once, then
// refusedRate a second.
const (
	refusedBurst = 5.0
	refusedRate  = 1.0
)

func (b *Bridge) commandCallback(c *control.Controller) any {
	limit := &ratelimit.Refusals{Rate: refusedRate, Burst: refusedBurst}
	var clamped atomic.Uint64 // c.Clamped() when last logged
	count := func(err error) {
		if err == nil {
			b.commands.Add(1)
			// Taken but clamped to the joint's limits (control/ranges.go):
			// logged as a refusal is.
			if n := c.Clamped(); n > clamped.Swap(n) {
				if ok, more := limit.Allow(b.o.Clock()); ok {
					b.o.Logf("ros: /%s/command clamped to %s (%d so far)%s", c.Name, c.Limit(), n, more)
				}
			}
			return
		}
		// Refused (not finite, out of range, a stopped controller):
		// logged at WARN, to standard error and /rosout, a few at once
		// then one a second per controller, with the count of the others.
		if ok, more := limit.Allow(b.o.Clock()); ok {
			b.o.Logf("ros: /%s/command refused: %v%s", c.Name, err, more)
		}
	}
	switch c.Takes() {
	case control.Bool:
		return func(m *std_msgs.Bool) {
			v := 0.0
			if m.Data {
				v = 1
			}
			count(c.Command(v, b.o.Clock()))
		}
	case control.Int8:
		return func(m *std_msgs.Int8) { count(c.Command(float64(m.Data), b.o.Clock())) }
	case control.Float64Array:
		return func(m *std_msgs.Float64MultiArray) { count(c.CommandGroup(m.Data, b.o.Clock())) }
	case control.Twist:
		return b.twistCommand(c, count)
	}
	return func(m *std_msgs.Float64) { count(c.Command(m.Data, b.o.Clock())) }
}

func (b *Bridge) enable(req *std_srvs.SetBoolReq) (*std_srvs.SetBoolRes, bool) {
	if b.o.SetEnabled == nil {
		return &std_srvs.SetBoolRes{Success: false, Message: "frcd runs on real hardware: the Driver Station enables the robot"}, true
	}
	if err := b.o.SetEnabled(req.Data); err != nil {
		return &std_srvs.SetBoolRes{Success: false, Message: err.Error()}, true
	}
	what := "disabled"
	if req.Data {
		what = "enabled"
	}
	return &std_srvs.SetBoolRes{Success: true, Message: what}, true
}

func (b *Bridge) listControllers(*std_srvs.TriggerReq) (*std_srvs.TriggerRes, bool) {
	var sb strings.Builder
	for _, c := range b.o.Loop.Controllers() {
		fmt.Fprintf(&sb, "%s %s joints=%s topic=%s refused=%d", c.Name, c.Type, strings.Join(c.Joints, ","), b.names.Resolve(c.Name+"/"+c.Topic()), c.Refused())
		if goal, reached, ok := goalState(c); ok {
			fmt.Fprintf(&sb, " goal=%s at_goal=%v", goal, reached)
		}
		sb.WriteString("\n")
	}
	return &std_srvs.TriggerRes{Success: true, Message: sb.String()}, true
}

// run publishes until ctx ends or the master is lost.
func (s *session) run(ctx context.Context) error {
	b := s.b
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lost := make(chan error, 1)
	done := make(chan struct{})
	defer func() { cancel(); <-done }()
	go func() { // its HTTP calls may take seconds: never in the publishing goroutine
		defer close(done)
		lost <- s.watchMaster(ctx)
	}()
	diag := time.NewTicker(time.Second)
	defer diag.Stop()
	// The state topics' period, on its grid: a publication a cycle late
	// brings the next one a cycle sooner.
	pace := ratelimit.Cadence{Period: b.every, Slack: b.o.Loop.Period() / 2, CatchUp: b.o.Loop.Period()}
	// When the state topics are slower than the loop, the goroutine sleeps
	// between publications rather than wake at every cycle only to find
	// nothing due: the loop signals it only from the cycle the next one
	// (the state topics' or an IMU sensor controller's, broadcast.go) is
	// due at (Notice.From), so it wakes once a publication, with that
	// cycle's snapshot.
	b.updated.From(0)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-lost:
			return err
		case detail := <-s.shutdown:
			return &shutdownError{detail}
		case <-diag.C:
			b.o.Loop.ReadSnapshot(s.snap)
			s.diagnostics.Write(s.msgs.diagnostics())
			b.mu.Lock()
			b.stats.Diagnostics++
			b.mu.Unlock()
		case <-b.updated.C:
			s.answer(&pace, b.o.Clock())
		}
	}
}

// typesBackoff: with a getTopicTypes reply over maxTypesReply, the
// types are asked for every typesBackoff probes only.
const typesBackoff = 30

// watchMaster asks the master for its pid every Retry, and for the
// command topics' types; it returns when the master is lost or has
// restarted (another pid), or ctx ends.
func (s *session) watchMaster(ctx context.Context) error {
	b := s.b
	probe := time.NewTicker(b.o.Retry)
	defer probe.Stop()
	failed := 0 // probes in a row without an answer: a busy master may miss one
	wrong := map[string]bool{}
	probes := 0
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-probe.C:
		}
		pid, err := b.probe(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			// Refused: no master listens. A timeout may be a busy one.
			if failed++; failed < 3 && !errors.Is(err, syscall.ECONNREFUSED) {
				continue
			}
			return fmt.Errorf("%w: %v", errMasterLost, err)
		}
		failed = 0
		if pid != s.pid {
			return fmt.Errorf("%w: its pid went from %d to %d", errMasterLost, s.pid, pid)
		}
		// A master whose types were over maxTypesReply last time (a
		// flooded graph) is asked again only every typesBackoff probes.
		if probes++; !b.typesTooLarge.Load() || probes%typesBackoff == 0 {
			b.checkTypes(ctx, wrong)
		}
		if c, grew := b.refused.news(); grew {
			b.o.Logf("ros: refused so far, past their limits: %d messages over their subscriber's size, %d connections over their address's share", c[0], c[1])
		}
	}
}

// publishState publishes the state topics from the snapshot just read.
// Each message is new: goroslib encodes it later, in each subscriber's
// goroutine.
func (s *session) publishState() {
	s.publishDS()
	s.publishControllerStates()
	s.publishTrajectoryStates()
	if s.b.cm.JointStatesStopped() { // the joint state controller stopped
		return
	}
	s.joints.Write(s.msgs.jointState())
	for i := range s.snap.IMUs {
		if own := &s.imuOwn[i]; own.ctl == "" { // an IMU sensor controller's is its own (publishBroadcasters)
			s.imus[i].Write(s.msgs.imu(i, own.frame))
		}
	}
	for i := range s.snap.PDPs {
		bat, cur := s.msgs.pdp(i)
		s.batteries[i].Write(bat)
		s.currents[i].Write(cur)
	}
	if s.jointsTruth != nil && s.b.o.Truth(&s.truth) {
		js, odom := s.msgs.truth(&s.truth)
		s.jointsTruth.Write(js)
		if s.groundTruth != nil && odom != nil {
			s.groundTruth.Write(odom)
		}
	}
	for i, c := range s.snap.Compressors {
		st := c.State
		s.compressors[i][0].Write(&std_msgs.Bool{Data: st.Running})
		s.compressors[i][1].Write(&std_msgs.Bool{Data: st.ClosedLoop})
		s.compressors[i][2].Write(&std_msgs.Bool{Data: st.Full})
		s.compressors[i][3].Write(&std_msgs.Float64{Data: st.Current})
	}
	// A link sensor whose device failed its last read publishes nothing
	// rather than a stale value.
	for i, d := range s.snap.LinkDigital {
		if d.OK {
			s.linkDigital[i].Write(&std_msgs.Bool{Data: d.State.Value})
		}
	}
	for i, a := range s.snap.LinkAnalog {
		if a.OK {
			s.linkAnalog[i].Write(&std_msgs.Float64{Data: a.State.Value})
		}
	}
	s.b.mu.Lock()
	s.b.stats.JointStates++
	s.b.mu.Unlock()
}
