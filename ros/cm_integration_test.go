package ros_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
)

var genpy = tooltest.Tool{Name: "/usr/lib/genpy/gensrv_py.py", Package: "python3-genpy"}

// genControllerManagerMsgs generates the Python package
// controller_manager_msgs with genpy from frcd's cmmsgs/ (the .msg and
// .srv text of ros_control's package, which Debian lacks), and returns
// the directory for PYTHONPATH.
func genControllerManagerMsgs(t *testing.T, e *tooltest.ROS) string {
	t.Helper()
	out := t.TempDir()
	pkg := filepath.Join(out, "controller_manager_msgs")
	msgDir, err := filepath.Abs("cmmsgs/msg")
	if err != nil {
		t.Fatal(err)
	}
	inc := "-Icontroller_manager_msgs:" + msgDir
	for _, kind := range []string{"msg", "srv"} {
		files, err := filepath.Glob(filepath.Join("cmmsgs", kind, "*."+kind))
		if err != nil || len(files) == 0 {
			t.Fatalf("cmmsgs/%s: %v", kind, err)
		}
		gen := "/usr/lib/genpy/gen" + kind + "_py.py"
		args := []string{gen, "-p", "controller_manager_msgs", inc, "-o", filepath.Join(pkg, kind)}
		e.MustRun(t, "/usr/bin/python3", append(args, files...)...)
		e.MustRun(t, "/usr/bin/python3", gen, "--initpy", "-p", "controller_manager_msgs", "-o", filepath.Join(pkg, kind))
	}
	if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// process is a tool whose output the test reads while it runs.
type process struct {
	tooltest.Buffer
	done chan struct{}
	pid  int
}

// interrupt sends SIGINT, as Ctrl-C or roslaunch's shutdown does, and
// waits for the process to exit.
func (p *process) interrupt(t *testing.T) {
	t.Helper()
	_ = syscall.Kill(-p.pid, syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(tooltest.Timeout):
		t.Fatal("no exit after SIGINT")
	}
}

func startProcess(t *testing.T, e *tooltest.ROS, name string, args ...string) *process {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := e.Command(ctx, name, args...)
	p := &process{done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p, p
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	p.pid = cmd.Process.Pid
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		cancel()
		<-p.done
		if t.Failed() {
			t.Logf("%s output:\n%s", name, p.String())
		}
	})
	return p
}

type controllerList struct {
	Controller []struct {
		Name, State, Type string
		Resources         []struct {
			HardwareInterface string `yaml:"hardware_interface"`
			Resources         []string
		} `yaml:"claimed_resources"`
	}
}

func listControllers(t *testing.T, e *tooltest.ROS) map[string]string {
	t.Helper()
	var l controllerList
	out := e.MustRun(t, "rosservice", "call", "/controller_manager/list_controllers")
	if err := yaml.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("list_controllers: %v\n%s", err, out)
	}
	states := map[string]string{}
	for _, c := range l.Controller {
		states[c.Name] = c.State
		if len(c.Resources) != 1 || c.Resources[0].HardwareInterface == "" || c.Type == "" {
			t.Errorf("list_controllers: %s: type %q, resources %+v", c.Name, c.Type, c.Resources)
		}
	}
	return states
}

func switchControllers(t *testing.T, e *tooltest.ROS, start, stop []string, strictness int32) bool {
	t.Helper()
	req := fmt.Sprintf("{start_controllers: [%s], stop_controllers: [%s], strictness: %d, start_asap: false, timeout: 0.0}",
		strings.Join(start, ", "), strings.Join(stop, ", "), strictness)
	out := e.MustRun(t, "rosservice", "call", "/controller_manager/switch_controller", req)
	return strings.Contains(out, "ok: True")
}

// TestControllerManager: ros_control's controller_manager services, with
// the types genpy makes of controller_manager_msgs' definitions:
// rosservice call, and the spawner's behaviour (testdata/spawner.py,
// as Debian has no ros_control): with ~start_controllers false the
// controllers wait unloaded; a spawner waiting on --wait-for loads and
// starts them when it hears True, and stops and unloads them when it
// exits; --stopped loads without starting; a stopped controller refuses
// its commands and its output is neutral.
func TestControllerManager(t *testing.T) {
	integration(t, tooltest.Rosmaster, tooltest.Rostopic, tooltest.Rosservice, tooltest.Rosparam, genpy)
	port := freePort(t)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	e.Vars = append(e.Vars, "PYTHONPATH="+genControllerManagerMsgs(t, e), "PYTHONUNBUFFERED=1")
	e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
	eventually(t, "rosmaster answering", func() bool { _, err := e.Run("rosparam", "list"); return err == nil })
	e.MustRun(t, "rosparam", "set", "/frcd/start_controllers", "false")
	d := namedDaemon(t, e, "", ros.MasterExternal)
	runDaemon(t, d)
	shoulder, elevator := d.Loop.Controller("shoulder_voltage"), d.Loop.Controller("elevator_voltage")

	if got := listControllers(t, e); len(got) != 0 {
		t.Errorf("controllers loaded with start_controllers false: %v", got)
	}
	// Unloaded: a command is refused, the output stays neutral.
	before := shoulder.Refused()
	e.MustRun(t, "rostopic", "pub", "-1", "/shoulder_voltage/command", "std_msgs/Float64", "data: 4.0")
	eventually(t, "the unloaded controller's command refused", func() bool { return shoulder.Refused() > before })
	if j, _ := d.Sim.Joint("shoulder_joint"); j.Voltage != 0 {
		t.Errorf("shoulder at %v V from an unloaded controller", j.Voltage)
	}

	sp := startProcess(t, e, "/usr/bin/python3", "testdata/spawner.py", "--wait-for", "/go", "shoulder_voltage", "elevator_voltage", "joint_state_controller")
	eventually(t, "the spawner waiting for /go", func() bool { return strings.Contains(sp.String(), "waiting for /go") })
	if got := listControllers(t, e); len(got) != 0 {
		t.Errorf("loaded before /go: %v", got)
	}
	e.Start(t, "rostopic", "pub", "-r", "5", "/go", "std_msgs/Bool", "data: true")
	eventually(t, "the spawner's controllers started", func() bool { return strings.Contains(sp.String(), "spawned") })
	if !strings.Contains(sp.String(), "started") {
		t.Fatalf("spawner: %s", sp.String())
	}
	want := map[string]string{"shoulder_voltage": "running", "elevator_voltage": "running", "joint_state_controller": "running"}
	if got := listControllers(t, e); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after the spawner: %v, want %v", got, want)
	}
	e.Start(t, "rostopic", "pub", "-r", "20", "/shoulder_voltage/command", "std_msgs/Float64", "data: 4.0")
	eventually(t, "the shoulder driven", func() bool { j, _ := d.Sim.Joint("shoulder_joint"); return j.Voltage > 3 })

	// STRICT with a name that is not loaded: nothing changes.
	if switchControllers(t, e, nil, []string{"shoulder_voltage", "intake"}, ros.Strict) || shoulder.Stopped() {
		t.Errorf("a STRICT switch with an unloaded name succeeded (shoulder stopped %v)", shoulder.Stopped())
	}
	// BEST_EFFORT: the known one stops.
	if !switchControllers(t, e, nil, []string{"shoulder_voltage", "intake"}, ros.BestEffort) || !shoulder.Stopped() {
		t.Errorf("a BEST_EFFORT switch did not stop shoulder_voltage")
	}
	before = shoulder.Refused()
	eventually(t, "the stopped controller's commands refused", func() bool { return shoulder.Refused() > before })
	eventually(t, "the stopped controller's output neutral", func() bool { j, _ := d.Sim.Joint("shoulder_joint"); return j.Voltage == 0 })
	if got := listControllers(t, e)["shoulder_voltage"]; got != "stopped" {
		t.Errorf("shoulder_voltage %q after a stop", got)
	}
	if !switchControllers(t, e, []string{"shoulder_voltage"}, nil, ros.Strict) {
		t.Error("starting shoulder_voltage again failed")
	}
	eventually(t, "the shoulder driven again", func() bool { j, _ := d.Sim.Joint("shoulder_joint"); return j.Voltage > 3 })

	// --stopped: loaded, not started.
	st := startProcess(t, e, "/usr/bin/python3", "testdata/spawner.py", "--stopped", "hood_position")
	eventually(t, "the --stopped spawner done", func() bool { return strings.Contains(st.String(), "spawned hood_position") })
	if got := listControllers(t, e)["hood_position"]; got != "initialized" || !d.Loop.Controller("hood_position").Stopped() {
		t.Errorf("hood_position %q after spawner --stopped", got)
	}

	// The first spawner exits: it stops and unloads its controllers.
	sp.interrupt(t)
	got := listControllers(t, e)
	if _, ok := got["shoulder_voltage"]; ok || !shoulder.Stopped() || !elevator.Stopped() {
		t.Errorf("after the spawner's exit: %v; shoulder stopped %v", got, shoulder.Stopped())
	}
	eventually(t, "the shoulder neutral after the spawner left", func() bool { j, _ := d.Sim.Joint("shoulder_joint"); return j.Voltage == 0 })
	// hood_position is still loaded: reload refuses, then force_kill
	// unloads it.
	if out := e.MustRun(t, "rosservice", "call", "/controller_manager/reload_controller_libraries", "force_kill: false"); !strings.Contains(out, "ok: False") {
		t.Errorf("reload with a controller loaded: %s", out)
	}
	if out := e.MustRun(t, "rosservice", "call", "/controller_manager/reload_controller_libraries", "force_kill: true"); !strings.Contains(out, "ok: True") || len(listControllers(t, e)) != 0 {
		t.Errorf("reload with force_kill: %s; loaded %v", out, listControllers(t, e))
	}
	types := e.MustRun(t, "rosservice", "call", "/controller_manager/list_controller_types")
	if !strings.Contains(types, "voltage_controllers/JointVoltageController") || !strings.Contains(types, "controller_interface::ControllerBase") {
		t.Errorf("list_controller_types:\n%s", types)
	}
}
