// The status line: the one-line summary of the loop's timing and counters,
// the battery, and why devices failed or are still configuring.

package daemon

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/frcd/frcd/control"
)

// StatusLine is the one-line status: time, enable state, loop timing and
// counters, battery.
func (d *Daemon) StatusLine() string {
	s := d.snapshot
	d.Loop.ReadSnapshot(s)
	state := s.State()
	if why := d.ClockFault(); why != "" {
		state += " (HAL clock fault: " + why + ")"
	}
	st := &s.Stats
	battery := "battery=?"
	if d.Sim != nil {
		v, a := d.Sim.Battery()
		battery = fmt.Sprintf("battery=%.2fV %.1fA", v, a)
	} else if v, err := d.backend.Vin(); err == nil {
		battery = fmt.Sprintf("vin=%.2fV", v)
	}
	measured := 0
	for _, j := range s.Joints {
		if j.State.Has != 0 {
			measured++
		}
	}
	rt, _ := d.rt.Load().(string)
	if rt == "" {
		rt = "-" // stepped, not Run
	}
	line := fmt.Sprintf("t=%.1fs %s cycles=%d period mean=%s max=%s jitter p99<=%s overruns=%d busy p99<=%s joints=%d/%d refused=%d stale=%d blocked=%d errors=%d %s rt=%s",
		s.Now.Seconds(), state, st.Cycles, fmtDur(st.Period.Mean()), fmtDur(st.Period.Max), fmtDur(st.Jitter.Quantile(0.99)),
		st.Overruns, fmtDur(st.Busy.Quantile(0.99)), measured, len(s.Joints), st.Refused+s.Refused, st.Stale, st.Blocked, st.DeviceErrors, battery, rt)
	line += errorCause(s.Devices) + configuringNow(s.Devices)
	if down := d.Down(); len(down) > 0 {
		names := make([]string, 0, len(down))
		for part := range down {
			names = append(names, part)
		}
		sort.Strings(names)
		line += " down: " + strings.Join(names, ", ")
	}
	return line
}

// errorCause says what errors= counts, so that the status line explains
// it without /diagnostics: the device with the most failed reads and
// writes, its count and last error, whether it is failing still or ok now,
// and how many other devices failed. "" when none did.
func errorCause(devs []control.DeviceSample) string {
	worst, others := -1, 0
	for i, dv := range devs {
		if dv.Errors == 0 || dv.LastErr == nil {
			continue
		}
		if worst < 0 || dv.Errors > devs[worst].Errors {
			worst = i
		}
		others++
	}
	if worst < 0 {
		return ""
	}
	dv := devs[worst]
	now := "failing"
	if dv.OK {
		now = "ok now"
	}
	cause := fmt.Sprintf(" errors: %s %d (%s; last: %v)", dv.Name, dv.Errors, now, dv.LastErr)
	switch {
	case others == 2:
		cause += " and 1 other device"
	case others > 2:
		cause += fmt.Sprintf(" and %d other devices", others-1)
	}
	return cause
}

// configuringNow names the devices still configuring (starting up within
// their normal time: no error, and not driven before they are ready), so
// that the status line says why their joints are absent. "" when none is.
func configuringNow(devs []control.DeviceSample) string {
	out := ""
	for _, dv := range devs {
		if dv.Configuring == nil {
			continue
		}
		if out == "" {
			out = " configuring: " + dv.Name
		} else {
			out += ", " + dv.Name
		}
	}
	return out
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%dµs", d/time.Microsecond)
	}
}
