package config_test

import (
	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"strings"
	"testing"
)

// TestLinuxSection: the `linux:` section's keys, defaults and checks, and
// the devices' can_bus against its interfaces.
func TestLinuxSection(t *testing.T) {
	pdp := "joints:\n  - {name: p, type: pdp, id: 0, can_bus: can1}\n"
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"absent: any can_bus", pdp, nil},
		{"listed", pdp + "linux: {can: [can0, can1], heartbeat: on, gpio: [GPIO17, '-', GPIO27]}\n", nil},
		{"can_bus not listed", pdp + "linux: {can: [can0, can2]}\n", []string{
			`r.yaml:2:42: error: pdp "p": can_bus can1 is not one of linux: can [can0, can2] (did you mean "can0"?)`}},
		{"default is can0", "joints:\n  - {name: p, type: pdp, id: 0, can_bus: can0}\nlinux: {heartbeat: off}\n", nil},
		{"bad heartbeat", "joints: []\nlinux: {heartbeat: sometimes}\n", []string{
			"r.yaml:1:9: warning: `joints:` lists no devices",
			`r.yaml:2:20: error: linux: heartbeat "sometimes" is not one of auto, on, off`}},
		{"bad names", "joints: []\nlinux: {can: [can0, can0, 'a/b', averyveryverylongname]}\n", []string{
			"r.yaml:1:9: warning: `joints:` lists no devices",
			`r.yaml:2:14: error: linux: can: "a/b" is not a network interface name (at most 15 characters, no /, : or spaces)`,
			`r.yaml:2:14: error: linux: can: "averyveryverylongname" is not a network interface name (at most 15 characters, no /, : or spaces)`,
			`r.yaml:2:21: error: linux: can: "can0" is listed twice (first at line 2)`}},
		{"pin twice", "joints: []\nlinux: {gpio: [GPIO17, '-', '-', GPIO17]}\n", []string{
			"r.yaml:1:9: warning: `joints:` lists no devices",
			`r.yaml:2:34: error: linux: gpio: "GPIO17" is listed twice (first at line 2)`}},
		{"misspelt key", "joints: []\nlinux: {cans: [can0]}\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := findings(t, c.src)
			if c.name == "misspelt key" {
				if len(got) != 2 || !strings.Contains(got[1], `unknown key "cans"`) || !strings.Contains(got[1], `did you mean "can"`) {
					t.Errorf("findings %q", got)
				}
				return
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	f, list := Parse("r.yaml", []byte("joints: []\nlinux: {can: [can1, can0], gpio: [GPIO4]}\n"))
	if list.Errors() != 0 || strings.Join(f.Linux.List("can"), ",") != "can1,can0" || f.Linux.Str("heartbeat") != "auto" || f.Linux.List("gpio")[0] != "GPIO4" {
		t.Errorf("decoded %v %v %q", f.Linux.List("can"), f.Linux.List("gpio"), f.Linux.Str("heartbeat"))
	}
	f, _ = Parse("r.yaml", []byte("joints: []\n"))
	if f.Linux == nil || f.Linux.Pos.Line != 0 || f.Linux.Str("heartbeat") != "auto" || len(f.Linux.List("can")) != 0 {
		t.Errorf("absent section: %+v", f.Linux)
	}
}
