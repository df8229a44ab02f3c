// Command frcd brings ros_control to the FRC roboRIO. This file holds only
// the command line: each subcommand calls into the packages that do the work.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/hal/backends"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/wpilibws"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// Exit codes of every subcommand.
const (
	exitOK      = 0
	exitInvalid = 1 // the robot has errors
	exitUsage   = 2 // bad command line, or a file could not be read
	// exitUnavailable: the hardware could not be opened (no CAN interface,
	// no WPILib HAL library).
	exitUnavailable = 3
)

var usage = `frcd brings ros_control to the FRC roboRIO.

Usage:
  frcd run --hal ` + halChoices + ` [--master=embedded|external] [--no-ros] [--rate HZ] ROBOT.urdf ROBOT.yaml
                          run the robot, bridged to ROS, with a status line each second: on the
                          simulated HAL (--sim for short; it also serves WPILib's simulation
                          WebSocket protocol), on a Linux coprocessor, or on the roboRIO
` + deployUsage + canUsage + `  frcd validate [--json] [--strict] [--hal ` + halChoices + `] ROBOT.urdf ROBOT.yaml
                          check a robot's files; every finding as file:line:col; with --hal (or
                          the YAML's hal:), warn about each device that HAL cannot run
` + migrateUsage + describeUsage + schemaUsage + logUsage + `  frcd version            print the version

ROS 1 arguments (from:=to, __ns:=, __name:=, _param:=value, ...) may follow run's, as roslaunch passes them.

Exit status: 0 ok, 1 the robot has errors, 2 usage or I/O trouble, 3 the hardware could not be opened,
5 a panic (every output made neutral). No message from the network ends run: a ROS master's shutdown
request takes the ROS node off the graph until it may register again (docs/security.md).
SIGINT, SIGTERM and SIGHUP stop run with every output neutral (exit 0); SIGQUIT does too, then prints every
goroutine's stack (exit 131); a second signal exits at once (130). SIGPIPE, SIGUSR1 and SIGUSR2 never end it.
`

func main() {
	beforeRun(os.Args[1:])
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// beforeRun is what `frcd run` does before anything else, in the process
// itself only (main, and the tests' child processes): it executes frcd
// again with sysmonSetting when GODEBUG lacks it.
func beforeRun(args []string) {
	if len(args) > 0 && args[0] == "run" {
		reexecForSysmon(os.Stderr)
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "--version":
		cmd = "version"
	case "-h", "-help", "--help":
		cmd = "help"
	}
	for _, c := range commands() {
		if c.name == cmd {
			return runCommand(c, rest, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "frcd: unknown command %q%s\n\n%s", cmd, diag.DidYouMean(cmd, commandNames()), usage)
	return exitUsage
}

func versionCommand(_ []string, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "frcd %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return exitOK
}

func helpCommand(_ []string, stdout, _ io.Writer) int {
	fmt.Fprint(stdout, usage)
	return exitOK
}

// parseFlags parses flags wherever they stand among the arguments, so that
// `frcd validate robot.urdf robot.yaml --json` works as users type it.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("frcd "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func validate(args []string, stdout, stderr io.Writer) int {
	defer oneShot()()
	fs := newFlagSet("validate", stderr)
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	strict := fs.Bool("strict", false, "treat warnings as errors")
	halName := fs.String("hal", "", "warn about each device this HAL cannot run: "+backendList()+" (default: the YAML's hal:, if any)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: frcd validate [--json] [--strict] [--hal "+halChoices+"] ROBOT.urdf ROBOT.yaml")
		fs.PrintDefaults()
	}
	urdfPath, yamlPath, ok := robotFiles(fs, args)
	if !ok {
		return exitUsage
	}
	be, known := backends.Lookup(*halName)
	if *halName != "" && !known {
		fmt.Fprintf(stderr, "frcd validate: --hal %s: want %s%s\n", *halName, backendList(), diag.DidYouMean(*halName, backends.Names()))
		return exitUsage
	}
	r, list, ioErr := robot.Load(urdfPath, yamlPath)
	if r != nil {
		be, known = fileHAL(r.Config, *halName, be, known, &list)
	}
	if r != nil && known {
		devices.CheckBackend(r.Config, be.Name, be.Caps, be.Vendored, &list)
		if be.Validate != nil {
			be.Validate(r.Config, &list)
		}
	}
	loads := checkCAN(r, &list)
	if *strict {
		list.Strict()
	}
	if *asJSON {
		writeValidateJSON(stdout, list, loads)
	} else {
		list.WriteText(stdout)
		writeCANLoads(stdout, loads)
		fmt.Fprintln(stdout, summary(r, list, urdfPath, yamlPath))
	}
	switch {
	case ioErr != nil:
		return exitUsage
	case list.Errors() > 0:
		return exitInvalid
	}
	return exitOK
}

// fileHAL is the backend validate checks for: --hal's when given (a note
// when it overrides the file's `hal:`), else the file's `hal:`, which is
// an error when no backend has that name.
func fileHAL(c *config.File, flagHAL string, be backends.Backend, known bool, list *diag.List) (backends.Backend, bool) {
	switch {
	case c.HAL == "":
		return be, known
	case flagHAL != "":
		if flagHAL != c.HAL {
			list.Notef(c.HALPos, "--hal %s overrides the file's hal: %s", flagHAL, c.HAL)
		}
		return be, known
	}
	fb, ok := backends.Lookup(c.HAL)
	if !ok {
		list.Errorf(c.HALPos, "hal: unknown controller %q; want %s%s", c.HAL, backendList(), diag.DidYouMean(c.HAL, backends.Names()))
	}
	return fb, ok
}

// runDaemon is `frcd run`. SIGINT, SIGTERM and SIGHUP make every output
// neutral, then it exits 0; SIGQUIT (and SIGILL, SIGTRAP, SIGABRT,
// SIGSYS) make every output neutral, then print every goroutine's stack
// and exit 128 + the signal's number (signals.go).
func runDaemon(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", stderr)
	useSim := fs.Bool("sim", false, "run on the simulated HAL (--hal sim)")
	halName := fs.String("hal", "", halHelp())
	noROS := fs.Bool("no-ros", false, "run without the ROS bridge")
	rosFlag := fs.String("ros", "1", rosUsage)
	egress := fs.String("ros2-egress", "0", egressUsage)
	ros2Iface := fs.String("ros2-interface", "", interfaceUsage)
	masterFlag := fs.String("master", "embedded", "embedded: use the master at ROS_MASTER_URI, or start one in-process when none answers; external: only use (and wait for) an external master")
	rate := fs.Float64("rate", 0, "loop rate in Hz (default: the YAML's loop.rate_hz, 100)")
	disabled := fs.Bool("disabled", false, "start the simulated Driver Station disabled (default enabled)")
	seed := fs.Int64("seed", 1, "the sim's random seed")
	every := fs.Duration("status", time.Second, "how often to print the status line")
	scenario := fs.String("scenario", "", "start the sim from this scenario file (JSON; replaces the YAML's sim: section, --seed and --disabled)")
	saveScenario := fs.String("save-scenario", "", "write the scenario the sim starts from to this file (JSON), to replay the run with --scenario")
	wsAddr := fs.String("wpilibws", wpilibws.DefaultAddr, "host:port of the WPILib HAL simulation WebSocket server (resource /wpilibws), or off")
	tel := telemetryFlags(fs)
	priority := fs.Int("rt-priority", daemon.DefaultPriority, "the SCHED_FIFO priority (1-99) of the loop's thread, taken where permitted (CAP_SYS_NICE, as frcd deploy grants; root); 0: the normal priority. The status line's rt= says which it runs at")
	spin := fs.Duration("spin", 0, "spin this long before each cycle instead of sleeping (less jitter, more CPU; default at 500 Hz and above: as long as the measured wake-up lateness needs; -1ns never)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: frcd run --hal "+halChoices+" (or --sim) [--master=embedded|external] [--no-ros] [--rate HZ] [--disabled] [--seed N] [--scenario F] [--save-scenario F] [--status D] [--spin D] [--wpilibws ADDR|off] [--nt ADDR|off] [--log DIR] ROBOT.urdf ROBOT.yaml")
		fs.PrintDefaults()
	}
	args, ros2Argv, err := ros2Args(args)
	if err != nil {
		fmt.Fprintf(stderr, "frcd run: %v\n", err)
		return exitUsage
	}
	args, env, rosArgv, err := rosArgs(args, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "frcd run: %v\n", err)
		return exitUsage
	}
	urdfPath, yamlPath, ok := robotFiles(fs, args)
	if !ok {
		return exitUsage
	}
	be, ok := chooseBackend(fs, *halName, *useSim, stderr)
	if !ok {
		return exitUsage
	}
	onSim := be.Simulated
	mode, err := ros.ParseMasterMode(*masterFlag)
	if err != nil {
		fmt.Fprintf(stderr, "frcd run: %v\n", err)
		return exitUsage
	}
	transports, err := parseROS(*rosFlag, *noROS)
	if err != nil {
		fmt.Fprintf(stderr, "frcd run: %v\n", err)
		return exitUsage
	}
	if _, _, err := env.Master(); err != nil && transports.ros1 {
		fmt.Fprintf(stderr, "frcd run: %v\n", err)
		return exitUsage
	}
	r, code := loadRobot(urdfPath, yamlPath, stderr)
	if r == nil {
		return code
	}
	logger := log.New(stderr, "", 0)
	limit, from := applyMemoryLimit(os.Getenv)
	var sigs *signals // set before the daemon runs
	// The sim's options (SimOptions) reach only the simulated backend; on
	// the others chooseBackend refused their flags.
	so := daemon.SimOptions{RealTime: true, Seed: *seed, Enabled: !*disabled}
	o := daemon.Options{Rate: *rate, Spin: *spin, Priority: *priority, Status: stdout, StatusEvery: *every, Logf: logger.Printf,
		Halted: func() {
			if sig := sigs.Dump(); sig != nil { // SIGQUIT's dump, of the daemon still running but halted
				dumpGoroutines(stderr, sig)
			}
		}}
	if *priority <= 0 {
		o.Priority = -1
	} else if *priority > 99 {
		fmt.Fprintf(stderr, "frcd run: --rt-priority %d: SCHED_FIFO priorities are 1-99 (0: normal priority)\n", *priority)
		return exitUsage
	}
	if *scenario != "" {
		if so.Scenario, err = sim.LoadScenario(*scenario); err != nil {
			fmt.Fprintf(stderr, "frcd run: %v\n", err)
			return exitInvalid
		}
	}
	if *wsAddr != "off" && onSim {
		so.WPILibWS = *wsAddr
	}
	o.Telemetry = tel.options()
	if transports.ros1 || transports.ros2 {
		text, err := robot.ReadFile(urdfPath, robot.MaxURDFBytes)
		if err != nil {
			fmt.Fprintf(stderr, "frcd run: %v\n", err)
			return exitUsage
		}
		if transports.ros1 {
			o.ROS = &daemon.ROSOptions{Env: env, Master: mode, URDF: string(text), Logf: logger.Printf}
			nodeOptions(o.ROS, rosArgv)
		}
		if transports.ros2 {
			if o.ROS2, err = ros2Options(ros2Argv, *ros2Iface, os.Getenv, string(text), logger.Printf); err != nil {
				fmt.Fprintf(stderr, "frcd run: %v\n", err)
				return exitUsage
			}
			if o.ROS2.Node.RTPS.EgressLimit, err = parseEgress(*egress); err != nil {
				fmt.Fprintf(stderr, "frcd run: %v\n", err)
				return exitUsage
			}
		}
	}
	d, where, code := openDaemon(be, r, so, o, stderr)
	if d == nil {
		return code
	}
	defer func() {
		if err := d.Close(); err != nil {
			fmt.Fprintf(stderr, "frcd run: closing the HAL: %v\n", err)
		}
	}()
	if *saveScenario != "" {
		if err := d.Sim.Scenario().Save(*saveScenario); err != nil {
			fmt.Fprintf(stderr, "frcd run: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(stdout, "frcd: saved the scenario to %s\n", *saveScenario)
	}
	ctx, sigs, stop := stopOnSignals(func(sigs *signals) {
		// The halt may race the loop's own, which hangs: the process is
		// leaving, and outputs neutral matter more than a clean exit.
		bestEffort(d.Halt)
		fmt.Fprintln(stderr, "frcd: second signal: exiting at once")
		if sig := sigs.Dump(); sig != nil {
			dumpGoroutines(stderr, sig)
			os.Exit(exitCode(sig, exitSignal))
		}
		os.Exit(exitSignal)
	})
	defer stop()
	// The YAML's devices, as validate counts them; not d.Devices, which
	// adds the parts they share (a PCM, a REV heartbeat).
	fmt.Fprintf(stdout, "frcd: %s on %s at %.0f Hz, %d devices, %d joints; Ctrl-C stops\n",
		r.URDF.Name, where, float64(time.Second)/float64(d.Loop.Period()), len(r.Config.Devices), len(r.Joints))
	if limit > 0 && limit < math.MaxInt64 {
		fmt.Fprintf(stdout, "frcd: soft memory limit %d MiB, %s\n", limit>>20, from)
	}
	if d.Bridge != nil {
		uri, _, _ := env.Master()
		fmt.Fprintf(stdout, "frcd: ROS node %s, master %s (%s); publishing %s every %s\n", d.Bridge.Names().Node(), uri, *masterFlag, d.Bridge.Names().Resolve(ros.JointStatesTopic), d.Bridge.Stats().PublishEvery)
	}
	printROS2(stdout, d, o.ROS2)
	if d.WS != nil {
		if err := d.WS.ListenErr(); err != nil {
			fmt.Fprintf(stdout, "frcd: WPILib simulation WebSocket not served yet: %v; trying %s again every %s (the robot runs without it meanwhile)\n", err, d.WS.Addr(), daemon.PartRetry)
		} else {
			fmt.Fprintf(stdout, "frcd: WPILib simulation WebSocket on ws://%s%s\n", d.WS.Addr(), wpilibws.Resource)
		}
	}
	printTelemetry(stdout, d)
	return runUntilStopped(ctx, d, sigs, stdout, stderr)
}

// robotFiles parses flags and the two robot files, URDF then YAML (either
// order is taken: the order is easy to get wrong).
func robotFiles(fs *flag.FlagSet, args []string) (urdfPath, yamlPath string, ok bool) {
	files, err := parseFlags(fs, args)
	if err != nil {
		return "", "", false
	}
	if len(files) != 2 {
		fs.Usage()
		return "", "", false
	}
	urdfPath, yamlPath = files[0], files[1]
	if isYAML(urdfPath) && !isYAML(yamlPath) {
		urdfPath, yamlPath = yamlPath, urdfPath
	}
	return urdfPath, yamlPath, true
}

func isYAML(path string) bool {
	p := strings.ToLower(path)
	return strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")
}

func summary(r *robot.Robot, list diag.List, urdfPath, yamlPath string) string {
	counts := fmt.Sprintf("%d %s, %d %s", list.Errors(), plural(list.Errors(), "error"), list.Warnings(), plural(list.Warnings(), "warning"))
	if r == nil || list.Errors() > 0 {
		return fmt.Sprintf("%s + %s: %s", urdfPath, yamlPath, counts)
	}
	return fmt.Sprintf("%s + %s: ok, %d movable %s, %d %s; %s", urdfPath, yamlPath,
		len(r.Joints), plural(len(r.Joints), "joint"), len(r.Config.Devices), plural(len(r.Config.Devices), "device"), counts)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

const describeUsage = `  frcd describe [TYPE]    list the device, controller and section types, or show one's YAML keys
`

const schemaUsage = `  frcd schema             print a JSON Schema of the robot YAML, for editors
`

func describe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("describe", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, "usage:\n"+describeUsage) }
	names, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(names) == 0 {
		fmt.Fprint(stdout, config.Summaries())
		return exitOK
	}
	code := exitOK
	for i, name := range names {
		t := config.Describable(name)
		if t == nil {
			fmt.Fprintf(stderr, "frcd: unknown device type %q%s; `frcd describe` lists them\n", name, diag.DidYouMean(name, config.DescribableNames()))
			code = exitUsage
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, t.Describe())
	}
	return code
}

func schema(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, "usage:\n"+schemaUsage+"  frcd schema > frcd.schema.json\n") }
	rest, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(rest) > 0 {
		fmt.Fprintln(stderr, "usage: frcd schema > frcd.schema.json")
		return exitUsage
	}
	b, err := config.Schema()
	if err != nil {
		fmt.Fprintf(stderr, "frcd: %v\n", err)
		return exitUsage
	}
	stdout.Write(append(b, '\n'))
	return exitOK
}
