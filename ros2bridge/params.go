package ros2bridge

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/ros2node"
)

// A node's parameters, served as rclcpp serves a node's (~/list_parameters,
// ~/get_parameters, ~/set_parameters, ~/set_parameters_atomically,
// ~/describe_parameters, ~/get_parameter_types, with rcl_interfaces'
// types: ros2/rcl_interfaces jazzy 003987ec msg/ParameterValue.msg,
// Parameter, ParameterDescriptor, SetParametersResult,
// ListParametersResult and the srv/ files), so that `ros2 param
// list/get/set/describe` work. frcd's node's (the controller manager's
// and the controllers' nodes': controller_nodes.go):
//
//	CONTROLLER.pid.p, .i, .d, .f   double, a PID controller's gains
//	                               (control.Controller.SetGains: finite, >= 0,
//	                               taken by the loop at its next cycle)
//	use_sim_time                   bool: read only, false; on the sim settable
//
// A value of another type (an integer for a gain, as rclcpp refuses
// one), an unknown name, a read-only parameter, or a gain the controller
// refuses is answered with successful false and its reason, counted
// (Stats.Refused) and logged; nothing changes; a double with a range
// (its descriptor's floating_point_range) outside it likewise. `-p
// NAME:=VALUE` on the command line sets a gain at start the same way
// (param_args.go). /parameter_events: param_events.go.

// Parameter types, rcl_interfaces/msg/ParameterType.
const (
	paramNotSet = 0
	paramBool   = 1
	paramInt    = 2
	paramDouble = 3
	paramString = 4
)

// paramValue is an rcl_interfaces/msg/ParameterValue of the types frcd
// uses; the others are read past.
type paramValue struct {
	typ uint8
	b   bool
	i   int64
	f   float64
	s   string
}

func (v *paramValue) marshal(e *cdr.Encoder) {
	e.Uint8(v.typ)
	e.Bool(v.b)
	e.Int64(v.i)
	e.Float64(v.f)
	e.String(v.s)
	for range 5 { // byte, bool, integer, double, string arrays
		e.SeqLen(0)
	}
}

func (v *paramValue) unmarshal(d *cdr.Decoder) {
	v.typ, v.b, v.i, v.f, v.s = d.Uint8(), d.Bool(), d.Int64(), d.Float64(), d.String()
	d.Octets()       // byte_array_value
	d.Octets()       // bool_array_value: one octet each
	n := d.SeqLen(8) // integer_array_value
	for i := 0; i < n && d.Err() == nil; i++ {
		d.Int64()
	}
	d.Float64s(nil)
	d.Strings(nil)
}

// param is one of a node's parameters.
type param struct {
	name, doc string
	typ       uint8
	readOnly  bool
	// ranged: a double's values are lo..hi, given in its descriptor's
	// floating_point_range; without it a double is a finite gain >= 0.
	ranged bool
	lo, hi float64
	// follows names the parameter whose set changes this one too (a
	// read-only mirror), so that the set's event carries both.
	follows string
	get     func() paramValue
	set     func(v paramValue) error // nil for a read-only one
}

// params is frcd's node's parameter table, by name.
func (b *Bridge) params() map[string]*param {
	ps := map[string]*param{"use_sim_time": b.useSimTime()}
	for _, c := range b.o.Loop.Controllers() {
		if !c.HasPID() {
			continue
		}
		for i, k := range []string{"p", "i", "d", "f"} {
			c, i := c, i
			name := c.Name + ".pid." + k
			// SetGains' range, the YAML key's, so that check refuses
			// what set would (set_parameters_atomically).
			lo, hi, ranged := c.GainRange(control.GainID{Term: k})
			ps[name] = &param{name: name, typ: paramDouble, ranged: ranged, lo: lo, hi: hi,
				doc: fmt.Sprintf("controller %s's PID gain %s (its YAML's pid.%s), taken at the loop's next cycle", c.Name, k, k),
				get: func() paramValue { return paramValue{typ: paramDouble, f: gainsOf(c.Gains())[i]} },
				set: func(v paramValue) error {
					gs := gainsOf(c.Gains())
					gs[i] = v.f
					return c.SetGains(control.Gains{P: gs[0], I: gs[1], D: gs[2], F: gs[3]}, b.o.Clock())
				}}
		}
	}
	return ps
}

// useSimTime is every node's use_sim_time: read only, false on
// hardware; on the sim settable, as every node's is, and read back
// (frcd's stamps are the sim's time either way, which /clock publishes).
// The sim's nodes share its value.
func (b *Bridge) useSimTime() *param {
	if s := b.sim; s != nil && s.clock != nil {
		return &param{name: "use_sim_time", typ: paramBool,
			doc: "frcd stamps with the sim's time, which it publishes on /clock, whatever this says",
			get: func() paramValue { return paramValue{typ: paramBool, b: s.useSimTime.Load()} },
			set: func(v paramValue) error { s.useSimTime.Store(v.b); return nil }}
	}
	return &param{name: "use_sim_time", doc: "frcd runs on its own clock (the sim's or the robot's)", typ: paramBool, readOnly: true,
		get: func() paramValue { return paramValue{typ: paramBool} }}
}

// typeName is rcl_interfaces/msg/ParameterType's name for t.
func typeName(t uint8) string {
	names := []string{"not set", "a bool", "an integer", "a double", "a string", "a byte array", "a bool array",
		"an integer array", "a double array", "a string array"}
	if int(t) < len(names) {
		return names[t]
	}
	return fmt.Sprintf("type %d", t)
}

// gainsOf is g as p, i, d, f.
func gainsOf(g control.Gains) [4]float64 { return [4]float64{g.P, g.I, g.D, g.F} }

// check says why v cannot be p's value; nil when it can.
func (p *param) check(v paramValue) error {
	switch {
	case p == nil:
		return fmt.Errorf("no such parameter")
	case p.readOnly:
		return fmt.Errorf("parameter %s is read only", p.name)
	case v.typ == paramInt && p.typ == paramDouble:
		return fmt.Errorf("wrong parameter type: %s is a double, not %s (write 2.0, not 2)", p.name, typeName(v.typ))
	case v.typ == paramString && p.typ == paramDouble:
		return fmt.Errorf("wrong parameter type: %s is a double, not the string %q (a number beyond ±1.8e308 reads as a string, as rcl reads it)", p.name, v.s)
	case v.typ != p.typ:
		return fmt.Errorf("wrong parameter type: %s is %s, not %s", p.name, typeName(p.typ), typeName(v.typ))
	case p.ranged && !(v.f >= p.lo && v.f <= p.hi):
		return fmt.Errorf("%v is outside its range %g..%g", v.f, p.lo, p.hi)
	case !p.ranged && p.typ == paramDouble && (math.IsNaN(v.f) || math.IsInf(v.f, 0) || v.f < 0):
		return fmt.Errorf("%s: %v is not a finite gain >= 0", p.name, v.f)
	}
	return nil
}

// readSets reads Parameter[] {string name; ParameterValue value}; each
// takes at least 49 bytes, so the payload bounds their number.
func readSets(req *cdr.Decoder) ([]string, []paramValue) {
	n := req.SeqLen(5 + 1 + 8*3 + 5*4)
	ns, vs := make([]string, n), make([]paramValue, n)
	for i := 0; i < n && req.Err() == nil; i++ {
		ns[i] = req.String()
		vs[i].unmarshal(req)
	}
	return ns, vs
}

// serveParams offers the parameter services of node, whose parameters
// are ps.
func (b *Bridge) serveParams(node *ros2node.Node, ps map[string]*param) error {
	names := make([]string, 0, len(ps))
	for n := range ps {
		names = append(names, n)
	}
	sort.Strings(names)
	fqn := node.Name()
	if err := b.setupParamEvents(fqn, ps); err != nil {
		return err
	}
	refuse := func(err error) string {
		b.refused.Add(1)
		b.o.Logf("ros2: set_parameters: %v", err)
		return err.Error()
	}
	const pkg = "rcl_interfaces/srv/"
	for _, s := range []struct {
		name, typ string
		h         func(req *cdr.Decoder, resp *cdr.Encoder) error
	}{
		{"list_parameters", "ListParameters", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			prefixes, depth := req.Strings(nil), req.Uint64()
			if err := req.Err(); err != nil {
				return err
			}
			var out []string
			pre := map[string]bool{}
			for _, n := range names {
				if !listed(n, prefixes, depth) {
					continue
				}
				out = append(out, n)
				if i := strings.LastIndexByte(n, '.'); i > 0 {
					pre[n[:i]] = true
				}
			}
			resp.Strings(out)
			var ps []string
			for p := range pre {
				ps = append(ps, p)
			}
			sort.Strings(ps)
			resp.Strings(ps)
			return nil
		}},
		{"get_parameters", "GetParameters", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			ns := req.Strings(nil)
			if err := req.Err(); err != nil {
				return err
			}
			resp.SeqLen(len(ns))
			for _, n := range ns {
				v := paramValue{} // PARAMETER_NOT_SET for an unknown name, as rclcpp
				if p := ps[n]; p != nil {
					v = p.get()
				}
				v.marshal(resp)
			}
			return nil
		}},
		{"get_parameter_types", "GetParameterTypes", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			ns := req.Strings(nil)
			if err := req.Err(); err != nil {
				return err
			}
			resp.SeqLen(len(ns))
			for _, n := range ns {
				t := uint8(paramNotSet)
				if p := ps[n]; p != nil {
					t = p.typ
				}
				resp.Uint8(t)
			}
			return nil
		}},
		{"describe_parameters", "DescribeParameters", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			ns := req.Strings(nil)
			if err := req.Err(); err != nil {
				return err
			}
			resp.SeqLen(len(ns))
			for _, n := range ns {
				p := ps[n]
				if p == nil {
					p = &param{name: n}
				}
				resp.String(n)
				resp.Uint8(p.typ)
				resp.String(p.doc)
				switch {
				case p.ranged:
					resp.String(fmt.Sprintf("%g..%g", p.lo, p.hi))
				case p.set != nil && p.typ == paramDouble:
					resp.String("finite, >= 0")
				default:
					resp.String("")
				}
				resp.Bool(p.readOnly)
				resp.Bool(false) // dynamic_typing
				if p.ranged {    // floating_point_range: {from_value, to_value, step}, 0 for any
					resp.SeqLen(1)
					resp.Float64(p.lo)
					resp.Float64(p.hi)
					resp.Float64(0)
				} else {
					resp.SeqLen(0)
				}
				resp.SeqLen(0) // integer_range
			}
			return nil
		}},
		{"set_parameters", "SetParameters", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			ns, vs := readSets(req)
			if err := req.Err(); err != nil {
				return err
			}
			resp.SeqLen(len(ns))
			var changed []string
			for i, n := range ns {
				err := ps[n].check(vs[i])
				if err == nil {
					err = ps[n].set(vs[i])
				}
				reason := ""
				if err != nil {
					reason = refuse(fmt.Errorf("%s: %w", n, err))
				} else {
					changed = append(changed, n)
				}
				resp.Bool(err == nil)
				resp.String(reason)
			}
			b.paramsChanged(fqn, ps, changed...)
			return nil
		}},
		{"set_parameters_atomically", "SetParametersAtomically", func(req *cdr.Decoder, resp *cdr.Encoder) error {
			ns, vs := readSets(req)
			if err := req.Err(); err != nil {
				return err
			}
			var err error
			for i, n := range ns { // all are checked before any is set
				if err == nil {
					if err = ps[n].check(vs[i]); err != nil {
						err = fmt.Errorf("%s: %w", n, err)
					}
				}
			}
			for i, n := range ns {
				if err == nil {
					err = ps[n].set(vs[i])
				}
			}
			reason := ""
			if err != nil {
				reason = refuse(err)
			} else {
				b.paramsChanged(fqn, ps, ns...)
			}
			resp.Bool(err == nil)
			resp.String(reason)
			return nil
		}},
	} {
		h := s.h
		if _, err := node.NewService("~/"+s.name, pkg+s.typ, func(req *cdr.Decoder, resp *cdr.Encoder) error {
			defer b.guard()
			return h(req, resp)
		}); err != nil {
			return err
		}
	}
	return nil
}

// listed says whether list_parameters lists name for prefixes and depth
// (rcl_interfaces/srv/ListParameters: a name is listed when it is one of
// the prefixes or under one, or when no prefix is given; depth, unless 0
// (DEPTH_RECURSIVE), bounds how many dot-separated levels below the
// prefix it may be).
func listed(name string, prefixes []string, depth uint64) bool {
	levels := func(s string) uint64 { return uint64(strings.Count(s, ".")) + 1 }
	if len(prefixes) == 0 {
		return depth == 0 || levels(name) <= depth
	}
	for _, p := range prefixes {
		if name == p {
			return true
		}
		if strings.HasPrefix(name, p+".") && (depth == 0 || levels(name[len(p)+1:]) <= depth) {
			return true
		}
	}
	return false
}
