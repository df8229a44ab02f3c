package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/hal/backends"
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
	rep := validateReport{Report: diag.Report{Findings: list, Errors: list.Errors(), Warnings: list.Warnings(), Notes: list.Notes()}, CANBuses: loads}
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

var canUsage = `  frcd can scan --hal ` + halChoices + ` [--for D] [--json] ROBOT.urdf ROBOT.yaml
                          list the CAN devices heard on the robot's buses against those the
                          YAML expects (present, stale, missing, unexpected); exit 1 when a
                          required one is missing
`

// canCommand is `frcd can SUBCOMMAND`.
func canCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "scan" {
		fmt.Fprint(stderr, "usage:\n"+canUsage)
		return exitUsage
	}
	fs := newFlagSet("can scan", stderr)
	halName := fs.String("hal", "", "the HAL whose buses to listen to: "+backendList())
	listen := fs.Duration("for", time.Second, "how long to listen")
	asJSON := fs.Bool("json", false, "print the inventory as JSON")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage:\n"+canUsage)
		fs.PrintDefaults()
	}
	urdfPath, yamlPath, ok := robotFiles(fs, args[1:])
	if !ok {
		return exitUsage
	}
	if *listen <= 0 {
		fmt.Fprintln(stderr, "frcd can scan: --for must be positive")
		return exitUsage
	}
	r, list, ioErr := robot.Load(urdfPath, yamlPath)
	checkCAN(r, &list)
	if ioErr != nil || list.Errors() > 0 {
		list.WriteText(stderr)
		fmt.Fprintln(stderr, summary(r, list, urdfPath, yamlPath))
		if ioErr != nil {
			return exitUsage
		}
		return exitInvalid
	}
	// The robot stays disabled: the scan only listens (the loop runs so
	// that the devices poll and the heartbeat goes out as in a match).
	var d *daemon.Daemon
	var err error
	switch be, known := backends.Lookup(*halName); {
	case !known:
		fmt.Fprintf(stderr, "frcd can scan: --hal %q: want %s\n", *halName, backendList())
		return exitUsage
	case be.Simulated:
		d, err = daemon.NewSim(r, daemon.SimOptions{}, daemon.Options{})
	default:
		b, _, oerr := be.Open(r.Config, log.New(stderr, "", 0).Printf)
		if oerr != nil {
			fmt.Fprintf(stderr, "frcd can scan: %v\n", oerr)
			return exitUnavailable
		}
		d, err = daemon.New(r, b, daemon.Options{}) // closes b when it fails
	}
	if err != nil {
		fmt.Fprintf(stderr, "frcd can scan: %v\n", err)
		return exitInvalid
	}
	defer d.Close()
	if d.Sim != nil {
		for d.Now() < *listen {
			d.Step()
		}
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), *listen)
		err = d.Run(ctx)
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "frcd can scan: %v\n", err)
			return exitInvalid
		}
	}
	return writeScan(stdout, d.Inventory(), *asJSON)
}
