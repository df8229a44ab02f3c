// Attribute values: the numbers, vectors of three and origins (<origin>)
// that URDF attributes hold, and how they are read.

package urdf

import (
	"math"
	"strconv"
	"strings"
)

// fields is strings.Fields into buf, allocating nothing for the few
// numbers of an attribute.
func fields(buf []string, s string) []string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.Fields(s) // Unicode spaces: as strings.Fields
		}
	}
	out := buf[:0]
	for i := 0; i < len(s); {
		for i < len(s) && asciiSpace(s[i]) {
			i++
		}
		start := i
		for i < len(s) && !asciiSpace(s[i]) {
			i++
		}
		if i > start {
			out = append(out, s[start:i])
		}
	}
	return out
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// number parses a decimal number as URDF writes them: an optional sign,
// digits with an optional point, an optional exponent.
func number(s string) (float64, string) {
	t := strings.TrimSpace(s)
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	digits := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
		digits++
	}
	if i < len(t) && t[i] == '.' {
		i++
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			digits++
		}
	}
	if digits > 0 && i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		exp := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			digits = 0
		}
	}
	if digits == 0 || i != len(t) {
		switch strings.ToLower(strings.TrimLeft(t, "+-")) {
		case "nan", "inf", "infinity":
			return 0, "is not a finite number"
		}
		return 0, "is not a number"
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, "is not a finite number"
	}
	return v, ""
}

// float reads a number attribute of n; def when it is missing or bad.
func (b *builder) float(subj string, n *node, name string, def float64) (float64, *attr) {
	a := n.attr(name)
	if a == nil {
		return def, nil
	}
	if xacroValue(a.value) {
		return def, a
	}
	v, bad := number(a.value)
	if bad != "" {
		b.l.Errorf(b.at(a.off), "%s: <%s> %s: %q %s", subj, n.name, name, a.value, bad)
		return def, a
	}
	return v, a
}

// vec3 reads an attribute of three numbers; def when it is missing or bad.
func (b *builder) vec3(subj string, n *node, name string, def Vec3) (Vec3, *attr) {
	a := n.attr(name)
	if a == nil {
		return def, nil
	}
	if xacroValue(a.value) {
		return def, a
	}
	var buf [4]string
	f := fields(buf[:], a.value)
	if len(f) != 3 {
		b.l.Errorf(b.at(a.off), "%s: <%s> %s: %q has %d numbers, want 3", subj, n.name, name, a.value, len(f))
		return def, a
	}
	var v Vec3
	for i, s := range f {
		x, bad := number(s)
		if bad != "" {
			b.l.Errorf(b.at(a.off), "%s: <%s> %s: %q %s", subj, n.name, name, s, bad)
			return def, a
		}
		v[i] = x
	}
	return v, a
}

// pose reads n's <origin>.
func (b *builder) pose(subj string, n *node) Pose {
	var p Pose
	if o := b.first(subj, n, "origin"); o != nil {
		var rpy *attr
		p.XYZ, _ = b.vec3(subj, o, "xyz", Vec3{})
		p.RPY, rpy = b.vec3(subj, o, "rpy", Vec3{})
		if q, ok := b.quat(subj, o, rpy); ok {
			p.RPY = q
		}
	}
	return p
}
