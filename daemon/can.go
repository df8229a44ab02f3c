package daemon

import (
	"fmt"
	"strconv"

	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/ros"
)

// busMonitor is one CAN bus the backend monitors, with what was last
// reported of it.
type busMonitor struct {
	name   string
	mon    hal.CANMonitor
	busOff uint64 // BusOff at the last report
	errs   uint64 // ErrorFrames at the last report
}

// openMonitors finds the buses of the expected CAN devices (d.inv.expected)
// whose backend hears every frame, in order of first use.
func (d *Daemon) openMonitors() {
	seen := map[string]bool{}
	for _, e := range d.inv.expected {
		if seen[e.Bus] {
			continue
		}
		seen[e.Bus] = true
		bus, err := hal.OpenCAN(d.backend, e.Bus)
		if err != nil {
			continue // the device on it has failed to bind already
		}
		if m, ok := bus.(hal.CANMonitor); ok {
			d.monitors = append(d.monitors, &busMonitor{name: e.Bus, mon: m})
		}
	}
}

// canStatuses appends a /diagnostics status per monitored CAN bus: its
// measured load, frame and error counters. At devices.CANLoadWarn (the
// load `frcd validate` warns of), or with error frames since the last
// report, warn; at devices.CANLoadError, or after a bus-off since the last
// report, error.
func (d *Daemon) canStatuses(dst []ros.Status) []ros.Status {
	for _, b := range d.monitors {
		st := b.mon.Stats()
		level, msg := ros.LevelOK, fmt.Sprintf("load %.1f %%", 100*st.Load)
		switch {
		case st.BusOff > b.busOff:
			level, msg = ros.LevelError, fmt.Sprintf("%s; bus-off %d times since the last report", msg, st.BusOff-b.busOff)
		case st.Load >= devices.CANLoadError:
			level, msg = ros.LevelError, msg+": overloaded"
		case st.ErrorFrames > b.errs:
			level, msg = ros.LevelWarn, fmt.Sprintf("%s; %d error frames since the last report", msg, st.ErrorFrames-b.errs)
		case st.Load >= devices.CANLoadWarn:
			level, msg = ros.LevelWarn, msg+": heavily loaded"
		}
		b.busOff, b.errs = st.BusOff, st.ErrorFrames
		u := func(v uint64) string { return strconv.FormatUint(v, 10) }
		dst = append(dst, ros.Status{Level: level, Name: "frcd: CAN bus " + devices.BusName(b.name), HardwareID: devices.BusName(b.name), Message: msg,
			Values: [][2]string{
				{"load", strconv.FormatFloat(st.Load, 'f', 4, 64)},
				{"received frames", u(st.RxFrames)}, {"sent frames", u(st.TxFrames)},
				{"error frames", u(st.ErrorFrames)}, {"bus-off events", u(st.BusOff)},
				{"send errors", u(st.TxErrors)}, {"dropped frames", u(st.Dropped)},
			}})
	}
	return dst
}
