package config

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/frcd/frcd/diag"
)

// checkFile runs the rules that span entries: unique names, references
// (with the PDP default), channels used once, and each type's Check.
func (p *parser) checkFile() {
	f := p.file
	for _, d := range f.Devices {
		if d.Name == "" {
			continue
		}
		if first, dup := f.byName[d.Name]; dup {
			p.list.Errorf(d.NamePos, "%s: name %q is already used by %s (line %d)", d, d.Name, first, first.Pos.Line)
			continue
		}
		f.byName[d.Name] = d
	}
	c := &Checker{list: p.list, claims: map[claimKey]*Device{}}
	p.checkEntries(f.Devices, c)
	p.uniqueNames("controller", f.Controllers)
	p.checkEntries(f.Controllers, c)
	p.uniqueNames("sim joint", f.SimJoints)
	p.checkEntries(f.SimJoints, c)
	if f.SimDrivetrain != nil {
		p.checkEntries([]*Device{f.SimDrivetrain}, c)
	}
	p.uniqueNames("sim sensor", f.SimSensors)
	p.checkEntries(f.SimSensors, c)
	p.checkSimSensors(c)
	p.uniqueNames("sim disturbance", f.SimDisturbances)
	p.checkEntries(f.SimDisturbances, c)
	p.checkEntries(f.SimCANFaults, c)
	p.checkSimCANFaults(c)
	p.checkEntries([]*Device{f.Linux, f.NT4, f.OpModes}, c)
	p.checkCANBuses()
}

// checkSimSensors checks that each `sim: sensors:` entry names a sensor
// it can fault, and that a digital input has no noise or drift.
func (p *parser) checkSimSensors(c *Checker) {
	sensors := SimSensorTypes()
	cands := p.namesOfTypes(sensors)
	for _, e := range p.file.SimSensors {
		if e.Name == "" {
			continue
		}
		d := p.file.byName[e.Name]
		switch {
		case d == nil:
			c.Errorf(e.NamePos, "sim sensor %q: names no device%s", e.Name, diag.DidYouMean(e.Name, cands))
		case d.Type == nil:
		case !slices.Contains(sensors, d.Type.Name):
			c.Errorf(e.NamePos, "sim sensor %q: is %s, not a sensor", e.Name, article(d.TypeName))
		case d.Type.Joint == SwitchSource:
			for _, k := range SimSensor.Keys {
				if strings.HasPrefix(k.Name, "noise.") || strings.HasPrefix(k.Name, "drift.") {
					if e.Has(k.Name) {
						c.Errorf(e.KeyPos(k.Name), "sim sensor %q: a digital input is on or off, so %s does not apply (dropout, stuck and disconnected do)", e.Name, k.Name)
					}
				}
			}
		}
	}
}

// checkSimCANFaults checks that each `sim: can_faults:` entry names a
// device on the CAN bus and ends after it begins.
func (p *parser) checkSimCANFaults(c *Checker) {
	onCAN := SimCANFaultTypes()
	cands := p.namesOfTypes(onCAN)
	for _, e := range p.file.SimCANFaults {
		if e.Name == "" {
			continue
		}
		d := p.file.byName[e.Name]
		switch {
		case d == nil:
			c.Errorf(e.NamePos, "sim CAN fault %q: names no device%s", e.Name, diag.DidYouMean(e.Name, cands))
		case d.Type == nil:
		case !OnCAN(d):
			c.Errorf(e.NamePos, "sim CAN fault %q: is %s, not a device on the CAN bus", e.Name, article(d.TypeName))
		}
		if e.Has("until") && e.Float("until") <= e.Float("from") {
			c.Errorf(e.ValuePos("until"), "sim CAN fault %q: until (%v s) must be after from (%v s)", e.Name, e.Float("until"), e.Float("from"))
		}
	}
}

// namesOfTypes lists the names of the file's devices of those types,
// sorted: the candidates of a did-you-mean.
func (p *parser) namesOfTypes(types []string) []string {
	var names []string
	for _, d := range p.file.Devices {
		if d.Type != nil && slices.Contains(types, d.Type.Name) {
			names = append(names, d.Name)
		}
	}
	sort.Strings(names)
	return names
}

// uniqueNames reports a name used twice within a section.
func (p *parser) uniqueNames(what string, entries []*Device) {
	seen := map[string]*Device{}
	for _, d := range entries {
		if d.Name == "" {
			continue
		}
		if first, dup := seen[d.Name]; dup {
			p.list.Errorf(d.NamePos, "%s %q: name is already used by %s (line %d)", what, d.Name, first, first.Pos.Line)
			continue
		}
		seen[d.Name] = d
	}
}

// checkEntries resolves references, claims channels and runs each type's
// Check.
func (p *parser) checkEntries(entries []*Device, c *Checker) {
	for _, d := range entries {
		if d.Type == nil {
			continue
		}
		p.resolveRefs(d, c)
		for _, k := range d.Type.Keys {
			if k.Resource == NoResource || k.Resource == NavXPort || !d.Has(k.Name) {
				continue
			}
			scope := ""
			if k.Scope != "" {
				if sv, ok := d.Value(k.Scope); ok {
					scope = sv.Str
					if sv.Kind == Int {
						scope = strconv.Itoa(sv.Int)
					}
				}
				if k.Scope == "can_bus" {
					scope = d.CANBus()
				}
				if k.Scope == "pcm_id" {
					scope = ModuleLabel(d)
				}
				if k.Resource == PDPChannel {
					power := d.Ref(k.Scope)
					if power == nil {
						continue
					}
					scope = power.Name
				}
			}
			c.Claim(d, k.Resource, scope, d.Int(k.Name), d.ValuePos(k.Name))
			if dio, shared := mxpSharedDIO(k.Resource, d.Int(k.Name)); shared {
				c.Claim(d, DIO, "", dio, d.ValuePos(k.Name))
			}
		}
		if d.Type.Check != nil {
			d.Type.Check(d, c)
		}
	}
}
