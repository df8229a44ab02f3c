package control

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
)

// Type is one controller type, declared in its own file (type_*.go) and
// registered by a one-line init (MustRegister): its YAML declaration
// (keys with docs, defaults and ranges, checks, and the facts robot and
// the transports read), what its controllers do each cycle, and what they
// offer the transports. Nothing outside that file names the type.
type Type struct {
	// Config is the YAML declaration, registered with config for
	// decoding, validate, describe, schema and docs.
	Config *config.Type
	// family is what the loop does with a command of a joint controller:
	// forward it, PID on it...; familyNone takes no command (the joint
	// state controller); with New, the type's own runner.
	family ctlKind
	// iface is the command interface of its joints that a joint family
	// claims.
	iface string
	// New builds the cycle of a controller that is no joint family (a
	// drive base): it claims its handles through b.
	New func(cd *config.Device, b *Binder) (runner, error)
	// Takes is what its command topic carries; Topic names that topic
	// under the controller's name ("command" when empty).
	Takes Command
	Topic string
	// Forward: its controllers also take their command as ros2_controllers'
	// forward command controllers take theirs (forward_command_controller,
	// position_controllers/JointGroupPositionController and the like):
	// one value per joint, in the order of its joints, on
	// NAME/ForwardTopic (Controller.CommandJoints).
	Forward bool
	// Timeout is how long a command holds by default: LoopTimeout for
	// the loop's command_timeout, NoTimeout for a set point that holds
	// until replaced (while enabled). TimeoutKey names the key that sets
	// it ("timeout" when empty; a drive base's "cmd_vel_timeout").
	Timeout    time.Duration
	TimeoutKey string
	// valid, when set, is the range of its commands, in place of its
	// interface's (rangeOf): an LED colour's 0 to 0xFFFFFF.
	valid *commandRange
}

// Default command timeouts of a Type.
const (
	// LoopTimeout takes the loop's command_timeout.
	LoopTimeout time.Duration = 0
	// NoTimeout: a command holds until replaced, disabled or stopped.
	NoTimeout = noTimeout
)

var types = map[string]*Type{}

// MustRegister adds a controller type, to control and to config. Its
// file calls it from a one-line init; a duplicate panics.
func MustRegister(t *Type) {
	if t == nil || t.Config == nil {
		panic("control: a controller type needs its config.Type")
	}
	if types[t.Config.Name] != nil {
		panic(fmt.Sprintf("control: controller type %q registered twice", t.Config.Name))
	}
	config.RegisterController(t.Config)
	types[t.Config.Name] = t
}

// LookupType returns the controller type of that name, or nil.
func LookupType(name string) *Type { return types[name] }

// holdTimeoutKey is the timeout key of a type whose set point holds
// until replaced (Timeout NoTimeout).
var holdTimeoutKey = config.Key{Name: "timeout", Kind: config.Float, HasRange: true, Min: 0.001, Max: 3600, Unit: "s",
	DefaultDoc: "none: a set point holds until replaced", Doc: "How long a set point holds before the output goes neutral; by default it holds while enabled, until another replaces it (as a ros_control position controller's)."}

// holds gives a joint controller type's timeout key holdTimeoutKey's
// docs: its set point holds (Type.Timeout NoTimeout).
func holds(t *config.Type) *config.Type {
	for i, k := range t.Keys {
		if k.Name == "timeout" {
			t.Keys[i] = holdTimeoutKey
		}
	}
	return t
}
