package ros2msg

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Type hashes (RIHS01, REP-2011) as ROS 2 from Iron on computes them and
// Jazzy's rmw layers announce them in each endpoint's USER_DATA as
// "typehash=RIHS01_<64 hex>;" (ros2/rmw_dds_common@0cf1ce47
// src/qos.cpp encode_type_hash_for_user_data_qos). Humble sends and reads
// none: a reader without one matches.
//
// The hash, from ros2/rosidl@0941985 rosidl_generator_type_description
// __init__.py (calculate_type_hash, serialize_field_type,
// extract_full_type_description):
//   - a type's individual description is {"type_name": "pkg/msg/T",
//     "fields": [{"name", "type": {"type_id", "capacity",
//     "string_capacity", "nested_type_name"}}]}, fields in .msg order,
//     constants left out, default values removed before hashing;
//   - the full description is {"type_description": the type's,
//     "referenced_type_descriptions": every type it reaches, sorted by
//     name};
//   - hashed as Python's json.dumps with separators ", " and ": ", keys
//     in that order, ASCII only: SHA-256, "RIHS01_" + lowercase hex.
//
// Field type ids are type_description_interfaces/msg/FieldType.msg's
// (the same file): nested 1, int8 2, uint8 3, int16 4, uint16 5, int32 6,
// uint32 7, int64 8, uint64 9, float 10, double 11, char 13, boolean 15,
// byte (octet) 16, string 17, wstring 18, bounded string 21; a fixed
// array adds 48 (capacity its size), a bounded sequence 96 (capacity its
// bound), an unbounded sequence 144. A .msg's char is IDL uint8, its byte
// an octet (ros2/rosidl rosidl_adapter msg MSG_TYPE_TO_IDL).

// definitions are the fields of every message whose hash frcd announces,
// in .msg syntax with full type names ("pkg/msg/T"); a nested type must be
// here too. ros2/common_interfaces, ros2/rcl_interfaces,
// ros2/geometry2 (tf2_msgs), ros-controls/control_msgs (jazzy f901df26),
// ros2/rmw_dds_common, as their .msg files have them.
var definitions = map[string]string{
	"builtin_interfaces/msg/Time":      "int32 sec; uint32 nanosec",
	"rosgraph_msgs/msg/Clock":          "builtin_interfaces/msg/Time clock",
	"std_msgs/msg/Header":              "builtin_interfaces/msg/Time stamp; string frame_id",
	"std_msgs/msg/String":              "string data",
	"std_msgs/msg/Bool":                "bool data",
	"std_msgs/msg/Float64":             "float64 data",
	"std_msgs/msg/Int8":                "int8 data",
	"std_msgs/msg/MultiArrayDimension": "string label; uint32 size; uint32 stride",
	"std_msgs/msg/MultiArrayLayout":    "std_msgs/msg/MultiArrayDimension[] dim; uint32 data_offset",
	"std_msgs/msg/Float64MultiArray":   "std_msgs/msg/MultiArrayLayout layout; float64[] data",
	"sensor_msgs/msg/JointState":       "std_msgs/msg/Header header; string[] name; float64[] position; float64[] velocity; float64[] effort",
	"sensor_msgs/msg/Imu": "std_msgs/msg/Header header; geometry_msgs/msg/Quaternion orientation; float64[9] orientation_covariance; " +
		"geometry_msgs/msg/Vector3 angular_velocity; float64[9] angular_velocity_covariance; " +
		"geometry_msgs/msg/Vector3 linear_acceleration; float64[9] linear_acceleration_covariance",
	"sensor_msgs/msg/BatteryState": "std_msgs/msg/Header header; float32 voltage; float32 temperature; float32 current; float32 charge; " +
		"float32 capacity; float32 design_capacity; float32 percentage; uint8 power_supply_status; uint8 power_supply_health; " +
		"uint8 power_supply_technology; bool present; float32[] cell_voltage; float32[] cell_temperature; string location; string serial_number",
	"sensor_msgs/msg/Joy":                   "std_msgs/msg/Header header; float32[] axes; int32[] buttons",
	"geometry_msgs/msg/Vector3":             "float64 x; float64 y; float64 z",
	"geometry_msgs/msg/Point":               "float64 x; float64 y; float64 z",
	"geometry_msgs/msg/Quaternion":          "float64 x; float64 y; float64 z; float64 w",
	"geometry_msgs/msg/Pose":                "geometry_msgs/msg/Point position; geometry_msgs/msg/Quaternion orientation",
	"geometry_msgs/msg/PoseWithCovariance":  "geometry_msgs/msg/Pose pose; float64[36] covariance",
	"geometry_msgs/msg/Twist":               "geometry_msgs/msg/Vector3 linear; geometry_msgs/msg/Vector3 angular",
	"geometry_msgs/msg/TwistWithCovariance": "geometry_msgs/msg/Twist twist; float64[36] covariance",
	"geometry_msgs/msg/Transform":           "geometry_msgs/msg/Vector3 translation; geometry_msgs/msg/Quaternion rotation",
	"geometry_msgs/msg/TransformStamped":    "std_msgs/msg/Header header; string child_frame_id; geometry_msgs/msg/Transform transform",
	"tf2_msgs/msg/TFMessage":                "geometry_msgs/msg/TransformStamped[] transforms",
	"nav_msgs/msg/Odometry": "std_msgs/msg/Header header; string child_frame_id; geometry_msgs/msg/PoseWithCovariance pose; " +
		"geometry_msgs/msg/TwistWithCovariance twist",
	"diagnostic_msgs/msg/KeyValue":         "string key; string value",
	"diagnostic_msgs/msg/DiagnosticStatus": "byte level; string name; string message; string hardware_id; diagnostic_msgs/msg/KeyValue[] values",
	"diagnostic_msgs/msg/DiagnosticArray":  "std_msgs/msg/Header header; diagnostic_msgs/msg/DiagnosticStatus[] status",
	"control_msgs/msg/JointControllerState": "std_msgs/msg/Header header; float64 set_point; float64 process_value; float64 process_value_dot; " +
		"float64 error; float64 time_step; float64 command; float64 p; float64 i; float64 d; float64 i_clamp; bool antiwindup",
	"rcl_interfaces/msg/ParameterEvent": "builtin_interfaces/msg/Time stamp; string node; rcl_interfaces/msg/Parameter[] new_parameters; " +
		"rcl_interfaces/msg/Parameter[] changed_parameters; rcl_interfaces/msg/Parameter[] deleted_parameters",
	"rcl_interfaces/msg/Parameter": "string name; rcl_interfaces/msg/ParameterValue value",
	"rcl_interfaces/msg/ParameterValue": "uint8 type; bool bool_value; int64 integer_value; float64 double_value; string string_value; " +
		"byte[] byte_array_value; bool[] bool_array_value; int64[] integer_array_value; float64[] double_array_value; string[] string_array_value",
	"rcl_interfaces/msg/Log":       "builtin_interfaces/msg/Time stamp; uint8 level; string name; string msg; string file; string function; uint32 line",
	"std_srvs/srv/SetBool_Request": "bool data",
	"rmw_dds_common/msg/Gid":       "char[16] data",
	"rmw_dds_common/msg/NodeEntitiesInfo": "string<=256 node_namespace; string<=256 node_name; " +
		"rmw_dds_common/msg/Gid[] reader_gid_seq; rmw_dds_common/msg/Gid[] writer_gid_seq",
	"rmw_dds_common/msg/ParticipantEntitiesInfo": "rmw_dds_common/msg/Gid gid; rmw_dds_common/msg/NodeEntitiesInfo[] node_entities_info_seq",
	"std_srvs/srv/SetBool_Response":              "bool success; string message",
	"builtin_interfaces/msg/Duration":            "int32 sec; uint32 nanosec",
	"trajectory_msgs/msg/JointTrajectoryPoint": "float64[] positions; float64[] velocities; float64[] accelerations; float64[] effort; " +
		"builtin_interfaces/msg/Duration time_from_start",
	"trajectory_msgs/msg/MultiDOFJointTrajectoryPoint": "geometry_msgs/msg/Transform[] transforms; geometry_msgs/msg/Twist[] velocities; " +
		"geometry_msgs/msg/Twist[] accelerations; builtin_interfaces/msg/Duration time_from_start",
	"control_msgs/msg/SingleDOFState": "string name; float64 reference; float64 feedback; float64 feedback_dot; float64 error; " +
		"float64 error_dot; float64 time_step; float64 output",
	"control_msgs/msg/MultiDOFStateStamped":           "std_msgs/msg/Header header; control_msgs/msg/SingleDOFState[] dof_states",
	"control_msgs/msg/JointTrajectoryControllerState": jtcStateFields + "; float64 speed_scaling_factor",
	"control_msgs/msg/InterfaceValue":                 "string[] interface_names; float64[] values",
	"control_msgs/msg/MultiDOFCommand":                "string[] dof_names; float64[] values; float64[] values_dot",
	"control_msgs/msg/DynamicJointState": "std_msgs/msg/Header header; string[] joint_names; " +
		"control_msgs/msg/InterfaceValue[] interface_values",
}

// jtcStateFields are JointTrajectoryControllerState's fields before Jazzy
// (control_msgs 5.3.0) added speed_scaling_factor.
const jtcStateFields = "std_msgs/msg/Header header; string[] joint_names; " +
	"trajectory_msgs/msg/JointTrajectoryPoint reference; trajectory_msgs/msg/JointTrajectoryPoint feedback; " +
	"trajectory_msgs/msg/JointTrajectoryPoint error; trajectory_msgs/msg/JointTrajectoryPoint output; " +
	"string[] multi_dof_joint_names; trajectory_msgs/msg/MultiDOFJointTrajectoryPoint multi_dof_reference; " +
	"trajectory_msgs/msg/MultiDOFJointTrajectoryPoint multi_dof_feedback; trajectory_msgs/msg/MultiDOFJointTrajectoryPoint multi_dof_error; " +
	"trajectory_msgs/msg/MultiDOFJointTrajectoryPoint multi_dof_output"

// primitiveIDs are the .msg primitive types' FieldType ids.
var primitiveIDs = map[string]int{
	"int8": 2, "uint8": 3, "char": 3, "int16": 4, "uint16": 5, "int32": 6, "uint32": 7, "int64": 8, "uint64": 9,
	"float32": 10, "float64": 11, "bool": 15, "byte": 16, "string": 17, "wstring": 18,
}

// field is one field of an individual type description.
type field struct {
	name                             string
	typeID, capacity, stringCapacity int
	nested                           string
}

// parseFields reads a definition ("type name; type name").
func parseFields(def string) ([]field, error) {
	var out []field
	for _, part := range strings.Split(def, ";") {
		words := strings.Fields(part)
		if len(words) != 2 {
			return nil, fmt.Errorf("field %q: want a type and a name", part)
		}
		typ, f := words[0], field{name: words[1]}
		suffix := 0
		if i := strings.IndexByte(typ, '['); i >= 0 {
			bound := strings.TrimSuffix(typ[i+1:], "]")
			typ = typ[:i]
			switch {
			case bound == "":
				suffix = 144
			case strings.HasPrefix(bound, "<="):
				n, err := strconv.Atoi(bound[2:])
				if err != nil {
					return nil, fmt.Errorf("field %q: %v", part, err)
				}
				suffix, f.capacity = 96, n
			default:
				n, err := strconv.Atoi(bound)
				if err != nil {
					return nil, fmt.Errorf("field %q: %v", part, err)
				}
				suffix, f.capacity = 48, n
			}
		}
		if s, n, ok := strings.Cut(typ, "<="); ok && (s == "string" || s == "wstring") {
			c, err := strconv.Atoi(n)
			if err != nil {
				return nil, fmt.Errorf("field %q: %v", part, err)
			}
			f.typeID, f.stringCapacity = 21, c
			if s == "wstring" {
				f.typeID = 22
			}
		} else if id, ok := primitiveIDs[typ]; ok {
			f.typeID = id
		} else if strings.Count(typ, "/") == 2 {
			f.typeID, f.nested = 1, typ
		} else {
			return nil, fmt.Errorf("field %q: unknown type %s", part, typ)
		}
		f.typeID += suffix
		out = append(out, f)
	}
	return out, nil
}

// appendIndividual appends name's individual description as rosidl's
// json.dumps writes it without default values.
func appendIndividual(b []byte, name string, fields []field) []byte {
	b = append(b, `{"type_name": `...)
	b = strconv.AppendQuote(b, name)
	b = append(b, `, "fields": [`...)
	for i, f := range fields {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"name": `...)
		b = strconv.AppendQuote(b, f.name)
		b = fmt.Appendf(b, `, "type": {"type_id": %d, "capacity": %d, "string_capacity": %d, "nested_type_name": `, f.typeID, f.capacity, f.stringCapacity)
		b = strconv.AppendQuote(b, f.nested)
		b = append(b, "}}"...)
	}
	return append(b, "]}"...)
}

// hashableJSON is the text rosidl hashes for rosType.
func hashableJSON(rosType string) ([]byte, error) { return hashableJSONIn(definitions, rosType) }

// hashableJSONIn is hashableJSON with the definitions in defs.
func hashableJSONIn(defs map[string]string, rosType string) ([]byte, error) {
	parsed := map[string][]field{}
	var load func(name string) error
	load = func(name string) error {
		if _, ok := parsed[name]; ok {
			return nil
		}
		def, ok := defs[name]
		if !ok {
			return fmt.Errorf("ros2msg: no definition of %s", name)
		}
		fs, err := parseFields(def)
		if err != nil {
			return fmt.Errorf("ros2msg: %s: %w", name, err)
		}
		parsed[name] = fs
		for _, f := range fs {
			if f.nested != "" {
				if err := load(f.nested); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := load(rosType); err != nil {
		return nil, err
	}
	refs := make([]string, 0, len(parsed))
	for n := range parsed {
		if n != rosType {
			refs = append(refs, n)
		}
	}
	sort.Strings(refs)
	b := append([]byte(`{"type_description": `), nil...)
	b = appendIndividual(b, rosType, parsed[rosType])
	b = append(b, `, "referenced_type_descriptions": [`...)
	for i, n := range refs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendIndividual(b, n, parsed[n])
	}
	return append(b, "]}"...), nil
}

var (
	hashMu sync.Mutex
	hashes = map[string]string{}
)

// TypeHash is rosType's RIHS01 hash ("RIHS01_" and 64 hex digits);
// rosType is "pkg/msg/T" or a service's "pkg/srv/T_Request". An error
// when frcd has no definition of it or of a type it holds.
func TypeHash(rosType string) (string, error) {
	hashMu.Lock()
	defer hashMu.Unlock()
	if h, ok := hashes[rosType]; ok {
		return h, nil
	}
	j, err := hashableJSON(rosType)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(j)
	h := "RIHS01_" + hex.EncodeToString(sum[:])
	hashes[rosType] = h
	return h, nil
}

// ROSType is the ROS type name of a DDS type name:
// "pkg::msg::dds_::T_" is "pkg/msg/T", "pkg::srv::dds_::T_Request_"
// "pkg/srv/T_Request"; "" for a name of another form.
func ROSType(ddsType string) string {
	parts := strings.Split(ddsType, "::")
	if len(parts) != 4 || parts[2] != "dds_" || !strings.HasSuffix(parts[3], "_") || len(parts[3]) < 2 {
		return ""
	}
	return parts[0] + "/" + parts[1] + "/" + strings.TrimSuffix(parts[3], "_")
}

// UserDataTypeHash is the endpoint USER_DATA Jazzy's rmw layers send for
// a DDS type: "typehash=RIHS01_...;", or nil when frcd has no definition
// of the type (as rmw sends none for a type without a hash).
func UserDataTypeHash(ddsType string) []byte {
	h, err := TypeHash(ROSType(ddsType))
	if err != nil {
		return nil
	}
	return []byte("typehash=" + h + ";")
}
