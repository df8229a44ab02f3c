package daemon

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/frcd/frcd/devices"
)

// configureEvery is how often the devices whose configuration is applied
// by blocking vendor calls (devices.Configurer: the CTRE controllers) are
// given their turn; each retries at its own cadence.
const configureEvery = 50 * time.Millisecond

// configureIdle is how often Run gives them their turn once every one is
// configured: each then only checks for a reset every 250 ms
// (devices.ctreConfigRetry), so a turn every 50 ms would mostly find
// nothing due, and wake a thread (and often sysmon) 20 times a second for
// it. A question the loop asks meanwhile (a Talon FX's reset, while its
// position is held) waits for the next turn, at most this long.
const configureIdle = 250 * time.Millisecond

// configurers are the devices configured off the loop, and which of them
// are `required`: while one of those is not configured the robot does not
// enable (gate).
type configurers struct {
	all      []devices.Configurer
	required []namedConfigurer
	next     time.Duration
	// eventers are the devices with events to log (devices.Eventer),
	// taken with the configurers' turn.
	eventers []devices.Eventer
	events   []string
}

type namedConfigurer struct {
	name string
	c    devices.Configurer
}

// setupConfigurers collects the Configurers among d.Devices.
func (d *Daemon) setupConfigurers() {
	req := map[string]bool{}
	for _, cd := range d.Robot.Config.Devices {
		if cd.Has("required") && cd.Bool("required") {
			req[cd.Name] = true
		}
	}
	for _, dev := range d.Devices {
		if e, ok := dev.(devices.Eventer); ok {
			d.cfgs.eventers = append(d.cfgs.eventers, e)
		}
		c, ok := dev.(devices.Configurer)
		if !ok {
			continue
		}
		d.cfgs.all = append(d.cfgs.all, c)
		if req[dev.Name()] {
			d.cfgs.required = append(d.cfgs.required, namedConfigurer{dev.Name(), c})
		}
	}
	d.gateConfigured() // Build made each one's first attempt
}

// configure gives every Configurer its turn at now and gates enabling on
// the required ones. From one goroutine at a time: Step's (a stepped
// backend, whose calls return at once) or runConfigure's (Run).
func (d *Daemon) configure(now time.Duration) {
	for _, c := range d.cfgs.all {
		c.Configure(now)
	}
	d.gateConfigured()
	for _, e := range d.cfgs.eventers {
		d.cfgs.events = e.Events(d.cfgs.events[:0])
		for _, msg := range d.cfgs.events {
			d.logf("frcd: warning: %s", msg)
		}
	}
}

// gateConfigured keeps the robot from enabling while a required
// Configurer is not configured, naming them.
func (d *Daemon) gateConfigured() {
	var waiting []string
	for _, r := range d.cfgs.required {
		if !r.c.Configured() {
			waiting = append(waiting, strconv.Quote(r.name))
		}
	}
	reason := ""
	if len(waiting) > 0 {
		reason = "waiting for the required devices " + strings.Join(waiting, ", ") + " to take their configuration"
	}
	d.gate.set(d, gateConfig, reason)
}

// any reports whether there is a device to give a turn.
func (c *configurers) any() bool { return len(c.all) > 0 || len(c.eventers) > 0 }

// configureDue runs configure in Step.
func (d *Daemon) configureDue(now time.Duration) {
	if d.cfgs.any() && now >= d.cfgs.next {
		d.cfgs.next = now + configureEvery
		d.configure(now)
	}
}

// runConfigure runs configure every configureEvery, or every
// configureIdle while every configurer is configured, until ctx ends
// (Run's goroutine beside the loop: the CTRE config calls block for up to
// their timeouts, never on the loop).
func (d *Daemon) runConfigure(ctx context.Context) error {
	t := time.NewTimer(configureEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		d.configure(d.Now())
		t.Reset(d.cfgs.turnEvery())
	}
}

// turnEvery is how long after a turn the next one comes.
func (c *configurers) turnEvery() time.Duration {
	for _, cf := range c.all {
		if !cf.Configured() {
			return configureEvery
		}
	}
	return configureIdle
}

// The reasons the daemon keeps the loop from enabling (Loop.Inhibit), by
// source; the loop is inhibited while any has one.
const (
	gateInventory = iota
	gateConfig
	gateSources
)

type gate struct {
	mu      sync.Mutex
	reasons [gateSources]string
	on      bool
}

// set sets source's reason ("" none) and inhibits the loop with every
// reason there is, or lifts the inhibit when there is none. It reports
// whether it lifted it.
func (g *gate) set(d *Daemon, source int, reason string) (lifted bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reasons[source] = reason
	var all []string
	for _, r := range g.reasons {
		if r != "" {
			all = append(all, r)
		}
	}
	was := g.on
	g.on = len(all) > 0
	switch {
	case g.on:
		d.Loop.Inhibit(strings.Join(all, "; "))
	case was:
		d.Loop.Uninhibit()
		return true
	}
	return false
}
