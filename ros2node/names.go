package ros2node

import (
	"fmt"
	"strings"
)

// validName says whether s is a valid ROS name token sequence: letters,
// digits, '_' and '/' separators, no empty token, no token starting with a
// digit (design.ros2.org "Topic and Service Names").
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, tok := range strings.Split(s, "/") {
		if tok == "" {
			return false
		}
		for i, c := range tok {
			switch {
			case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			case c >= '0' && c <= '9' && i > 0:
			default:
				return false
			}
		}
	}
	return true
}

// Resolve makes name absolute for the node name in namespace ns: "/x"
// stays, "~/x" is ns/node/x, "x" is ns/x.
func Resolve(ns, node, name string) (string, error) {
	ns = "/" + strings.Trim(ns, "/")
	var full string
	switch {
	case strings.HasPrefix(name, "/"):
		full = name
	case name == "~":
		full = strings.TrimSuffix(ns, "/") + "/" + node
	case strings.HasPrefix(name, "~/"):
		full = strings.TrimSuffix(ns, "/") + "/" + node + "/" + name[2:]
	default:
		full = strings.TrimSuffix(ns, "/") + "/" + name
	}
	if !validName(full[1:]) {
		return "", fmt.Errorf("ros2node: invalid name %q (resolved %q)", name, full)
	}
	return full, nil
}

// TopicName is the DDS topic of a resolved ROS topic name: rt/ then the
// name without its leading slash.
func TopicName(resolved string) string { return "rt" + resolved }

// TypeName is the DDS type name of a ROS 2 type pkg/msg/Type:
// pkg::msg::dds_::Type_.
func TypeName(rosType string) (string, error) {
	p := strings.Split(rosType, "/")
	if len(p) != 3 || p[0] == "" || p[1] == "" || p[2] == "" {
		return "", fmt.Errorf("ros2node: type %q is not pkg/msg/Type", rosType)
	}
	return p[0] + "::" + p[1] + "::dds_::" + p[2] + "_", nil
}

// ResolveRemapped resolves name, then applies the rule of remaps
// whose left side resolves to the same name (design.ros2.org "Remapping
// Names": both sides are resolved in the node's namespace). Two rules
// for one name: either applies (a map keeps no order).
func ResolveRemapped(ns, node, name string, remaps map[string]string) (string, error) {
	full, err := Resolve(ns, node, name)
	if err != nil {
		return "", err
	}
	for from, to := range remaps {
		if f, err := Resolve(ns, node, from); err == nil && f == full {
			return Resolve(ns, node, to)
		}
	}
	return full, nil
}
