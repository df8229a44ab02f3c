package ros

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
)

// controller_manager, as ros_control's: its services under
// controller_manager/ in the node's namespace, with
// controller_manager_msgs' types, so that the stock spawner and
// rosservice call work. The table and its rules are control.Manager's,
// shared with the ROS 2 bridge.
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

// cmServer answers the services from the shared table; logf reports
// what a request could not do.
type cmServer struct {
	m    *control.Manager
	logf func(string, ...any)
}

func (s cmServer) ok(err error) bool {
	if err != nil {
		s.logf("ros: %v", err)
	}
	return err == nil
}

func (s cmServer) list(*ListControllersReq) (*ListControllersRes, bool) {
	res := &ListControllersRes{Controller: []ControllerState{}}
	for _, c := range s.m.List() {
		res.Controller = append(res.Controller, ControllerState{Name: c.Name, State: c.State, Type: c.Type,
			ClaimedResources: []HardwareInterfaceResources{{HardwareInterface: c.Interface, Resources: c.Joints}}})
	}
	return res, true
}

func (s cmServer) types(*ListControllerTypesReq) (*ListControllerTypesRes, bool) {
	res := &ListControllerTypesRes{}
	for _, name := range config.ControllerTypeNames() {
		res.Types = append(res.Types, name)
		res.BaseClasses = append(res.BaseClasses, cmBaseClass)
	}
	return res, true
}

func (s cmServer) load(req *LoadControllerReq) (*LoadControllerRes, bool) {
	return &LoadControllerRes{Ok: s.ok(s.m.Load(req.Name))}, true
}

func (s cmServer) unload(req *LoadControllerReq) (*LoadControllerRes, bool) {
	return &LoadControllerRes{Ok: s.ok(s.m.Unload(req.Name))}, true
}

// switchControllers: start_asap and timeout are accepted and change
// nothing (control.Manager.Switch).
func (s cmServer) switchControllers(req *SwitchControllerReq) (*SwitchControllerRes, bool) {
	ok, err := s.m.Switch(req.StopControllers, req.StartControllers, int(req.Strictness))
	s.ok(err)
	return &SwitchControllerRes{Ok: ok}, true
}

func (s cmServer) reload(req *ReloadControllerLibrariesReq) (*ReloadControllerLibrariesRes, bool) {
	return &ReloadControllerLibrariesRes{Ok: s.ok(s.m.Reload(req.ForceKill))}, true
}

// serveControllerManager offers the controller_manager services.
func (s *session) serveControllerManager() error {
	m := cmServer{m: s.b.cm, logf: s.b.o.Logf}
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
