package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// placeDoc says, for docs, what a device's name refers to.
func (p Place) doc() string {
	switch p {
	case DrivesJoint:
		return "the URDF joint it drives"
	case JointSensor:
		return "a URDF <sensor>: inside the <joint> it measures, or inside a <link> for an environment sensor"
	case LinkSensor:
		return "a URDF <sensor> inside a <link> (or a robot-level <sensor> with <parent link=...>)"
	case Output:
		return "the URDF joint it drives, or any name for an output that moves no joint (an LED)"
	default:
		return "any name: YAML only, no URDF element"
	}
}

// DefaultString is a key's default as written in docs, or "" for none.
func (k *Key) DefaultString() string {
	if k.DefaultDoc != "" {
		return k.DefaultDoc
	}
	switch v := k.Default.(type) {
	case nil:
		return ""
	case float64:
		f := trimFloat(v)
		if !strings.ContainsAny(f, ".e") {
			f += ".0"
		}
		return f
	default:
		return fmt.Sprint(v)
	}
}

// Allowed describes a key's allowed values, or "".
func (k *Key) Allowed() string {
	switch {
	case len(k.Enum) > 0:
		return strings.Join(k.Enum, " | ")
	case k.Resource != NoResource && k.Resource != NavXPort:
		lo, hi := k.Resource.Range()
		return fmt.Sprintf("%s %d-%d", k.Resource, lo, hi)
	case k.HasRange:
		return trimFloat(k.Min) + "-" + trimFloat(k.Max)
	case len(k.Ref) > 0:
		return "name of " + refWhat(k.Ref)
	case k.NonZero:
		return "not 0"
	}
	return ""
}

func (k *Key) meaning() string {
	m := k.Doc
	if k.Unit != "" {
		m += " [" + k.Unit + "]"
	}
	if a := k.Allowed(); a != "" {
		m += " (" + a + ")"
	}
	return m
}

// ExampleEntry is a YAML flow entry of the type, for docs.
func (t *Type) ExampleEntry() string {
	if t.Example != "" {
		return t.Example
	}
	switch t.Group {
	case "section":
		return "{name: arm_joint, motor: 775pro, gearing: 200}"
	case "controller":
		switch {
		case t.Key("joints") != nil:
			return "{name: drive, type: " + t.Name + ", joints: [left_drive_joint, right_drive_joint]}"
		case t.Key("joint") == nil:
			return "{name: joint_state_controller, type: " + t.Name + ", publish_rate: 50}"
		case t.Key("pid.p") != nil:
			return "{name: arm_controller, type: " + t.Name + ", joint: arm_joint, pid: {p: 10, i: 0.1, d: 0.5}}"
		}
		return "{name: arm_controller, type: " + t.Name + ", joint: arm_joint}"
	}
	name := "my_" + t.Name
	switch t.Place {
	case DrivesJoint, Output:
		name = "arm_joint"
	case JointSensor:
		name = "arm_" + t.Name
	case LinkSensor:
		name = "imu"
	}
	parts := []string{"name: " + name, "type: " + t.Name}
	for _, k := range t.Keys {
		if !k.Required {
			continue
		}
		parts = append(parts, k.Name+": "+exampleValue(&k))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func exampleValue(k *Key) string {
	switch {
	case len(k.Enum) > 0:
		return k.Enum[0]
	case k.Name == "frame_id":
		return "base_link"
	case k.Resource != NoResource && k.Resource != NavXPort:
		lo, _ := k.Resource.Range()
		if k.Name == "ch_b" || k.Name == "reverse_id" {
			lo++
		}
		return strconv.Itoa(lo)
	}
	switch k.Kind {
	case Int:
		return "0"
	case Float:
		if k.Name == "offset" {
			return "0.0"
		}
		return "1.0"
	case Bool:
		return "false"
	}
	return "x"
}

// sectionTypes are the types of frcd's own sections, for describe.
func sectionTypes() []*Type {
	return []*Type{Loop, Sim, SimJoint, SimSensor, SimDisturbance, SimDrivetrain, SimCANFault, Linux, NT4, OpModes}
}

// Describable returns the device, controller or section type of that
// name, or nil: what `frcd describe NAME` shows.
func Describable(name string) *Type {
	if t := Lookup(name); t != nil {
		return t
	}
	if t := LookupController(name); t != nil {
		return t
	}
	for _, t := range sectionTypes() {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// DescribableNames lists every name Describable knows, sorted.
func DescribableNames() []string {
	names := append(TypeNames(), ControllerTypeNames()...)
	for _, t := range sectionTypes() {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// nameDoc is what an entry's name refers to, for docs.
func (t *Type) nameDoc() string {
	switch t.Group {
	case "controller":
		return "The controller's name: its ROS topic is /NAME/command."
	case "section":
		switch t {
		case SimSensor:
			return "The YAML sensor (encoder, analog_input, digital_input, navx or pigeon_imu) this faults."
		case SimDisturbance:
			return "A label, optional."
		case SimCANFault:
			return "The YAML device on the CAN bus that falls silent."
		}
		return "The URDF joint whose plant this is."
	}
	return "The URDF joint or sensor name (see above)."
}

// nameRequired is the name's REQUIRED column: "yes", or "no" for a label.
func (t *Type) nameRequired() string {
	if t.OptionalName {
		return "no"
	}
	return "yes"
}

// named says whether entries of the type have a name key: sections
// written as one mapping (loop, sim, sim_drivetrain) do not.
func (t *Type) named() bool {
	return t.Name != "loop" && t.Name != "sim" && t.Name != "sim_drivetrain" && t.Name != "linux" && t.Name != "nt4" && t.Name != "op_modes"
}

// exampleYAML is an example of the type in its place in the file.
func (t *Type) exampleYAML(indent string) string {
	switch t.Name {
	case "loop":
		return indent + "loop: {rate_hz: 100, command_timeout: 0.5}\n"
	case "linux":
		return indent + "linux: {can: [can0], heartbeat: auto, gpio: [GPIO17, GPIO27]}\n"
	case "nt4":
		return indent + "nt4: {prefix: /frcd, commands: false}\n"
	case "op_modes":
		return indent + "op_modes: {autonomous: [Two Piece, Taxi], teleop: [Drive]}\n"
	case "sim":
		return indent + "sim: {battery_voltage: 12.8, battery_resistance: 0.02, pressure: 120}\n"
	case "sim_joint", "sim_sensor", "sim_disturbance", "sim_can_fault":
		list := map[string]string{"sim_joint": "joints", "sim_sensor": "sensors", "sim_disturbance": "disturbances", "sim_can_fault": "can_faults"}[t.Name]
		return indent + "sim:\n" + indent + "  " + list + ":\n" + indent + "    - " + t.ExampleEntry() + "\n"
	case "sim_drivetrain":
		return indent + "sim:\n" + indent + "  drivetrain:\n" + indent + "    type: tank\n" +
			indent + "    left: [left_front_wheel_joint, left_rear_wheel_joint]\n" +
			indent + "    right: [right_front_wheel_joint, right_rear_wheel_joint]\n" + indent + "    friction: 1.0\n"
	}
	list := "joints"
	if t.Group == "controller" {
		list = "controllers"
	}
	return indent + list + ":\n" + indent + "  - " + t.ExampleEntry() + "\n"
}

// Describe is the text `frcd describe TYPE` prints.
func (t *Type) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", t.Name, t.Summary)
	switch t.Group {
	case "controller":
		fmt.Fprintf(&b, "A controller (the `controllers:` list).\n\n")
	case "section":
		fmt.Fprintf(&b, "A section of frcd's own.\n\n")
	default:
		fmt.Fprintf(&b, "WPILib class %s; %s.\n", t.Class, t.Group)
		fmt.Fprintf(&b, "Its name is %s.\n\n", t.Place.doc())
	}
	fmt.Fprintf(&b, "%s\n\n", wrap(t.Doc, 100))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tTYPE\tREQUIRED\tDEFAULT\tMEANING")
	if t.named() {
		fmt.Fprintf(tw, "name\tstring\t%s\t\t%s\n", t.nameRequired(), t.nameDoc())
	}
	if t.Group != "section" {
		fmt.Fprintf(tw, "type\tstring\tyes\t\tMust be %q.\n", t.Name)
	}
	for _, k := range t.Keys {
		req := "no"
		if k.Required {
			req = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.Name, k.Kind, req, k.DefaultString(), k.meaning())
	}
	tw.Flush()
	fmt.Fprintf(&b, "\nExample:\n%s", t.exampleYAML("  "))
	return b.String()
}

// Summaries is the text `frcd describe` prints with no type: one line each.
func Summaries() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	group := ""
	for _, t := range Types() {
		if t.Group != group {
			if group != "" {
				fmt.Fprintln(tw)
			}
			group = t.Group
			fmt.Fprintf(tw, "%s:\n", plural(group))
		}
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name, t.Summary)
	}
	fmt.Fprintln(tw, "\ncontrollers:")
	for _, t := range ControllerTypes() {
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name, t.Summary)
	}
	fmt.Fprintln(tw, "\nsections:")
	for _, t := range sectionTypes() {
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name, t.Summary)
	}
	tw.Flush()
	b.WriteString("\nfrcd describe TYPE shows a type's keys.\n")
	return b.String()
}

func plural(g string) string {
	if g == "special" {
		return "special devices"
	}
	return g + "s"
}

func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 {
			if n+1+len(w) > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
