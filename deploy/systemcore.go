package deploy

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
)

// Systemcore, WPILib's controller from the 2027 season, as WPILib's own
// Systemcore deploy targets describe it (allwpilib developerRobot and
// benchmark build.gradle, docs/systemcore.md has the commit): the robot
// program lives in /home/systemcore, owned by and run as the user
// systemcore (default password "systemcore"), started by the robot
// service (`systemctl stop robot`), which runs /home/systemcore/robotCommand.
const (
	SystemcoreHome     = "/home/systemcore"
	SystemcoreUser     = "systemcore"
	SystemcorePassword = "systemcore"
	// SystemcoreService is the systemd unit that runs robotCommand.
	SystemcoreService = "robot"
)

// SystemcoreHosts are where a Systemcore answers, in the order WPILib's
// deploy tries them: its mDNS name, then its USB address.
var SystemcoreHosts = []string{"robot.local", "172.26.0.1"}

// SystemcoreTarget logs in as the systemcore user, who owns the files.
var SystemcoreTarget = Target{User: SystemcoreUser, Owner: SystemcoreUser}

// DeploySystemcore installs frcd on a Systemcore: it validates the robot,
// logs in (keys, then the default password), stops the robot service,
// copies the static arm64 binary (`make systemcore`) and the robot's two
// files to /home/systemcore, writes robotCommand to run
// `frcd run --hal systemcore` on them, grants CAP_SYS_NICE as WPILib's
// deploy does, and starts the robot service again. It streams no log:
// where the robot service's output goes is not in WPILib's sources
// (deploy/systemcore.md says how to look).
func DeploySystemcore(ctx context.Context, o Options) (*Result, error) {
	if o.Target == (Target{}) {
		o.Target = SystemcoreTarget
	}
	if o.Home == "" {
		o.Home = SystemcoreHome
	}
	if o.Password == "" {
		o.Password = SystemcorePassword
	}
	if o.WPILibDir != "" {
		return nil, errors.New("deploy: Systemcore's frcd is one static binary: it needs no WPILib libraries (drop --wpilib-libs)")
	}
	ups, c, err := o.start(ctx)
	if err != nil {
		return nil, err
	}
	defer c.close()
	res := &Result{Host: c.host}
	out, root := o.Out, o.Target.Root
	service := func(verb string) string { return "sudo systemctl " + verb + " " + SystemcoreService }

	fmt.Fprintln(out, "deploy: stopping the robot service")
	if err := c.run(service("stop")); err != nil {
		fmt.Fprintf(out, "deploy: warning: %v\n", err)
	}
	if err := c.putAll(ups, res, out); err != nil {
		return res, err
	}
	binary, urdf, yaml := ups[0].remote, ups[1].remote, ups[2].remote // plan's order
	command := robotCommand("systemcore", binary, urdf, yaml)
	cmdPath := root + o.Home + "/robotCommand"
	if err := c.write(cmdPath, []byte(command), 0o755); err != nil {
		return res, err
	}
	res.Files = append(res.Files, cmdPath)
	fmt.Fprintf(out, "deploy: %s/robotCommand: %s", o.Home, command)
	if err := c.run("chown " + shellQuote(o.Target.Owner) + " " + shellJoin([]string{binary, urdf, yaml, cmdPath})); err != nil {
		return res, err
	}
	if err := c.run("sudo setcap cap_sys_nice+eip " + shellQuote(binary)); err != nil {
		fmt.Fprintf(out, "deploy: warning: frcd will run without real-time priority: %v\n", err)
	}
	if err := c.run("sync"); err != nil {
		return res, err
	}
	fmt.Fprintln(out, "deploy: starting the robot service")
	if err := c.run(service("start")); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "deploy: done: frcd runs on %s (its output: see deploy/systemcore.md)\n", c.host)
	return res, nil
}

// CheckSystemcoreBinary checks that path is a static 64-bit ARM
// executable, as `make systemcore` builds: Systemcore's aarch64 Linux runs
// it with no library of its own.
func CheckSystemcoreBinary(path string) error {
	const build = "build frcd for Systemcore with `make systemcore`"
	progs, err := openELF(path, elf.ELFCLASS64, elf.EM_AARCH64, "a 64-bit ARM executable for Systemcore", build)
	if err != nil {
		return err
	}
	for _, p := range progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("%s is dynamically linked: %s (static, CGO_ENABLED=0)", path, build)
		}
	}
	return nil
}
