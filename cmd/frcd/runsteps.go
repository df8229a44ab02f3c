package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/backends"
	"github.com/frcd/frcd/robot"
)

// The steps of `frcd run` (runDaemon, main.go), in their order: choose
// the backend, load the robot, open the daemon on the backend, run it
// until it stops. Each prints its own refusal and gives the exit status.

// chooseBackend is run's --hal (or --sim): the registered backend, and on
// a real one no flag only the sim takes. false: the usage error is
// printed.
func chooseBackend(fs *flag.FlagSet, halName string, useSim bool, stderr io.Writer) (backends.Backend, bool) {
	simulated, _ := backends.Simulated()
	if useSim {
		if halName != "" && halName != simulated.Name {
			fmt.Fprintf(stderr, "frcd run: --sim and --hal %s contradict each other\n", halName)
			return backends.Backend{}, false
		}
		halName = simulated.Name
	}
	be, known := backends.Lookup(halName)
	switch {
	case known:
	case halName == "":
		fmt.Fprintln(stderr, "frcd run: "+halHint())
		return be, false
	default:
		fmt.Fprintf(stderr, "frcd run: --hal %s: want %s%s\n", halName, backendList(), diag.DidYouMean(halName, backends.Names()))
		return be, false
	}
	if !be.Simulated {
		var simOnly []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "disabled", "seed", "scenario", "save-scenario", "wpilibws":
				if f.Name != "wpilibws" || f.Value.String() != "off" { // off is off anywhere (a launch file's)
					simOnly = append(simOnly, "--"+f.Name)
				}
			}
		})
		if len(simOnly) > 0 {
			fmt.Fprintf(stderr, "frcd run: %s only apply to the simulated HAL (--hal %s)\n", strings.Join(simOnly, ", "), simulated.Name)
			return be, false
		}
	}
	return be, true
}

// loadRobot reads and checks the robot's two files and prints their
// warnings; a robot with errors is refused with every finding (nil, and
// the exit status).
func loadRobot(urdfPath, yamlPath string, stderr io.Writer) (*robot.Robot, int) {
	r, list, ioErr := robot.Load(urdfPath, yamlPath)
	if ioErr != nil || list.Errors() > 0 {
		list.WriteText(stderr)
		fmt.Fprintln(stderr, summary(r, list, urdfPath, yamlPath))
		if ioErr != nil {
			return nil, exitUsage
		}
		return nil, exitInvalid
	}
	list.WriteText(stderr) // warnings
	return r, exitOK
}

// openDaemon builds the daemon on the backend: the simulated one from the
// whole robot and so, a real one opened from the robot's YAML (its log
// lines on stderr), which so does not reach (chooseBackend refused the
// sim's flags there). It says where the robot runs, for the start-up
// line; nil and the exit status when it cannot.
func openDaemon(be backends.Backend, r *robot.Robot, so daemon.SimOptions, o daemon.Options, stderr io.Writer) (*daemon.Daemon, string, int) {
	var d *daemon.Daemon
	var err error
	where := "the simulated HAL"
	if be.Simulated {
		d, err = daemon.NewSim(r, so, o)
	} else {
		var b hal.Backend
		if b, where, err = be.Open(r.Config, log.New(stderr, "", 0).Printf); err != nil {
			fmt.Fprintf(stderr, "frcd run: %v\n", err)
			return nil, "", exitUnavailable
		}
		d, err = daemon.New(r, b, o) // closes b when it fails
	}
	if err != nil {
		fmt.Fprintf(stderr, "frcd run: %v\n", err)
		return nil, "", exitInvalid
	}
	return d, where, exitOK
}

// runUntilStopped runs the daemon until ctx ends (a signal) or it fails,
// and gives frcd's exit status for how it ended.
func runUntilStopped(ctx context.Context, d *daemon.Daemon, sigs *signals, stdout, stderr io.Writer) int {
	if err := d.Run(ctx); err != nil {
		fmt.Fprintf(stderr, "frcd run: stopping, every output neutral: %v\n", err)
		var pe *daemon.PanicError
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "frcd: every output made neutral after the panic\n%s", pe.Stack)
			return exitPanic
		}
		return exitInvalid
	}
	fmt.Fprintln(stdout, "frcd: stopped; every output neutral")
	if sig := sigs.Dump(); sig != nil {
		return exitCode(sig, exitSignal)
	}
	return exitOK
}
