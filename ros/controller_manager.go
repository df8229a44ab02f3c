package ros

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
)

// controller_manager, as ros_control's: its services under
// controller_manager/ in the node's namespace, with
// controller_manager_msgs' types, so that the stock spawner and
// rosservice call work. frcd loads only the YAML's controllers (it has no
// plugins); a stopped or unloaded controller takes no command (each is
// refused and counted) and its outputs are neutral.
//
// At start every YAML controller is loaded and running, as if a spawner
// had started them, so that a robot needs no spawner; with the private
// parameter ~start_controllers false (read at the first registration) they
// start unloaded, for a launch file whose spawners load and start them.

// Service names, relative to the node's namespace.
const (
	cmList      = "controller_manager/list_controllers"
	cmTypes     = "controller_manager/list_controller_types"
	cmSwitch    = "controller_manager/switch_controller"
	cmLoad      = "controller_manager/load_controller"
	cmUnload    = "controller_manager/unload_controller"
	cmReload    = "controller_manager/reload_controller_libraries"
	StartParam  = "~start_controllers"
	cmBaseClass = "controller_interface::ControllerBase"
)

// States a controller reports, as ros_control's.
const (
	stateRunning     = "running"
	stateStopped     = "stopped"
	stateInitialized = "initialized"
)

// cmEntry is one YAML controller.
type cmEntry struct {
	name, typ, iface string
	joints           []string
	ctl              *control.Controller // nil for the joint state controller
	loaded           bool
	everRun          bool // stopped rather than initialized, once it has run
}

// manager is the controller_manager's table. Its mutex orders the
// services; a controller's own state is in control.Controller.
type manager struct {
	mu      sync.Mutex
	entries []*cmEntry
	byName  map[string]*cmEntry
	// jsStopped: the joint state controller is stopped or unloaded, so the
	// state topics are not published.
	jsStopped atomic.Bool
	applied   bool // ~start_controllers read
	logf      func(string, ...any)
}

func newManager(c *config.File, loop *control.Loop, logf func(string, ...any)) *manager {
	m := &manager{byName: map[string]*cmEntry{}, logf: logf}
	for _, cd := range c.Controllers {
		if cd.Type == nil {
			continue
		}
		e := &cmEntry{name: cd.Name, typ: cd.Type.Name, loaded: true, everRun: true}
		if ctl := loop.Controller(cd.Name); ctl != nil {
			e.ctl, e.joints = ctl, ctl.Joints
			e.iface = ctl.HardwareInterface()
		} else if f := cd.Type.Controller; f != nil && f.JointStates {
			e.iface = f.HardwareInterface
		} else {
			continue
		}
		m.entries = append(m.entries, e)
		m.byName[e.name] = e
	}
	return m
}

// running says whether e runs. m.mu held.
func (e *cmEntry) running(m *manager) bool {
	if !e.loaded {
		return false
	}
	if e.ctl != nil {
		return !e.ctl.Stopped()
	}
	return !m.jsStopped.Load()
}

// setRunning starts or stops e. m.mu held.
func (e *cmEntry) setRunning(m *manager, on bool) {
	if on {
		e.everRun = true
	}
	if e.ctl != nil {
		e.ctl.SetStopped(!on)
		return
	}
	m.jsStopped.Store(!on)
}

// firstRegistration applies ~start_controllers once: false leaves every
// controller unloaded (and stopped) until a spawner loads and starts it.
func (m *manager) firstRegistration(start bool) {
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
		e.setRunning(m, false)
		e.loaded, e.everRun = false, false
	}
}

func (m *manager) list(*ListControllersReq) (*ListControllersRes, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	res := &ListControllersRes{Controller: []ControllerState{}}
	for _, e := range m.entries {
		if !e.loaded {
			continue
		}
		st := stateInitialized
		switch {
		case e.running(m):
			st = stateRunning
		case e.everRun:
			st = stateStopped
		}
		res.Controller = append(res.Controller, ControllerState{Name: e.name, State: st, Type: e.typ,
			ClaimedResources: []HardwareInterfaceResources{{HardwareInterface: e.iface, Resources: append([]string{}, e.joints...)}}})
	}
	return res, true
}

func (m *manager) types(*ListControllerTypesReq) (*ListControllerTypesRes, bool) {
	res := &ListControllerTypesRes{}
	for _, name := range config.ControllerTypeNames() {
		res.Types = append(res.Types, name)
		res.BaseClasses = append(res.BaseClasses, cmBaseClass)
	}
	return res, true
}

func (m *manager) load(req *LoadControllerReq) (*LoadControllerRes, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byName[req.Name]
	switch {
	case e == nil:
		m.logf("ros: load_controller %q: not a controller of the robot's YAML (frcd loads only those)", req.Name)
		return &LoadControllerRes{Ok: false}, true
	case e.loaded:
		m.logf("ros: load_controller %q: already loaded", req.Name)
		return &LoadControllerRes{Ok: false}, true
	}
	e.loaded = true
	return &LoadControllerRes{Ok: true}, true
}

func (m *manager) unload(req *LoadControllerReq) (*LoadControllerRes, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byName[req.Name]
	switch {
	case e == nil || !e.loaded:
		m.logf("ros: unload_controller %q: not loaded", req.Name)
		return &LoadControllerRes{Ok: false}, true
	case e.running(m):
		m.logf("ros: unload_controller %q: running; stop it first", req.Name)
		return &LoadControllerRes{Ok: false}, true
	}
	e.loaded, e.everRun = false, false
	return &LoadControllerRes{Ok: true}, true
}

// switchControllers stops then starts controllers, as ros_control's
// switchController: under STRICT any unknown, unloaded, already stopped
// or already running name fails the whole request and nothing changes;
// under BEST_EFFORT (and strictness 0, as ros_control takes it) such
// names are skipped. start_asap and timeout are accepted and change
// nothing: frcd's controllers have no hardware to wait for, so the switch
// happens at once, before the loop's next cycle.
func (m *manager) switchControllers(req *SwitchControllerReq) (*SwitchControllerRes, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	strict := req.Strictness == Strict
	if req.Strictness != Strict && req.Strictness != BestEffort && req.Strictness != 0 {
		m.logf("ros: switch_controller: strictness %d: want 1 (BEST_EFFORT) or 2 (STRICT)", req.Strictness)
		return &SwitchControllerRes{Ok: false}, true
	}
	stopping := map[string]bool{}
	var stop, start []*cmEntry
	var problems []string
	for _, name := range req.StopControllers {
		e := m.byName[name]
		switch {
		case e == nil || !e.loaded:
			problems = append(problems, fmt.Sprintf("cannot stop %q: not loaded", name))
		case !e.running(m):
			problems = append(problems, fmt.Sprintf("cannot stop %q: not running", name))
		default:
			stop = append(stop, e)
			stopping[name] = true
		}
	}
	for _, name := range req.StartControllers {
		e := m.byName[name]
		switch {
		case e == nil || !e.loaded:
			problems = append(problems, fmt.Sprintf("cannot start %q: not loaded", name))
		case e.running(m) && !stopping[name]:
			problems = append(problems, fmt.Sprintf("cannot start %q: already running", name))
		default:
			start = append(start, e)
		}
	}
	if len(problems) > 0 {
		m.logf("ros: switch_controller: %s", strings.Join(problems, "; "))
		if strict {
			return &SwitchControllerRes{Ok: false}, true
		}
	}
	for _, e := range stop {
		e.setRunning(m, false)
	}
	for _, e := range start {
		e.setRunning(m, true)
	}
	return &SwitchControllerRes{Ok: true}, true
}

// reload is reload_controller_libraries: frcd has no libraries to
// reload, so as ros_control it succeeds when no controller is loaded, and
// with force_kill first stops and unloads every controller; otherwise it
// fails and changes nothing.
func (m *manager) reload(req *ReloadControllerLibrariesReq) (*ReloadControllerLibrariesRes, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var loaded []string
	for _, e := range m.entries {
		if e.loaded {
			loaded = append(loaded, e.name)
		}
	}
	if len(loaded) > 0 && !req.ForceKill {
		m.logf("ros: reload_controller_libraries: controllers loaded (%s); force_kill unloads them", strings.Join(loaded, ", "))
		return &ReloadControllerLibrariesRes{Ok: false}, true
	}
	for _, e := range m.entries {
		e.setRunning(m, false)
		e.loaded, e.everRun = false, false
	}
	return &ReloadControllerLibrariesRes{Ok: true}, true
}

// serveControllerManager offers the controller_manager services.
func (s *session) serveControllerManager() error {
	m := s.b.cm
	for _, sv := range []struct {
		name      string
		srv, call any
	}{
		{cmList, &ListControllers{}, m.list},
		{cmTypes, &ListControllerTypes{}, m.types},
		{cmLoad, &LoadController{}, m.load},
		{cmUnload, &UnloadController{}, m.unload},
		{cmSwitch, &SwitchController{}, m.switchControllers},
		{cmReload, &ReloadControllerLibraries{}, m.reload},
	} {
		if err := s.serve(sv.name, sv.srv, sv.call); err != nil {
			return err
		}
	}
	return nil
}
