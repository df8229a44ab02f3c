// Package ros2bridge connects a running loop to ROS 2 through package
// ros2node (no rcl, no cgo): a node, by default /frcd (and beside it, in
// its participant, /controller_manager and a node per controller, as
// ros2_control's graph has them: controller_nodes.go), that publishes
//
//	/joint_states        sensor_msgs/msg/JointState, reliable, volatile, keep last 10,
//	                     from the joint state controller's node (jointStateNode),
//	                     built by package jointstate's rules (as the ROS 1 bridge)
//	/robot_description   std_msgs/msg/String, the URDF, reliable, transient local,
//	                     keep last 1 (as robot_state_publisher publishes it)
//
// and subscribes each controller's command topic, <controller>/command,
// std_msgs/msg/Float64 (one joint) or std_msgs/msg/Float64MultiArray (a
// group), and, for the types that forward a value per joint (voltage,
// position, velocity, effort), <controller>/commands,
// std_msgs/msg/Float64MultiArray as ros2_controllers' forward command
// controllers take it, and for the PID controllers <controller>/reference,
// control_msgs/msg/MultiDOFCommand as pid_controller takes it; all best
// effort, so that reliable and best-effort publishers both match. A
// command that does not decode, or that its controller refuses, is counted (the controller's Refused, Stats.Refused) and logged, a few
// at once then one a second per controller and topic; it never reaches an output.
// The service ~/enable (std_srvs/srv/SetBool) enables the robot where
// the ROS 1 bridge's /frcd/enable does (the sim; real hardware only when
// the YAML allows it).
//
// Drive bases take twists and joint trajectory controllers trajectories
// and the FollowJointTrajectory action (command_motion.go, action.go).
//
// The loop never waits for the bridge: Run copies its snapshots on its
// own goroutine and publishes from there, rebuilding one message in place
// (no allocation per publication).
package ros2bridge

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// Topics, relative to the node's namespace.
const (
	JointStatesTopic      = "joint_states"
	RobotDescriptionTopic = "robot_description"
	EnableService         = "~/enable"
)

// Options configure a Bridge.
type Options struct {
	// Loop is the running loop: the bridge reads its snapshots and
	// commands its controllers.
	Loop *control.Loop
	// URDF is the robot's URDF text, published on /robot_description.
	URDF string
	// Clock is the loop's clock, safe from any goroutine: commands are
	// stamped with it. Epoch is the wall-clock time of its zero, for
	// message stamps; default now minus Clock().
	Clock func() time.Duration
	Epoch time.Time
	// Rest are the positions /joint_states reports for joints not yet
	// measured (jointstate.RestPositions); nil: 0.
	Rest map[string]float64
	// Every is the state topics' period (the ROS 1 bridge's
	// PublishPeriod); default the loop's period, at least 10 ms.
	Every time.Duration
	// Node is the node's configuration: its name (default frcd),
	// namespace, remappings, and its participant's (ros2node.Discovery).
	Node ros2node.Config
	// SetEnabled enables or disables the robot for the ~/enable service
	// (std_srvs/srv/SetBool, /frcd/enable by default, as on ROS 1); an
	// error says why the robot is not enabled, answered as a failure. nil
	// on real hardware (unless the YAML allows it): the service then
	// answers every request with a failure, the Driver Station decides.
	SetEnabled func(bool) error
	// Manager is the controller manager the controller_manager services
	// serve (shared with the ROS 1 bridge); nil: no such services.
	Manager *control.Manager
	// OnPanic, when set, is told of a panic in a command or service
	// handler, on the node's goroutine that ran it (the daemon makes every
	// output neutral and stops); nil lets the panic go on.
	OnPanic func(v any)
	// Logf reports refused commands; nil discards.
	Logf func(format string, args ...any)
	// State is what the state topics need beyond the loop (state.go).
	State StateOptions
	// Sim are the simulator's hooks for the sim/ topics (sim.go); zero
	// on real hardware.
	Sim SimOptions
	// JointStatesOnly publishes /joint_states alone on the loop's beat:
	// no state topics, /dynamic_joint_states or /tf (the node, its
	// services and command topics are as ever). make bench's like-for-like
	// measure against a Cyclone DDS publisher of the same joint states
	// (internal/ros2bench); false in frcd.
	JointStatesOnly bool
}

// Stats count the bridge's work.
type Stats struct {
	JointStates uint64 // /joint_states messages published
	Commands    uint64 // commands passed to controllers
	Refused     uint64 // commands refused: undecodable, or refused by their controller
	PublishErr  uint64 // publications that failed
	Odometry    uint64 // nav_msgs/Odometry messages published (every drive base's)
}

// Bridge is frcd's ROS 2 node.
type Bridge struct {
	o       Options
	node    *ros2node.Node
	joints  *ros2node.Publisher
	desc    *ros2node.Publisher
	updated *control.Notice // the loop's signal of new snapshots, from when the next publication is due
	wake    *waker          // what updated signals (wake_linux.go)
	snap    *control.Snapshot
	// hist is the loop's ring of every cycle's joint states: Run
	// publishes each cycle due on the grid from it, also those the loop
	// ran while the bridge was not scheduled (update).
	hist *control.History
	// pace is Run's grid; jsNow and jsStates the cycle being published
	// (update), lastCycle the time of the last one.
	pace      ratelimit.Cadence
	jsNow     time.Duration
	jsStates  []interfaces.JointState
	lastCycle time.Duration
	// jsOff: the last update found the joint state controller stopped.
	jsOff   bool
	build   *jointstate.Builder
	js      ros2msg.JointState
	st      *stateTopics   // state.go
	out     *rosout        // rosout.go
	sensors *sensorTopics  // sensors.go
	sim     *simTopics     // sim.go
	ctl     *controlTopics // control_state.go

	jointStates, commands, refused, publishErr, odometry atomic.Uint64
	closeOnce                                            sync.Once
	closeErr                                             error
	done                                                 chan struct{}       // closed by Close: the action goroutines end
	ds                                                   *dsTopics           // the driver_station/ topics, with StateOptions.DriverStation
	paramEvents                                          *ros2node.Publisher // /parameter_events (param_events.go)

	ctlNodes map[string]*ros2node.Node // the controllers' nodes (controller_nodes.go)
	ctlMu    sync.Mutex                // ctlNodes's writes, and syncControllerNodes
}

// Close stops the node (Run does when it returns); it may be called
// more than once.
func (b *Bridge) Close() error {
	b.closeOnce.Do(func() { close(b.done); b.wake.close(); b.out.stop(); b.closeErr = b.node.Close() })
	return b.closeErr
}

// New starts the node, publishes /robot_description and subscribes the
// command topics; Run publishes the joint states.
func New(o Options) (*Bridge, error) {
	if o.Loop == nil || o.Clock == nil {
		return nil, errors.New("ros2bridge: Options need Loop and Clock")
	}
	if o.Node.Name == "" {
		o.Node.Name = "frcd"
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Epoch.IsZero() {
		o.Epoch = time.Now().Add(-o.Clock())
	}
	if o.Every <= 0 {
		o.Every = max(o.Loop.Period(), 10*time.Millisecond)
	}
	o.Every = max(o.Every, o.Loop.Period())
	n, err := ros2node.New(o.Node)
	if err != nil {
		return nil, err
	}
	wake := newWaker()
	b := &Bridge{o: o, node: n, wake: wake, updated: o.Loop.NotifyWith(wake.wake), snap: o.Loop.NewSnapshot(), hist: o.Loop.NewHistory(max(64, int(histSpan/o.Loop.Period()))),
		done: make(chan struct{})}
	b.pace = ratelimit.Cadence{Period: o.Every, Slack: o.Loop.Period() / 2, CatchUp: o.Loop.Period()}
	b.build = jointstate.New(b.snap, o.Rest)
	b.js.Name = b.build.Names
	fail := func(err error) (*Bridge, error) { b.wake.close(); b.out.stop(); n.Close(); return nil, err }
	if b.joints, err = b.jointStateNode().Publisher(JointStatesTopic, &b.js, ros2node.Default); err != nil {
		return fail(err)
	}
	if b.desc, err = n.Publisher(RobotDescriptionTopic, &ros2msg.String{}, ros2node.Latched); err != nil {
		return fail(err)
	}
	if err := b.desc.Publish(&ros2msg.String{Data: o.URDF}); err != nil {
		return fail(err)
	}
	if err := b.setupState(); err != nil {
		return fail(err)
	}
	if err := b.setupControlStates(); err != nil {
		return fail(err)
	}
	if err := b.setupSensors(); err != nil {
		return fail(err)
	}
	if err := b.setupSim(); err != nil {
		return fail(err)
	}
	enable := func(req *cdr.Decoder, resp *cdr.Encoder) error {
		defer b.guard()
		return b.enable(req, resp)
	}
	if _, err := n.NewService(EnableService, "std_srvs/srv/SetBool", enable); err != nil {
		return fail(err)
	}
	if err := b.serveParams(n, b.params()); err != nil {
		return fail(err)
	}
	if err := b.serveControllerManager(); err != nil {
		return fail(err)
	}
	if err := b.serveControllerNodes(); err != nil {
		return fail(err)
	}
	for _, c := range o.Loop.Controllers() {
		msg, handler := b.commandHandler(c)
		if handler == nil {
			if ok, err := b.subscribeMotion(c); err != nil {
				return fail(err)
			} else if ok {
				continue
			}
			o.Logf("ros2: controller %s (%s): its commands have no ROS 2 topic yet", c.Name, c.Type)
			continue
		}
		if _, err := b.nodeOf(c.Name).Subscribe(c.Name+"/"+c.Topic(), msg, commandQoS, handler); err != nil {
			return fail(err)
		}
		if t := c.ForwardTopic(); t != "" {
			var m ros2msg.Float64MultiArray
			h := b.decodeHandler(c, t, &m, func() error { return c.CommandJoints(m.Data, b.o.Clock()) })
			if _, err := b.nodeOf(c.Name).Subscribe(c.Name+"/"+t, &m, commandQoS, h); err != nil {
				return fail(err)
			}
		}
		if t := c.ReferenceTopic(); t != "" {
			var m ros2msg.MultiDOFCommand
			h := b.decodeHandler(c, t, &m, func() error { return c.CommandDOFs(m.DOFNames, m.Values, b.o.Clock()) })
			if _, err := b.nodeOf(c.Name).Subscribe(c.Name+"/"+t, &m, commandQoS, h); err != nil {
				return fail(err)
			}
		}
	}
	if o.Manager != nil {
		o.Manager.OnStart(func() { b.updated.From(0) }) // answer
	}
	return b, nil
}

// histSpan is how long the bridge may go unscheduled before the loop's
// ring of joint states for it fills and cycles go unpublished (counted by
// the ring).
const histSpan = 250 * time.Millisecond

// commandQoS: best effort, so that reliable publishers (ros2 topic pub's
// default) and best-effort ones both match (a reader's requested
// reliability must not exceed the writer's offered one, DDS 1.4 §2.2.3).
var commandQoS = rtps.QoS{Reliability: rtps.BestEffort, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 10}

// Refused commands log refusedBurst lines at once, then refusedRate a
// second, per controller and command topic (as the ROS 1 bridge per controller).
const (
	refusedBurst = 5.0
	refusedRate  = 1.0
)

// commandHandler is c's command topic's message and handler, or a nil
// handler for a command type without a ROS 2 topic.
func (b *Bridge) commandHandler(c *control.Controller) (ros2msg.Message, func(rtps.Sample)) {
	// take is the handler decoding into the reused message m and passing
	// it on by apply.
	take := func(m ros2msg.Message, apply func() error) (ros2msg.Message, func(rtps.Sample)) {
		return m, b.decodeHandler(c, c.Topic(), m, apply)
	}
	switch c.Takes() {
	case control.Float64:
		var m ros2msg.Float64
		return take(&m, func() error { return c.Command(m.Data, b.o.Clock()) })
	case control.Bool:
		var m ros2msg.Bool
		return take(&m, func() error {
			v := 0.0
			if m.Data {
				v = 1
			}
			return c.Command(v, b.o.Clock())
		})
	case control.Int8:
		var m ros2msg.Int8
		return take(&m, func() error { return c.Command(float64(m.Data), b.o.Clock()) })
	case control.Float64Array:
		var m ros2msg.Float64MultiArray
		return take(&m, func() error { return c.CommandGroup(m.Data, b.o.Clock()) })
	}
	return nil, nil
}

// decodeHandler is the handler of c's topic (under its name) that
// decodes each sample into m and passes it on by apply (m held for it),
// counting and logging what is refused. Every command topic uses it, and
// so do ros2_controllers' forms: forward_command_controller's "~/commands"
// (std_msgs/msg/Float64MultiArray, one value per joint; jazzy ed360c97
// forward_controllers_base.cpp drops a message with a value that is not
// finite and fails its update on one of the wrong length: frcd refuses
// both on arrival) and pid_controller's "~/reference"
// (control_msgs/msg/MultiDOFCommand: dof_names the joint or none, values
// one; values_dot is not used, frcd's PIDs take no reference rate).
func (b *Bridge) decodeHandler(c *control.Controller, topic string, m ros2msg.Message, apply func() error) func(rtps.Sample) {
	var mu sync.Mutex // m
	count := b.counter(c, "/"+c.Name+"/"+topic)
	return func(s rtps.Sample) {
		defer b.guard()
		mu.Lock()
		defer mu.Unlock()
		if err := ros2msg.Unmarshal(s.Payload, m); err != nil {
			c.Refuse()
			count(err)
			return
		}
		count(apply())
	}
}

// enable answers ~/enable: std_srvs/srv/SetBool {bool data} ->
// {bool success; string message} (ros2/common_interfaces
// std_srvs/srv/SetBool.srv), as the ROS 1 bridge's /frcd/enable.
func (b *Bridge) enable(req *cdr.Decoder, resp *cdr.Encoder) error {
	on := req.Bool()
	if err := req.Err(); err != nil {
		return err
	}
	ok, msg := false, "frcd runs on real hardware: the Driver Station enables the robot"
	if b.o.SetEnabled != nil {
		if err := b.o.SetEnabled(on); err != nil {
			msg = err.Error()
		} else {
			ok, msg = true, "disabled"
			if on {
				msg = "enabled"
			}
		}
	}
	resp.Bool(ok)
	resp.String(msg)
	return nil
}

// guard, deferred by each handler, passes a panic to OnPanic.
func (b *Bridge) guard() {
	if b.o.OnPanic == nil {
		return
	}
	if v := recover(); v != nil {
		b.o.OnPanic(v)
	}
}

// Node is the bridge's ROS 2 node.
func (b *Bridge) Node() *ros2node.Node { return b.node }

// Every is the state topics' period.
func (b *Bridge) Every() time.Duration { return b.o.Every }

// Stats returns the bridge's counters.
func (b *Bridge) Stats() Stats {
	return Stats{JointStates: b.jointStates.Load(), Commands: b.commands.Load(), Refused: b.refused.Load(), PublishErr: b.publishErr.Load(),
		Odometry: b.odometry.Load()}
}

// Run publishes the joint states every Every until ctx ends (or Close),
// then closes the node (peers forget it at once).
func (b *Bridge) Run(ctx context.Context) error {
	defer b.Close()
	defer context.AfterFunc(ctx, b.wake.close)()
	for b.wake.wait() {
		if ctx.Err() != nil {
			return nil
		}
		b.answer()
	}
	return nil
}

// answer runs update, then asks the loop to signal from nextWake on:
// nothing is due before the first of the next times (the joint states'
// grid, each owner's), so the cycles between need not wake Run. A
// controller started meanwhile (the Manager's OnStart sets From(0), which
// the From here may have overwritten) makes it every cycle again, so
// that a restart is seen at the next cycle, not at a slow owner's next
// time (publish_rate down to 0.1 Hz).
func (b *Bridge) answer() {
	var starts uint64
	if m := b.o.Manager; m != nil {
		starts = m.Starts()
	}
	b.update()
	b.updated.From(b.nextWake())
	if m := b.o.Manager; m != nil && m.Starts() != starts {
		b.updated.From(0)
	}
}

// update answers one of the loop's notifications: it publishes, oldest
// first, each cycle the loop ran since the last notification whose time
// is due on the period's grid (one a cycle late brings the next a cycle
// sooner), from the loop's history of joint states (control.History),
// with the newest snapshot's state topics once, and says whether it
// published. Each cycle is read from the ring once, so no sample goes out
// twice, and none is skipped because the bridge woke late: under load
// the loop may run two cycles within the bridge's wake-up time (a late
// cycle, then one on time), and the newest snapshot alone lost the first
// (issue 38: /joint_states at 71-80/s of 100 Hz while the loop kept it).
// A notification can be a leftover (sent while the bridge was reading
// what it announces): the ring is empty then, and nothing is published.
func (b *Bridge) update() bool {
	published := false
	if b.o.Manager != nil && b.o.Manager.JointStatesStopped() {
		// The joint state controller is stopped: none of its topics,
		// its grid kept; the broadcasters publish on their own.
		for b.hist.Next(b.takeTime) {
			b.pace.Due(b.jsNow)
		}
		b.jsOff = true
		b.publishBroadcasters(false)
		return false
	}
	if b.jsOff {
		// Started again since the last update: the ring's cycles ran
		// (mostly) while it was stopped, up to a broadcaster's period
		// ago when only a broadcaster woke Run, and are not its to
		// publish (they came out at once, stamped before the restart).
		// Its grid starts afresh: the next cycle publishes (nextWake
		// is every cycle until then).
		b.jsOff = false
		for b.hist.Next(b.takeTime) {
		}
		b.pace.Restart()
	}
	for b.hist.Next(b.takeCycle) {
		if !b.pace.Due(b.jsNow) {
			continue
		}
		if !published {
			b.o.Loop.ReadSnapshot(b.snap)
			published = true
		}
		b.publishCycle()
	}
	b.publishBroadcasters(published) // each at its own rate (broadcast.go)
	if published && !b.o.JointStatesOnly {
		b.publishState() // the snapshot's state topics, once
	}
	return published
}

// takeCycle keeps one cycle of the ring for update: its time and its
// joints' states, over the snapshot's (read once per update: the state
// topics are its).
func (b *Bridge) takeCycle(now time.Duration, joints []interfaces.JointState) {
	b.jsNow = now
	b.jsStates = append(b.jsStates[:0], joints...)
}

// Publish publishes the newest snapshot's joint state and state topics
// now, new or not, and returns its loop time (Run publishes every cycle
// due, update). It allocates nothing: each message is rebuilt in place.
// Only one goroutine may call it: Run's, or a test's or benchmark's
// without Run.
func (b *Bridge) Publish() time.Duration {
	b.o.Loop.ReadSnapshot(b.snap)
	b.jsNow = b.snap.Now
	b.jsStates = b.jsStates[:0]
	for i := range b.snap.Joints {
		b.jsStates = append(b.jsStates, b.snap.Joints[i].State)
	}
	b.publishCycle()
	b.publishBroadcasters(true) // those due
	if !b.o.JointStatesOnly {
		b.publishState()
	}
	return b.snap.Now
}

// publishCycle publishes the cycle update took (b.jsNow, b.jsStates):
// /joint_states, and what joint_state_broadcaster and
// robot_state_publisher publish with it (/dynamic_joint_states, the
// movable joints on /tf), each stamped with the cycle's time.
func (b *Bridge) publishCycle() {
	snap := b.snap
	for i := range snap.Joints { // the cycle's states over the snapshot's, which the rest of its fields go with
		snap.Joints[i].State = b.jsStates[i]
	}
	b.lastCycle = b.jsNow
	b.js.Header.Stamp = ros2msg.TimeOf(b.o.Epoch.Add(b.jsNow))
	b.js.Position, b.js.Velocity, b.js.Effort = b.build.Fill(snap, b.js.Position, b.js.Velocity, b.js.Effort)
	if err := b.joints.Publish(&b.js); err != nil {
		b.publishErr.Add(1)
	} else {
		b.jointStates.Add(1)
	}
	if b.o.JointStatesOnly {
		return
	}
	b.publishDynamicJointStates(b.js.Header.Stamp)
	b.publishTFJoints(b.js.Header.Stamp)
}
