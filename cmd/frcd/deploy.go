package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/deploy"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/robot"
)

// deployUsage is the line of `frcd deploy` in the usage text.
const deployUsage = `  frcd deploy --team N [--host ADDR,...] [--binary bin/frcd-rio] [--wpilib-libs DIR] [--run-flags FLAGS] ROBOT.urdf ROBOT.yaml
                          validate the robot, install frcd on the team's roboRIO over SSH,
                          restart the robot program and show its first log lines
  frcd deploy --systemcore [--host ADDR,...] [--binary bin/frcd-systemcore] [--wpilib-libs DIR] ROBOT.urdf ROBOT.yaml
                          the same on a Systemcore (robot.local, then 172.26.0.1 over USB):
                          /home/systemcore, run by the robot service, with WPILib's 2027 HAL
`

// deployHidden are the flags of `frcd deploy` for tests against a fake
// roboRIO tree, left out of its usage.
var deployHidden = map[string]bool{"root": true, "user": true, "owner": true}

// deployRobot is `frcd deploy`.
func deployRobot(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("deploy", stderr)
	team := fs.Int("team", 0, "the FRC team number: deploy to roboRIO-N-FRC.local, then 10.TE.AM.2, then 172.22.11.2 (USB)")
	hosts := fs.String("host", "", "address(es) of the roboRIO, host or host:port, comma-separated and tried in order (instead of --team's)")
	systemcore := fs.Bool("systemcore", false, "deploy to a Systemcore (WPILib's 2027 controller) instead of a roboRIO")
	binary := fs.String("binary", "bin/frcd-rio", "the frcd executable for the roboRIO, as `make rio` builds it (with --systemcore: bin/frcd-systemcore, as `make systemcore` builds it)")
	libs := fs.String("wpilib-libs", "", "a directory with libwpiHal.so and libwpiutil.so to install in "+deploy.LibDir+
		" (with --systemcore: "+strings.Join(deploy.SystemcoreLibs, ", ")+" for linuxsystemcore, in "+deploy.SystemcoreLibDir+
		", or a WPILib install, ~/wpilib/YEAR, whose linuxsystemcore Maven zips hold them; default: check that they are there)")
	identity := fs.String("identity", "", "a private key to log in with (default: ~/.ssh/id_ed25519, id_ecdsa, id_rsa; the empty password is always tried)")
	knownHosts := fs.String("known-hosts", "", "the known_hosts file (default ~/.ssh/known_hosts); an unknown roboRIO's key is trusted and recorded")
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for each address to answer")
	runFlags := fs.String("run-flags", "", "flags of frcd run for the robot's dashboards and log, written into robotCommand: "+
		"--nt, --nt-layout, --log, --log-max-bytes, --log-max-files (for a match: \"--log /u/logs --nt 0.0.0.0:5810\"; docs/match-day.md)")
	lines := fs.Int("log-lines", 10, "how many lines of the robot program's log to show after the restart")
	wait := fs.Duration("log-wait", 15*time.Second, "how long to wait for them")
	root := fs.String("root", "", "prefix of every path on the remote machine (tests)")
	user := fs.String("user", deploy.RoboRIO.User, "the SSH login (tests)")
	owner := fs.String("owner", deploy.RoboRIO.Owner, "the owner of the installed files (tests)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage:\n"+deployUsage)
		fs.VisitAll(func(f *flag.Flag) {
			if !deployHidden[f.Name] {
				fmt.Fprintf(stderr, "  --%s\n    \t%s\n", f.Name, f.Usage)
			}
		})
	}
	urdfPath, yamlPath, ok := robotFiles(fs, args)
	if !ok {
		return exitUsage
	}
	o := deploy.Options{
		URDF: urdfPath, YAML: yamlPath, Check: func(r *robot.Robot, list *diag.List) { checkCAN(r, list) }, Binary: *binary, WPILibDir: *libs,
		DialTimeout: *timeout, Identity: *identity, KnownHosts: *knownHosts,
		Target:   deploy.Target{Root: *root, User: *user, Owner: *owner},
		LogLines: *lines, LogWait: *wait, Out: stdout, CheckBinary: deploy.CheckBinary,
	}
	runArgs, err := deployRunArgs(*runFlags)
	if err != nil {
		fmt.Fprintf(stderr, "frcd deploy: --run-flags: %v\n", err)
		return exitUsage
	}
	o.RunArgs = runArgs
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	deployTo := deploy.Deploy
	if *systemcore {
		deployTo, o.CheckBinary = deploy.DeploySystemcore, deploy.CheckSystemcoreBinary
		if !set["binary"] {
			o.Binary = "bin/frcd-systemcore"
		}
		if !set["user"] && !set["owner"] {
			o.Target.User, o.Target.Owner = deploy.SystemcoreTarget.User, deploy.SystemcoreTarget.Owner
		}
		if set["log-lines"] || set["log-wait"] {
			fmt.Fprintln(stderr, "frcd deploy: --systemcore shows no log (--log-lines, --log-wait)")
			return exitUsage
		}
		if *team != 0 && *hosts == "" {
			fmt.Fprintf(stderr, "frcd deploy: --systemcore finds Systemcore at %s, not by team number: drop --team, or give --host\n", strings.Join(deploy.SystemcoreHosts, " or "))
			return exitUsage
		}
		if *hosts == "" {
			o.Hosts = deploy.SystemcoreHosts
		}
	}
	switch {
	case *hosts != "":
		for _, h := range strings.Split(*hosts, ",") {
			if h = strings.TrimSpace(h); h != "" {
				o.Hosts = append(o.Hosts, h)
			}
		}
	case *team != 0:
		var err error
		if o.Hosts, err = deploy.Hosts(*team); err != nil {
			fmt.Fprintf(stderr, "frcd deploy: %v\n", err)
			return exitUsage
		}
	}
	if len(o.Hosts) == 0 {
		fmt.Fprintln(stderr, "frcd deploy: say where to deploy: --team N or --host ADDR")
		fs.Usage()
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err = deployTo(ctx, o)
	var invalid *deploy.InvalidRobotError
	switch {
	case errors.As(err, &invalid):
		invalid.Findings.WriteText(stderr)
		fmt.Fprintf(stderr, "frcd deploy: %v\n", err)
		if invalid.Err != nil {
			return exitUsage
		}
		return exitInvalid
	case err != nil:
		fmt.Fprintf(stderr, "frcd deploy: %s\n", strings.TrimPrefix(err.Error(), "deploy: "))
		return exitUsage
	}
	return exitOK
}

// deployRunArgs splits --run-flags into words and checks them as frcd run
// would, against its dashboard and log flags (telemetryFlags), the only
// ones a deploy passes on: the robot must not fail to start on them.
// Values with spaces are not supported.
func deployRunArgs(flags string) ([]string, error) {
	words := strings.Fields(flags)
	if len(words) == 0 {
		return nil, nil
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	t := telemetryFlags(fs)
	if err := fs.Parse(words); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%q is not one of frcd run's --nt, --nt-layout, --log, --log-max-bytes, --log-max-files", fs.Arg(0))
	}
	if *t.layout != "" {
		if err := daemon.CheckLayout(*t.layout); err != nil {
			return nil, err
		}
	}
	return words, nil
}
