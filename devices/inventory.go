package devices

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// StaleAfter is how long a device may go unheard before the inventory
// calls it stale: the HAL's 100 ms CAN timeout, after which the drivers
// call its status stale too (statusTimeout).
const StaleAfter = statusTimeout

// The statuses of an inventory row.
const (
	Present     = "present"     // heard within StaleAfter
	Stale       = "stale"       // heard, but not for StaleAfter
	Missing     = "missing"     // never heard
	Unexpected  = "unexpected"  // heard, not in the YAML
	Unmonitored = "unmonitored" // in the YAML, on a bus nobody listens to
)

// InventoryRow is one CAN device, expected or heard.
type InventoryRow struct {
	Status string `json:"status"`
	// Name and Type are the YAML entries' (names joined by ", "), "" for
	// an unexpected device.
	Name         string   `json:"name,omitempty"`
	Type         string   `json:"type,omitempty"`
	Bus          string   `json:"bus"`
	DeviceType   int      `json:"device_type"`
	DeviceName   string   `json:"device_type_name"` // frc.DeviceTypeName, or the kind for expected devices
	Manufacturer string   `json:"manufacturer"`
	Number       int      `json:"number"`
	Required     bool     `json:"required,omitempty"`
	IDs          []uint32 `json:"ids"` // expected: the ids it sends; unexpected: those heard
	// Heard is whether any of its frames came, LastSeen when the newest
	// did (on the bus's clock) and Age how long before the inventory's
	// time; Frames counts them.
	Heard    bool          `json:"heard"`
	LastSeen time.Duration `json:"last_seen_ns,omitempty"`
	Age      time.Duration `json:"age_ns,omitempty"`
	Frames   uint64        `json:"frames"`
}

// Inventory is the CAN devices a robot's YAML expects against those its
// buses have heard, at a time Now.
type Inventory struct {
	Now  time.Duration  `json:"now_ns"`
	Rows []InventoryRow `json:"devices"`
}

// TakeInventory compares the expected devices (ExpectedCAN) with what
// each bus has heard (hal.CANMonitor.Heard, by bus name; "" the default
// bus) at time now. A bus missing from heard is not listened to: its
// devices are Unmonitored. An expected device is Present when one of its
// status frames came within StaleAfter of now, Stale when only earlier,
// Missing when none ever came. Frames of an expected device's bus, type,
// manufacturer and number that are not its own (a status frame frcd does
// not know of) count as its, except for a Rider (a Pigeon on a Talon SRX),
// known by its own ids only; the controller's own control frames and the
// universal heartbeat are not devices. Everything else heard makes one
// Unexpected row per device type, manufacturer and number. Rows are in
// the expected devices' order, then the unexpected ones by bus and id.
func TakeInventory(expected []*CANDevice, heard map[string][]hal.Heard, now time.Duration) Inventory {
	inv := Inventory{Now: now}
	control := map[uint32]bool{hal.HeartbeatID: true}
	riders := map[string]map[uint32]bool{} // by bus: the ids riders send
	for _, d := range expected {
		for _, f := range d.Kind.Frames {
			if !f.FromDevice {
				control[d.Kind.ID(f, d.Number)] = true
			}
		}
		for _, f := range d.Kind.BusFrames {
			control[d.Kind.ID(f, 0)] = true
		}
		if d.Kind.Rider {
			if riders[d.Bus] == nil {
				riders[d.Bus] = map[uint32]bool{}
			}
			for _, id := range d.StatusIDs() {
				riders[d.Bus][id] = true
			}
		}
	}
	claimed := map[string]map[uint32]bool{}
	labels := map[string]string{} // the buses' names in reports
	for _, d := range expected {
		if d.Label != "" {
			labels[d.Bus] = d.Label
		}
	}
	for _, d := range expected {
		row := InventoryRow{
			Name: d.Name(), Type: d.Entries[0].TypeName, Bus: d.Label, DeviceType: d.Kind.DevType, DeviceName: d.Kind.Name,
			Manufacturer: frc.ManufacturerName(d.Kind.Mfr), Number: d.Number, Required: d.Required, IDs: d.StatusIDs(),
		}
		list, monitored := heard[d.Bus]
		if !monitored {
			row.Status = Unmonitored
			inv.Rows = append(inv.Rows, row)
			continue
		}
		if claimed[d.Bus] == nil {
			claimed[d.Bus] = map[uint32]bool{}
		}
		for _, h := range list {
			t, m, _, n := frc.SplitFRCID(h.ID)
			if t != d.Kind.DevType || m != d.Kind.Mfr || n != d.Number || control[h.ID] {
				continue
			}
			if d.Kind.Rider != riders[d.Bus][h.ID] {
				continue // a rider's frame, or a rider and not its frame
			}
			if d.Kind.Rider && !slices.Contains(row.IDs, h.ID) {
				continue
			}
			claimed[d.Bus][h.ID] = true
			row.Frames += h.Count
			if !row.Heard || h.Last > row.LastSeen {
				row.LastSeen = h.Last
			}
			row.Heard = true
		}
		switch {
		case !row.Heard:
			row.Status = Missing
		case now-row.LastSeen > StaleAfter:
			row.Status = Stale
		default:
			row.Status = Present
		}
		if row.Heard {
			row.Age = now - row.LastSeen
		}
		inv.Rows = append(inv.Rows, row)
	}
	inv.Rows = append(inv.Rows, unexpected(heard, claimed, control, labels, now)...)
	return inv
}

// unexpected groups the heard ids nobody claimed by bus, device type,
// manufacturer and number.
func unexpected(heard map[string][]hal.Heard, claimed map[string]map[uint32]bool, control map[uint32]bool, labels map[string]string, now time.Duration) []InventoryRow {
	buses := make([]string, 0, len(heard))
	for b := range heard {
		buses = append(buses, b)
	}
	slices.SortFunc(buses, compareBuses)
	var rows []InventoryRow
	for _, bus := range buses {
		byDev := map[[3]int]int{} // type, manufacturer, number → row
		for _, h := range heard[bus] {
			if claimed[bus][h.ID] || control[h.ID] {
				continue
			}
			t, m, _, n := frc.SplitFRCID(h.ID)
			k := [3]int{t, m, n}
			i, ok := byDev[k]
			if !ok {
				i = len(rows)
				byDev[k] = i
				label := bus
				if l, ok := labels[bus]; ok {
					label = l
				}
				rows = append(rows, InventoryRow{Status: Unexpected, Bus: label, DeviceType: t, DeviceName: frc.DeviceTypeName(t),
					Manufacturer: frc.ManufacturerName(m), Number: n, Heard: true, LastSeen: h.Last})
			}
			r := &rows[i]
			r.IDs = append(r.IDs, h.ID)
			r.Frames += h.Count
			r.LastSeen = max(r.LastSeen, h.Last)
			r.Age = now - r.LastSeen
		}
	}
	return rows
}

// RequiredMissing lists the rows of `required` devices that are missing
// or stale: while it is not empty the daemon refuses to enable.
func (inv Inventory) RequiredMissing() []InventoryRow {
	var out []InventoryRow
	for _, r := range inv.Rows {
		if r.Required && (r.Status == Missing || r.Status == Stale) {
			out = append(out, r)
		}
	}
	return out
}

// Reason is why the daemon refuses to enable, for Loop.Inhibit: the
// required devices missing or stale; "" when none is.
func (inv Inventory) Reason() string {
	miss := inv.RequiredMissing()
	if len(miss) == 0 {
		return ""
	}
	parts := make([]string, len(miss))
	for i, r := range miss {
		parts[i] = fmt.Sprintf("%s %q (%s %d on CAN bus %s)", r.Type, r.Name, r.DeviceName, r.Number, BusName(r.Bus))
	}
	what := "required CAN device " + miss[0].Status
	if len(miss) > 1 {
		what = "required CAN devices missing or stale"
	}
	return what + ": " + strings.Join(parts, ", ")
}

// Counts returns how many rows have each status.
func (inv Inventory) Counts() map[string]int {
	c := map[string]int{}
	for _, r := range inv.Rows {
		c[r.Status]++
	}
	return c
}

// WriteText writes the inventory as a table, one device a line, then a
// count line.
func (inv Inventory) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STATUS\tBUS\tNAME\tTYPE\tDEVICE\tMANUFACTURER\tNUMBER\tLAST SEEN\tFRAMES\tIDS")
	for _, r := range inv.Rows {
		name, typ := r.Name, r.Type
		if name == "" {
			name, typ = "-", "-"
		}
		if r.Required {
			name += " (required)"
		}
		seen := "never"
		switch {
		case r.Status == Unmonitored:
			seen = "-"
		case r.Heard:
			seen = fmt.Sprintf("%v ago", r.Age.Round(time.Millisecond))
		}
		ids := make([]string, len(r.IDs))
		for i, id := range r.IDs {
			ids[i] = fmt.Sprintf("%08X", id)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%d\t%s\n", r.Status, BusName(r.Bus), name, typ, r.DeviceName,
			r.Manufacturer, r.Number, seen, r.Frames, strings.Join(ids, " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	c := inv.Counts()
	_, err := fmt.Fprintf(w, "%d present, %d stale, %d missing, %d unexpected, %d unmonitored; %d required missing or stale\n",
		c[Present], c[Stale], c[Missing], c[Unexpected], c[Unmonitored], len(inv.RequiredMissing()))
	return err
}

// WriteJSON writes the inventory as indented JSON: {"now_ns", "devices":
// rows, "required_missing": names}.
func (inv Inventory) WriteJSON(w io.Writer) error {
	rows := inv.Rows
	if rows == nil {
		rows = []InventoryRow{}
	}
	req := []string{}
	for _, r := range inv.RequiredMissing() {
		req = append(req, r.Name)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Now             time.Duration  `json:"now_ns"`
		Rows            []InventoryRow `json:"devices"`
		RequiredMissing []string       `json:"required_missing"`
	}{inv.Now, rows, req})
}
