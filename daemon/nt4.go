package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/nt4"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/telemetry"
	"github.com/frcd/frcd/wpilog"
)

// TelemetryOptions configure the NT4 server and the WPILOG files.
type TelemetryOptions struct {
	// NT4 is the NT4 server's host:port ("" for none; port 0 picks one).
	NT4 string
	// LogDir, when set, gets a WPILOG file per run.
	LogDir string
	// LogMaxBytes caps each file (0: 32 MiB); LogMaxFiles the files kept
	// in LogDir (0: 10).
	LogMaxBytes int64
	LogMaxFiles int
	// Prefix roots the topics; default the YAML's nt4: prefix, /frcd
	// (/Telemetry in the 2027 layout).
	Prefix string
	// Layout is the NetworkTables layout, "2026" or "2027"
	// (telemetry.Layout); "" takes the YAML's nt4: layout.
	Layout string
	// Wall is the wall clock naming the log file; default time.Now.
	Wall func() time.Time
}

// telemetryState is the daemon's NT4 server and log, fed by one
// goroutine off the loop.
type telemetryState struct {
	src     *telemetry.Source
	log     *wpilog.Log
	notify  <-chan struct{}
	enabled atomic.Bool      // the last snapshot's, for NT4 commands
	start   time.Time        // the wall-clock start naming the log file
	wall    func() time.Time // the wall clock, naming it by the match
	matched bool             // the log file is named by its match, or cannot be
	matchIn int              // telemetry steps until the backend is asked for the match again
}

// setupTelemetry builds the topics, binds the NT4 server and opens the
// log, as the options ask.
func (d *Daemon) setupTelemetry() error {
	o := d.opts.Telemetry
	if o == nil || o.NT4 == "" && o.LogDir == "" {
		return nil
	}
	d.Loop.EnableJournal(0)
	layout, err := d.telemetryLayout(o.Layout)
	if err != nil {
		return err
	}
	prefix, commands, tuning := o.Prefix, false, false
	if s := d.Robot.Config.NT4; s != nil {
		if prefix == "" && (s.Has("prefix") || layout != telemetry.Layout2027) {
			prefix = s.Str("prefix")
		}
		commands, tuning = s.Bool("commands"), s.Bool("tuning")
	}
	to := telemetry.Options{Loop: d.Loop, Robot: d.Robot, Prefix: prefix, Layout: layout, Alerts: d.alerts, Match: d.wpilibMatch, Joystick: d.joystick, EveryCycle: true}
	to.OpModes = d.opModes.ops
	if d.opModes.chooser {
		to.Chooser = d.opModes.active
	}
	if d.Sim != nil {
		to.Truth = d.simTruth
		to.MatchSeq = d.wsMatchSeq
	}
	if _, err := d.backend.Vin(); err == nil { // measured here (not a coprocessor)
		to.Vin = d.backend.Vin
	}
	t := &telemetryState{}
	var logw *wpilog.Writer
	if o.LogDir != "" {
		wall := o.Wall
		if wall == nil {
			wall = time.Now
		}
		t.start, t.wall = wall(), wall
		w, err := wpilog.Create(wpilog.WriterOptions{Dir: o.LogDir, Base: wpilog.FileBase(t.start), Extra: "frcd",
			MaxBytes: o.LogMaxBytes, MaxFiles: o.LogMaxFiles})
		if err != nil { // optional: the robot runs without its log
			d.partDown(PartLog, err.Error())
		} else {
			logw = w
			to.OnCommand = func(c *control.Controller, r *control.CommandRecord) {
				if t.log != nil {
					t.log.Command(c, r, d.Now())
				}
			}
		}
	}
	t.src = telemetry.New(to)
	if logw != nil {
		t.log = wpilog.NewLog(logw, t.src.Prefix(), t.wall)
		d.logMsgs.Store(t.log)
	}
	if o.NT4 != "" {
		cp := t.src.Prefix() + "/"
		s, err := nt4.New(nt4.Options{Addr: o.NT4, Clock: d.Now, Logf: d.opts.Logf, Commands: d.ntCommands(cp, commands, tuning), CommandType: d.ntCommandType(cp), CommandPrefix: cp,
			Tunable: isTunable, Observe: d.choose, Retry: PartRetry})
		if err != nil {
			if t.log != nil {
				t.log.Writer().Close()
			}
			return err
		}
		d.NT = s
		d.noteListen(PartNT4, s.ListenErr(), o.NT4)
		if t.log == nil { // only what the NT4 clients subscribe to
			t.src.KeepAll(false)
		}
	}
	t.notify = d.Loop.Notify()
	d.tel = t
	return nil
}

// wsMatchSeq counts the WebSocket Driver Station's match changes (0
// without the server, made after the telemetry).
func (d *Daemon) wsMatchSeq() uint64 {
	if d.WS == nil {
		return 0
	}
	return d.WS.MatchSeq()
}

// alsoToLog returns logf writing each line also to the log's "messages",
// as WPILib's DataLogManager.log does, once the log is open.
func (d *Daemon) alsoToLog(logf func(string, ...any)) func(string, ...any) {
	return func(format string, args ...any) {
		if logf != nil {
			logf(format, args...)
		}
		if l := d.logMsgs.Load(); l != nil {
			l.Message(fmt.Sprintf(format, args...))
		}
	}
}

// simTruth is the sim's ground truth for the sim/ topics.
func (d *Daemon) simTruth(t *telemetry.Truth) bool {
	s := d.Sim
	t.Names, t.Position = t.Names[:0], t.Position[:0]
	s.EachJoint(func(name string, j sim.JointTruth) {
		t.Names = append(t.Names, name)
		t.Position = append(t.Position, j.Position)
	})
	p, ok := s.Pose()
	t.HasPose, t.X, t.Y, t.Yaw = ok, p.X, p.Y, p.Yaw
	return true
}

// alerts lists the health model's errors and warnings (health: the
// statuses /diagnostics carries beyond the loop's own, the devices'
// reports among them) for the NT4 Alerts and the WPILOG, which take the
// devices' OK from the loop's snapshot every cycle themselves.
func (d *Daemon) alerts(errs, warns []string) ([]string, []string) {
	for _, st := range d.health(nil) {
		msg := st.Name + ": " + st.Message
		switch st.Level {
		case ros.LevelError:
			errs = append(errs, msg)
		case ros.LevelWarn, ros.LevelStale:
			warns = append(warns, msg)
		}
	}
	return errs, warns
}

// StepTelemetry samples the loop's latest snapshot into the NT4 server
// and the log, as the telemetry goroutine does after each cycle: for
// deterministic runs (Step) and benchmarks. The joints come cycle by
// cycle from the loop's history, each cycle passed on by itself, so that
// the log and NT4's "all" subscribers get every sample, not only the
// latest.
func (d *Daemon) StepTelemetry() {
	t := d.tel
	if t == nil {
		return
	}
	fresh := d.NT != nil && d.NT.Interest(t.src) // a client subscribed or went
	for t.src.Replay() {
		d.passTelemetry(t)
	}
	if !t.src.Sample() {
		if fresh { // no cycle since: the current values of the topics now wanted
			d.NT.Publish(t.src)
		}
		return
	}
	t.enabled.Store(t.src.Snapshot().Enabled)
	d.passTelemetry(t)
	if t.log != nil {
		// About once a second of cycles, not every cycle: a HAL call
		// that copies strings, and a practice run never hears a match.
		if t.matchIn--; !t.matched && t.matchIn <= 0 {
			t.matchIn = int(time.Second / d.Loop.Period())
			d.nameLogByMatch(t)
		}
	}
}

// passTelemetry gives the topics that changed to the NT4 server and the
// log.
func (d *Daemon) passTelemetry(t *telemetryState) {
	if d.NT != nil {
		d.NT.Publish(t.src)
	}
	if t.log != nil {
		t.log.Record(t.src)
	}
}

// nameLogByMatch renames the log file frcd_<date>_<event>_<type><number>
// once the backend (hal.MatchInfos) reports a match: the Driver Station
// hears it from the field after the run began. The date is the wall
// clock's when the match became known, not the start's, as WPILib's
// DataLogManager names its files by the match (allwpilib caf0fb2dcc
// wpilibc/src/main/native/cpp/system/DataLogManager.cpp: "now" at the
// rename): a robot's clock is often set by the Driver Station after boot,
// so the start's date may be 1970's. A backend without it, or a failed
// rename (said once), leaves the name by date.
func (d *Daemon) nameLogByMatch(t *telemetryState) {
	mi, ok := d.backend.(hal.MatchInfos)
	if !ok {
		t.matched = true
		return
	}
	m, err := mi.MatchInfo()
	if err != nil || !m.Known() {
		return
	}
	t.matched = true
	if err := t.log.Writer().Rename(wpilog.FileBase(t.wall(), m.Event, m.Label())); err != nil {
		d.logf("frcd: naming the log by its match: %v", err)
	}
}

// runTelemetry feeds the NT4 server and the log after each cycle until
// ctx ends, then closes the log; it runs the NT4 server beside.
func (d *Daemon) runTelemetry(ctx context.Context) error {
	t := d.tel
	errc := make(chan error, 1)
	if d.NT != nil {
		go d.watchListen(ctx, PartNT4, d.NT.Listening(), func() string { return d.NT.Addr().String() })
		go func() { errc <- d.NT.Run(ctx) }()
	}
	ntErr, ntEnded := errc, false
	defer func() {
		if err := d.CloseLog(); err != nil {
			d.logf("%v", err)
		}
		if d.NT != nil && !ntEnded {
			<-errc
		}
	}()
	flush := time.NewTicker(time.Second) // the log reaches the disk even if the loop stops
	defer flush.Stop()
	var wake <-chan struct{} // a client subscribed to a topic nobody read
	if d.NT != nil {
		wake = d.NT.Wake()
	}
	for {
		if t.log == nil && d.NT != nil && d.NT.Idle() {
			// Nobody reads: no sampling, no encoding, no history kept by
			// the loop, until a client connects.
			t.src.Pause()
			select {
			case <-ctx.Done():
				return nil
			case err := <-ntErr: // optional: reported, the robot goes on
				ntErr, ntEnded = nil, true
				if err != nil {
					d.partDown(PartNT4, err.Error())
				}
				continue
			case <-d.NT.Wake():
			}
			t.src.Resume()
			d.StepTelemetry()
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-flush.C:
			if t.log != nil {
				t.log.Writer().Flush()
			}
		case err := <-ntErr: // optional: reported, the log and the robot go on
			ntErr, ntEnded = nil, true
			if err != nil {
				d.partDown(PartNT4, err.Error())
			}
		case <-wake: // its current value now, not after the next cycle
			d.StepTelemetry()
		case <-t.notify:
			d.StepTelemetry()
			if t.log != nil && t.log.Writer().Err() != nil {
				d.partDown(PartLog, fmt.Sprintf("%v: the log stops", t.log.Writer().Err()))
				t.log = nil
				t.src.KeepAll(d.NT == nil)
			}
		}
	}
}

// CloseLog writes what is left and closes the WPILOG file, for
// deterministic runs (Step); Run closes it itself.
func (d *Daemon) CloseLog() error {
	if d.tel == nil || d.tel.log == nil {
		return nil
	}
	d.StepTelemetry()
	err := d.tel.log.Writer().Close()
	d.tel.log = nil
	d.tel.src.KeepAll(d.NT == nil)
	return err
}

// LogPath is the WPILOG file being written, "" without --log.
func (d *Daemon) LogPath() string {
	if d.tel == nil || d.tel.log == nil {
		return ""
	}
	return d.tel.log.Writer().Path()
}

// ntCommand takes a dashboard's commands from NT4 (the nt4: section's
// commands and tuning): PREFIX/commands/CONTROLLER, of the controller's
// type (telemetry.CommandType: double, boolean for a solenoid, int for a
// double solenoid or relay, double[] for a group), and
// PREFIX/tuning/CONTROLLER, a PID's gains as double[] {p, i, d, f}.
// Refused (an error saying why) and counted when the YAML does not allow
// it, the robot is disabled, the controller is unknown or the value is
// not one it takes. Other topics under PREFIX/ are not commands.
func (d *Daemon) ntCommand(prefix string, commands, tuning bool) func(topic string, v nt4.Value) error {
	return func(topic string, v nt4.Value) error {
		rest := strings.TrimPrefix(topic, prefix)
		kind, name, _ := strings.Cut(rest, "/")
		if kind != "commands" && kind != "tuning" {
			return nil
		}
		c := d.Loop.Controller(name)
		if c == nil {
			return fmt.Errorf("no controller %q", name)
		}
		allowed := commands
		if kind == "tuning" {
			allowed = tuning
		}
		switch {
		case !allowed:
			c.Refuse()
			return fmt.Errorf("the YAML's nt4: section does not allow %s", kind)
		case !d.tel.enabled.Load():
			c.Refuse()
			return errors.New("the robot is disabled")
		}
		now := d.Now()
		if kind == "tuning" {
			g, ok := v.Doubles(make([]float64, 0, 4), 4)
			if !ok || len(g) != 4 {
				c.Refuse()
				return errors.New("gains are double[] {p, i, d, f}")
			}
			return c.SetGains(control.Gains{P: g[0], I: g[1], D: g[2], F: g[3]}, now)
		}
		if n := c.Width(); n > 0 { // a group's values, a drive base's twist
			vs, ok := v.Doubles(make([]float64, 0, n), n)
			if !ok {
				c.Refuse()
				return fmt.Errorf("the command is double[] of %d", len(c.Joints))
			}
			return c.CommandGroup(vs, now)
		}
		f, ok := v.Double()
		if b, isBool := v.Bool(); isBool {
			f, ok = 0, true
			if b {
				f = 1
			}
		}
		if !ok {
			c.Refuse()
			return fmt.Errorf("the command is %s", telemetry.CommandType(c))
		}
		return c.Command(f, now)
	}
}

// ntCommandType is the type a PREFIX/commands/ or PREFIX/tuning/ topic
// takes, for the NT4 server to refuse a publish of another.
func (d *Daemon) ntCommandType(prefix string) func(topic string) (string, bool) {
	return func(topic string) (string, bool) {
		kind, name, _ := strings.Cut(strings.TrimPrefix(topic, prefix), "/")
		c := d.Loop.Controller(name)
		switch {
		case c == nil:
			return "", false
		case kind == "commands":
			return telemetry.CommandType(c), true
		case kind == "tuning":
			return "double[]", true
		}
		return "", false
	}
}
