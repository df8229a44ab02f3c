package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/nt4"
	"github.com/frcd/frcd/wpilog"
)

const logUsage = `  frcd log summary FILE.wpilog
                          print what a WPILOG file (frcd run --log DIR) holds: its entries,
                          their types, metadata and record counts
`

// telemetry holds run's --nt and --log flags.
type telemetry struct {
	nt, log  *string
	layout   *string
	maxBytes *int64
	maxFiles *int
}

func telemetryFlags(fs *flag.FlagSet) telemetry {
	return telemetry{
		nt: fs.String("nt", nt4.DefaultAddr, "host:port of the NetworkTables 4 server for dashboards (AdvantageScope, Elastic; path /nt/NAME), or off"),
		layout: fs.String("nt-layout", "", "the NetworkTables layout, 2026 (AdvantageScope's and Elastic's current releases) or 2027 "+
			"(WPILib 2027's /Telemetry and /Tunables); default the YAML's nt4: layout, else 2026"),
		log:      fs.String("log", "", "write a WPILOG file per run into this directory (what NT4 publishes plus every command)"),
		maxBytes: fs.Int64("log-max-bytes", 32<<20, "start a new log file past this size"),
		maxFiles: fs.Int("log-max-files", 10, "keep at most this many .wpilog files in the --log directory (the oldest go)"),
	}
}

func (t telemetry) options() *daemon.TelemetryOptions {
	o := &daemon.TelemetryOptions{LogDir: *t.log, LogMaxBytes: *t.maxBytes, LogMaxFiles: *t.maxFiles, Layout: *t.layout}
	if *t.nt != "off" {
		o.NT4 = *t.nt
	}
	return o
}

func printTelemetry(w io.Writer, d *daemon.Daemon) {
	if d.NT != nil {
		if err := d.NT.ListenErr(); err != nil {
			fmt.Fprintf(w, "frcd: NetworkTables 4 not served yet: %v; trying %s again every %s (the robot runs without it meanwhile)\n", err, d.NT.Addr(), daemon.PartRetry)
		} else {
			fmt.Fprintf(w, "frcd: NetworkTables 4 on ws://%s/nt/<client>\n", d.NT.Addr())
		}
	}
	if p := d.LogPath(); p != "" {
		fmt.Fprintf(w, "frcd: logging to %s\n", p)
	} else if why, down := d.Down()[daemon.PartLog]; down {
		fmt.Fprintf(w, "frcd: not logging: %s (the robot runs without its log)\n", why)
	}
}

// logCommand runs `frcd log summary FILE`.
func logCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 || args[0] != "summary" {
		fmt.Fprint(stderr, "usage:\n"+logUsage)
		return exitUsage
	}
	f, err := os.Open(args[1])
	if err != nil {
		fmt.Fprintf(stderr, "frcd log: %v\n", err)
		return exitUsage
	}
	defer f.Close()
	s, err := wpilog.Summarize(f)
	if err != nil {
		fmt.Fprintf(stderr, "frcd log: %s: %v\n", args[1], strings.TrimPrefix(err.Error(), "wpilog: "))
		return exitInvalid
	}
	s.Write(stdout)
	if len(s.Problems) > 0 {
		return exitInvalid
	}
	return exitOK
}
