package daemon

import (
	"errors"
	"fmt"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/nt4"
	"github.com/frcd/frcd/telemetry"
)

// WPILib 2027's layout (telemetry.Layout2027): the PID controllers'
// gains as tunables under /Tunables, which dashboards set on the topics
// frcd publishes them on.

// telemetryLayout is the layout the flag names, else the YAML's nt4:
// layout, else 2026's.
func (d *Daemon) telemetryLayout(flag string) (telemetry.Layout, error) {
	if flag == "" && d.Robot.Config.NT4 != nil {
		flag = d.Robot.Config.NT4.Str("layout")
	}
	if flag == "" {
		return telemetry.Layout2026, nil
	}
	return telemetry.ParseLayout(flag)
}

// isTunable says which of frcd's own NT4 topics dashboards may set: the
// gains of /Tunables/controllers/NAME/ (only published in the 2027
// layout).
func isTunable(topic string) bool {
	_, _, ok := telemetry.TunableGain(topic)
	return ok
}

// ntCommands takes the dashboards' commands and gains (ntCommand) and
// their tunes of a gain under /Tunables (ntTune).
func (d *Daemon) ntCommands(prefix string, commands, tuning bool) func(topic string, v nt4.Value) error {
	command := d.ntCommand(prefix, commands, tuning)
	return func(topic string, v nt4.Value) error {
		if name, term, ok := telemetry.TunableGain(topic); ok {
			return d.ntTune(name, term, v, tuning)
		}
		return command(topic, v)
	}
}

// ntTune sets one gain (term: p, i, d, f) of controller name from a
// dashboard, keeping the others, under the rules of PREFIX/tuning/
// (ntCommand): refused and counted when the YAML does not allow tuning,
// the robot is disabled, the value is no double, or the gains are not
// finite and >= 0 (control.Controller.SetGains), which also journals it
// for the log.
func (d *Daemon) ntTune(name string, term int, v nt4.Value, tuning bool) error {
	c := d.Loop.Controller(name)
	if c == nil || !c.HasPID() {
		return fmt.Errorf("no PID controller %q", name)
	}
	f, isDouble := v.Double()
	switch {
	case !tuning:
		c.Refuse()
		return errors.New("the YAML's nt4: section does not allow tuning")
	case !d.tel.enabled.Load():
		c.Refuse()
		return errors.New("the robot is disabled")
	case !isDouble:
		c.Refuse()
		return errors.New("a gain is a double")
	}
	return c.SetGainTerm([4]string{control.GainP, control.GainI, control.GainD, control.GainF}[term], f, d.Now())
}

// CheckLayout says whether name is a NetworkTables layout, "2026" or
// "2027" (--nt-layout), for a command that passes one on.
func CheckLayout(name string) error {
	_, err := telemetry.ParseLayout(name)
	return err
}
