// Package daemon wires a robot together: the robot description, a HAL
// backend, the devices bound to it, the control loop, and (with the ROS
// bridge) the ROS side; it owns their lifecycle and shutdown.
//
// A Daemon runs two ways. Step advances a deterministic simulated robot
// by exactly one loop period: scenario tests and benchmarks use it, and
// nothing sleeps. Run runs in real time until its context ends, then makes
// every output neutral before it returns.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/nt4"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/wpilibws"
	"github.com/frcd/frcd/wpilog"
)

// Options configure a Daemon, on the sim (NewSim) or on real hardware
// (New). What only the sim has is in SimOptions, which New does not take.
type Options struct {
	// Rate overrides the YAML's loop.rate_hz when > 0.
	Rate float64
	// Spin is how long before each cycle's deadline Run stops sleeping and
	// spins on the clock, trading CPU for jitter. Negative means never;
	// 0 spins at 500 Hz and above only as long as the measured wake-up
	// lateness needs (its running 99th percentile), else never.
	Spin time.Duration
	// Priority is the SCHED_FIFO priority (1-99) Run gives the loop's
	// thread, where the process may (CAP_SYS_NICE, as WPILib's deploy
	// grants robot programs; root); 0 means DefaultPriority, negative the
	// normal priority. The status line says which it got.
	Priority int
	// Status, when set, gets a one-line status each StatusEvery (Run only).
	Status      io.Writer
	StatusEvery time.Duration
	// ROS, when set, runs the ROS bridge beside the loop (Run starts it).
	ROS *ROSOptions
	// ROS2, when set, runs the ROS 2 bridge beside the loop (ros2.go),
	// alone or beside the ROS 1 one.
	ROS2 *ROS2Options
	// Logf gets the daemon's log lines (the loop's priority, the CAN
	// inventory, parts down and up, a panic) and those of the NT4 and
	// WebSocket servers about their clients; nil discards.
	Logf func(format string, args ...any)
	// Telemetry, when set, runs the NT4 server and writes WPILOG files
	// (nt4.go).
	Telemetry *TelemetryOptions
	// Halted, when set, is called when Run has made every output neutral
	// on its context's end, before the transports stop (frcd's SIGQUIT
	// dumps the goroutines there).
	Halted func()

	// OSClock is the OS's monotonic clock a HAL clock (hal.HALClock) is
	// checked against every cycle; nil is the process's. Tests that step
	// the daemon pass the stepped time.
	OSClock func() time.Duration

	// wrap, in tests, wraps each device as the loop sees it (a device
	// that panics on demand).
	wrap func(control.Device) control.Device
}

// SimOptions configure the simulated HAL a daemon runs on (NewSim). Real
// hardware has none of them: New does not take them, and Options has no
// field of theirs.
type SimOptions struct {
	// RealTime runs the sim's clock on the wall clock from NewSim, as Run
	// needs; otherwise it is the time Step advanced the sim to. (A hardware
	// backend keeps its own clock.)
	RealTime bool
	// Seed seeds the sim's random streams (its sensor faults' drift and
	// read noise, its disturbances).
	Seed int64
	// Enabled starts the simulated Driver Station enabled (teleop).
	Enabled bool
	// Scenario, when set, is the sim's starting point (sim.Scenario): it
	// replaces the YAML's sim: section, Seed and Enabled.
	Scenario *sim.Scenario
	// WPILibWS, when set, is the host:port of the WPILib HAL simulation
	// WebSocket server (NewSim binds it, Run serves it); port 0 picks one.
	WPILibWS string
}

// DefaultPriority is the loop thread's SCHED_FIFO priority unless
// Options.Priority says otherwise: below the kernel's threaded interrupt
// handlers (50), so that the CAN and network interrupts the loop waits on
// still run first; make bench's SCHED_FIFO figure is measured at it.
const DefaultPriority = 10

// ROSOptions configure the ROS bridge.
type ROSOptions struct {
	Env    ros.Env        // ROS_MASTER_URI, ROS_IP, ROS_HOSTNAME
	Master ros.MasterMode // may an embedded master start
	URDF   string         // the URDF text, for /robot_description
	Name   string         // the node's name; default frcd
	// Namespace, Remaps and Params: the node's namespace, the command
	// line's remappings and private parameters (ros.Args).
	Namespace string
	Remaps    map[string]string
	Params    map[string]any
	// PublishRate overrides the joint state controller's publish_rate.
	PublishRate float64
	Logf        func(format string, args ...any)
}

// Daemon is a running robot: a backend (the sim or real hardware), its
// devices and the loop.
type Daemon struct {
	// logMsgs is the log that takes the daemon's log lines as its
	// "messages" (nil without a log).
	logMsgs atomic.Pointer[wpilog.Log]
	// game is the backend's game-specific message for the ROS bridges.
	game gameMessage
	// opModes are the robot's op modes and who selects one (opmodes.go).
	opModes opModeState

	manager *control.Manager // the controller manager both ROS bridges serve

	// rt is the loop thread's priority as the status line shows it:
	// "fifo:N" or "normal" (Run sets it).
	rt atomic.Value

	Robot *robot.Robot
	// Sim is the simulated HAL when the daemon runs on it (NewSim); nil on
	// real hardware (New).
	Sim      *sim.Sim
	Handles  *interfaces.Registry
	Devices  []devices.Device
	Loop     *control.Loop
	backend  hal.Backend
	stepper  hal.Stepper // the backend's work on the loop's beat, or nil
	enabler  hal.Enabler // how /frcd/enable enables the robot, or nil
	monitors []*busMonitor
	healthM  healthModel
	inv      inventory
	cfgs     configurers // the devices configured off the loop
	gate     gate        // why the daemon keeps the loop from enabling
	epoch    time.Time
	opts     Options
	now      time.Duration
	start    time.Time
	watch    func() time.Duration
	snapshot *control.Snapshot
	panics   chan *PanicError // from Recover and Panicked, for Run
	wsBad    uint64           // the WebSocket server's bad messages at the last diagnostics
	// Bridge is the ROS bridge, when Options.ROS is set.
	Bridge *ros.Bridge
	// Bridge2 is the ROS 2 bridge, when Options.ROS2 is set.
	Bridge2 *ros2bridge.Bridge
	// WS is the WPILib WebSocket server, when SimOptions.WPILibWS is set.
	WS *wpilibws.Server
	// NT is the NT4 server, when Options.Telemetry asks for one.
	NT    *nt4.Server
	tel   *telemetryState
	parts parts    // the optional parts that are down (parts.go)
	clock halClock // the HAL's clock, checked against the OS's (clock.go)
	// masterReported: the embedded ROS master was once down (masterDown);
	// nodeReported: the ROS node was once off the graph (nodeDown).
	masterReported, nodeReported atomic.Bool
}

// NewSim builds a daemon on the simulated HAL for a checked robot (one
// whose findings hold no errors): so configure the sim, o the rest.
func NewSim(r *robot.Robot, so SimOptions, o Options) (*Daemon, error) {
	sop := sim.ConfigOptions(r.Config, so.Seed, so.RealTime)
	sop.Enabled = so.Enabled
	if so.Scenario != nil {
		var err error
		if sop, err = so.Scenario.Options(r, so.RealTime); err != nil {
			return nil, err
		}
	}
	s, err := sim.New(r, sop) // its errors say "sim: "
	if err != nil {
		return nil, err
	}
	d, err := newDaemon(r, s, o)
	if err != nil {
		return nil, err
	}
	if so.WPILibWS != "" {
		d.WS, err = wpilibws.New(wpilibws.Options{Addr: so.WPILibWS, Sim: s, Config: r.Config, SetEnabled: d.SetEnabled, Logf: o.Logf, Retry: PartRetry,
			OpModes: d.opModes.ops, OnPanic: func(v any) { d.Panicked(newPanic("the WPILib WebSocket server", v)) }})
		if err != nil {
			return nil, err
		}
		d.noteListen(PartWS, d.WS.ListenErr(), so.WPILibWS)
	}
	return d, nil
}

// New builds a daemon on real hardware (a backend such as Linux, the
// roboRIO or Systemcore) for a checked robot; the sim's options
// (SimOptions) have no place here. The daemon owns b: Close closes it,
// and so does New when it fails.
func New(r *robot.Robot, b hal.Backend, o Options) (*Daemon, error) {
	d, err := newDaemon(r, b, o)
	if err != nil {
		if c, ok := b.(io.Closer); ok {
			c.Close()
		}
		return nil, err
	}
	return d, nil
}

func newDaemon(r *robot.Robot, b hal.Backend, o Options) (*Daemon, error) {
	d := &Daemon{Robot: r, backend: b, opts: o, start: time.Now(), panics: make(chan *PanicError, 1)}
	d.opts.Logf = d.alsoToLog(o.Logf)
	d.watch = func() time.Duration { return time.Since(d.start) }
	d.Sim, _ = b.(*sim.Sim)
	d.stepper, _ = b.(hal.Stepper)
	d.enabler, _ = b.(hal.Enabler)
	if e, ok := b.(hal.Epocher); ok {
		d.epoch = e.Epoch()
	} else {
		d.epoch = d.start.Add(-b.Now())
	}
	osClock := o.OSClock
	if osClock == nil {
		osClock = d.watch
	}
	d.setupClock(osClock)
	if err := d.bind(); err != nil {
		return nil, err
	}
	return d, nil
}

// Close stops the ROS 2 node, and closes the backend when it holds
// resources (sockets, the HAL).
// Call it after Run has returned.
func (d *Daemon) Close() error {
	if d.Bridge2 != nil {
		d.Bridge2.Close()
	}
	if c, ok := d.backend.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// bind opens the devices and builds the loop over the backend.
func (d *Daemon) bind() error {
	d.Handles = interfaces.NewRegistry()
	devs, err := devices.Build(d.Robot.Config, devices.NewEnv(d.backend, d.Handles))
	if err != nil {
		return fmt.Errorf("devices: %w", err)
	}
	d.Devices = devs
	cdevs := make([]control.Device, len(devs))
	for i, dev := range devs {
		cdevs[i] = dev
		if d.opts.wrap != nil {
			cdevs[i] = d.opts.wrap(dev)
		}
	}
	var ds hal.DriverStation = d.backend
	if d.clock.src != nil {
		ds = clockDS{d}
	}
	d.setupOpModes()
	if d.opModes.chooser {
		ds = opModeDS{d, ds}
	}
	loop, err := control.New(d.Robot, d.Handles, cdevs, ds, control.Options{Rate: d.opts.Rate, Stopwatch: d.watch})
	if err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	d.Loop = loop
	d.snapshot = loop.NewSnapshot()
	d.inv.expected = devices.ExpectedCAN(d.Robot.Config)
	d.openMonitors()
	d.setupInventory()
	d.setupConfigurers()
	if err := d.setupTelemetry(); err != nil {
		return err
	}
	d.manager = control.NewManager(d.Robot.Config, loop) // one for ROS 1 and ROS 2
	if o := d.opts.ROS; o != nil {
		ro := ros.Options{Loop: loop, Config: d.Robot.Config, Manager: d.manager, URDF: o.URDF, Clock: d.Now, Epoch: d.Epoch(),
			Diagnostics: d.health, Env: o.Env, Master: o.Master, Name: o.Name, PublishRate: o.PublishRate, Logf: o.Logf,
			Namespace: o.Namespace, Remaps: o.Remaps, Params: o.Params, Rest: jointstate.RestPositions(d.Robot), DriverStation: d.driverStation,
			OnPanic: func(v any) { d.Panicked(newPanic("a ROS callback", v)) }, MasterDown: d.masterDown, NodeDown: d.nodeDown}
		ro.SetEnabled = d.rosEnable()
		if d.Sim != nil {
			ro.Truth, ro.Push = d.Truth, d.Sim.SetJoint
		}
		d.Bridge, err = ros.New(ro)
		if err != nil {
			return err
		}
	}
	return d.setupROS2()
}

// diagnostics appends the backend's statuses for /diagnostics (the
// bridge's goroutine calls it once a second).
func (d *Daemon) diagnostics(dst []ros.Status) []ros.Status {
	return d.deviceStatuses(d.systemStatuses(dst))
}

// systemStatuses are the statuses of what is not a device: the CAN
// buses, the inventory, the WebSocket server, the backend's reports.
func (d *Daemon) systemStatuses(dst []ros.Status) []ros.Status {
	dst = d.partStatuses(d.wsStatus(d.inventoryStatuses(d.canStatuses(dst))))
	return reportStatuses(d.clockStatus(dst), d.backend)
}

// deviceStatuses are the reports of the devices that report their own
// health (a Talon FX's faults, a SPARK's temperature).
func (d *Daemon) deviceStatuses(dst []ros.Status) []ros.Status {
	for _, dev := range d.Devices {
		dst = reportStatuses(dst, dev)
	}
	return dst
}

// healthModel is the one list of statuses beyond the loop's own: the
// system's (CAN buses, the inventory, the WebSocket server, the
// backend's reports), built at most about once a second, whoever asks
// first, so that the counters they report "since the last report" are
// not split between readers; then the devices' own reports, read at each
// call (a Talon FX gone silent is news at once). /diagnostics and the
// NT4 Alerts (and with them the WPILOG) read the same list.
type healthModel struct {
	mu    sync.Mutex
	built bool
	at    time.Duration
	list  []ros.Status
}

// health appends the health model's statuses to dst. Safe from any
// goroutine.
func (d *Daemon) health(dst []ros.Status) []ros.Status {
	h := &d.healthM
	h.mu.Lock()
	defer h.mu.Unlock()
	if now := d.Now(); !h.built || now-h.at >= 900*time.Millisecond {
		h.list, h.at, h.built = d.systemStatuses(h.list[:0]), now, true
	}
	return d.deviceStatuses(append(dst, h.list...))
}

// reportStatuses appends the reports of x, when it is a hal.Reporter.
func reportStatuses(dst []ros.Status, x any) []ros.Status {
	r, ok := x.(hal.Reporter)
	if !ok {
		return dst
	}
	for _, rep := range r.Report(nil) {
		level := ros.LevelOK
		switch {
		case rep.Error:
			level = ros.LevelError
		case rep.Warn:
			level = ros.LevelWarn
		}
		dst = append(dst, ros.Status{Name: "frcd: " + rep.Name, Level: level, Message: rep.Message, Values: rep.Values})
	}
	return dst
}

// Truth fills t with the sim's ground truth, reusing its slices: every
// movable joint's true state and, with a drivetrain, the base's true pose
// and its twist in the base's frame. It has one (true) only on the sim.
// Safe from any goroutine, but t must not be shared.
func (d *Daemon) Truth(t *ros.Truth) bool {
	t.Names, t.Position, t.Velocity, t.Effort = t.Names[:0], t.Position[:0], t.Velocity[:0], t.Effort[:0]
	s := d.Sim
	if s == nil {
		return false
	}
	s.EachJoint(func(name string, j sim.JointTruth) {
		t.Names = append(t.Names, name)
		t.Position = append(t.Position, j.Position)
		t.Velocity = append(t.Velocity, j.Velocity)
		t.Effort = append(t.Effort, j.Effort)
	})
	p, ok := s.Pose()
	t.HasPose, t.BaseFrame = ok, "base_link"
	if root := d.Robot.URDF.Root; root != nil {
		t.BaseFrame = root.Name
	}
	sy, cy := math.Sincos(p.Yaw)
	t.X, t.Y, t.Yaw = p.X, p.Y, p.Yaw
	t.VX, t.VY, t.WZ = cy*p.VX+sy*p.VY, -sy*p.VX+cy*p.VY, p.WZ
	return true
}

// Now is the daemon's clock: the backend's.
func (d *Daemon) Now() time.Duration { return d.backend.Now() }

// Epoch is the wall-clock time of Now's zero, for time stamps.
func (d *Daemon) Epoch() time.Time { return d.epoch }

// SetEnabled enables or disables the robot, as the Driver Station would,
// on backends frcd enables itself (the sim, a Linux coprocessor); on a
// roboRIO only the Driver Station does, and it does nothing. Safe from
// any goroutine. Disabling makes every output neutral at the next cycle.
func (d *Daemon) SetEnabled(on bool) {
	if d.enabler != nil {
		d.enabler.SetEnabled(on)
	}
}

// Step runs one cycle of a deterministic daemon: the backend advances by
// one period, then the loop runs at that time.
func (d *Daemon) Step() {
	d.now += d.Loop.Period()
	d.advance(d.now)
	d.inventoryDue(d.now)
	d.configureDue(d.now)
	d.checkClock()
	d.Loop.Cycle(d.now)
}

// advance lets the backend do its work on the loop's beat.
func (d *Daemon) advance(now time.Duration) {
	if d.stepper != nil {
		d.stepper.AdvanceTo(now)
	}
}

// Run runs the loop in real time until ctx ends; then every output goes
// neutral and Run returns the halt's error, if any. A panic on the loop or
// on a goroutine the daemon watches (Recover) also ends Run, every output
// neutral, and Run returns it as a *PanicError.
func (d *Daemon) Run(ctx context.Context) error {
	period := d.Loop.Period()
	bridgeErr := make(chan error, 3) // the bridges' and the server's
	ctx, stopLoop := context.WithCancel(ctx)
	defer stopLoop()
	// The bridge and the WebSocket server stop after the loop has halted
	// every output; if one fails, the loop stops too. Nothing from the
	// network fails the ROS bridge: an embedded master that cannot start,
	// a lost master, a shutdown request or a name held by another node
	// are reported (masterDown, nodeDown) while it tries again.
	beside := func(where string, run func(context.Context) error) (wait func()) {
		bctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer d.Recover(where)
			if err := run(bctx); err != nil {
				bridgeErr <- err
				stopLoop()
			}
		}()
		return func() { stop(); <-done }
	}
	if d.Bridge != nil {
		defer beside("the ROS bridge", d.Bridge.Run)()
	}
	if d.Bridge2 != nil {
		defer beside("the ROS 2 bridge", d.Bridge2.Run)()
	}
	if d.WS != nil {
		// Optional: its failure is reported, never the loop's end.
		defer beside("the WPILib WebSocket server", func(ctx context.Context) error {
			go d.watchListen(ctx, PartWS, d.WS.Listening(), func() string { return d.WS.Addr().String() })
			if err := d.WS.Run(ctx); err != nil {
				d.partDown(PartWS, err.Error())
			}
			return nil
		})()
	}
	if d.tel != nil {
		defer beside("the NT4 server and log", d.runTelemetry)()
	}
	if len(d.monitors) > 0 && len(d.inv.expected) > 0 {
		defer beside("the CAN inventory", d.runInventory)()
	}
	if d.cfgs.any() {
		defer beside("configuring the CTRE devices", d.runConfigure)()
	}
	if d.opts.Status != nil {
		every := d.opts.StatusEvery
		if every <= 0 {
			every = time.Second
		}
		done := make(chan struct{})
		defer func() { <-done }()
		go func() {
			defer close(done)
			defer d.Recover("the status line")
			repeat(ctx, every, func() { fmt.Fprintln(d.opts.Status, d.StatusLine()) })
		}()
	}
	// At a real-time priority the loop's goroutine is locked to its
	// thread; otherwise it is not. Either way it sleeps between cycles in
	// a blocking read of a timerfd, its P given up (waiter).
	if prio := d.opts.Priority; prio >= 0 {
		if prio == 0 {
			prio = DefaultPriority
		}
		restore, err := raisePriority(prio)
		if err != nil {
			d.rt.Store("normal")
			d.logf("frcd: the loop's thread runs at normal priority: %v (grant CAP_SYS_NICE: setcap cap_sys_nice+eip, as frcd deploy does)", err)
		} else {
			defer restore()
			d.rt.Store("fifo:" + strconv.Itoa(prio))
			d.logf("frcd: the loop's thread runs at SCHED_FIFO priority %d", prio)
		}
	} else {
		d.rt.Store("normal")
	}
	w := newWaiter()
	defer w.close()
	spin := newSpinner(d.opts.Spin, period)
	// The deadlines are on the OS's monotonic clock (d.watch), whatever
	// the backend's clock does: a wait is never longer than a period, and
	// the context is seen at every cycle.
	next := d.watch()
	for {
		select {
		case <-ctx.Done():
			err := d.Halt()
			if d.opts.Halted != nil {
				d.opts.Halted()
			}
			select {
			case berr := <-bridgeErr:
				return errors.Join(berr, err)
			default:
				return err
			}
		case p := <-d.panics:
			return d.afterPanic(p)
		default:
		}
		now := d.Now()
		if p := d.cycle(now); p != nil {
			return d.afterPanic(p)
		}
		next += period
		wait := next - d.watch()
		if wait < -period {
			next = d.watch() // far behind: start afresh rather than burst
			continue
		}
		if lead := spin.lead(); wait > lead {
			w.sleep(min(wait-lead, period))
			spin.woke(d.watch() - (next - lead))
		}
		for spin.spins() && d.watch() < next {
			// spin out the last stretch
		}
	}
}

// repeat calls f every period until ctx ends.
func repeat(ctx context.Context, period time.Duration, f func()) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}
