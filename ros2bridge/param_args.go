package ros2bridge

import (
	"fmt"
	"sort"

	"github.com/frcd/frcd/ros2node"
)

// Parameters from the command line, as rclcpp takes them
// (design.ros2.org "ROS Command Line Arguments"): `-p NAME:=VALUE` is
// for every node of the process (SetParams: frcd's, the controller
// manager's and the controllers' that have NAME), `-p NODE:NAME:=VALUE`
// for the node NODE only (SetNodeParams). The value is read as YAML
// writes a double, an integer or a bool; each is checked and set as a
// set_parameters request's would be.

// paramTable is a node's parameters, for the command line.
type paramTable struct {
	node string // its name (frcd, controller_manager, a controller's)
	fqn  string // its fully qualified name, in its events
	ps   map[string]*param
}

// paramTables are the bridge's nodes' parameters: frcd's node's, the
// controller manager's, then the controllers' in order.
func (b *Bridge) paramTables() []paramTable {
	ts := []paramTable{{b.o.Node.Name, b.node.Name(), b.params()}}
	if n := b.ctlNodes[cmNode]; n != nil && b.o.Manager != nil {
		ts = append(ts, paramTable{cmNode, n.Name(), b.cmParams()})
	}
	for _, e := range b.controllers() {
		if n := b.ctlNodes[e.name]; n != nil && n != b.node && e.name != cmNode {
			ts = append(ts, paramTable{e.name, n.Name(), b.controllerParams(e)})
		}
	}
	return ts
}

// SetParams sets parameters from the command line (-p NAME:=VALUE) on
// every node that has NAME; each refusal is returned, but for a name no
// node has, which is logged and left (as rclcpp leaves an override of a
// parameter not declared).
func (b *Bridge) SetParams(values map[string]string) []error {
	return b.setParams(b.paramTables(), "", values)
}

// SetNodeParams sets parameters from the command line for the node node
// (-p NODE:NAME:=VALUE), as SetParams does; a node frcd does not have is
// logged and left.
func (b *Bridge) SetNodeParams(node string, values map[string]string) []error {
	for _, t := range b.paramTables() {
		if t.node == node {
			return b.setParams([]paramTable{t}, node+":", values)
		}
	}
	b.o.Logf("ros2: -p %s:...: frcd has no node %s (ros2 node list lists them)", node, node)
	return nil
}

// setParams sets values on the tables that have them; prefix is how the
// command line named the node ("" or NODE:).
func (b *Bridge) setParams(tables []paramTable, prefix string, values map[string]string) []error {
	var errs []error
	names := make([]string, 0, len(values))
	for n := range values {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		pv := ros2node.ParseParamValue(values[n]) // typed as rcl types it
		v := paramValue{typ: pv.Type, b: pv.B, i: pv.I, f: pv.F, s: pv.S}
		var err error
		found, refused := 0, 0
		for _, t := range tables {
			p := t.ps[n]
			if p == nil {
				continue
			}
			found++
			if err = p.check(v); err == nil {
				err = p.set(v)
			}
			if err != nil {
				b.refused.Add(1)
				if refused++; refused == 1 { // one error a name: use_sim_time is every node's
					errs = append(errs, fmt.Errorf("-p %s%s:=%s on %s: %w", prefix, n, values[n], t.fqn, err))
				}
				continue
			}
			b.paramsChanged(t.fqn, t.ps, n)
		}
		if found == 0 {
			b.o.Logf("ros2: -p %s%s:=%s: no node has a parameter %s (ros2 param list lists them)", prefix, n, values[n], n)
		}
		if refused > 1 {
			b.o.Logf("ros2: -p %s%s:=%s: refused on %d nodes", prefix, n, values[n], refused)
		}
	}
	return errs
}

// SetFileParams sets the parameters of --params-file (o: every file,
// merged as rcl merges them) on each of the bridge's nodes, as rclcpp
// gives a node its overrides (ros2node.ParamsOverrides.Resolve: the
// entries matching its fully qualified name, /** every node's). Each
// refusal is returned with the file's line and column; a parameter the
// node does not have is logged and left (rclcpp leaves an override of a
// parameter not declared), as is an entry for a node frcd does not have.
// A read-only parameter (update_rate, NAME.type) given the value frcd has
// is taken; another value is refused.
// It runs before the command line's -p, which wins (rcl keeps their
// order on the command line: the same when -p follows --params-file, as
// ros2 launch writes them).
func (b *Bridge) SetFileParams(o *ros2node.ParamsOverrides) []error {
	if o == nil {
		return nil
	}
	var errs []error
	tables := b.paramTables()
	for _, e := range o.Entries {
		matched := false
		for _, t := range tables {
			matched = matched || ros2node.NodePatternMatch(e.Node, t.fqn)
		}
		if !matched {
			b.o.Logf("ros2: %s: frcd has no node %s (ros2 node list lists them)", e.At, e.Node)
		}
	}
	type unknown struct {
		at, name string
		nodes    []string
	}
	var missing []*unknown // parameters no node has, in order
	missingAt := map[string]*unknown{}
	taken := map[string]bool{}
	for _, t := range tables {
		for _, fp := range o.Resolve(t.fqn) {
			p := t.ps[fp.Name]
			if p == nil {
				u := missingAt[fp.At]
				if u == nil {
					u = &unknown{at: fp.At, name: fp.Name}
					missing = append(missing, u)
					missingAt[fp.At] = u
				}
				u.nodes = append(u.nodes, t.fqn)
				continue
			}
			taken[fp.At] = true
			v := paramValue{typ: fp.Value.Type, b: fp.Value.B, i: fp.Value.I, f: fp.Value.F, s: fp.Value.S}
			if p.readOnly && p.get() == v {
				continue // a ros2_control file's update_rate or NAME.type, as frcd has it
			}
			err := p.check(v)
			if err == nil {
				err = p.set(v)
			}
			if err != nil {
				b.refused.Add(1)
				errs = append(errs, fmt.Errorf("%s: %s:=%s on %s: %w", fp.At, fp.Name, fp.Text, t.fqn, err))
				continue
			}
			b.paramsChanged(t.fqn, t.ps, fp.Name)
		}
	}
	for _, u := range missing {
		switch {
		case taken[u.at]: // a wildcard's, which another node has
		case len(u.nodes) == 1:
			b.o.Logf("ros2: %s: %s has no parameter %s (ros2 param list lists them)", u.at, u.nodes[0], u.name)
		default:
			b.o.Logf("ros2: %s: none of the %d nodes it matches has a parameter %s (ros2 param list lists them)", u.at, len(u.nodes), u.name)
		}
	}
	return errs
}
