package ros

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/ros/master"
)

// MasterMode says where the ROS master comes from.
type MasterMode int

const (
	// MasterEmbedded uses the master at ROS_MASTER_URI when one answers,
	// and otherwise starts one in-process at that address, so a robot
	// needs no ROS install.
	MasterEmbedded MasterMode = iota
	// MasterExternal only uses an external master, waiting for one to
	// answer.
	MasterExternal
)

// ParseMasterMode reads --master's value.
func ParseMasterMode(s string) (MasterMode, error) {
	switch s {
	case "embedded":
		return MasterEmbedded, nil
	case "external":
		return MasterExternal, nil
	}
	return 0, fmt.Errorf("--master=%s: want embedded or external", s)
}

// Options configure a Bridge.
type Options struct {
	// Loop is the running loop: the bridge reads its snapshots and
	// commands its controllers.
	Loop *control.Loop
	// Config is the robot's YAML (the joint state controller's rate).
	Config *config.File
	// Manager is the controller manager, shared with the ROS 2 bridge;
	// nil: the bridge makes its own of Config's controllers.
	Manager *control.Manager
	// URDF is the robot's URDF text, set as /robot_description.
	URDF string
	// Clock is the loop's clock, safe from any goroutine: commands are
	// stamped with it. Epoch is the wall-clock time of its zero, for
	// message stamps.
	Clock func() time.Duration
	Epoch time.Time
	// SetEnabled enables or disables the robot for /frcd/enable; an
	// error says why the robot is not enabled (e-stopped, no Driver
	// Station, disabled by it), which the service answers as a failure.
	// nil where the service must not exist (real hardware, unless the
	// YAML allows it: the Driver Station decides).
	SetEnabled func(bool) error
	// Truth fills t with the simulator's ground truth for
	// /sim/joint_states_truth and /sim/ground_truth, reusing its slices;
	// false when there is none. nil on real hardware: neither topic is
	// published.
	Truth func(t *Truth) bool
	// Push places a joint at a position and velocity for /sim/push; nil
	// on real hardware, where the topic does not exist.
	Push func(joint string, pos, vel float64) error
	// Diagnostics, when set, appends the backend's own statuses (CAN
	// buses, the heartbeat, the device inventory) to dst for /diagnostics,
	// once a second, from the bridge's goroutine.
	Diagnostics func(dst []Status) []Status
	// DriverStation, when set, fills what the Driver Station says beyond
	// the snapshot (joysticks, match time, alliance, brownout) for the
	// driver_station/ topics, from the bridge's goroutine.
	DriverStation func(*hal.DSInfo)
	// Rest are the positions /joint_states reports for joints not yet
	// measured (jointstate.RestPositions); nil: 0.
	Rest map[string]float64
	// Env is the ROS environment (EnvFrom(os.Getenv)).
	Env Env
	// Master says whether an embedded master may be started.
	Master MasterMode
	// Name is the node's name; default "frcd". Namespace is its
	// namespace in any spelling (ROS_NAMESPACE, __ns:=); default "/".
	// Remaps are the command line's remappings (from:=to) and Params its
	// private parameters (_param:=value), set under the node's name.
	Name      string
	Namespace string
	Remaps    map[string]string
	Params    map[string]any
	// PublishRate overrides the joint state controller's publish_rate, Hz
	// (0: the YAML's, or the loop's rate at most 100 Hz).
	PublishRate float64
	// Retry is how often the master is probed and a lost one retried;
	// default one second.
	Retry time.Duration
	// Logf reports connection changes; nil discards them.
	Logf func(format string, args ...any)
	// OnPanic, when set, is told of a panic in a topic or service
	// callback, on goroslib's goroutine that ran it (see guard).
	OnPanic func(v any)
	// MasterDown, when set, is told why the embedded master is down when
	// no master answers and it cannot start (its port taken by something
	// that is not a master, say), and "" once it runs or a master answers
	// again; without it the bridge logs each change. The bridge runs on
	// either way and tries again every EmbeddedRetry retries.
	MasterDown func(why string)
	// NodeDown, when set, is told why the bridge's node is off the ROS
	// graph (no master answers, the master shut it down, its name is held
	// by another running node) whenever that changes, and "" once it is
	// registered again; without it the bridge logs each change. No message
	// from the network ends Run: it registers again (node.go).
	NodeDown func(why string)
}

// Status is one entry of /diagnostics from outside the loop: a level
// (LevelOK, LevelWarn, LevelError, LevelStale), a name ("frcd: CAN can0"),
// a message and key-value pairs.
type Status struct {
	Level      int8
	Name       string
	HardwareID string
	Message    string
	Values     [][2]string
}

// Levels of a Status, as diagnostic_msgs/DiagnosticStatus has them.
const (
	LevelOK    = levelOK
	LevelWarn  = levelWarn
	LevelError = levelError
	LevelStale = levelStale
)

// Truth is the simulator's ground truth, apart from what the sensors
// measure (package jointstate's, shared with the ROS 2 bridge).
type Truth = jointstate.Truth

// Stats count the bridge's work; read them with Bridge.Stats.
type Stats struct {
	Connects     uint64 // registrations with a master (first and after each loss)
	JointStates  uint64 // /joint_states messages published
	IMUs         uint64 // IMU messages its IMU sensor controllers published (broadcast.go)
	Odometry     uint64 // odometry messages its drive controllers published (broadcast.go)
	Diagnostics  uint64 // /diagnostics messages published
	Commands     uint64 // command messages passed to controllers
	WrongType    uint64 // connections refused on a command topic for a wrong message type
	Pushes       uint64 // joints placed through /sim/push
	PushRefused  uint64 // /sim/push messages refused
	EmbeddedURI  string // the embedded master's URI, when one runs
	EmbeddedDown string // why the embedded master cannot start, while it cannot
	NodeDown     string // why the node is off the ROS graph, while it is (Options.NodeDown)
	MasterURI    string // the master in use
	MasterPID    int    // its pid, as getPid says
	Connected    bool
	PublishEvery time.Duration // the state topics' period
	// Oversize counts messages refused for being over their subscriber's
	// size limit (each disconnected its publisher); ConnsRefused the
	// TCPROS and node API connections closed for their address's share
	// (goroslib's fork, FORK.md; limits.go).
	Oversize, ConnsRefused uint64
	// ParamUpdates counts the master's paramUpdate calls that changed (or
	// confirmed) a gain; ParamIgnored those for a key that holds no gain
	// (gains.go).
	ParamUpdates, ParamIgnored uint64
}

// Bridge connects a running loop to ROS.
type Bridge struct {
	o         Options
	masterURI string
	hostport  string
	every     time.Duration // state topics' period
	names     *Names
	cm        *control.Manager
	out       rosout
	ctlTopics map[string]*control.Controller
	joints    map[string]bool // the movable joints, for /sim/push
	updated   *control.Notice // the loop's signal of new snapshots, from the next publication's cycle (Loop.NotifyFrom)

	mu      sync.Mutex
	stats   Stats
	waiters []registrationWaiter // see Registered

	commands, wrongType, pushes, pushRefused atomic.Uint64
	paramUpdates, paramIgnored               atomic.Uint64
	pushLog                                  ratelimit.Refusals // refused pushes' lines (push.go)
	typesTooLarge                            atomic.Bool        // checkTypes found the reply over maxTypesReply (logged once)
	refused                                  refusals
}

// New checks the options and prepares a bridge; Run connects it.
func New(o Options) (*Bridge, error) {
	if o.Loop == nil || o.Config == nil || o.Clock == nil {
		return nil, errors.New("ros: Options need Loop, Config and Clock")
	}
	if o.Name == "" {
		o.Name = "frcd"
	}
	if o.Retry <= 0 {
		o.Retry = time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Epoch.IsZero() {
		o.Epoch = time.Now().Add(-o.Clock())
	}
	uri, hostport, err := o.Env.Master()
	if err != nil {
		return nil, err
	}
	names, err := NewNames(o.Namespace, o.Name, o.Remaps)
	if err != nil {
		return nil, err
	}
	b := &Bridge{o: o, names: names, masterURI: uri, hostport: hostport, ctlTopics: map[string]*control.Controller{}, joints: map[string]bool{},
		updated: o.Loop.NotifyFrom(), pushLog: ratelimit.Refusals{Rate: refusedRate, Burst: refusedBurst}}
	for _, j := range o.Loop.NewSnapshot().Joints {
		b.joints[j.Name] = true
	}
	b.every = PublishPeriod(o.Config, o.Loop.Period(), o.PublishRate)
	for _, c := range o.Loop.Controllers() {
		b.ctlTopics[b.names.Resolve(c.Name+"/"+c.Topic())] = c
	}
	b.out.clock = o.Clock
	b.o.Logf = b.teeLog(o.Logf)
	if b.cm = o.Manager; b.cm == nil {
		b.cm = control.NewManager(o.Config, o.Loop)
	}
	b.cm.OnStart(func() { b.updated.From(0) }) // session.answer
	b.stats.MasterURI, b.stats.PublishEvery = uri, b.every
	return b, nil
}

// PublishPeriod is the state topics' period: rate when positive, else
// the joint state controller's publish_rate, else the loop's rate at most
// 100 Hz; never faster than the loop.
func PublishPeriod(c *config.File, loop time.Duration, rate float64) time.Duration {
	for _, cd := range c.Controllers {
		if rate <= 0 && cd.Type != nil && cd.Type.Controller != nil && cd.Type.Controller.JointStates && cd.Has("publish_rate") {
			rate = cd.Float("publish_rate")
		}
	}
	if rate <= 0 {
		return max(loop, 10*time.Millisecond)
	}
	return max(time.Duration(float64(time.Second)/rate), loop)
}

// Stats returns a copy of the bridge's counters.
func (b *Bridge) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.stats
	s.Commands, s.WrongType = b.commands.Load(), b.wrongType.Load()
	s.Pushes, s.PushRefused = b.pushes.Load(), b.pushRefused.Load()
	c := b.refused.counts()
	s.Oversize, s.ConnsRefused = c[0], c[1]
	s.ParamUpdates, s.ParamIgnored = b.paramUpdates.Load(), b.paramIgnored.Load()
	return s
}

// Run keeps the bridge registered until ctx ends: it starts an embedded
// master when allowed and none answers (at start, or when the master it
// used stops answering), registers, publishes, and re-registers whenever
// the master is lost or restarts. An embedded master that cannot start
// (its port taken) is reported (Options.MasterDown) and tried again: the
// robot runs on without ROS meanwhile. Nothing from the network ends it:
// a master's shutdown request (rosnode kill, another node taking its
// name), a lost master, or its name held by another running node take
// the node off the graph, reported (Options.NodeDown), and it registers
// again as soon as it may (node.go). It returns nil when ctx ends.
func (b *Bridge) Run(ctx context.Context) error {
	e := embeddedMaster{b: b}
	defer e.close()
	if b.o.Master == MasterEmbedded {
		if _, err := b.probe(ctx); err != nil {
			e.start()
		}
	}
	for ctx.Err() == nil {
		s, err := b.connect(ctx)
		if err != nil && e.m == nil && b.o.Master == MasterEmbedded &&
			(e.down() || errors.Is(err, syscall.ECONNREFUSED) && b.embeddedWasHere()) && e.start() {
			// The master this frcd used went away, and it was another
			// frcd's embedded one: this one hosts it now, from the state
			// file. (A rosmaster that restarts leaves no state file: its
			// port is left to it.) Or this frcd's own could not start
			// before, and now it has.
			continue
		}
		if err != nil {
			b.nodeDown(b.whyNotRegistered(err))
			if !sleepCtx(ctx, b.o.Retry) {
				break
			}
			continue
		}
		e.report("") // a master answers: nothing is down
		b.nodeDown("")
		b.o.Logf("ros: registered with the master at %s (pid %d)", b.masterURI, s.pid)
		err = s.run(ctx)
		s.close()
		b.setConnected(false, 0)
		if ctx.Err() != nil {
			break
		}
		b.nodeDown(fmt.Sprintf("%v; registering again (every %s until it may)", err, b.o.Retry))
	}
	return nil
}

// embeddedWasHere says whether an frcd's embedded master kept its state
// for this port: the master that stopped answering was one.
func (b *Bridge) embeddedWasHere() bool {
	path := b.o.Env.MasterState(b.hostport)
	if path == "" {
		return false
	}
	_, err := os.Stat(path)
	return err == nil
}

func (b *Bridge) setConnected(on bool, pid int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.Connected, b.stats.MasterPID = on, pid
	if !on {
		return
	}
	b.stats.Connects++
	kept := b.waiters[:0]
	for _, w := range b.waiters {
		if b.stats.Connects >= w.n {
			close(w.ch)
		} else {
			kept = append(kept, w)
		}
	}
	b.waiters = kept
}

type registrationWaiter struct {
	n  uint64
	ch chan struct{}
}

// Registered returns a channel closed once the bridge has registered with
// a master n times in all (Stats.Connects >= n): 1 for the first
// registration, Stats().Connects+1 for the next one after a loss.
func (b *Bridge) Registered(n uint64) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan struct{})
	if b.stats.Connects >= n {
		close(ch)
		return ch
	}
	b.waiters = append(b.waiters, registrationWaiter{n, ch})
	return ch
}

// masterLog passes on the embedded master's news, less its routine:
// each registration, and updates to nodes that have exited (rostopic
// after a pub -1), which rosmaster too keeps to its log file.
func (b *Bridge) masterLog(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if strings.HasPrefix(msg, "ros master: +") || strings.HasPrefix(msg, "ros master: -") ||
		strings.Contains(msg, "connection refused") {
		return
	}
	b.o.Logf("%s", msg)
}

// probe asks the master for its pid: an answer means a master is up, and
// a new pid that it restarted.
func (b *Bridge) probe(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, max(b.o.Retry, 2*time.Second))
	defer cancel()
	v, err := master.Call(ctx, b.masterURI, "getPid", b.names.Node())
	if err != nil {
		return 0, err
	}
	r, ok := v.([]any)
	if !ok || len(r) != 3 {
		return 0, fmt.Errorf("getPid: unexpected answer %v", v)
	}
	code, _ := r[0].(int)
	pid, _ := r[2].(int)
	if code != 1 {
		return 0, fmt.Errorf("getPid: %v", r[1])
	}
	return pid, nil
}

// setParam sets a parameter on the master.
func (b *Bridge) setParam(key string, value any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	v, err := master.Call(ctx, b.masterURI, "setParam", b.names.Node(), key, value)
	if err != nil {
		return err
	}
	if r, ok := v.([]any); !ok || len(r) != 3 || r[0] != 1 {
		return fmt.Errorf("setParam: unexpected answer %v", v)
	}
	return nil
}

// commandType is the message type a controller's topic carries.
func commandType(c *control.Controller) string {
	switch c.Takes() {
	case control.Bool:
		return "std_msgs/Bool"
	case control.Int8:
		return "std_msgs/Int8"
	case control.Float64Array:
		return "std_msgs/Float64MultiArray"
	case control.Twist:
		return "geometry_msgs/Twist"
	case control.JointTrajectory:
		return "trajectory_msgs/JointTrajectory"
	}
	return "std_msgs/Float64"
}

// maxTypesReply bounds the getTopicTypes reply checkTypes reads: room for
// a few thousand topics.
const maxTypesReply = 256 << 10

// checkTypes asks the master for the topics' types: a command topic the
// master knows by another type has a publisher of the wrong type, whose
// connection goroslib refuses (and does not report). Each time that
// starts, it counts as a refused command of the topic's controller.
func (b *Bridge) checkTypes(ctx context.Context, wrong map[string]bool) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	// Bounded: the reply grows with the graph, and a flooded master's
	// would cost this goroutine (and the loop's CPU) every second.
	v, err := master.CallLimit(ctx, maxTypesReply, b.masterURI, "getTopicTypes", b.names.Node())
	if errors.Is(err, master.ErrTooLarge) && !b.typesTooLarge.Swap(true) {
		b.o.Logf("ros: the master's getTopicTypes reply is over %d KiB: the check of the command topics' types is off while it is", maxTypesReply>>10)
	}
	r, ok := v.([]any)
	if err != nil || !ok || len(r) != 3 {
		return
	}
	b.typesTooLarge.Store(false)
	pairs, _ := r[2].([]any)
	for _, p := range pairs {
		tt, _ := p.([]any)
		if len(tt) != 2 {
			continue
		}
		topic, _ := tt[0].(string)
		typ, _ := tt[1].(string)
		c := b.ctlTopics[topic]
		if c == nil {
			continue
		}
		bad := typ != commandType(c) && typ != "*"
		if bad && !wrong[topic] {
			c.Refuse()
			b.wrongType.Add(1)
			b.o.Logf("ros: %s has a publisher of %s; it takes %s: refused", topic, typ, commandType(c))
		}
		wrong[topic] = bad
	}
}

// stamp is the wall-clock time of a loop time.
func (b *Bridge) stamp(t time.Duration) time.Time { return b.o.Epoch.Add(t) }

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
