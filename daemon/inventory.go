package daemon

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/ros"
)

// The CAN inventory: the devices the YAML puts on CAN against those the
// monitored buses hear. While a `required` device is missing or stale the
// loop is inhibited (every output neutral, as if disabled).
const (
	// inventoryEvery is how often the inventory is taken while it gates
	// enabling (a required device on a monitored bus).
	inventoryEvery = 100 * time.Millisecond
	// inventoryIdle is how often Run takes it when it gates nothing: it
	// then only says what /diagnostics and the log show, and a turn every
	// 100 ms would wake a thread (and often sysmon) 10 times a second.
	inventoryIdle = 500 * time.Millisecond
	// inventorySettle is how long after the start the inventory is
	// logged: every device has sent its fastest status frames by then.
	inventorySettle = 500 * time.Millisecond
)

type inventory struct {
	expected  []*devices.CANDevice
	required  bool // some device is required: the inventory gates enabling
	next      time.Duration
	logged    bool
	inhibited bool // the loop is inhibited by the inventory

	mu   sync.Mutex
	last devices.Inventory // the last one taken; no Rows before the first
}

// setupInventory makes a required device on a monitored bus gate
// enabling: the loop starts inhibited until the inventory has heard it.
// d.inv.expected and d.monitors are set.
func (d *Daemon) setupInventory() {
	inv := &d.inv
	monitored := map[string]bool{}
	for _, b := range d.monitors {
		monitored[b.name] = true
	}
	var names []string
	for _, e := range inv.expected {
		switch {
		case !e.Required:
		case monitored[e.Bus]:
			inv.required = true
			names = append(names, strconv.Quote(e.Name()))
		default:
			d.logf("frcd: warning: %q is required, but this HAL cannot hear every frame on CAN bus %s: "+
				"its own reads still go stale without frames, but it does not keep the robot from enabling", e.Name(), devices.BusName(e.Label))
		}
	}
	if inv.required {
		inv.inhibited = true
		d.gate.set(d, gateInventory, "waiting to hear the required CAN devices "+strings.Join(names, ", "))
	}
}

// heard collects what each monitored bus has heard, by bus name.
func (d *Daemon) heard() map[string][]hal.Heard {
	m := make(map[string][]hal.Heard, len(d.monitors))
	for _, b := range d.monitors {
		m[b.name] = b.mon.Heard(nil)
	}
	return m
}

// takeInventory takes the inventory at now, inhibits the loop while a
// required device is missing or stale and lifts the inhibit when all are
// back, and logs the inventory once after inventorySettle. Safe from one
// goroutine at a time (the loop's in Step, the inventory's in Run).
func (d *Daemon) takeInventory(now time.Duration) {
	inv := &d.inv
	got := devices.TakeInventory(inv.expected, d.heard(), now)
	inv.mu.Lock()
	inv.last = got
	inv.mu.Unlock()
	reason := got.Reason()
	was := inv.inhibited
	inv.inhibited = inv.required && reason != ""
	lifted := false
	if inv.inhibited || was {
		gated := reason
		if !inv.inhibited {
			gated = ""
		}
		lifted = d.gate.set(d, gateInventory, gated)
	}
	switch {
	case was && !inv.inhibited && lifted:
		d.logf("frcd: every required CAN device is heard: the robot may enable")
	case was && !inv.inhibited:
		d.logf("frcd: every required CAN device is heard (still not enabling: %s)", d.Loop.Inhibited())
	}
	if !inv.logged && now >= inventorySettle && len(inv.expected) > 0 {
		inv.logged = true
		d.logf("frcd: CAN inventory: %s", inventorySummary(got))
		for _, r := range got.Rows {
			if r.Status != devices.Present {
				d.logf("frcd:   %s: %s", r.Status, describeRow(r))
			}
		}
	}
}

func (d *Daemon) logf(format string, args ...any) {
	if d.opts.Logf != nil {
		d.opts.Logf(format, args...)
	}
}

// inventoryDue takes the inventory in Step when it gates enabling.
func (d *Daemon) inventoryDue(now time.Duration) {
	if d.inv.required && now >= d.inv.next {
		d.inv.next = now + inventoryEvery
		d.takeInventory(now)
	}
}

// runInventory takes the inventory every inventoryEvery (inventoryIdle
// when it gates nothing) until ctx ends
// (Run's goroutine beside the loop).
func (d *Daemon) runInventory(ctx context.Context) error {
	repeat(ctx, d.inv.every(), func() { d.takeInventory(d.Now()) })
	return nil
}

// every is how often Run takes the inventory.
func (inv *inventory) every() time.Duration {
	if inv.required {
		return inventoryEvery
	}
	return inventoryIdle
}

// Inventory takes the CAN inventory now: what `frcd can scan` prints.
func (d *Daemon) Inventory() devices.Inventory {
	return devices.TakeInventory(d.inv.expected, d.heard(), d.Now())
}

func inventorySummary(inv devices.Inventory) string {
	c := inv.Counts()
	s := fmt.Sprintf("%d present, %d stale, %d missing, %d unexpected", c[devices.Present], c[devices.Stale], c[devices.Missing], c[devices.Unexpected])
	if n := c[devices.Unmonitored]; n > 0 {
		s += fmt.Sprintf(", %d on buses this HAL cannot monitor", n)
	}
	return s
}

func describeRow(r devices.InventoryRow) string {
	if r.Name == "" {
		return fmt.Sprintf("%s %s %d on CAN bus %s", r.Manufacturer, r.DeviceName, r.Number, devices.BusName(r.Bus))
	}
	req := ""
	if r.Required {
		req = ", required"
	}
	return fmt.Sprintf("%s %q (%s %d on CAN bus %s%s)", r.Type, r.Name, r.DeviceName, r.Number, devices.BusName(r.Bus), req)
}

// inventoryStatuses appends the inventory's /diagnostics status: error
// while a required device is missing or stale, warn for any other device
// not present, with a value per device not present.
func (d *Daemon) inventoryStatuses(dst []ros.Status) []ros.Status {
	inv := &d.inv
	inv.mu.Lock()
	got := inv.last
	inv.mu.Unlock()
	if len(got.Rows) == 0 { // not taken yet, or nothing on CAN
		return dst
	}
	level := ros.LevelOK
	var vals [][2]string
	for _, r := range got.Rows {
		if r.Status == devices.Present {
			continue
		}
		if r.Status != devices.Unmonitored && level == ros.LevelOK {
			level = ros.LevelWarn
		}
		vals = append(vals, [2]string{r.Status, describeRow(r)})
	}
	msg := inventorySummary(got)
	if reason := got.Reason(); reason != "" && inv.required {
		level, msg = ros.LevelError, "not enabling: "+reason
	}
	return append(dst, ros.Status{Level: level, Name: "frcd: CAN inventory", HardwareID: "can", Message: msg, Values: vals})
}
