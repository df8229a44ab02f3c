package config_test

import (
	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"strings"
	"testing"
)

const faultsBase = "joints:\n  - {name: enc, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.01}\n  - {name: sw, type: digital_input, dio_channel: 2}\n  - {name: arm, type: talon, id: 3}\n"

func TestSimSensorsAndDisturbances(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"clean", faultsBase + "sim:\n  sensors:\n    - {name: enc, noise: {mu: 0.1, sigma: 0.2}, drift: {sigma: 0.01}, dropout: 0.5}\n    - {name: sw, stuck: true, fault_at: 2}\n  disturbances:\n    - {joint: arm, kind: force, magnitude: 3, min_x: -1, max_x: 2}\n    - {name: wind, base: true, initial_x: 1, initial_y: -1, min_y: 0}\n", nil},
		{"bad sensor entries", faultsBase + "sim:\n  sensors:\n    - {name: encc, dropout: 1.5}\n    - {name: arm, noise: {sigma: -1, mean: 2}}\n    - {name: sw, noise: {mu: 1}, drift: {sigma: 0.1}, stuk: true}\n    - {dropout: 0.1}\n    - {name: enc}\n    - {name: enc}\n",
			[]string{
				`r.yaml:7:14: error: sim sensor "encc": names no device (did you mean "enc"?)`,
				`r.yaml:7:29: error: sim_sensor "encc": dropout: 1.5 is out of range 0-1`,
				`r.yaml:8:14: error: sim sensor "arm": is a talon, not a sensor`,
				`r.yaml:8:34: error: sim_sensor "arm": noise.sigma: -1 is out of range 0-1e+06`,
				`r.yaml:8:38: error: sim_sensor "arm": unknown key "mean" in noise; it takes mu, sigma`,
				`r.yaml:9:26: error: sim sensor "sw": a digital input is on or off, so noise.mu does not apply (dropout, stuck and disconnected do)`,
				`r.yaml:9:42: error: sim sensor "sw": a digital input is on or off, so drift.sigma does not apply (dropout, stuck and disconnected do)`,
				`r.yaml:9:55: error: sim_sensor "sw": unknown key "stuk" for type sim_sensor (did you mean "stuck"?)`,
				`r.yaml:10:7: error: sim sensor 4: missing required key "name"`,
				`r.yaml:12:14: error: sim sensor "enc": name is already used by sim_sensor "enc" (line 11)`,
			}},
		{"bad disturbances", faultsBase + "sim:\n  disturbances:\n    - {joint: arm, base: true}\n    - {kind: push}\n    - {joint: arm, initial_y: 1, max_y: 2, min_x: 3, max_x: 2, update_period: 0}\n    - 3\n",
			[]string{
				`r.yaml:7:20: error: sim disturbance 1: push a joint or the base, not both`,
				`r.yaml:8:7: error: sim disturbance 2: needs joint (a URDF joint) or base: true`,
				`r.yaml:8:14: error: sim disturbance 2: kind "push" is not one of velocity, force`,
				`r.yaml:9:20: error: sim disturbance 3: a joint has one axis, x: initial_y applies to the base`,
				`r.yaml:9:34: error: sim disturbance 3: a joint has one axis, x: max_y applies to the base`,
				`r.yaml:9:51: error: sim disturbance 3: min_x 3 is above max_x 2`,
				`r.yaml:9:79: error: sim disturbance 3: update_period: 0 is out of range 0.001-1e+06`,
				`r.yaml:10:7: error: sim disturbance 4: must be a mapping like {name: ..., ...}, not the integer 3`,
			}},
		{"sensors not a list", faultsBase + "sim:\n  sensors: {name: enc}\n", []string{"r.yaml:6:12: error: `sim: sensors:` must be a list, not a mapping"}},
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

func TestSimSensorValues(t *testing.T) {
	f, list := Parse("r.yaml", []byte(faultsBase+"sim:\n  sensors:\n    - {name: enc, noise: {sigma: 0.2}, disconnected: true, fault_at: 1.5}\n  disturbances:\n    - {joint: arm, max_x: 2}\n"))
	if len(list) != 0 {
		t.Fatalf("findings: %v", list)
	}
	if len(f.SimSensors) != 1 || len(f.SimDisturbances) != 1 {
		t.Fatalf("sensors %v disturbances %v", f.SimSensors, f.SimDisturbances)
	}
	s := f.SimSensors[0]
	if s.Name != "enc" || s.Float("noise.sigma") != 0.2 || s.Float("noise.mu") != 0 || !s.Bool("disconnected") || s.Bool("stuck") || s.Float("fault_at") != 1.5 || s.Float("dropout") != 0 {
		t.Errorf("sensor: %+v", s)
	}
	d := f.SimDisturbances[0]
	if d.Name != "" || d.Str("joint") != "arm" || d.Str("kind") != "velocity" || d.Float("magnitude") != 1 || d.Float("update_period") != 10 ||
		!d.Has("max_x") || d.Float("max_x") != 2 || d.Has("min_x") {
		t.Errorf("disturbance: %+v", d)
	}
}
