package frcd_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/frcd/frcd"

const goroslib = "github.com/bluenviron/goroslib/v2"

// allowed lists, per package of the module, the packages outside the
// standard library it may import (DESIGN.md: imports flow downwards only;
// frc, interfaces, hal, config and urdf import only the standard library,
// their chosen parsers and the shared diag and frc packages). A package missing here is
// an error, so a new package must state its place.
var allowed = map[string][]string{
	"diag":               {},
	"frc":                {},
	"interfaces":         {},
	"urdf":               {"diag"},
	"config":             {"diag", "frc", "gopkg.in/yaml.v3"},
	"robot":              {"diag", "urdf", "config"},
	"hal":                {"periph.io/x/conn/v3/i2c", "periph.io/x/conn/v3/spi"},
	"hal/backends":       {"hal", "config", "diag"},
	"hal/systemcore":     {"hal", "hal/backends", "hal/ctre", "hal/phoenix6", "config", "diag", "hal/linux", "hal/socketcan", "hal/heartbeat", "hal/wpihal"},
	"hal/linux":          {"hal", "hal/backends", "hal/ctre", "config", "hal/periph", "hal/socketcan", "hal/heartbeat", "periph.io/x/conn/v3/i2c", "periph.io/x/conn/v3/spi"},
	"hal/roborio":        {"hal", "hal/backends", "config", "hal/ctre", "hal/wpihal"},
	"hal/wpihal":         {"hal", "hal/ctre", "periph.io/x/conn/v3/i2c", "periph.io/x/conn/v3/spi", "periph.io/x/conn/v3", "periph.io/x/conn/v3/physic"},
	"hal/periph":         {"hal", "periph.io/x/conn/v3/gpio", "periph.io/x/conn/v3/gpio/gpioreg", "periph.io/x/conn/v3/i2c", "periph.io/x/conn/v3/i2c/i2creg", "periph.io/x/conn/v3/spi", "periph.io/x/conn/v3/spi/spireg", "periph.io/x/host/v3"},
	"hal/haltest":        {"frc", "hal", "hal/phoenix6", "periph.io/x/conn/v3/i2c", "periph.io/x/conn/v3/spi", "periph.io/x/conn/v3", "periph.io/x/conn/v3/physic"},
	"hal/socketcan":      {"hal", "github.com/go-daq/canbus", "golang.org/x/sys/unix"},
	"hal/heartbeat":      {"hal"},
	"hal/ctre":           {"hal", "hal/phoenix6", "frc"},
	"hal/phoenix6":       {"hal"},
	"internal/qemutest":  {"internal/tooltest"},
	"internal/fakehal":   {},
	"internal/scagent":   {"internal/fakehal", "internal/vmagent", "nt4/wire"},
	"internal/vmagent":   {},
	"internal/canagent":  {"internal/vmagent", goroslib, goroslib + "/pkg/msgs/diagnostic_msgs", goroslib + "/pkg/msgs/sensor_msgs", goroslib + "/pkg/msgs/std_msgs", goroslib + "/pkg/msgs/std_srvs"},
	"devices":            {"diag", "frc", "hal", "hal/phoenix6", "interfaces", "config", "periph.io/x/conn/v3/i2c", "periph.io/x/conn/v3/spi", "periph.io/x/conn/v3", "periph.io/x/conn/v3/physic"},
	"sim":                {"frc", "hal", "hal/phoenix6", "hal/backends", "config", "urdf", "robot", "periph.io/x/conn/v3/i2c", "periph.io/x/conn/v3/spi", "periph.io/x/conn/v3", "periph.io/x/conn/v3/physic"},
	"control":            {"hal", "interfaces", "config", "urdf", "robot"},
	"daemon":             {"diag", "hal", "interfaces", "config", "urdf", "robot", "devices", "sim", "control", "ros", "wpilibws", "nt4", "wpilog", "telemetry", "jointstate", "ros2bridge", "ros2node", "rtps"},
	"telemetry":          {"hal", "interfaces", "control", "robot", "urdf", "internal/ratelimit"},
	"nt4/wire":           {"github.com/coder/websocket", "github.com/tinylib/msgp/msgp"},
	"nt4":                {"telemetry", "nt4/wire", "internal/ratelimit", "internal/admit", "internal/relisten", "github.com/coder/websocket", "github.com/tinylib/msgp/msgp"},
	"wpilog":             {"telemetry", "control", "hal"},
	"jointstate":         {"interfaces", "urdf", "control", "robot"},
	"ros2bridge":         {"cdr", "config", "control", "hal", "interfaces", "jointstate", "ros2msg", "ros2node", "rtps", "internal/ratelimit"},
	"ros":                {"hal", "interfaces", "config", "urdf", "control", "robot", "jointstate", "ros/master", "internal/ratelimit", "gopkg.in/yaml.v3", goroslib, goroslib + "/pkg/msg", goroslib + "/pkg/msgs/diagnostic_msgs", goroslib + "/pkg/msgs/geometry_msgs", goroslib + "/pkg/msgs/nav_msgs", goroslib + "/pkg/msgs/sensor_msgs", goroslib + "/pkg/msgs/std_msgs", goroslib + "/pkg/msgs/std_srvs"},
	"ros/master":         {goroslib + "/pkg/peerlimit"}, // the fork's per-address caps (issue 32)
	"cdr":                {},
	"ros2msg":            {"cdr"},
	"rtps":               {"internal/admit", "internal/ratelimit"},
	"ros2node":           {"cdr", "ros2msg", "rtps", "gopkg.in/yaml.v3"},
	"internal/tooltest":  {},
	"internal/ddstest":   {"internal/tooltest", "golang.org/x/sys/unix"},
	"internal/ddsattack": {"rtps"},
	"internal/bounds":    {},
	"internal/ratelimit": {},
	"internal/admit":     {},
	"internal/relisten":  {},
	"internal/attack":    {"nt4/wire", "ros/master", "internal/ddsattack", "rtps", goroslib, goroslib + "/pkg/msgs/sensor_msgs", "github.com/coder/websocket"},
	"internal/testrobot": {},
	"internal/sparkspec": {},
	"internal/sshdtest":  {"internal/tooltest", "golang.org/x/crypto/ssh"},
	"deploy":             {"diag", "robot", "github.com/pkg/sftp", "golang.org/x/crypto/ssh", "golang.org/x/crypto/ssh/knownhosts"},
	"cmd/frcd":           {"diag", "config", "devices", "hal", "hal/backends", "hal/roborio", "hal/linux", "hal/systemcore", "robot", "daemon", "ros", "sim", "wpilibws", "deploy", "nt4", "wpilog", "ros2node", "rtps"},
	"wpilibws":           {"frc", "hal", "config", "sim", "urdf", "github.com/coder/websocket", "internal/admit", "internal/relisten"},

	// make bench's CPU measure and its bare-loop reference
	"internal/cpubench":          {"control", "daemon", "internal/proccpu", "robot", "ros", "sim"},
	"internal/cpubench/bareloop": {},
	"internal/wakebench":         {"internal/proccpu"},
	"internal/wakebench/fakes":   {"internal/fakehal"},
	// make bench's ROS 2 publishing against Cyclone DDS
	"internal/ros2bench": {"daemon", "jointstate", "robot", "ros2bridge", "ros2node", "internal/ddstest", "internal/proccpu"},
	"internal/proccpu":   {},
}

// TestImportGraph checks each package's direct imports against allowed
// and everything it reaches against DESIGN.md's layers (layers_test.go),
// in the default build, the roboRIO's (the roborio
// tag adds hal/wpihal's 2026 cgo files and cmd/frcd's import of
// hal/roborio) and Systemcore's (the systemcore tag: the 2027 ones).
func TestImportGraph(t *testing.T) {
	for _, tags := range []string{"", "roborio", "systemcore", "ctre"} {
		out, err := exec.Command("go", "list", "-tags", tags, "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
		if err != nil {
			t.Fatalf("go list -tags %q: %v", tags, err)
		}
		checkImports(t, string(out))
		for _, e := range checkLayers(goListDeps(t, tags)) { // layers_test.go: transitively
			t.Errorf("-tags %q: %s", tags, e)
		}
	}
}

// checkImports checks go list's lines "package import...".
func checkImports(t *testing.T, out string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] == module {
			continue
		}
		pkg := strings.TrimPrefix(fields[0], module+"/")
		ok, known := allowed[pkg]
		if !known {
			t.Errorf("package %s is not in the import rules of imports_test.go", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			first := strings.SplitN(imp, "/", 2)[0]
			if !strings.Contains(first, ".") {
				continue // standard library
			}
			name := strings.TrimPrefix(imp, module+"/")
			if !contains(ok, name) {
				t.Errorf("%s imports %s, which DESIGN.md's import rules do not allow", pkg, imp)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
