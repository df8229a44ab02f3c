package config_test

import (
	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"strings"
	"testing"
)

// TestOneNamePerBus checks that the default bus and its name are one bus
// for CAN id claims: can0 without a linux: section, else its first
// interface.
func TestOneNamePerBus(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"can0 is the default", "joints:\n  - {name: a, type: talon_srx, id: 5}\n  - {name: b, type: talon_srx, id: 5, can_bus: can0}\n",
			[]string{`r.yaml:3:36: error: talon_srx "b": CAN id (motor controllers) 5 is already used by talon_srx "a" (line 2)`}},
		{"the other way round", "joints:\n  - {name: a, type: talon_srx, id: 5, can_bus: can0}\n  - {name: b, type: talon_srx, id: 5}\n",
			[]string{`r.yaml:3:36: error: talon_srx "b": CAN id (motor controllers) 5 is already used by talon_srx "a" (line 2)`}},
		{"can1 is another bus", "joints:\n  - {name: a, type: talon_srx, id: 5}\n  - {name: b, type: talon_srx, id: 5, can_bus: can1}\n", nil},
		{"linux's first interface is the default", "linux: {can: [can1, can0]}\njoints:\n  - {name: a, type: talon_srx, id: 5}\n  - {name: b, type: talon_srx, id: 5, can_bus: can1}\n  - {name: c, type: talon_srx, id: 5, can_bus: can0}\n",
			[]string{`r.yaml:4:36: error: talon_srx "b": CAN id (motor controllers) 5 is already used by talon_srx "a" (line 3)`}},
		{"a PCM on the default bus by name", "joints:\n  - {name: a, type: solenoid, id: 1}\n  - {name: b, type: solenoid, id: 1, can_bus: can0}\n",
			[]string{`r.yaml:3:35: error: solenoid "b": channel 1 of PCM 0 is already used by solenoid "a" (line 2)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := findings(t, c.src); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	f, _ := Parse("r.yaml", []byte("linux: {can: [can3, can0]}\njoints:\n  - {name: a, type: talon_srx, id: 1, can_bus: can3}\n  - {name: b, type: talon_srx, id: 2, can_bus: can0}\n  - {name: c, type: talon_srx, id: 3}\n"))
	if got := f.DefaultCANBus(); got != "can3" {
		t.Errorf("DefaultCANBus = %q, want can3", got)
	}
	for i, want := range []string{"", "can0", ""} {
		if got := f.Devices[i].CANBus(); got != want {
			t.Errorf("%s: CANBus %q, want %q", f.Devices[i], got, want)
		}
	}
}
