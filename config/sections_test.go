package config

import (
	"strings"
	"testing"
)

const sectionsBase = "joints:\n  - {name: arm, type: talon, id: 3}\n  - {name: srv, type: servo, id: 4}\n  - {name: sol, type: solenoid, id: 0}\n  - {name: ds, type: double_solenoid, forward_id: 1, reverse_id: 2}\n"

func TestSections(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"all sections", sectionsBase + "loop: {rate_hz: 500, command_timeout: 0.2}\ncontrollers:\n  - {name: arm_pos, type: position, joint: arm, p: 10}\n  - {name: srv_pos, type: position, joint: srv}\n  - {name: sol_cmd, type: binary, joint: sol}\n  - {name: ds_cmd, type: ternary, joint: ds}\nsim:\n  battery_voltage: 12.5\n  joints:\n    - {name: arm, motor: 775pro, gearing: 100}\n", nil},
		{"two controllers on one joint", sectionsBase + "controllers:\n  - {name: a, type: voltage, joint: arm}\n  - {name: b, type: position, joint: arm, p: 1}\n",
			[]string{`r.yaml:8:38: error: controller "b": joint "arm" is already claimed by controller "a" (line 7); a joint takes commands from one controller`}},
		{"unknown controller type", sectionsBase + "controllers:\n  - {name: a, type: positon, joint: arm}\n",
			[]string{`r.yaml:7:21: error: positon "a": unknown controller type "positon" (did you mean "position"?)`}},
		{"controller on the wrong device", sectionsBase + "controllers:\n  - {name: a, type: voltage, joint: sol}\n",
			[]string{`r.yaml:7:37: error: voltage "a": joint "sol" is a solenoid, not a dmc60 or a jaguar or a pwm_talon_srx or a pwm_victor_spx or a sd540 or a spark or a talon or a victor or a victor_sp or a nidec or a can_victor_spx or a talon_srx`}},
		{"controller on nothing", sectionsBase + "controllers:\n  - {name: a, type: binary, joint: sole}\n",
			[]string{`r.yaml:7:36: error: binary "a": joint "sole" names no device (did you mean "sol"?)`}},
		{"pid without gains", sectionsBase + "controllers:\n  - {name: a, type: velocity, joint: arm}\n",
			[]string{`r.yaml:7:5: error: velocity "a": a velocity controller on talon "arm" needs gains: set p (and i, d, f) so the roboRIO's PID can drive it`}},
		{"servo with gains", sectionsBase + "controllers:\n  - {name: a, type: position, joint: srv, p: 3}\n",
			[]string{`r.yaml:7:43: error: position "a": p: a servo holds its own position; a position controller on it takes no gains`}},
		{"duplicate controller names", sectionsBase + "controllers:\n  - {name: a, type: voltage, joint: arm}\n  - {name: a, type: binary, joint: sol}\n",
			[]string{`r.yaml:8:12: error: controller "a": name is already used by voltage "a" (line 7)`}},
		{"missing joint key", sectionsBase + "controllers:\n  - {name: a, type: voltage}\n",
			[]string{`r.yaml:7:5: error: voltage "a": missing required key "joint" (string)`}},
		{"controllers not a list", sectionsBase + "controllers: {a: 1}\n",
			[]string{"r.yaml:6:14: error: `controllers:` must be a list, not a mapping"}},
		{"loop out of range", sectionsBase + "loop: {rate_hz: 5000, typo: 1}\n",
			[]string{`r.yaml:6:17: error: loop: rate_hz: 5000 is out of range 1-2000`, `r.yaml:6:23: error: loop: unknown key "typo" for type loop`}},
		{"loop not a mapping", sectionsBase + "loop: 100\n", []string{"r.yaml:6:7: error: `loop:` must be a mapping of keys, not the integer 100"}},
		{"sim joint motor", sectionsBase + "sim:\n  joints:\n    - {name: arm, motor: cim2, type: x}\n",
			[]string{`r.yaml:8:26: error: sim_joint "arm": motor "cim2" is not one of cim, mini_cim, bag, 775pro, rs775, am9015, neo, neo550, falcon500, window (did you mean "cim"?)`, `r.yaml:8:32: error: sim_joint "arm": unknown key "type" for type sim_joint`}},
		{"sim joint twice", sectionsBase + "sim:\n  joints:\n    - {name: arm}\n    - {name: arm}\n",
			[]string{`r.yaml:9:14: error: sim joint "arm": name is already used by sim_joint "arm" (line 8)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := findings(t, c.src)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestSectionValues(t *testing.T) {
	f, list := Parse("r.yaml", []byte(sectionsBase+"loop: {rate_hz: 1000}\ncontrollers:\n  - {name: a, type: position, joint: arm, p: 10, i: 2}\nsim:\n  joints:\n    - {name: arm, motor: neo}\n"))
	if len(list) != 0 {
		t.Fatalf("findings: %v", list)
	}
	if f.Loop.Float("rate_hz") != 1000 || f.Loop.Float("command_timeout") != 0.5 {
		t.Errorf("loop: rate %v timeout %v", f.Loop.Float("rate_hz"), f.Loop.Float("command_timeout"))
	}
	c := f.Controller("a")
	if c == nil || c.Type != LookupController("position") || c.Ref("joint") != f.Device("arm") || c.Float("p") != 10 || c.Float("max_voltage") != 12 || c.Has("i_clamp") || c.Has("timeout") {
		t.Errorf("controller a: %+v", c)
	}
	if f.Sim.Float("battery_voltage") != 12.8 || f.Sim.Float("pressure") != 120 || len(f.SimJoints) != 1 || f.SimJoints[0].Str("motor") != "neo" || f.SimJoints[0].Int("motors") != 1 {
		t.Errorf("sim: %+v %+v", f.Sim, f.SimJoints)
	}
	// Absent sections still give their defaults.
	f, _ = Parse("r.yaml", []byte(sectionsBase))
	if f.Loop == nil || f.Loop.Float("rate_hz") != 100 || f.Sim == nil || f.Sim.Float("battery_resistance") != 0.02 || f.Controllers != nil {
		t.Errorf("defaults: loop %+v sim %+v controllers %v", f.Loop, f.Sim, f.Controllers)
	}
}
