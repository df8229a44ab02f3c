package master

import "strings"

// ROS graph name helpers, with the semantics of rosgraph.names.

const sep = "/"

func isGlobal(name string) bool  { return strings.HasPrefix(name, sep) }
func isPrivate(name string) bool { return strings.HasPrefix(name, "~") }

// splitName returns the non-empty segments of name.
func splitName(name string) []string {
	parts := strings.Split(name, sep)
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// canonicalName removes empty segments and a trailing separator.
func canonicalName(name string) string {
	if name == "" || name == sep {
		return name
	}
	joined := strings.Join(splitName(name), sep)
	if isGlobal(name) {
		return sep + joined
	}
	return joined
}

// namespaceOf returns the namespace of name, with a trailing separator.
func namespaceOf(name string) string {
	if name == "" {
		return sep
	}
	name = strings.TrimSuffix(name, sep)
	if i := strings.LastIndex(name, sep); i >= 0 {
		return name[:i+1]
	}
	return sep
}

// nsJoin joins namespace ns and name; global and private names are
// returned unchanged.
func nsJoin(ns, name string) string {
	if isPrivate(name) || isGlobal(name) {
		return name
	}
	if ns == "~" {
		return "~" + name
	}
	if ns == "" {
		return name
	}
	if strings.HasSuffix(ns, sep) {
		return ns + name
	}
	return ns + sep + name
}

// resolveName resolves name against the namespace of callerID: global names
// stay, ~private names go under callerID itself, relative names go into
// callerID's namespace.
func resolveName(name, callerID string) string {
	if name == "" {
		return namespaceOf(callerID)
	}
	name = canonicalName(name)
	switch {
	case isGlobal(name):
		return name
	case isPrivate(name):
		return canonicalName(callerID + sep + name[1:])
	default:
		return namespaceOf(callerID) + name
	}
}
