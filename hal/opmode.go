package hal

// Op modes: the routines a robot offers for each robot mode, which the
// 2027 Driver Station lists and selects (allwpilib caf0fb2dcc and tag
// v2027.0.0-alpha-6, hal/src/main/native/include/wpi/hal/: DriverStation.h
// HAL_SetOpModeOptions(const HAL_OpModeOption*, int32_t count);
// DriverStationTypes.h HAL_OpModeOption {int64_t id; WPI_String name,
// group, description; int32_t textColor, backgroundColor}, the id's
// robot mode in bits 56-57 and "a hash of the name" in bits 0-55, and
// HAL_ControlWord_GetOpModeId: the selected op mode is the control word's
// bits 0-57, none when its hash bits are 0). WPILib hashes the name with
// std::hash (C++) or String.hashCode (Java): the hash is the program's to
// choose, only unique per robot mode and never 0. frcd's is FNV-1a.

const (
	opModeHashMask = 0x00FFFFFFFFFFFFFF
	opModeModeMask = 0x0300000000000000
	opModeShift    = 56
	// MaxOpModes bounds a robot's op modes (the Systemcore HAL refuses
	// more than 1000 with HAL_PARAMETER_OUT_OF_RANGE: MrcLibDs.cpp).
	MaxOpModes = 1000
)

// OpMode is one of a robot's op modes.
type OpMode struct {
	// ID is WPILib 2027's op mode id: the robot mode (HAL_RobotMode) in
	// bits 56-57, the name's hash in 0-55 (never 0).
	ID   int64
	Name string
	Mode Mode
}

// OpModes are a robot's op modes, in the order declared.
type OpModes []OpMode

// halRobotMode is HAL_RobotMode: 1 autonomous, 2 teleoperated, 3
// utility (WPILib 2027's name for test).
func halRobotMode(m Mode) int64 {
	switch m {
	case Autonomous:
		return 1
	case Test:
		return 3
	}
	return 2
}

// OpModeMode is the robot mode of an op mode id.
func OpModeMode(id int64) Mode {
	switch (id & opModeModeMask) >> opModeShift {
	case 1:
		return Autonomous
	case 3:
		return Test
	}
	return Teleop
}

// ControlWordOpMode is the op mode id a 2027 control word selects
// (HAL_ControlWord_GetOpModeId): 0 when its hash bits are 0.
func ControlWordOpMode(word int64) int64 {
	if word&opModeHashMask == 0 {
		return 0
	}
	return word & (opModeHashMask | opModeModeMask)
}

// NewOpModes gives each (mode, name) its id, in order: the FNV-1a hash of
// the name in bits 0-55 with the robot mode above, a name whose hash is 0
// or taken in its mode hashed again with a space appended, as WPILib's
// AddOpMode does on a collision (DriverStationBackend.cpp DoAddOpMode).
func NewOpModes(modes []Mode, names []string) OpModes {
	out := make(OpModes, 0, len(names))
	for i, name := range names {
		key := name
		for {
			id := halRobotMode(modes[i])<<opModeShift | int64(fnv1a(key)&opModeHashMask)
			if id&opModeHashMask != 0 && out.Name(id) == "" {
				out = append(out, OpMode{ID: id, Name: name, Mode: modes[i]})
				break
			}
			key += " "
		}
	}
	return out
}

func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// Name is the name of the op mode of that id, "" for none. It does not
// allocate.
func (o OpModes) Name(id int64) string {
	for i := range o {
		if o[i].ID == id {
			return o[i].Name
		}
	}
	return ""
}

// Find is the op mode of mode m named name.
func (o OpModes) Find(m Mode, name string) (OpMode, bool) {
	for _, x := range o {
		if x.Mode == m && x.Name == name {
			return x, true
		}
	}
	return OpMode{}, false
}

// Of lists the names of mode m's op modes, in order.
func (o OpModes) Of(m Mode) []string {
	var names []string
	for _, x := range o {
		if x.Mode == m {
			names = append(names, x.Name)
		}
	}
	return names
}

// OpModeSetter is a backend whose Driver Station lists the robot's op
// modes and selects one (WPILib 2027's HAL_SetOpModeOptions): the
// selection comes back in DSState.OpMode.
type OpModeSetter interface {
	SetOpModes(OpModes) error
}
