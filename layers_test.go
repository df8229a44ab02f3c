package frcd_test

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// DESIGN.md's layers, lowest first. A package may reach, through any
// chain of imports (go list's Deps), only packages of its own layer or
// below; allowed (imports_test.go) already says which it imports
// directly. A package missing here is an error, as in allowed.
const (
	layerBase       = iota // shared helpers of every layer: findings, wire facts, test tooling
	layerFiles             // the robot's files and encodings: URDF, YAML, CDR
	layerModel             // the model, the HAL and its backends, protocol codecs and clients, the DDS library; hardware rigs
	layerParts             // devices, the sim, the control loop; deploy
	layerViews             // what the transports show: telemetry, joint states
	layerTransports        // ROS 1, ROS 2, the NT4 server, the WPILib sim WebSocket, WPILOG
	layerDaemon            // the daemon wiring them
	layerCommands          // the command line and the benches over the daemon
)

var layers = map[string]int{
	"diag": layerBase, "frc": layerBase, "internal/bounds": layerBase, "internal/ratelimit": layerBase,
	"internal/admit": layerBase, "internal/relisten": layerBase, "internal/tooltest": layerBase,
	"internal/testrobot": layerBase, "internal/sparkspec": layerBase, "internal/ddstest": layerBase, "internal/proccpu": layerBase,
	"internal/qemutest": layerBase, "internal/sshdtest": layerBase, "internal/vmagent": layerBase,
	"internal/fakehal": layerBase, "internal/cpubench/bareloop": layerBase,

	"urdf": layerFiles, "config": layerFiles, "cdr": layerFiles,

	"robot": layerModel, "interfaces": layerModel, "hal": layerModel, "hal/backends": layerModel,
	"hal/ctre": layerModel, "hal/phoenix6": layerModel, "hal/haltest": layerModel, "hal/heartbeat": layerModel, "hal/linux": layerModel,
	"hal/periph": layerModel, "hal/roborio": layerModel, "hal/socketcan": layerModel,
	"hal/systemcore": layerModel, "hal/wpihal": layerModel, "nt4/wire": layerModel,
	"ros2msg": layerModel, "rtps": layerModel, "ros2node": layerModel,
	"internal/scagent": layerModel, "internal/canagent": layerModel, "internal/ddsattack": layerModel,

	"devices": layerParts, "sim": layerParts, "control": layerParts, "deploy": layerParts,

	"telemetry": layerViews, "jointstate": layerViews,

	"ros": layerTransports, "ros/master": layerTransports, "ros2bridge": layerTransports,
	"nt4": layerTransports, "wpilibws": layerTransports, "wpilog": layerTransports,

	"daemon": layerDaemon,

	"cmd/frcd": layerCommands, "internal/cpubench": layerCommands, "internal/ros2bench": layerCommands, "internal/wakebench": layerCommands, "internal/wakebench/fakes": layerCommands, "internal/attack": layerCommands,
}

// apart are sets of groups that never reach each other (DESIGN.md:
// devices and the sim never import each other; the transports never
// import each other). A package's group is its value in the set.
var apart = []map[string]string{
	{"devices": "devices", "sim": "sim"},
	{"ros": "ros", "ros/master": "ros", "ros2bridge": "ros2", "nt4": "nt4 server", "wpilibws": "wpilibws", "wpilog": "wpilog"},
}

// neverReach names, per package prefix, what it must not reach although
// the layers would let it (DESIGN.md: nothing under hal/ reaches control,
// telemetry, robot or a transport, even transitively).
var neverReach = map[string][]string{
	"hal": {"robot"},
}

func layerName(l int) string {
	return [...]string{"base", "files", "model/hal", "parts", "views", "transports", "daemon", "commands"}[l]
}

// checkLayers checks go list's lines "package dep..." (every transitive
// dependency) and returns one message per rule broken.
func checkLayers(out string) []string {
	var errs []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0]+"/", module+"/") || fields[0] == module {
			continue
		}
		pkg := strings.TrimPrefix(fields[0], module+"/")
		l, known := layers[pkg]
		if !known {
			errs = append(errs, fmt.Sprintf("package %s has no layer in layers_test.go", pkg))
			continue
		}
		for _, dep := range fields[1:] {
			if !strings.HasPrefix(dep, module+"/") {
				continue
			}
			d := strings.TrimPrefix(dep, module+"/")
			dl, known := layers[d]
			switch {
			case !known:
				continue // reported on its own line
			case dl > l:
				errs = append(errs, fmt.Sprintf("%s (%s) reaches %s (%s), a layer above it", pkg, layerName(l), d, layerName(dl)))
			}
			for _, set := range apart {
				if g, dg := set[pkg], set[d]; g != "" && dg != "" && g != dg {
					errs = append(errs, fmt.Sprintf("%s reaches %s: %s and %s never reach each other", pkg, d, g, dg))
				}
			}
			for prefix, banned := range neverReach {
				if pkg == prefix || strings.HasPrefix(pkg, prefix+"/") {
					for _, b := range banned {
						if d == b {
							errs = append(errs, fmt.Sprintf("%s reaches %s: nothing under %s/ may", pkg, d, prefix))
						}
					}
				}
			}
		}
	}
	sort.Strings(errs)
	return errs
}

// goListDeps lists every package with its transitive dependencies.
func goListDeps(t *testing.T, tags string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-tags", tags, "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list -tags %q: %v", tags, err)
	}
	return string(out)
}

// The checker itself: the chain the old tree had (hal/systemcore using
// nt4's client, nt4 the server above telemetry, telemetry above control)
// breaks the rules; so do a device type reaching the sim, one transport
// another, a backend the robot model, and a package with no layer.
func TestCheckLayersFails(t *testing.T) {
	m := module + "/"
	old := m + "hal/systemcore " + m + "nt4 " + m + "telemetry " + m + "control " + m + "robot " + m + "hal\n" +
		m + "devices " + m + "sim\n" +
		m + "wpilog " + m + "ros/master\n" +
		m + "nt4/wire " + "github.com/coder/websocket\n" +
		m + "newthing " + m + "hal\n"
	got := strings.Join(checkLayers(old), "\n")
	for _, want := range []string{
		"hal/systemcore (model/hal) reaches nt4 (transports), a layer above it",
		"hal/systemcore (model/hal) reaches telemetry (views), a layer above it",
		"hal/systemcore (model/hal) reaches control (parts), a layer above it",
		"hal/systemcore reaches robot: nothing under hal/ may",
		"devices reaches sim: devices and sim never reach each other",
		"wpilog reaches ros/master: wpilog and ros never reach each other",
		"package newthing has no layer",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q among:\n%s", want, got)
		}
	}
	if n := len(checkLayers(old)); n != 7 {
		t.Errorf("%d findings, want 7:\n%s", n, got)
	}
	if errs := checkLayers(m + "nt4 " + m + "nt4/wire " + m + "telemetry " + m + "control\n"); len(errs) != 0 {
		t.Errorf("the server over its codec and telemetry: %v", errs)
	}
}
