package ros

import "github.com/bluenviron/goroslib/v2/pkg/msg"

// controller_manager_msgs, as ros_control's Noetic package defines them
// (their .msg and .srv text is in cmmsgs/, without the comments; the
// tests check these types' md5sums against what genpy makes of it).

// HardwareInterfaceResources is controller_manager_msgs/HardwareInterfaceResources.
type HardwareInterfaceResources struct {
	msg.Package       `ros:"controller_manager_msgs"`
	HardwareInterface string
	Resources         []string
}

// ControllerState is controller_manager_msgs/ControllerState.
type ControllerState struct {
	msg.Package      `ros:"controller_manager_msgs"`
	Name             string
	State            string
	Type             string
	ClaimedResources []HardwareInterfaceResources
}

// ListControllersReq is the request of controller_manager_msgs/ListControllers.
type ListControllersReq struct {
	msg.Package `ros:"controller_manager_msgs"`
}

// ListControllersRes is its response.
type ListControllersRes struct {
	msg.Package `ros:"controller_manager_msgs"`
	Controller  []ControllerState
}

// ListControllers is controller_manager_msgs/ListControllers.
type ListControllers struct {
	msg.Package `ros:"controller_manager_msgs"`
	ListControllersReq
	ListControllersRes
}

// ListControllerTypesReq is the request of controller_manager_msgs/ListControllerTypes.
type ListControllerTypesReq struct {
	msg.Package `ros:"controller_manager_msgs"`
}

// ListControllerTypesRes is its response.
type ListControllerTypesRes struct {
	msg.Package `ros:"controller_manager_msgs"`
	Types       []string
	BaseClasses []string
}

// ListControllerTypes is controller_manager_msgs/ListControllerTypes.
type ListControllerTypes struct {
	msg.Package `ros:"controller_manager_msgs"`
	ListControllerTypesReq
	ListControllerTypesRes
}

// LoadControllerReq is the request of controller_manager_msgs/LoadController
// and of UnloadController.
type LoadControllerReq struct {
	msg.Package `ros:"controller_manager_msgs"`
	Name        string
}

// LoadControllerRes is their response.
type LoadControllerRes struct {
	msg.Package `ros:"controller_manager_msgs"`
	Ok          bool
}

// LoadController is controller_manager_msgs/LoadController.
type LoadController struct {
	msg.Package `ros:"controller_manager_msgs"`
	LoadControllerReq
	LoadControllerRes
}

// UnloadController is controller_manager_msgs/UnloadController: the same
// fields as LoadController.
type UnloadController struct {
	msg.Package `ros:"controller_manager_msgs"`
	LoadControllerReq
	LoadControllerRes
}

// Strictness of a SwitchController request.
const (
	BestEffort int32 = 1
	Strict     int32 = 2
)

// SwitchControllerReq is the request of controller_manager_msgs/SwitchController.
type SwitchControllerReq struct {
	msg.Package      `ros:"controller_manager_msgs"`
	msg.Definitions  `ros:"int32 BEST_EFFORT=1,int32 STRICT=2"`
	StartControllers []string
	StopControllers  []string
	Strictness       int32
	StartAsap        bool
	Timeout          float64
}

// SwitchControllerRes is its response.
type SwitchControllerRes struct {
	msg.Package `ros:"controller_manager_msgs"`
	Ok          bool
}

// SwitchController is controller_manager_msgs/SwitchController.
type SwitchController struct {
	msg.Package `ros:"controller_manager_msgs"`
	SwitchControllerReq
	SwitchControllerRes
}

// ReloadControllerLibrariesReq is the request of
// controller_manager_msgs/ReloadControllerLibraries.
type ReloadControllerLibrariesReq struct {
	msg.Package `ros:"controller_manager_msgs"`
	ForceKill   bool
}

// ReloadControllerLibrariesRes is its response.
type ReloadControllerLibrariesRes struct {
	msg.Package `ros:"controller_manager_msgs"`
	Ok          bool
}

// ReloadControllerLibraries is controller_manager_msgs/ReloadControllerLibraries.
type ReloadControllerLibraries struct {
	msg.Package `ros:"controller_manager_msgs"`
	ReloadControllerLibrariesReq
	ReloadControllerLibrariesRes
}
