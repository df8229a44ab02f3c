package sim

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
)

// part is how the sim emulates one device type: what a YAML entry of the
// type becomes in the simulated robot. Each emulated type has its file,
// part_TYPE.go, registering its part by one line; sim and devices never
// import each other, so a part is keyed by the type's name and reads the
// entry through config, like the driver does.
type part struct {
	// bus puts on its CAN bus what the entry stands for (a PDP, the
	// PCM a solenoid sits on), before the joints are built; pw collects
	// the power distribution devices the speed controllers' effort reads.
	bus func(s *Sim, d *config.Device, pw *powerOf)
	// actuator wires the entry to the joint it drives: the joint's kind
	// and channels.
	actuator func(s *Sim, d *config.Device, j *joint)
	// sensor wires the entry to the joint it measures (j nil: a sensor in
	// a link).
	sensor func(s *Sim, d *config.Device, j *joint)
	// provider names what the Sim itself provides for the type when no
	// entry needs wiring (the roboRIO's one built-in accelerometer is a
	// method of the backend).
	provider string
	// motor is the motor (motorTable) a speed controller's joint has
	// unless the sim's options name one: "" is a CIM.
	motor string
}

// parts are the registered parts, by device type name.
var parts = map[string]part{}

// registerPart adds the part of a device type; a duplicate panics.
func registerPart(typeName string, p part) {
	if _, dup := parts[typeName]; dup {
		panic(fmt.Sprintf("sim: part %q registered twice", typeName))
	}
	parts[typeName] = p
}

// partOf is the part that emulates an entry's type: its registered one,
// else the one its facts call for (any PWM speed controller is a PWM
// motor: pwmMotorPart), else none (a zero part).
func partOf(t *config.Type) part {
	if t == nil {
		return part{}
	}
	if p, ok := parts[t.Name]; ok {
		return p
	}
	if t.Speed && t.PWM != nil {
		return pwmMotorPart
	}
	return part{}
}

// partNames lists the device types with a registered part, sorted.
func partNames() []string { return sortedKeys(parts) }

// sender is an emulated CAN device a part adds (addSender) that sends its
// own frames: send is called every fastPeriod (10 ms) with the tick
// counted from 0, as the Talons and Pigeons send theirs; a frame due
// every 20 ms goes out on even ticks. It must not allocate.
type sender interface {
	send(s *Sim, at time.Duration, tick int)
}

// addSender adds a part's CAN device to the fast tick.
func (s *Sim) addSender(x sender) { s.senders = append(s.senders, x) }
