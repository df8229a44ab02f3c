package urdf

import "github.com/frcd/frcd/diag"

// Vec3 is a 3-vector: x, y, z in metres for positions, roll, pitch, yaw in
// radians for rotations, or a unitless direction for an axis.
type Vec3 [3]float64

// Pose is an <origin>: a translation XYZ in metres and a fixed-axis
// roll-pitch-yaw rotation RPY in radians. Both default to zero.
type Pose struct {
	XYZ Vec3
	RPY Vec3
}

// JointType is a joint's type attribute, as written.
type JointType string

// The joint types of URDF. frcd supports Revolute, Continuous, Prismatic and
// Fixed; Floating and Planar are refused with a finding.
const (
	Revolute   JointType = "revolute"   // rotates about its axis between limits
	Continuous JointType = "continuous" // rotates about its axis without limits
	Prismatic  JointType = "prismatic"  // slides along its axis between limits
	Fixed      JointType = "fixed"      // a rigid mount: no motion
	Floating   JointType = "floating"   // 6 DoF: not supported
	Planar     JointType = "planar"     // 3 DoF in a plane: not supported
)

// Robot is what Parse read from a URDF. Its slices hold elements in document
// order, including ones that had problems (a nameless link is still in
// Links); the lookup methods only know the first element of each name.
type Robot struct {
	Path string   // the file name given to Parse
	Name string   // the <robot name>
	Pos  diag.Pos // the <robot> element
	// Version is the URDF version read: "1.0" (also when <robot> has none,
	// or one that was refused) or "1.1".
	Version string

	Links   []*Link
	Joints  []*Joint
	Sensors []*Sensor // every frcd sensor, wherever it was declared
	// Foreign are the robot-level sensors of other tools, left alone (a
	// camera, iCub's force/torque sensors): not frcd sensors, not in
	// Sensors, their names free.
	Foreign []*Sensor

	// Root is the one link that is no joint's child, or nil when there is
	// none or more than one.
	Root *Link

	// Unreadable is set when the file could not be read whole (not text,
	// malformed XML, no <robot>, unexpanded xacro): what it holds is partial,
	// and cross-checks against it would only echo that one finding.
	Unreadable bool

	links   map[string]*Link
	joints  map[string]*Joint
	sensors map[string]*Sensor
}

// Link returns the link called name, or nil.
func (r *Robot) Link(name string) *Link {
	if r == nil {
		return nil
	}
	return r.links[name]
}

// Joint returns the joint called name, or nil.
func (r *Robot) Joint(name string) *Joint {
	if r == nil {
		return nil
	}
	return r.joints[name]
}

// Sensor returns the sensor called name, or nil.
func (r *Robot) Sensor(name string) *Sensor {
	if r == nil {
		return nil
	}
	return r.sensors[name]
}

// ForeignSensor returns the robot-level sensor of another tool called
// name, or nil.
func (r *Robot) ForeignSensor(name string) *Sensor {
	if r == nil {
		return nil
	}
	for _, s := range r.Foreign {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// LinkNames returns the distinct, non-empty link names in document order,
// for "did you mean" hints.
func (r *Robot) LinkNames() []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.Links))
	for _, l := range r.Links {
		if l.Name != "" && r.links[l.Name] == l {
			out = append(out, l.Name)
		}
	}
	return out
}

// JointNames returns the distinct, non-empty joint names in document order.
func (r *Robot) JointNames() []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.Joints))
	for _, j := range r.Joints {
		if j.Name != "" && r.joints[j.Name] == j {
			out = append(out, j.Name)
		}
	}
	return out
}

// SensorNames returns the distinct, non-empty sensor names in document order.
func (r *Robot) SensorNames() []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.Sensors))
	for _, s := range r.Sensors {
		if s.Name != "" && r.sensors[s.Name] == s {
			out = append(out, s.Name)
		}
	}
	return out
}

// Link is a rigid body.
type Link struct {
	Name string
	Pos  diag.Pos // the <link> element

	Inertial   *Inertial // nil without <inertial>
	Visuals    []Geometry
	Collisions []Geometry

	// Sensors sit in this link: declared inside it, or at robot level with
	// <parent link="..."/> naming it.
	Sensors []*Sensor

	// Parent is the joint whose child this link is; nil for the root (and
	// for links no joint reaches).
	Parent *Joint
	// Children are the joints whose parent this link is, in document order.
	Children []*Joint
}

// Inertial is a link's mass properties. Missing values are zero.
type Inertial struct {
	Origin Pose    // the centre of mass, in the link frame
	Mass   float64 // kg
	// The inertia tensor about the centre of mass, in kg·m².
	Ixx, Ixy, Ixz, Iyy, Iyz, Izz float64
}

// Geometry is a <visual> or <collision> shape.
type Geometry struct {
	Origin Pose
	// Kind is "box", "cylinder", "sphere", "mesh", "capsule" (URDF 1.1),
	// or "" when the <geometry> is missing or holds another shape.
	Kind     string
	Size     Vec3    // box edge lengths, m
	Radius   float64 // cylinder, sphere or capsule radius, m
	Length   float64 // cylinder length, or a capsule's without its caps, m
	Filename string  // mesh file name or URI, as written
}

// Joint connects a parent link to a child link.
type Joint struct {
	Name    string
	Type    JointType
	Pos     diag.Pos // the <joint> element
	TypePos diag.Pos // the type attribute, or the element when it is missing

	Parent, Child string   // link names, as written
	ParentPos     diag.Pos // the <parent link> attribute (or what is nearest)
	ChildPos      diag.Pos // the <child link> attribute (or what is nearest)

	// Origin places the child link's frame in the parent link's frame.
	Origin Pose
	// Axis is the unitless direction of rotation or translation, in the
	// joint frame; (1,0,0) when <axis> is missing.
	Axis Vec3

	Limit    *Limit            // nil without <limit>
	Mimic    *Mimic            // nil without <mimic>
	Dynamics *Dynamics         // nil without <dynamics>
	Safety   *SafetyController // nil without <safety_controller>

	// Sensors measure this joint: declared inside it, or at robot level
	// with <parent joint="..."/> naming it.
	Sensors []*Sensor
}

// HasLimits reports whether the joint is revolute or prismatic and has a
// <limit>, so that Lower and Upper bound its position.
func (j *Joint) HasLimits() bool {
	return j != nil && j.Limit != nil && (j.Type == Revolute || j.Type == Prismatic)
}

// Limit is a joint's <limit>. Lower and Upper are in rad for revolute joints
// and m for prismatic ones, default 0, and are not used for continuous
// joints. Effort is in N·m (revolute, continuous) or N (prismatic); Velocity
// in rad/s or m/s.
type Limit struct {
	Lower, Upper     float64
	Effort, Velocity float64
	Pos              diag.Pos // the <limit> element
}

// Mimic makes a joint follow another:
// position = Multiplier * (the other joint's position) + Offset.
type Mimic struct {
	Joint      string  // the joint followed
	Multiplier float64 // default 1
	Offset     float64 // rad or m, default 0
	Pos        diag.Pos
}

// Dynamics is a joint's physical damping and friction.
type Dynamics struct {
	Damping  float64 // N·s/m or N·m·s/rad
	Friction float64 // N or N·m
}

// SafetyController is a joint's <safety_controller>: soft limits inside the
// hard ones (rad or m) and the gains that enforce them.
type SafetyController struct {
	SoftLower, SoftUpper float64
	KPosition, KVelocity float64
}

// SensorPlace says where a sensor was declared.
type SensorPlace int

const (
	// InJoint is a <sensor> inside a <joint>: it measures that joint.
	InJoint SensorPlace = iota
	// InLink is a <sensor> inside a <link>: it sits in that link.
	InLink
	// TopLevel is a robot-level <sensor> with <parent link="..."/> or
	// <parent joint="..."/>.
	TopLevel
)

func (p SensorPlace) String() string {
	switch p {
	case InJoint:
		return "in joint"
	case InLink:
		return "in link"
	case TopLevel:
		return "top level"
	}
	return "unknown place"
}

// Sensor is an frcd sensor. It measures a joint (Joint != "") or sits in a
// link (Link != ""); both are "" only when its declaration had an error.
type Sensor struct {
	Name  string
	Type  string // free text, may be empty
	Pos   diag.Pos
	Place SensorPlace
	Joint string // the joint measured, or ""
	Link  string // the link it sits in, or ""
}
