package ros

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Args are the ROS 1 command-line arguments every node takes (roslaunch
// passes them): remappings (from:=to), the special keys __ns, __name,
// __log, __ip, __hostname and __master, and private parameters
// (_param:=value). ParseArgs separates them from a program's own
// arguments.
type Args struct {
	Remaps   map[string]string // from:=to, as written
	NS       string            // __ns:=, "" when absent
	Name     string            // __name:=
	Log      string            // __log:= (roslaunch's log file; frcd logs to stderr and ignores it)
	IP       string            // __ip:=, overrides ROS_IP
	Hostname string            // __hostname:=, overrides ROS_HOSTNAME
	Master   string            // __master:=, overrides ROS_MASTER_URI
	Params   map[string]any    // _param:=value, the value read as YAML (as rospy and roscpp do)
}

// IsArg says whether a command-line argument is a ROS one (NAME:=VALUE).
func IsArg(a string) bool { return strings.Contains(a, ":=") && !strings.HasPrefix(a, "-") }

// ParseArgs splits ROS arguments from the others, which it returns in
// order. A malformed ROS argument (an empty side, an unknown __key, a
// name that is not a ROS name) is an error naming it.
func ParseArgs(args []string) (rest []string, a Args, err error) {
	a.Remaps, a.Params = map[string]string{}, map[string]any{}
	var errs []string
	for _, arg := range args {
		if !IsArg(arg) {
			rest = append(rest, arg)
			continue
		}
		from, to, _ := strings.Cut(arg, ":=")
		if from == "" || (to == "" && !strings.HasPrefix(from, "_")) {
			errs = append(errs, fmt.Sprintf("%q: want NAME:=VALUE", arg))
			continue
		}
		switch {
		case strings.HasPrefix(from, "__"):
			switch from {
			case "__ns":
				a.NS = to
			case "__name":
				if !validBase(to) {
					errs = append(errs, fmt.Sprintf("%q: a node name is one word of letters, digits and _, not starting with a digit", arg))
				}
				a.Name = to
			case "__log":
				a.Log = to
			case "__ip":
				a.IP = to
			case "__hostname":
				a.Hostname = to
			case "__master":
				a.Master = to
			default:
				errs = append(errs, fmt.Sprintf("%q: unknown special key %s (known: __ns, __name, __log, __ip, __hostname, __master)", arg, from))
			}
		case strings.HasPrefix(from, "_"):
			key := from[1:]
			if !validName(key) {
				errs = append(errs, fmt.Sprintf("%q: %q is not a ROS name", arg, key))
				continue
			}
			var v any
			if err := yaml.Unmarshal([]byte(to), &v); err != nil || v == nil {
				v = to // not YAML (or empty): the string, as rospy does
			}
			a.Params[key] = v
		default:
			if !validName(from) || !validName(to) {
				errs = append(errs, fmt.Sprintf("%q: a remapping maps one ROS name to another", arg))
				continue
			}
			a.Remaps[from] = to
		}
	}
	if len(errs) > 0 {
		return rest, a, fmt.Errorf("ROS arguments: %s", strings.Join(errs, "; "))
	}
	return rest, a, nil
}

// Apply returns env with the special keys __master, __ip and __hostname
// in place of the environment's values.
func (a Args) Apply(env Env) Env {
	if a.Master != "" {
		env.MasterURI = a.Master
	}
	if a.IP != "" {
		env.IP = a.IP
	}
	if a.Hostname != "" {
		env.Hostname = a.Hostname
	}
	return env
}

// Names resolves ROS names for one node as ROS 1 does: a global name
// (/x) stays, a relative one (x) is in the node's namespace, a private one
// (~x) under the node's own name; then the remappings apply, their two
// sides resolved the same way.
type Names struct {
	ns     string // "/" or "/a/b"
	node   string // the node's full name, /a/b/frcd
	base   string
	remaps map[string]string // resolved from -> resolved to
}

// NewNames makes the resolver of a node: ns is its namespace in any
// spelling ("", "robot1", "/robot1/", "//a//b"), base its name (one
// word), remaps its command-line remappings.
func NewNames(ns, base string, remaps map[string]string) (*Names, error) {
	if !validBase(base) {
		return nil, fmt.Errorf("node name %q: want one word of letters, digits and _, not starting with a digit", base)
	}
	canon := canonical("/" + ns)
	if canon != "/" && !validName(canon) {
		return nil, fmt.Errorf("namespace %q is not a ROS name", ns)
	}
	n := &Names{ns: canon, base: base, remaps: map[string]string{}}
	n.node = join(canon, base)
	for from, to := range remaps {
		n.remaps[n.plain(from)] = n.plain(to)
	}
	return n, nil
}

// Namespace is the node's namespace: "/" or "/a/b", never a trailing slash.
func (n *Names) Namespace() string { return n.ns }

// Base is the node's name without its namespace.
func (n *Names) Base() string { return n.base }

// Node is the node's full name, /NS/NAME.
func (n *Names) Node() string { return n.node }

// Resolve is a name's global form after the remappings.
func (n *Names) Resolve(name string) string {
	r := n.plain(name)
	if to, ok := n.remaps[r]; ok {
		return to
	}
	return r
}

// Remaps lists the resolved remappings, "from -> to", sorted.
func (n *Names) Remaps() []string {
	var out []string
	for from, to := range n.remaps {
		out = append(out, from+" -> "+to)
	}
	sort.Strings(out)
	return out
}

// plain resolves without remapping.
func (n *Names) plain(name string) string {
	switch {
	case strings.HasPrefix(name, "/"):
		return canonical(name)
	case strings.HasPrefix(name, "~"):
		return canonical(n.node + "/" + name[1:])
	}
	return canonical(n.ns + "/" + name)
}

// canonical collapses repeated slashes and drops a trailing one.
func canonical(name string) string {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '/' })
	return "/" + strings.Join(parts, "/")
}

func join(ns, base string) string {
	if ns == "/" {
		return "/" + base
	}
	return ns + "/" + base
}

// validBase: a ROS base name, [A-Za-z][A-Za-z0-9_]* (roslaunch's
// anonymous names add digits and underscores, which this allows).
func validBase(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case (r >= '0' && r <= '9' || r == '_') && i > 0:
		default:
			return false
		}
	}
	return true
}

// validName: a ROS graph name, base names joined by slashes, optionally
// starting with / or ~.
func validName(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "~"), "/")
	if s == "" {
		return false
	}
	for _, p := range strings.Split(strings.TrimSuffix(s, "/"), "/") {
		if p != "" && !validBase(p) {
			return false
		}
	}
	return true
}
