package ros2bridge

import (
	"strings"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
)

// ros2_control's controller_manager services, "~/..." of the node
// controller_manager in frcd's node's namespace (controller_nodes.go;
// /controller_manager/list_controllers...: what `ros2 control` calls by
// default), with Jazzy's controller_manager_msgs
// (ros-controls/ros2_control jazzy 9ffbf97f: controller_manager.cpp
// "~/list_controllers"..., controller_manager_msgs/msg and srv), or
// Humble's when the node is Humble's (ros2node.Config.Humble; humble
// 0941f73c): its ControllerState has no is_async, update_rate or
// exported_state_interfaces, its HardwareInterface no data_type, its
// SwitchController request the deprecated start_controllers and
// stop_controllers (added to activate and deactivate, as Humble's
// controller manager does) and start_asap, its response no message. The
// rest are the same in both (docs/ros2.md). The table is
// control.Manager, the ROS 1 bridge's too: ROS 2's "active" is ROS 1's
// running, "inactive" stopped or loaded and never run (frcd's controllers
// need no configuring). Served: list_controllers, list_controller_types,
// list_hardware_interfaces, list_hardware_components (one: frcd's robot;
// Jazzy's HardwareComponentState adds is_async, rw_rate and plugin_name to
// Humble's), set_hardware_component_state (SetHardwareComponentState,
// the same in both), load_controller, configure_controller (ok for
// a loaded controller), unload_controller, switch_controller and
// reload_controller_libraries.

// cmBaseClass is what list_controller_types gives as every type's base.
const cmBaseClass = "controller_interface::ControllerInterface"

// ros2State is a controller's state as ros2_control names it.
func ros2State(s string) string {
	if s == control.Running {
		return "active"
	}
	return "inactive"
}

// commandInterface is the ros2_control command interface a ROS 1
// hardware interface writes (hardware_interface::EffortJointInterface:
// effort...); frcd's own write "voltage" or "command".
func commandInterface(hw string) string {
	switch {
	case strings.HasSuffix(hw, "EffortJointInterface"):
		return "effort"
	case strings.HasSuffix(hw, "PositionJointInterface"):
		return "position"
	case strings.HasSuffix(hw, "VelocityJointInterface"):
		return "velocity"
	case strings.HasSuffix(hw, "JointStateInterface"):
		return "" // reads, commands nothing
	case strings.Contains(hw, "voltage"):
		return "voltage"
	}
	return "command"
}

// claimedInterfaces is its joints' command interfaces (JOINT/IFACE).
func claimedInterfaces(c control.ManagedController) []string {
	iface := commandInterface(c.Interface)
	if iface == "" {
		return []string{}
	}
	out := make([]string, len(c.Joints))
	for i, j := range c.Joints {
		out[i] = j + "/" + iface
	}
	return out
}

// The one hardware component list_hardware_components gives: frcd's
// robot, every device of its YAML, a ros2_control "system" component,
// active (lifecycle_msgs/msg/State PRIMARY_STATE_ACTIVE, ros2/rcl_interfaces
// lifecycle_msgs/msg/State.msg).
const (
	hwComponent           = "frcd"
	hwClass               = "frcd/Robot"
	lifecycleUnconfigured = 1
	lifecycleInactive     = 2
	lifecycleActive       = 3
)

// hwInactiveReason is the loop's Deactivate reason while the component
// is set inactive.
const hwInactiveReason = "hardware component " + hwComponent + " set inactive (/controller_manager/set_hardware_component_state)"

// lifecycleLabels are lifecycle_msgs/msg/State's primary states by id,
// with the labels ros2_control gives them (ros-controls/ros2_control
// jazzy 9ffbf97f hardware_interface/types/lifecycle_state_names.hpp).
var lifecycleLabels = map[uint8]string{0: "unknown", lifecycleUnconfigured: "unconfigured", lifecycleInactive: "inactive",
	lifecycleActive: "active", 4: "finalized"}

// hwState is the component's lifecycle state: inactive while the loop is
// deactivated, else active.
func (b *Bridge) hwState() uint8 {
	if b.o.Loop.Deactivated() != "" {
		return lifecycleInactive
	}
	return lifecycleActive
}

// setHardwareState answers SetHardwareComponentState {string name;
// lifecycle_msgs/State target_state} -> {bool ok; State state}: a target
// given by label alone (id 0) is taken by its label, as ros2_control's
// resource manager does. Inactive makes every output neutral (the loop
// deactivated: as disabled, held commands dropped), active lifts that;
// unconfigured and finalized are refused (frcd keeps its devices open),
// as is another component's name (state left 0, as ros2_control does).
func (b *Bridge) setHardwareState(req *cdr.Decoder, resp *cdr.Encoder) error {
	name, id, label := req.String(), req.Uint8(), req.String()
	if err := req.Err(); err != nil {
		return err
	}
	if id == 0 {
		for k, l := range lifecycleLabels {
			if l == label {
				id = k
			}
		}
	}
	ok := true
	switch {
	case name != hwComponent:
		b.o.Logf("ros2: set_hardware_component_state: no hardware component %q (frcd's is %q)", name, hwComponent)
		resp.Bool(false)
		resp.Uint8(0)
		resp.String("")
		return nil
	case id == lifecycleInactive:
		b.o.Loop.Deactivate(hwInactiveReason)
	case id == lifecycleActive:
		b.o.Loop.Activate()
	default:
		ok = false
		b.o.Logf("ros2: set_hardware_component_state %s: refused state %d %q: frcd's hardware goes inactive (outputs neutral) or active, never unconfigured or finalized", name, id, label)
	}
	st := b.hwState()
	resp.Bool(ok)
	resp.Uint8(st)
	resp.String(lifecycleLabels[st])
	return nil
}

// stateInterfaces is what every joint offers.
var stateInterfaces = []string{"position", "velocity", "effort"}

// serveControllerManager makes the controller manager's node and offers
// its services when the bridge has a manager.
func (b *Bridge) serveControllerManager() error {
	m := b.o.Manager
	if m == nil {
		return nil
	}
	cm, err := b.newCMNode()
	if err != nil {
		return err
	}
	rate := uint16(min(time.Second/b.o.Loop.Period(), 65535))
	jointNames := func() []string {
		s := b.o.Loop.NewSnapshot()
		out := make([]string, len(s.Joints))
		for i, j := range s.Joints {
			out[i] = j.Name
		}
		return out
	}()
	ok := func(resp *cdr.Encoder, err error) {
		if err != nil {
			b.o.Logf("ros2: %v", err)
		}
		resp.Bool(err == nil)
	}
	name := func(req *cdr.Decoder) string { return req.String() }
	humble := b.o.Node.Humble
	// interfaces writes the command and the state interfaces
	// (HardwareInterface[] twice).
	interfaces := func(resp *cdr.Encoder) {
		type hwi struct {
			name             string
			available, claim bool
		}
		var cmds []hwi
		for _, c := range m.List() {
			for _, n := range claimedInterfaces(c) {
				// Inactive hardware's command interfaces are not
				// available (hardware_interface/doc/lifecycle_of_a_hardware_component.rst).
				cmds = append(cmds, hwi{n, b.hwState() == lifecycleActive, c.State == control.Running})
			}
		}
		hw := func(name string, available, claimed bool) {
			resp.String(name)
			if !humble {
				resp.String("double") // data_type
			}
			resp.Bool(available)
			resp.Bool(claimed)
		}
		resp.SeqLen(len(cmds))
		for _, h := range cmds {
			hw(h.name, h.available, h.claim)
		}
		resp.SeqLen(len(jointNames) * len(stateInterfaces))
		for _, j := range jointNames {
			for _, s := range stateInterfaces {
				hw(j+"/"+s, true, false)
			}
		}
	}
	const pkg = "controller_manager_msgs/srv/"
	for _, s := range []struct {
		name, typ string
		h         func(req *cdr.Decoder, resp *cdr.Encoder) error
	}{
		{"list_controllers", "ListControllers", func(_ *cdr.Decoder, resp *cdr.Encoder) error {
			list := m.List()
			resp.SeqLen(len(list))
			for _, c := range list {
				resp.String(c.Name)
				resp.String(ros2State(c.State))
				resp.String(config.ROS2ControllerType(c.Type))
				if !humble {
					resp.Bool(false) // is_async
					resp.Uint16(rate)
				}
				claimed := claimedInterfaces(c)
				if c.State == control.Running {
					resp.Strings(claimed)
				} else {
					resp.Strings(nil)
				}
				resp.Strings(claimed) // required_command_interfaces
				var st []string
				for _, j := range c.Joints {
					st = append(st, j+"/position")
				}
				resp.Strings(st) // required_state_interfaces
				resp.Bool(false) // is_chainable
				resp.Bool(false) // is_chained
				if !humble {
					resp.Strings(nil) // exported_state_interfaces
				}
				resp.Strings(nil) // reference_interfaces
				resp.SeqLen(0)    // chain_connections
			}
			return nil
		}},
		{"list_controller_types", "ListControllerTypes", func(_ *cdr.Decoder, resp *cdr.Encoder) error {
			types := config.ROS2ControllerTypeNames()
			resp.Strings(types)
			resp.SeqLen(len(types))
			for range types {
				resp.String(cmBaseClass)
			}
			return nil
		}},
		{"list_hardware_interfaces", "ListHardwareInterfaces", func(_ *cdr.Decoder, resp *cdr.Encoder) error {
			interfaces(resp)
			return nil
		}},
		{"list_hardware_components", "ListHardwareComponents", func(_ *cdr.Decoder, resp *cdr.Encoder) error {
			resp.SeqLen(1)
			resp.String(hwComponent)
			resp.String("system") // type
			if !humble {
				resp.Bool(false)  // is_async
				resp.Uint16(rate) // rw_rate
			}
			resp.String(hwClass) // class_type
			if !humble {
				resp.String(hwClass) // plugin_name
			}
			st := b.hwState()
			resp.Uint8(st) // lifecycle_msgs/State id
			resp.String(lifecycleLabels[st])
			interfaces(resp)
			return nil
		}},
		{"load_controller", "LoadController", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			ok(resp, m.Load(name(req)))
			return nil
		}},
		{"configure_controller", "ConfigureController", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			n := name(req)
			loaded := false
			for _, c := range m.List() {
				loaded = loaded || c.Name == n
			}
			resp.Bool(loaded)
			return nil
		}},
		{"unload_controller", "UnloadController", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			ok(resp, m.Unload(name(req)))
			return nil
		}},
		{"switch_controller", "SwitchController", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			activate, deactivate, strictness, err := readSwitch(req, humble)
			if err != nil {
				return err
			}
			done, err := m.Switch(deactivate, activate, int(strictness))
			msg := "switched"
			if err != nil {
				msg = err.Error()
				b.o.Logf("ros2: %v", err)
			}
			resp.Bool(done)
			if !humble {
				resp.String(msg)
			}
			return nil
		}},
		{"set_hardware_component_state", "SetHardwareComponentState", b.setHardwareState},
		{"reload_controller_libraries", "ReloadControllerLibraries", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			ok(resp, m.Reload(req.Bool()))
			return nil
		}},
	} {
		h := s.h
		if _, err := cm.NewService("~/"+s.name, pkg+s.typ, func(req *cdr.Decoder, resp *cdr.Encoder) error {
			defer b.guard()
			defer b.syncControllerNodes() // a controller unloaded or loaded again
			return h(req, resp)
		}); err != nil {
			return err
		}
	}
	return nil
}

// readSwitch reads a SwitchController request: the controllers to
// activate and deactivate, and the strictness. Humble's has the
// deprecated start_controllers and stop_controllers after them, added to
// them as Humble's controller manager does, and start_asap before
// activate_asap; the asap flags and the timeout mean nothing to frcd (a
// switch is at once).
func readSwitch(req *cdr.Decoder, humble bool) (activate, deactivate []string, strictness int32, err error) {
	activate, deactivate = req.Strings(nil), req.Strings(nil)
	if humble { // start_controllers, stop_controllers
		activate = append(activate, req.Strings(nil)...)
		deactivate = append(deactivate, req.Strings(nil)...)
	}
	strictness = req.Int32()
	if humble {
		req.Bool() // start_asap
	}
	req.Bool()   // activate_asap
	req.Int32()  // timeout: sec
	req.Uint32() // nanosec
	return activate, deactivate, strictness, req.Err()
}
