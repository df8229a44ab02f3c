package ros2node

import (
	"fmt"
	"strings"
)

// Args are ROS 2's command-line arguments (design.ros2.org "ROS Command
// Line Arguments"): the flags between --ros-args and -- (or the end),
// in as many such sections as there are.
//
//	-r/--remap [node:]from:=to   a remapping; __ns:=/x and __node:=y rename the node
//	-p/--param [node:]name:=value a parameter, its value as written (YAML)
//	--params-file FILE            a parameters file
//	-e/--enclave ENCLAVE          the security enclave
//	--log-level [logger:=]LEVEL   kept, not acted on
//	--enable-/--disable-{rosout,stdout,external-lib}-logs, --log-config-file FILE  accepted
//
// A rule with a node prefix applies only to that node (the name given to
// ParseArgs, before __node renames it); a parameter for another node is
// kept in NodeParams (a process may have several nodes: rclcpp applies
// `-p NODE:name:=value` to the node NODE, `-p name:=value` to all).
type Args struct {
	Namespace   string                       // -r __ns:=, "" when absent
	Node        string                       // -r __node:=, "" when absent
	Remaps      map[string]string            // from:=to, as written
	Params      map[string]string            // name:=value, the value as written
	NodeParams  map[string]map[string]string // other nodes' node:name:=value, by node
	ParamsFiles []string
	Enclave     string
	LogLevels   []string
}

// ParseArgs takes the ROS arguments out of args for the node node and
// returns the rest, in order. Every malformed or unknown ROS argument is
// reported, all at once.
func ParseArgs(args []string, node string) (rest []string, a Args, err error) {
	a.Remaps, a.Params = map[string]string{}, map[string]string{}
	var errs []string
	in := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !in {
			if arg == "--ros-args" {
				in = true
			} else {
				rest = append(rest, arg)
			}
			continue
		}
		value := func() (string, bool) {
			if i+1 >= len(args) || args[i+1] == "--" || args[i+1] == "--ros-args" {
				errs = append(errs, fmt.Sprintf("%s: a value must follow", arg))
				return "", false
			}
			i++
			return args[i], true
		}
		switch arg {
		case "--":
			in = false
		case "--ros-args":
		case "-r", "--remap":
			if v, ok := value(); ok {
				if from, to, ok := rule(v, node, &errs, arg); ok {
					switch from {
					case "__ns":
						a.Namespace = to
					case "__node", "__name":
						a.Node = to
					default:
						a.Remaps[from] = to
					}
				}
			}
		case "-p", "--param":
			if v, ok := value(); ok {
				lhs, _, _ := strings.Cut(v, ":=")
				target, _, prefixed := strings.Cut(lhs, ":")
				if !prefixed || target == node || !strings.Contains(v, ":=") {
					if name, val, ok := rule(v, node, &errs, arg); ok {
						a.Params[name] = val
					}
				} else if name, val, ok := rule(v[len(target)+1:], node, &errs, arg); ok { // another node's
					if a.NodeParams == nil {
						a.NodeParams = map[string]map[string]string{}
					}
					if a.NodeParams[target] == nil {
						a.NodeParams[target] = map[string]string{}
					}
					a.NodeParams[target][name] = val
				}
			}
		case "--params-file":
			if v, ok := value(); ok {
				a.ParamsFiles = append(a.ParamsFiles, v)
			}
		case "-e", "--enclave":
			if v, ok := value(); ok {
				a.Enclave = v
			}
		case "--log-level", "--log-config-file":
			if v, ok := value(); ok && arg == "--log-level" {
				a.LogLevels = append(a.LogLevels, v)
			}
		case "--enable-rosout-logs", "--disable-rosout-logs", "--enable-stdout-logs", "--disable-stdout-logs",
			"--enable-external-lib-logs", "--disable-external-lib-logs":
		default:
			errs = append(errs, fmt.Sprintf("%s: unknown ROS argument (known: -r, -p, --params-file, -e, --log-level, --log-config-file, --enable-/--disable-*-logs)", arg))
		}
	}
	if len(errs) > 0 {
		return rest, a, fmt.Errorf("ros2node: %s", strings.Join(errs, "; "))
	}
	return rest, a, nil
}

// rule splits [node:]from:=to, keeping it only when it is for node.
func rule(v, node string, errs *[]string, flag string) (from, to string, ok bool) {
	lhs, to, found := strings.Cut(v, ":=")
	if !found || lhs == "" {
		*errs = append(*errs, fmt.Sprintf("%s %q: want [node:]name:=value", flag, v))
		return "", "", false
	}
	if target, name, has := strings.Cut(lhs, ":"); has {
		if target != node {
			return "", "", false // for another node
		}
		lhs = name
	}
	return lhs, to, true
}
