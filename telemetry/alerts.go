package telemetry

import (
	"fmt"
	"strings"
	"time"
)

// The WPILib Alerts of the health model (Alerts/).

type alertTopics struct {
	errors, warnings, infos *Topic
	devOK, devCfg           []bool
	errs, warns, infosList  []string
	lastExtra               time.Duration
	extraErrs, extraWarns   []string
	refused                 []uint64 // per controller, its refused commands at the last refresh
	overruns                uint64   // the loop's at the last refresh
}

// sampleAlerts lists the failing devices as errors, the devices still
// configuring, the backend's own findings and an inhibited loop as
// warnings; the strings are built only
// when a device's health changes, or once a second for the backend's.
func (s *Source) sampleAlerts(now time.Duration) {
	a := &s.alerts
	changed := s.alerts.errors.Seq == 0
	for i, d := range s.snap.Devices {
		if cfg := d.Configuring != nil; a.devOK[i] != d.OK || a.devCfg[i] != cfg {
			a.devOK[i], a.devCfg[i] = d.OK, cfg
			changed = true
		}
	}
	if changed || now-a.lastExtra >= time.Second { // at once when a device's health changed
		a.lastExtra = now
		a.extraErrs, a.extraWarns = a.extraErrs[:0], a.extraWarns[:0]
		if s.o.Alerts != nil {
			a.extraErrs, a.extraWarns = s.o.Alerts(a.extraErrs, a.extraWarns)
		}
		a.extraWarns = s.refusedWarnings(a.extraWarns)
		changed = true
	}
	if s.snap.Inhibit != "" && (len(a.warns) == 0 || !strings.HasSuffix(a.warns[len(a.warns)-1], s.snap.Inhibit)) ||
		s.snap.Inhibit == "" && len(a.warns) > 0 && strings.HasPrefix(a.warns[len(a.warns)-1], "loop inhibited: ") {
		changed = true
	}
	if !changed {
		return
	}
	a.errs, a.warns = a.errs[:0], a.warns[:0]
	for _, d := range s.snap.Devices {
		if d.Configuring != nil {
			a.warns = append(a.warns, d.Name+": configuring: "+d.Configuring.Error())
			continue
		}
		if d.OK {
			continue
		}
		msg := d.Name + ": not answering"
		if d.LastErr != nil {
			msg = d.Name + ": " + d.LastErr.Error()
		}
		a.errs = append(a.errs, msg)
	}
	a.errs = append(a.errs, a.extraErrs...)
	a.warns = append(a.warns, a.extraWarns...)
	if s.snap.Inhibit != "" {
		a.warns = append(a.warns, "loop inhibited: "+s.snap.Inhibit)
	}
	a.errors.setStrings(a.errs, now)
	a.warnings.setStrings(a.warns, now)
	a.infos.setStrings(a.infosList, now)
}

// refusedWarnings warns of the loop's overruns (cycles longer than the
// period) and of each controller that refused commands since the last
// refresh (NaN, out of range, stopped: the same refusals /diagnostics and
// /rosout report), with the counts.
func (s *Source) refusedWarnings(warns []string) []string {
	a := &s.alerts
	if n := s.snap.Stats.Overruns; n > a.overruns {
		warns = append(warns, fmt.Sprintf("loop: %d overruns (%d in all): cycles started late", n-a.overruns, n))
		a.overruns = n
	}
	ctls := s.o.Loop.Controllers()
	if len(a.refused) != len(ctls) {
		a.refused = make([]uint64, len(ctls))
		for i, c := range ctls {
			a.refused[i] = c.Refused()
		}
		return warns
	}
	for i, c := range ctls {
		if n := c.Refused(); n > a.refused[i] {
			warns = append(warns, fmt.Sprintf("controller %s: %d commands refused (%d in all)", c.Name, n-a.refused[i], n))
			a.refused[i] = n
		}
	}
	return warns
}
