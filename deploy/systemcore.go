package deploy

import (
	"context"
	"debug/elf"
	"fmt"
	"os"
	"strings"
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

// SystemcoreLibDir is where WPILib's Systemcore deploy puts a robot
// program's libraries (allwpilib developerRobot/build.gradle at caf0fb2dcc:
// libraryDirectory, then `sudo ldconfig` on it), and frcd's Systemcore
// backend looks for libwpiHal.so (hal/systemcore.HALDirs).
const SystemcoreLibDir = "/home/systemcore/wpilib/third-party/lib"

// SystemcoreLibs are the WPILib libraries frcd's Systemcore backend loads:
// the 2027 HAL and the WPILib libraries it links (allwpilib hal/build.gradle
// at caf0fb2dcc: ntcore, wpinet and wpiutil, shared). mrclib, which the HAL
// also needs, is Systemcore's own (libmrclib.gradle skips it at run time on
// Systemcore: the OS image has it).
var SystemcoreLibs = []string{"libwpiHal.so", "libntcore.so", "libwpinet.so", "libwpiutil.so"}

// SystemcoreHosts are where a Systemcore answers, in the order WPILib's
// deploy tries them: its mDNS name, then its USB address.
var SystemcoreHosts = []string{"robot.local", "172.26.0.1"}

// SystemcoreTarget logs in as the systemcore user, who owns the files.
var SystemcoreTarget = Target{User: SystemcoreUser, Owner: SystemcoreUser}

// DeploySystemcore installs frcd on a Systemcore: it validates the robot,
// logs in (keys, then the default password), stops the robot service,
// copies the arm64 binary (`make systemcore`) and the robot's two files
// to /home/systemcore and, from o.WPILibDir (a directory of the libraries,
// or a WPILib install, ~/wpilib/YEAR, whose linuxsystemcore Maven zips
// hold them), the WPILib HAL libraries (SystemcoreLibs) to SystemcoreLibDir (without it, it checks they are
// there and names each one missing), runs ldconfig on them, writes
// robotCommand to run `frcd run --hal systemcore` on them with that
// directory on LD_LIBRARY_PATH, grants CAP_SYS_NICE as WPILib's deploy
// does, and starts the robot service again. It streams no log: where the
// robot service's output goes is not in WPILib's sources
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
	o.libs, o.libDir = SystemcoreLibs, SystemcoreLibDir
	if o.WPILibDir != "" && isWPILibInstall(o.WPILibDir) {
		tmp, err := os.MkdirTemp("", "frcd-wpilib")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		took, err := extractSystemcoreLibs(o.WPILibDir, tmp)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(o.Out, "deploy: from the WPILib install %s: %s (linuxsystemcore)\n", o.WPILibDir, strings.Join(took, ", "))
		o.WPILibDir = tmp
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
	if o.WPILibDir != "" {
		if err := c.run("mkdir -p " + shellQuote(root+SystemcoreLibDir)); err != nil {
			return res, err
		}
	}
	if err := c.putAll(ups, res, out); err != nil {
		return res, err
	}
	if o.WPILibDir == "" {
		var missing []string
		for _, lib := range SystemcoreLibs {
			if _, err := c.sftp.Stat(root + SystemcoreLibDir + "/" + lib); err != nil {
				missing = append(missing, lib)
			}
		}
		if len(missing) > 0 {
			return res, fmt.Errorf("deploy: %s not in %s on the robot: frcd's Systemcore backend loads WPILib's 2027 HAL from there; give them with --wpilib-libs DIR (see deploy/systemcore.md)",
				strings.Join(missing, ", "), SystemcoreLibDir)
		}
	} else if err := c.run("sudo ldconfig " + shellQuote(SystemcoreLibDir)); err != nil {
		fmt.Fprintf(out, "deploy: warning: ldconfig: %v\n", err)
	}
	binary, urdf, yaml := ups[0].remote, ups[1].remote, ups[2].remote // plan's order
	command := "LD_LIBRARY_PATH=" + SystemcoreLibDir + " " + robotCommand("systemcore", binary, urdf, yaml, o.RunArgs)
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

// CheckSystemcoreBinary checks that path is a 64-bit ARM executable with
// the dynamic loader, as `make systemcore` builds it (cgo, to load WPILib's
// HAL): a static build has no HAL.
func CheckSystemcoreBinary(path string) error {
	const build = "build frcd for Systemcore with `make systemcore`"
	progs, err := openELF(path, elf.ELFCLASS64, elf.EM_AARCH64, "a 64-bit ARM executable for Systemcore", build)
	if err != nil {
		return err
	}
	for _, p := range progs {
		if p.Type == elf.PT_INTERP {
			return nil
		}
	}
	return fmt.Errorf("%s is statically linked, so it cannot load WPILib's HAL: %s (cgo, the systemcore tag)", path, build)
}
