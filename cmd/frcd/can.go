package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
)

// checkCAN estimates each CAN bus's load for `frcd validate` and adds its
// findings (devices.CheckCANLoad) to list, which it sorts again. It
// returns nil when the YAML was not read.
func checkCAN(r *robot.Robot, list *diag.List) []devices.BusLoad {
	if r == nil || r.Config == nil || r.Config.Unreadable {
		return nil
	}
	loads := devices.CheckCANLoad(r.Config, list)
	list.Sort()
	return loads
}

// writeCANLoads prints one line per bus: "CAN bus default: 12 devices,
// 48.6 % estimated load (...)".
func writeCANLoads(w io.Writer, loads []devices.BusLoad) {
	for _, b := range loads {
		fmt.Fprintln(w, b.String())
	}
}

// validateReport is `frcd validate --json`'s output: the findings, and
// each CAN bus's estimated load.
type validateReport struct {
	diag.Report
	CANBuses []devices.BusLoad `json:"can_buses"`
}

func writeValidateJSON(w io.Writer, list diag.List, loads []devices.BusLoad) error {
	rep := validateReport{Report: diag.Report{Findings: list, Errors: list.Errors(), Warnings: list.Warnings()}, CANBuses: loads}
	if rep.Findings == nil {
		rep.Findings = []diag.Finding{}
	}
	if rep.CANBuses == nil {
		rep.CANBuses = []devices.BusLoad{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeScan writes `frcd can scan`'s result: the inventory as a table (or
// JSON), then, when required devices are missing, a line saying frcd
// refuses to enable. It returns the exit status: exitInvalid when a
// required device is missing or stale.
func writeScan(w io.Writer, inv devices.Inventory, asJSON bool) int {
	if asJSON {
		inv.WriteJSON(w)
	} else {
		inv.WriteText(w)
		if reason := inv.Reason(); reason != "" {
			fmt.Fprintf(w, "frcd refuses to enable: %s\n", reason)
		}
	}
	if len(inv.RequiredMissing()) > 0 {
		return exitInvalid
	}
	return exitOK
}

// scanHeard collects what each monitored bus has heard, by bus name, for
// devices.TakeInventory; a bus that is not a hal.CANMonitor is left out
// (its devices read "unmonitored").
func scanHeard(buses map[string]hal.CANBus) map[string][]hal.Heard {
	heard := map[string][]hal.Heard{}
	for name, b := range buses {
		if m, ok := b.(hal.CANMonitor); ok {
			heard[name] = m.Heard(nil)
		}
	}
	return heard
}
