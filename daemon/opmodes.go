package daemon

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/nt4"
	"github.com/frcd/frcd/telemetry"
)

// opModeState is the robot's op modes (the YAML's op_modes:) and who
// selects one: the backend's Driver Station (WPILib 2027's HAL,
// hal.OpModeSetter), or else the dashboard choosers over NT4, the 2026
// way (telemetry's /SmartDashboard/<Mode> Op Mode), which the loop sees
// through opModeDS. On the sim the WebSocket Driver Station's selection
// (>opmode, in the sim's DSState) comes first.
type opModeState struct {
	ops     hal.OpModes
	byDS    bool            // the backend's Driver Station lists and selects them
	chooser bool            // the dashboard choosers select them
	def     [3]int64        // per hal.Mode, the first op mode's id (a chooser's default)
	chosen  [3]atomic.Int64 // per hal.Mode, the id a dashboard selected; 0: the default
}

// opModesOf reads the YAML's op modes, autonomous, teleop, test, each
// in its order.
func opModesOf(c *config.File) hal.OpModes {
	if c.OpModes == nil {
		return nil
	}
	var modes []hal.Mode
	var names []string
	for i, key := range config.OpModeKeys {
		m := [3]hal.Mode{hal.Autonomous, hal.Teleop, hal.Test}[i]
		for _, n := range c.OpModes.List(key) {
			modes, names = append(modes, m), append(names, n)
		}
	}
	return hal.NewOpModes(modes, names)
}

// setupOpModes registers the op modes with the backend's Driver Station
// when it takes them, else offers the choosers.
func (d *Daemon) setupOpModes() {
	o := &d.opModes
	o.ops = opModesOf(d.Robot.Config)
	if len(o.ops) == 0 {
		return
	}
	if s, ok := d.backend.(hal.OpModeSetter); ok {
		err := s.SetOpModes(o.ops)
		if err == nil {
			o.byDS = true
			return
		}
		if !errors.Is(err, hal.ErrUnsupported) {
			d.logf("frcd: registering the op modes with the Driver Station: %v; a dashboard chooser selects them instead", err)
		}
	}
	o.chooser = true
	for _, m := range []hal.Mode{hal.Autonomous, hal.Teleop, hal.Test} {
		if names := o.ops.Of(m); len(names) > 0 {
			op, _ := o.ops.Find(m, names[0])
			o.def[m] = op.ID
		}
	}
}

// active is the op mode the chooser of mode m has active: the one a
// dashboard selected, else its default (0 when the mode has none).
func (o *opModeState) active(m hal.Mode) int64 {
	if m < 0 || int(m) >= len(o.def) {
		return 0
	}
	if id := o.chosen[m].Load(); id != 0 {
		return id
	}
	return o.def[m]
}

// choose takes a dashboard's selection: the name published to a
// chooser's selected topic (nt4.Options.Observe). Refused (an error
// saying why) when the name is no op mode of that chooser's mode; other
// topics are not its business.
func (d *Daemon) choose(topic string, v nt4.Value) error {
	o := &d.opModes
	if !o.chooser {
		return nil
	}
	table, ok := strings.CutSuffix(topic, "/selected")
	if !ok {
		return nil
	}
	for _, m := range []hal.Mode{hal.Autonomous, hal.Teleop, hal.Test} {
		if table != telemetry.ChooserTopic(m) {
			continue
		}
		name, ok := v.Text()
		if !ok {
			return errors.New("a chooser's selection is a string")
		}
		op, ok := o.ops.Find(m, name)
		if !ok {
			return fmt.Errorf("no %s op mode %q (the YAML's op_modes: %s: %q)", m, name, config.OpModeKeys[[3]int{1, 0, 2}[m]], o.ops.Of(m))
		}
		o.chosen[m].Store(op.ID)
		return nil
	}
	return nil
}

// opModeDS is the Driver Station as the loop sees it when the choosers
// select the op mode: the backend's, with the chooser's op mode of its
// robot mode while it reports none and is attached.
type opModeDS struct {
	d     *Daemon
	inner hal.DriverStation
}

func (o opModeDS) DS() hal.DSState {
	s := o.inner.DS()
	if s.OpMode == 0 && s.Attached {
		s.OpMode = o.d.opModes.active(s.Mode)
	}
	return s
}

// OpModes are the robot's op modes (the YAML's op_modes:), with their ids.
func (d *Daemon) OpModes() hal.OpModes { return d.opModes.ops }
