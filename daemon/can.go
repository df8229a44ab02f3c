package daemon

import (
	"fmt"
	"strconv"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/ros"
)

// Load levels of a CAN bus on /diagnostics, as `frcd validate` grades
// its estimate.
const (
	canLoadWarn  = 0.70
	canLoadError = 0.90
)

// canBuses lists the CAN buses the robot's devices are on, by their
// can_bus name ("" the backend's default), in order of first use.
func canBuses(c *config.File) []string {
	var names []string
	seen := map[string]bool{}
	for _, dev := range c.Devices {
		v, ok := dev.Value("can_bus")
		if !ok || seen[v.Str] {
			continue
		}
		seen[v.Str] = true
		names = append(names, v.Str)
	}
	return names
}

// busMonitor is one CAN bus the backend monitors, with what was last
// reported of it.
type busMonitor struct {
	name   string
	mon    hal.CANMonitor
	busOff uint64 // BusOff at the last report
	errs   uint64 // ErrorFrames at the last report
}

// openMonitors finds the robot's buses whose backend hears every frame.
func (d *Daemon) openMonitors() {
	for _, name := range canBuses(d.Robot.Config) {
		bus, err := hal.OpenCAN(d.backend, name)
		if err != nil {
			continue // the device on it has failed to bind already
		}
		if m, ok := bus.(hal.CANMonitor); ok {
			d.monitors = append(d.monitors, &busMonitor{name: name, mon: m})
		}
	}
}

func busLabel(name string) string {
	if name == "" {
		return "default"
	}
	return name
}

// canStatuses appends a /diagnostics status per monitored CAN bus: its
// measured load, frame and error counters. Over 70 % load, or error
// frames since the last report, warn; over 90 %, or a bus-off since the
// last report, error.
func (d *Daemon) canStatuses(dst []ros.Status) []ros.Status {
	for _, b := range d.monitors {
		st := b.mon.Stats()
		level, msg := ros.LevelOK, fmt.Sprintf("load %.1f %%", 100*st.Load)
		switch {
		case st.BusOff > b.busOff:
			level, msg = ros.LevelError, fmt.Sprintf("%s; bus-off %d times since the last report", msg, st.BusOff-b.busOff)
		case st.Load >= canLoadError:
			level, msg = ros.LevelError, msg+": overloaded"
		case st.ErrorFrames > b.errs:
			level, msg = ros.LevelWarn, fmt.Sprintf("%s; %d error frames since the last report", msg, st.ErrorFrames-b.errs)
		case st.Load >= canLoadWarn:
			level, msg = ros.LevelWarn, msg+": heavily loaded"
		}
		b.busOff, b.errs = st.BusOff, st.ErrorFrames
		u := func(v uint64) string { return strconv.FormatUint(v, 10) }
		dst = append(dst, ros.Status{Level: level, Name: "frcd: CAN bus " + busLabel(b.name), HardwareID: busLabel(b.name), Message: msg,
			Values: [][2]string{
				{"load", strconv.FormatFloat(st.Load, 'f', 4, 64)},
				{"received frames", u(st.RxFrames)}, {"sent frames", u(st.TxFrames)},
				{"error frames", u(st.ErrorFrames)}, {"bus-off events", u(st.BusOff)},
				{"send errors", u(st.TxErrors)}, {"dropped frames", u(st.Dropped)},
			}})
	}
	return dst
}
