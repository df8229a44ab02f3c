// Package deploy installs frcd on a roboRIO over SSH, the way WPILib's
// GradleRIO installs a C++ robot program: it validates the robot first,
// connects as the roboRIO's admin user (roboRIO-N-FRC.local, then
// 10.TE.AM.2, then 172.22.11.2 over USB), stops the robot program, copies
// the ARM binary and the robot's two files to /home/lvuser, writes
// /home/lvuser/robotCommand (the file the roboRIO's robot-program launcher
// runs), restarts the robot program and streams the first lines of its log.
//
// The SSH client is golang.org/x/crypto/ssh and files go over SFTP
// (github.com/pkg/sftp); the few commands run on the roboRIO are the ones
// GradleRIO runs there (frcKillRobot.sh, chown, setcap, ldconfig, sync).
// Nothing runs a local ssh or scp.
//
// DeploySystemcore (systemcore.go) does the same on a Systemcore, as
// WPILib's own Systemcore deploy targets do: /home/systemcore, the user
// systemcore, the robot service.
//
// The files of this directory that are not Go (frcd.service,
// coprocessor.md) are for running frcd on a Linux coprocessor instead.
package deploy

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/robot"
)

// Paths on the roboRIO, below Target.Root.
const (
	// Home is lvuser's home, where the robot program lives.
	Home = "/home/lvuser"
	// BinaryName is the name frcd gets in Home.
	BinaryName = "frcd"
	// RobotCommandPath is the file the robot-program launcher
	// (/usr/local/frc/bin/frcRunRobot.sh) runs.
	RobotCommandPath = Home + "/robotCommand"
	// LogPath is where the launcher writes the robot program's standard
	// output and error (a link to /var/local/natinst/log/FRC_UserProgram.log).
	LogPath = Home + "/FRC_UserProgram.log"
	// KillScript stops the robot program; with -r it starts it again.
	KillScript = "/usr/local/frc/bin/frcKillRobot.sh"
	// PathScript puts the NI and FRC tools on PATH.
	PathScript = "/etc/profile.d/natinst-path.sh"
	// LibDir is where GradleRIO puts vendor and WPILib libraries.
	LibDir = "/usr/local/frc/third-party/lib"
)

// WPILibLibs are the WPILib HAL libraries frcd's roboRIO backend loads.
var WPILibLibs = []string{"libwpiHal.so", "libwpiutil.so"}

// DefaultPort is the SSH port.
const DefaultPort = 22

// USBAddress is the roboRIO's address on its USB device port.
const USBAddress = "172.22.11.2"

// Hosts returns the addresses where the roboRIO of a team answers, in the
// order GradleRIO tries them: its mDNS name, 10.TE.AM.2 on the robot
// radio's network, then the USB address.
func Hosts(team int) ([]string, error) {
	if team < 1 || team > 25599 {
		return nil, fmt.Errorf("team number %d out of range: FRC team numbers are 1 to 25599 (10.TE.AM.2 must be an address)", team)
	}
	return []string{
		fmt.Sprintf("roboRIO-%d-FRC.local", team),
		fmt.Sprintf("10.%d.%d.2", team/100, team%100),
		USBAddress,
	}, nil
}

// Target says who to log in as and where the roboRIO's file tree is. A
// test points it at a fake tree on an ordinary machine.
type Target struct {
	// Root prefixes every path on the remote machine, commands and the
	// robotCommand included ("" on a roboRIO).
	Root string
	// User is the SSH login (admin: root's rights, an empty password on a
	// fresh image).
	User string
	// Owner owns the robot program's files (lvuser, who runs it).
	Owner string
}

// RoboRIO is the target of a real roboRIO.
var RoboRIO = Target{User: "admin", Owner: "lvuser"}

// Options of one deploy.
type Options struct {
	// URDF and YAML are the robot's files on this machine.
	URDF, YAML string
	// Check, when set, adds the checks `frcd validate` makes beyond
	// robot.Load (the CAN bus load) to the findings.
	Check func(r *robot.Robot, list *diag.List)
	// Binary is the frcd executable for the roboRIO (`make rio`).
	Binary string
	// WPILibDir, when set, holds the WPILib libraries frcd loads
	// (WPILibLibs for the roboRIO, in LibDir; SystemcoreLibs for
	// Systemcore, in SystemcoreLibDir) to install; otherwise the deploy
	// checks that they are there.
	WPILibDir string
	// libs and libDir are the WPILib libraries and where they go: the
	// roboRIO's unless the platform's deploy sets them.
	libs   []string
	libDir string
	// Hosts are tried in order (host or host:port; port 22 by default).
	Hosts []string
	// DialTimeout bounds the connection to each host (default 3 s) and
	// the SSH handshake after it.
	DialTimeout time.Duration
	// Identity is a private key file to log in with; "" tries the usual
	// keys of SSHDir. The empty password is always tried too.
	Identity string
	// SSHDir holds the default keys and known_hosts ("" = ~/.ssh).
	SSHDir string
	// KnownHosts is the known_hosts file ("" = SSHDir/known_hosts).
	KnownHosts string
	// Target is the remote machine's user and root (zero = RoboRIO).
	Target Target
	// LogLines and LogWait bound the streaming of the robot program's log
	// after the restart: it stops after LogLines lines (default 10) or
	// LogWait (default 15 s), whichever comes first.
	LogLines int
	LogWait  time.Duration
	// Out receives the progress, the warnings and the log lines.
	Out io.Writer
	// RunArgs are more arguments of `frcd run` on the robot, written into
	// robotCommand before the robot's files, each shell-quoted: the log and
	// the dashboards' server (--log /u/logs --nt 0.0.0.0:5810), which a
	// match needs and `frcd run` leaves off by default.
	RunArgs []string
	// CheckBinary, when set, vets Binary after the robot validates
	// (frcd deploy passes CheckBinary).
	CheckBinary func(path string) error
	// Password, when set, is tried before the empty password
	// (Systemcore's documented default login, SystemcorePassword).
	Password string
	// Home is the robot program's directory on the target (default Home;
	// SystemcoreHome for DeploySystemcore).
	Home string
}

// home is the robot program's directory on the target, Root excluded.
func (o *Options) home() string {
	if o.Home == "" {
		return Home
	}
	return o.Home
}

// InvalidRobotError is the refusal to deploy a robot that does not
// validate; Findings are all of validation's findings.
type InvalidRobotError struct {
	Findings diag.List
	Summary  string
	// Err is the error reading a file, if that was the trouble.
	Err error
}

func (e *InvalidRobotError) Error() string {
	return "refusing to deploy a robot with errors: " + e.Summary
}

// RobotCommand is the content of robotCommand that starts frcd with the
// robot's files on the roboRIO backend, with more arguments of frcd run
// (Options.RunArgs) before them: the launcher runs it with sh.
func RobotCommand(binary, urdf, yaml string, args ...string) string {
	return robotCommand("roborio", binary, urdf, yaml, args)
}

func robotCommand(hal, binary, urdf, yaml string, args []string) string {
	cmd := shellQuote(binary) + " run --hal " + hal + " "
	if len(args) > 0 {
		cmd += shellJoin(args) + " "
	}
	return cmd + shellQuote(urdf) + " " + shellQuote(yaml) + "\n"
}

// Result says what a deploy did.
type Result struct {
	// Host is the address that answered.
	Host string
	// Files are the remote paths written (Root included).
	Files []string
	// LogLines are the robot program's log lines streamed after the
	// restart.
	LogLines []string
}

// wpilib are the WPILib libraries frcd loads on the target and their
// directory there.
func (o *Options) wpilib() ([]string, string) {
	if o.libs == nil {
		return WPILibLibs, LibDir
	}
	return o.libs, o.libDir
}

// wpilibHelp says where to find the libraries.
func (o *Options) wpilibHelp() string {
	if o.libs == nil {
		return "see deploy/roborio-checklist.md"
	}
	return "see deploy/systemcore.md"
}

func (o *Options) defaults() error {
	if o.Target == (Target{}) {
		o.Target = RoboRIO
	}
	if o.Target.User == "" || o.Target.Owner == "" {
		return errors.New("deploy: the target needs a user and an owner")
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 3 * time.Second
	}
	if o.LogLines <= 0 {
		o.LogLines = 10
	}
	if o.LogWait <= 0 {
		o.LogWait = 15 * time.Second
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.SSHDir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("deploy: no home directory for ~/.ssh: %v", err)
		}
		o.SSHDir = filepath.Join(home, ".ssh")
	}
	if o.KnownHosts == "" {
		o.KnownHosts = filepath.Join(o.SSHDir, "known_hosts")
	}
	if len(o.Hosts) == 0 {
		return errors.New("deploy: no host to deploy to: give a team number or a host")
	}
	return nil
}

// upload is one local file and where it goes.
type upload struct {
	local, remote string
	mode          os.FileMode
}

// plan checks the local side: the robot validates, the files exist and
// have distinct remote names. It writes the warnings to o.Out.
func (o *Options) plan() ([]upload, error) {
	r, list, err := robot.Load(o.URDF, o.YAML)
	if o.Check != nil {
		o.Check(r, &list)
	}
	if err != nil || list.Errors() > 0 {
		summary := fmt.Sprintf("%s + %s: %d errors", o.URDF, o.YAML, list.Errors())
		if err != nil {
			summary = fmt.Sprintf("%s + %s: %v", o.URDF, o.YAML, err)
		}
		return nil, &InvalidRobotError{Findings: list, Summary: summary, Err: err}
	}
	if err := list.WriteText(o.Out); err != nil { // warnings
		return nil, err
	}
	fmt.Fprintf(o.Out, "deploy: %s validates: %d movable joints, %d devices\n", r.URDF.Name, len(r.Joints), len(r.Config.Devices))
	if o.CheckBinary != nil {
		if err := o.CheckBinary(o.Binary); err != nil {
			return nil, fmt.Errorf("deploy: %w", err)
		}
	}
	home := o.Target.Root + o.home()
	ups := []upload{
		{o.Binary, home + "/" + BinaryName, 0o755},
		{o.URDF, home + "/" + filepath.Base(o.URDF), 0o644},
		{o.YAML, home + "/" + filepath.Base(o.YAML), 0o644},
	}
	if o.WPILibDir != "" {
		libs, dir := o.wpilib()
		var missing []string
		for _, lib := range libs {
			local := filepath.Join(o.WPILibDir, lib)
			if _, err := os.Stat(local); err != nil {
				missing = append(missing, lib)
			}
			ups = append(ups, upload{local, o.Target.Root + dir + "/" + lib, 0o755})
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("deploy: %s has no %s: frcd needs %s from the WPILib install (%s)",
				o.WPILibDir, strings.Join(missing, ", "), strings.Join(libs, ", "), o.wpilibHelp())
		}
	}
	reserved := map[string]string{o.home() + "/robotCommand": "robotCommand"}
	if o.home() == Home {
		reserved[LogPath] = "the log"
	}
	for _, u := range ups {
		fi, err := os.Stat(u.local)
		if err != nil {
			return nil, fmt.Errorf("deploy: %v", err)
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("deploy: %s is not a regular file", u.local)
		}
		rel := strings.TrimPrefix(u.remote, o.Target.Root)
		if what, taken := reserved[rel]; taken {
			return nil, fmt.Errorf("deploy: %s would land on %s (%s): rename it", u.local, rel, what)
		}
		reserved[rel] = u.local
	}
	return ups, nil
}

// start checks the local side (plan) and logs in to the first host that
// answers.
func (o *Options) start(ctx context.Context) ([]upload, *conn, error) {
	if err := o.defaults(); err != nil {
		return nil, nil, err
	}
	ups, err := o.plan()
	if err != nil {
		return nil, nil, err
	}
	auth, tried, err := o.authMethods()
	if err != nil {
		return nil, nil, err
	}
	c, err := o.connect(ctx, auth, tried)
	if err != nil {
		return nil, nil, err
	}
	return ups, c, nil
}

// Deploy installs and restarts frcd on the first host that answers.
func Deploy(ctx context.Context, o Options) (*Result, error) {
	ups, c, err := o.start(ctx)
	if err != nil {
		return nil, err
	}
	defer c.close()
	res := &Result{Host: c.host}
	out := o.Out
	root := o.Target.Root

	fmt.Fprintln(out, "deploy: stopping the robot program")
	if err := c.run(c.killCommand(false)); err != nil {
		// Nothing to stop is no reason not to deploy.
		fmt.Fprintf(out, "deploy: warning: %v\n", err)
	}
	if err := c.putAll(ups, res, out); err != nil {
		return res, err
	}
	if o.WPILibDir == "" {
		var missing []string
		for _, lib := range WPILibLibs {
			if _, err := c.sftp.Stat(root + LibDir + "/" + lib); err != nil {
				missing = append(missing, lib)
			}
		}
		if len(missing) > 0 {
			fmt.Fprintf(out, "deploy: warning: %s not in %s: frcd's roboRIO backend cannot start without them; give the WPILib libraries with --wpilib-libs DIR (or deploy any WPILib robot program once)\n",
				strings.Join(missing, " and "), LibDir)
		}
	} else {
		if err := c.run("ldconfig"); err != nil {
			return res, err
		}
	}
	binary, urdf, yaml := ups[0].remote, ups[1].remote, ups[2].remote // plan's order
	command := RobotCommand(binary, urdf, yaml, o.RunArgs...)
	if err := c.write(root+RobotCommandPath, []byte(command), 0o755); err != nil {
		return res, err
	}
	res.Files = append(res.Files, root+RobotCommandPath)
	fmt.Fprintf(out, "deploy: %s: %s", RobotCommandPath, command)

	owned := []string{binary, urdf, yaml, root + RobotCommandPath}
	if err := c.run("chown " + shellQuote(o.Target.Owner) + " " + shellJoin(owned)); err != nil {
		return res, err
	}
	// CAP_SYS_NICE, as GradleRIO grants C++ robot programs, lets frcd
	// run its loop thread at a real-time priority (--rt-priority).
	if err := c.run("setcap cap_sys_nice+eip " + shellQuote(binary)); err != nil {
		fmt.Fprintf(out, "deploy: warning: frcd will run without real-time priority: %v\n", err)
	}
	if err := c.run("sync"); err != nil {
		return res, err
	}
	logPath := root + LogPath
	offset := c.size(logPath)
	fmt.Fprintln(out, "deploy: restarting the robot program")
	if err := c.run(c.killCommand(true)); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "deploy: the first lines of %s:\n", LogPath)
	res.LogLines, err = c.follow(ctx, logPath, offset, o.LogLines, o.LogWait, func(line string) {
		fmt.Fprintf(out, "rio| %s\n", line)
	})
	if err != nil {
		return res, err
	}
	if len(res.LogLines) == 0 {
		fmt.Fprintf(out, "deploy: warning: the robot program wrote nothing in %s; see the Driver Station's console or %s\n", o.LogWait, LogPath)
	}
	fmt.Fprintf(out, "deploy: done: frcd runs on %s\n", c.host)
	return res, nil
}

// CheckBinary checks that path is what a roboRIO runs: a 32-bit ARM Linux
// executable.
func CheckBinary(path string) error {
	_, err := openELF(path, elf.ELFCLASS32, elf.EM_ARM, "a 32-bit ARM executable for the roboRIO", "build frcd for the roboRIO with `make rio`")
	return err
}

// openELF checks that path is an executable of that class and machine
// (want says which in an error, build how to make one) and returns its
// program headers.
func openELF(path string, class elf.Class, machine elf.Machine, want, build string) ([]elf.ProgHeader, error) {
	f, err := elf.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s not found: %s, or give it with --binary", path, build)
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not a Linux executable (%v): %s", path, err, build)
	}
	defer f.Close()
	if f.Class != class || f.Machine != machine || (f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN) {
		return nil, fmt.Errorf("%s is a %s %s %s, not %s: %s", path, f.Class, f.Machine, f.Type, want, build)
	}
	var progs []elf.ProgHeader
	for _, p := range f.Progs {
		progs = append(progs, p.ProgHeader)
	}
	return progs, nil
}

// withPort adds the SSH port to a host that has none.
func withPort(host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(DefaultPort))
}

// shellQuote quotes s for sh when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}
