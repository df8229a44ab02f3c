package control

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/frcd/frcd/config"
)

// Manager is the controller manager both ROS transports serve (ROS 1's
// controller_manager in package ros, ros2_control's in ros2bridge): the
// YAML's controllers, each loaded or not, running or not. frcd loads only
// the YAML's controllers (it has no plugins); a stopped or unloaded
// controller takes no command (each is refused and counted) and its
// outputs are neutral. At start every controller is loaded and running,
// as if a spawner had started it. Its methods are safe from any
// goroutine; one Manager serves both transports, so that what one
// switches the other lists.
type Manager struct {
	mu      sync.Mutex
	entries []*managed
	byName  map[string]*managed
	// jsStopped: the joint state controller is stopped or unloaded, so the
	// state topics are not published.
	jsStopped atomic.Bool
	applied   bool // FirstRegistration done
	bcast     []Broadcaster
	// starts counts controllers started; onStart is told of each
	// (OnStart).
	starts  atomic.Uint64
	onStart []func()
}

// managed is one YAML controller.
type managed struct {
	ManagedController
	ctl     *Controller // nil for the joint state controller and sensor broadcasters
	loaded  bool
	everRun bool // stopped rather than initialized, once it has run
	// off is a controller's without ctl: stopped or unloaded (the joint
	// state controller's is the manager's jsStopped).
	off *atomic.Bool
}

// Broadcaster is a sensor broadcaster of the YAML (a type with
// ControllerFacts.Sensor): the transports publish its device at its rate
// instead of with the state topics, while it runs (Manager.Running).
type Broadcaster struct {
	Name    string  // the controller
	Sensor  string  // the device it publishes (sensor_name); "": every one no other broadcaster names
	Rate    float64 // publish_rate, Hz; 0: the state topics'
	FrameID string  // frame_id; "": the device's name
}

// ManagedController is what Manager.List says of a controller.
type ManagedController struct {
	Name, Type string
	Interface  string   // the hardware interface it claims its joints through
	Joints     []string // the joints it claims
	State      string   // Running, Stopped or Initialized
}

// A controller's states, as ros_control's controller_manager names them
// (ros2_control's: active, inactive, and inactive too for one loaded and
// never run).
const (
	Running     = "running"
	Stopped     = "stopped"
	Initialized = "initialized"
)

// Switch strictness, as controller_manager_msgs/SwitchController's.
const (
	BestEffort = 1
	Strict     = 2
)

// NewManager is the manager of c's controllers in loop.
func NewManager(c *config.File, loop *Loop) *Manager {
	m := &Manager{byName: map[string]*managed{}}
	for _, cd := range c.Controllers {
		if cd.Type == nil {
			continue
		}
		e := &managed{ManagedController: ManagedController{Name: cd.Name, Type: cd.Type.Name}, loaded: true, everRun: true}
		f := cd.Type.Controller
		switch ctl := loop.Controller(cd.Name); {
		case ctl != nil:
			e.ctl, e.Joints = ctl, ctl.Joints
			e.Interface = ctl.HardwareInterface()
		case f != nil && f.JointStates:
			e.Interface, e.off = f.HardwareInterface, &m.jsStopped
		case f != nil && f.Sensor != "":
			e.Interface, e.off = f.HardwareInterface, new(atomic.Bool)
			bc := Broadcaster{Name: cd.Name, Rate: cd.Float("publish_rate")}
			if ref := cd.Ref("sensor_name"); ref != nil {
				bc.Sensor, bc.FrameID = ref.Name, cd.Str("frame_id")
			}
			m.bcast = append(m.bcast, bc)
		default:
			continue
		}
		m.entries = append(m.entries, e)
		m.byName[e.Name] = e
	}
	return m
}

// JointStatesStopped says whether the joint state controller is stopped
// or unloaded: the state topics are then not published.
func (m *Manager) JointStatesStopped() bool { return m.jsStopped.Load() }

// Broadcasters are the YAML's sensor broadcasters, in its order.
func (m *Manager) Broadcasters() []Broadcaster { return append([]Broadcaster(nil), m.bcast...) }

// BroadcasterOf is the sensor broadcaster of the device sensor, if there
// is one: the one naming it, else the one of every device (no
// sensor_name); config's check allows at most one of each.
func (m *Manager) BroadcasterOf(sensor string) (Broadcaster, bool) {
	var every Broadcaster
	found := false
	for _, b := range m.bcast {
		if b.Sensor == sensor {
			return b, true
		}
		if b.Sensor == "" && !found {
			every, found = b, true
		}
	}
	return every, found
}

// Running says whether the controller name is loaded and runs (false
// for a name the manager does not have).
func (m *Manager) Running(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byName[name]
	return e != nil && m.running(e)
}

// running says whether e runs. m.mu held.
func (m *Manager) running(e *managed) bool {
	if !e.loaded {
		return false
	}
	if e.ctl != nil {
		return !e.ctl.Stopped()
	}
	return !e.off.Load()
}

// setRunning starts or stops e. m.mu held.
func (m *Manager) setRunning(e *managed, on bool) {
	if on {
		e.everRun = true
		defer m.started()
	}
	if e.ctl != nil {
		e.ctl.SetStopped(!on)
		return
	}
	e.off.Store(!on)
}

// started counts a start and tells OnStart's functions. m.mu held.
func (m *Manager) started() {
	m.starts.Add(1)
	for _, f := range m.onStart {
		f()
	}
}

// OnStart has f called whenever a controller starts, after Starts counts
// it: a reader that sleeps until its next publication is due (the ROS 2
// bridge, while the joint state controller is stopped) wakes for it at
// once rather than at its next publication. f runs with the manager's
// lock held: it must return at once and not call the manager.
func (m *Manager) OnStart(f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.onStart = append(m.onStart, f)
}

// Starts is how many controllers have started (switch_controller, a
// spawner) since the manager was made.
func (m *Manager) Starts() uint64 { return m.starts.Load() }

// FirstRegistration applies ROS 1's ~start_controllers once: false leaves
// every controller unloaded (and stopped) until a spawner loads and
// starts it.
func (m *Manager) FirstRegistration(start bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.applied {
		return
	}
	m.applied = true
	if start {
		return
	}
	for _, e := range m.entries {
		m.setRunning(e, false)
		e.loaded, e.everRun = false, false
	}
}

// List is the loaded controllers, in the YAML's order.
func (m *Manager) List() []ManagedController {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []ManagedController{}
	for _, e := range m.entries {
		if !e.loaded {
			continue
		}
		c := e.ManagedController
		c.Joints = append([]string{}, e.Joints...)
		c.State = Initialized
		switch {
		case m.running(e):
			c.State = Running
		case e.everRun:
			c.State = Stopped
		}
		out = append(out, c)
	}
	return out
}

// Load loads a YAML controller that is not loaded.
func (m *Manager) Load(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byName[name]
	switch {
	case e == nil:
		return fmt.Errorf("load_controller %q: not a controller of the robot's YAML (frcd loads only those)", name)
	case e.loaded:
		return fmt.Errorf("load_controller %q: already loaded", name)
	}
	e.loaded = true
	return nil
}

// Unload unloads a loaded controller that does not run.
func (m *Manager) Unload(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byName[name]
	switch {
	case e == nil || !e.loaded:
		return fmt.Errorf("unload_controller %q: not loaded", name)
	case m.running(e):
		return fmt.Errorf("unload_controller %q: running; stop it first", name)
	}
	e.loaded, e.everRun = false, false
	return nil
}

// Switch stops then starts controllers, as ros_control's switchController:
// under Strict any unknown, unloaded, already stopped or already running
// name fails the whole request and nothing changes; under BestEffort (and
// strictness 0, as ros_control takes it) such names are skipped, and the
// error says which (with ok true: the switch was made). frcd's controllers
// have no hardware to wait for: the switch happens at once, before the
// loop's next cycle.
func (m *Manager) Switch(stop, start []string, strictness int) (ok bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if strictness != Strict && strictness != BestEffort && strictness != 0 {
		return false, fmt.Errorf("switch_controller: strictness %d: want 1 (BEST_EFFORT) or 2 (STRICT)", strictness)
	}
	stopping := map[string]bool{}
	var stops, starts []*managed
	var problems []string
	for _, name := range stop {
		e := m.byName[name]
		switch {
		case e == nil || !e.loaded:
			problems = append(problems, fmt.Sprintf("cannot stop %q: not loaded", name))
		case !m.running(e):
			problems = append(problems, fmt.Sprintf("cannot stop %q: not running", name))
		default:
			stops = append(stops, e)
			stopping[name] = true
		}
	}
	for _, name := range start {
		e := m.byName[name]
		switch {
		case e == nil || !e.loaded:
			problems = append(problems, fmt.Sprintf("cannot start %q: not loaded", name))
		case m.running(e) && !stopping[name]:
			problems = append(problems, fmt.Sprintf("cannot start %q: already running", name))
		default:
			starts = append(starts, e)
		}
	}
	if len(problems) > 0 {
		err = fmt.Errorf("switch_controller: %s", strings.Join(problems, "; "))
		if strictness == Strict {
			return false, err
		}
	}
	for _, e := range stops {
		m.setRunning(e, false)
	}
	for _, e := range starts {
		m.setRunning(e, true)
	}
	return true, err
}

// Reload is reload_controller_libraries: frcd has no libraries to
// reload, so as ros_control it succeeds when no controller is loaded, and
// with forceKill first stops and unloads every controller; otherwise it
// fails and changes nothing.
func (m *Manager) Reload(forceKill bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var loaded []string
	for _, e := range m.entries {
		if e.loaded {
			loaded = append(loaded, e.Name)
		}
	}
	if len(loaded) > 0 && !forceKill {
		return fmt.Errorf("reload_controller_libraries: controllers loaded (%s); force_kill unloads them", strings.Join(loaded, ", "))
	}
	for _, e := range m.entries {
		m.setRunning(e, false)
		e.loaded, e.everRun = false, false
	}
	return nil
}
