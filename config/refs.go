package config

import (
	"slices"
	"strings"

	"github.com/frcd/frcd/diag"
)

func (p *parser) resolveRefs(d *Device, c *Checker) {
	for _, k := range d.Type.Keys {
		if len(k.Ref) == 0 {
			continue
		}
		if !d.Has(k.Name) {
			if slices.Contains(k.Ref, PowerRole) {
				p.defaultPower(d, k.Name, c)
			}
			continue
		}
		if k.Kind == StringList {
			v, _ := d.written(k.Name)
			var list []*Device
			for i, name := range v.List {
				if t := p.ref(d, &k, name, v.ListAt[i], c); t != nil {
					list = append(list, t)
				}
			}
			if len(list) == len(v.List) {
				if d.refLists == nil {
					d.refLists = map[string][]*Device{}
				}
				d.refLists[k.Name] = list
			}
			continue
		}
		if target := p.ref(d, &k, d.Str(k.Name), d.ValuePos(k.Name), c); target != nil {
			d.setRef(k.Name, target)
		}
	}
}

// ref resolves one name a reference key gives, reporting a name that is no
// device or a device of the wrong type.
func (p *parser) ref(d *Device, k *Key, name string, pos diag.Pos, c *Checker) *Device {
	key := k.Name
	if k.Kind == StringList {
		key += ":"
	}
	target := p.file.byName[name]
	if target == nil {
		c.Errorf(pos, "%s: %s %q names no device%s", d, key, name, diag.DidYouMean(name, p.namesOfTypes(TypesWith(k.Ref...))))
		return nil
	}
	if target.Type == nil || !target.Type.isAny(k.Ref) {
		c.Errorf(pos, "%s: %s %q is %s, not %s", d, key, name, article(target.TypeName), refWhat(k.Ref))
		return nil
	}
	return target
}

// defaultPower closes the spec's TODO: a speed controller's pdp defaults
// to the PDP with CAN id 0, else the REV PDH with CAN id 1 (WPILib's
// default modules of each type: Power.DefaultID, in its order).
func (p *parser) defaultPower(d *Device, key string, c *Checker) {
	if !p.pdpLooked {
		p.pdpDefault, p.pdpLooked = p.findDefaultPower(), true
	}
	if p.pdpDefault != nil {
		d.setRef(key, p.pdpDefault)
		return
	}
	if e := d.Type.Effort; e != nil && d.Has(e.Channel) {
		c.Errorf(d.KeyPos(e.Channel), "%s: pdp_ch needs a PDP: add a pdp with id 0 or a rev_pdh with id 1 (the defaults), or name one with pdp", d)
	}
}

// findDefaultPower scans the devices once for the default power
// distribution module, so that n speed controllers cost n, not n².
func (p *parser) findDefaultPower() *Device {
	for _, t := range powers {
		for _, o := range p.file.Devices {
			if o.Type == t && o.Has("id") && o.Int("id") == t.Power.DefaultID {
				return o
			}
		}
	}
	return nil
}

func article(s string) string {
	if s == "" {
		return "a device of unknown type"
	}
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// refWhat says what a reference key may name, for messages and docs: "a
// speed controller" for that role (a list of every one would grow with
// each new type), else the types answering to the role.
func refWhat(roles []Role) string {
	var parts []string
	for _, r := range roles {
		if r == SpeedControllerRole {
			parts = append(parts, "a speed controller")
			continue
		}
		if names := TypesWith(r); len(names) > 0 {
			parts = append(parts, refList(names))
		}
	}
	return strings.Join(parts, " or ")
}

func refList(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = article(t)
	}
	return strings.Join(parts, " or ")
}
