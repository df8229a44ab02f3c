package ros

import "github.com/bluenviron/goroslib/v2/pkg/msg"

// dynamic_reconfigure's messages and its Reconfigure service, as
// ros/dynamic_reconfigure's Noetic package defines them (their text is in
// drmsgs/, taken from Debian's python3-dynamic-reconfigure 1.7.3-1; the
// tests check these types' md5sums against that package's genpy output).

// DRBool is dynamic_reconfigure/BoolParameter.
type DRBool struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"BoolParameter"`
	Key         string `rosname:"name"` // the ROS field "name" (msg.Name names the type)
	Value       bool
}

// DRInt is dynamic_reconfigure/IntParameter.
type DRInt struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"IntParameter"`
	Key         string `rosname:"name"` // the ROS field "name" (msg.Name names the type)
	Value       int32
}

// DRStr is dynamic_reconfigure/StrParameter.
type DRStr struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"StrParameter"`
	Key         string `rosname:"name"` // the ROS field "name" (msg.Name names the type)
	Value       string
}

// DRDouble is dynamic_reconfigure/DoubleParameter.
type DRDouble struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"DoubleParameter"`
	Key         string `rosname:"name"` // the ROS field "name" (msg.Name names the type)
	Value       float64
}

// DRGroupState is dynamic_reconfigure/GroupState.
type DRGroupState struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"GroupState"`
	Key         string `rosname:"name"` // the ROS field "name" (msg.Name names the type)
	State       bool
	Id          int32 //nolint:revive // the field is "id"
	Parent      int32
}

// DRConfig is dynamic_reconfigure/Config: a configuration's values.
type DRConfig struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"Config"`
	Bools       []DRBool
	Ints        []DRInt
	Strs        []DRStr
	Doubles     []DRDouble
	Groups      []DRGroupState
}

// DRParamDescription is dynamic_reconfigure/ParamDescription.
type DRParamDescription struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"ParamDescription"`
	Key         string `rosname:"name"` // the ROS field "name" (msg.Name names the type)
	Type        string
	Level       uint32
	Description string
	EditMethod  string
}

// DRGroup is dynamic_reconfigure/Group.
type DRGroup struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"Group"`
	Key         string `rosname:"name"` // the ROS field "name" (msg.Name names the type)
	Type        string
	Parameters  []DRParamDescription
	Parent      int32
	Id          int32 //nolint:revive // the field is "id"
}

// DRConfigDescription is dynamic_reconfigure/ConfigDescription: a
// configuration's parameters, their ranges and defaults.
type DRConfigDescription struct {
	msg.Package `ros:"dynamic_reconfigure"`
	msg.Name    `ros:"ConfigDescription"`
	Groups      []DRGroup
	Max         DRConfig
	Min         DRConfig
	Dflt        DRConfig
}

// ReconfigureReq is the request of dynamic_reconfigure/Reconfigure.
type ReconfigureReq struct {
	msg.Package `ros:"dynamic_reconfigure"`
	Config      DRConfig
}

// ReconfigureRes is its response.
type ReconfigureRes struct {
	msg.Package `ros:"dynamic_reconfigure"`
	Config      DRConfig
}

// Reconfigure is dynamic_reconfigure/Reconfigure.
type Reconfigure struct {
	msg.Package `ros:"dynamic_reconfigure"`
	ReconfigureReq
	ReconfigureRes
}
