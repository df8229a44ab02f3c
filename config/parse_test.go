package config_test

import (
	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"strings"
	"testing"
)

func findings(t *testing.T, src string) []string {
	t.Helper()
	_, list := Parse("r.yaml", []byte(src))
	list.Sort()
	var out []string
	for _, f := range list {
		out = append(out, f.String())
	}
	return out
}

func TestParseRules(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"clean", "joints:\n  - {name: arm, type: talon, id: 3}\n", nil},
		{"empty file", "", []string{"r.yaml:1:1: error: empty file: expected a `joints:` list of devices"}},
		{"only comments", "# nothing\n", []string{"r.yaml:1:1: error: empty file: expected a `joints:` list of devices"}},
		{"binary", "joints:\x00\x01", []string{"r.yaml:1:1: error: not a text file: a robot YAML file is UTF-8 text"}},
		{"bad utf8", "joints: \xff\n", []string{"r.yaml:1:1: error: not a text file: a robot YAML file is UTF-8 text"}},
		{"syntax", "joints:\n  - {name: a, type: talon\n", []string{"r.yaml:2:3: error: invalid YAML: did not find expected ',' or '}' (a '{' or '[' from here on is not closed)"}},
		// yaml.v3 names the line where the entry starts (2); the mistake is on 4.
		{"indented too little", "joints:\n  - name: a\n    type: pdp\n   id: 0\n", []string{"r.yaml:4:4: error: invalid YAML: did not find expected '-' indicator (check this line's indentation against the lines above)"}},
		{"indented too much", "joints:\n  - name: a\n    type: pdp\n      id: 0\n", []string{"r.yaml:4:9: error: invalid YAML: mapping values are not allowed in this context (a `key:` where a value goes on: check the indentation, or quote a value holding \": \")"}},
		{"a value with a colon", "joints:\n  - name: a\n    type: pdp id: 0\n", []string{"r.yaml:3:17: error: invalid YAML: mapping values are not allowed in this context (a `key:` where a value goes on: check the indentation, or quote a value holding \": \")"}},
		{"tab", "joints:\n  - name: a\n\ttype: pdp\n", []string{"r.yaml:3:1: error: invalid YAML: a tab character at 3:1; YAML indents with spaces"}},
		{"tab after spaces", "joints:\n  - name: a\n  \t  type: pdp\n", []string{"r.yaml:3:3: error: invalid YAML: a tab character at 3:3; YAML indents with spaces"}},
		{"control character in a comment", "joints:\n  - {name: a, type: pdp, id: 0} # \x01\n", []string{"r.yaml:2:35: error: invalid YAML: a control character (U+0001) at 2:35; YAML allows tabs, line breaks and printable characters only"}},
		{"top level list", "- a\n", []string{"r.yaml:1:1: error: the file must be a mapping with a `joints:` list, not a list"}},
		{"no joints", "foo: 1\n", []string{
			`r.yaml:1:1: error: no ` + "`joints:`" + ` list: every robot file lists its devices under ` + "`joints:`",
			`r.yaml:1:1: error: unknown section "foo"; known sections: joints, loop, controllers, sim, linux, nt4, op_modes, hal`}},
		{"misspelt section", "joint:\n  - {name: a, type: pdp, id: 0}\n", []string{
			"r.yaml:1:1: error: no `joints:` list: every robot file lists its devices under `joints:`",
			`r.yaml:1:1: error: unknown section "joint" (did you mean "joints"?); known sections: joints, loop, controllers, sim, linux, nt4, op_modes, hal`}},
		{"hal", "hal: roborio\njoints: []\n", []string{"r.yaml:2:9: warning: `joints:` lists no devices"}},
		{"hal not a name", "hal: [roborio]\njoints: []\n", []string{
			"r.yaml:1:6: error: hal: want the name of the controller the robot runs on, such as roborio or systemcore, not a list",
			"r.yaml:2:9: warning: `joints:` lists no devices"}},
		{"joints not a list", "joints: 3\n", []string{"r.yaml:1:9: error: `joints:` must be a list of devices, not the integer 3"}},
		{"empty list", "joints: []\n", []string{"r.yaml:1:9: warning: `joints:` lists no devices"}},
		{"entry not a mapping", "joints:\n  - talon\n", []string{`r.yaml:2:5: error: device 1: must be a mapping like {name: ..., type: ...}, not the string "talon"`}},
		{"second document", "joints: []\n---\njoints: []\n", []string{
			"r.yaml:1:9: warning: `joints:` lists no devices",
			"r.yaml:2:1: error: a second YAML document: frcd reads one document per file"}},
		{"missing name and type", "joints:\n  - {id: 3}\n", []string{
			`r.yaml:2:5: error: device 1: missing required key "name"`,
			`r.yaml:2:5: error: device 1: missing required key "type"`}},
		{"empty name", "joints:\n  - {name: '', type: pdp, id: 0}\n", []string{
			`r.yaml:2:5: error: pdp (device 1): missing required key "name"`,
			`r.yaml:2:12: error: device 1: name is empty`}},
		{"unknown type", "joints:\n  - {name: a, type: tallon, id: 3}\n", []string{`r.yaml:2:21: error: tallon "a": unknown device type "tallon" (did you mean "talon"?)`}},
		{"unknown key", "joints:\n  - {name: a, type: talon, id: 3, invertd: true}\n", []string{`r.yaml:2:35: error: talon "a": unknown key "invertd" for type talon (did you mean "inverted"?)`}},
		{"missing required", "joints:\n  - {name: a, type: encoder, ch_a: 0}\n", []string{
			`r.yaml:2:5: error: encoder "a": missing required key "ch_b" (int)`,
			`r.yaml:2:5: error: encoder "a": missing required key "dist_per_pulse" (float)`}},
		{"duplicate key", "joints:\n  - name: a\n    type: pdp\n    id: 0\n    id: 1\n", []string{`r.yaml:5:5: error: duplicate key "id" (first at line 4)`}},
		{"int as string", "joints:\n  - {name: a, type: talon, id: \"3\"}\n", []string{`r.yaml:2:32: error: talon "a": id: want an integer, got the string "3"`}},
		{"int as float", "joints:\n  - {name: a, type: talon, id: 3.0}\n", []string{`r.yaml:2:32: error: talon "a": id: want an integer, got the number 3.0`}},
		{"float from int is fine", "joints:\n  - {name: p, type: pdp, id: 0}\n  - {name: a, type: talon, id: 3, pdp_ch: 0, k_eff: 2}\n", nil},
		{"nan", "joints:\n  - {name: a, type: talon, id: 3, k_eff: .nan}\n", []string{`r.yaml:2:42: error: talon "a": k_eff: must be a finite number, not .nan`}},
		{"inf", "joints:\n  - {name: a, type: talon, id: 3, k_eff: -.inf}\n", []string{`r.yaml:2:42: error: talon "a": k_eff: must be a finite number, not -.inf`}},
		{"bool yes", "joints:\n  - {name: a, type: talon, id: 3, inverted: yes}\n", []string{`r.yaml:2:45: error: talon "a": inverted: want true or false, got the string "yes" (write true or false)`}},
		{"null value", "joints:\n  - {name: a, type: talon, id: }\n", []string{`r.yaml:2:32: error: talon "a": id: has no value; want an integer`}},
		{"mapping value", "joints:\n  - {name: a, type: talon, id: {x: 1}}\n", []string{`r.yaml:2:32: error: talon "a": id: want an integer, got a mapping`}},
		{"name not a string", "joints:\n  - {name: 5, type: pdp, id: 0}\n", []string{
			`r.yaml:2:5: error: pdp (device 1): missing required key "name"`,
			`r.yaml:2:12: error: device 1: name: want a string, got the integer 5; quote it if it is meant as a name`}},
		{"huge int", "joints:\n  - {name: a, type: talon, id: 99999999999}\n", []string{`r.yaml:2:32: error: talon "a": id: 99999999999 is out of range`}},
		{"pwm range", "joints:\n  - {name: a, type: talon, id: 20}\n", []string{`r.yaml:2:32: error: talon "a": id: PWM channel 20 is out of range 0-19`}},
		{"dio range", "joints:\n  - {name: a, type: digital_input, dio_channel: -1}\n", []string{`r.yaml:2:49: error: digital_input "a": dio_channel: DIO channel -1 is out of range 0-25`}},
		{"analog in range", "joints:\n  - {name: a, type: analog_input, ain_channel: 8, scale: 1, offset: 0}\n", []string{`r.yaml:2:48: error: analog_input "a": ain_channel: analog input channel 8 is out of range 0-7`}},
		{"analog out range", "joints:\n  - {name: a, type: analog_output, aout_channel: 2, scale: 1, offset: 0}\n", []string{`r.yaml:2:50: error: analog_output "a": aout_channel: analog output channel 2 is out of range 0-1`}},
		{"relay range", "joints:\n  - {name: a, type: relay, relay_id: 4, direction: both}\n", []string{`r.yaml:2:38: error: relay "a": relay_id: relay channel 4 is out of range 0-3`}},
		{"pcm range", "joints:\n  - {name: a, type: solenoid, id: 8}\n", []string{`r.yaml:2:35: error: solenoid "a": id: channel 8 is out of range 0-7 of a ctre_pcm`}},
		{"ph range", "joints:\n  - {name: a, type: solenoid, id: 15, module_type: rev_ph}\n  - {name: b, type: solenoid, id: 16, module_type: rev_ph}\n", []string{`r.yaml:3:35: error: solenoid "b": id: pneumatics channel 16 is out of range 0-15`}},
		{"double solenoid on a ph", "joints:\n  - {name: a, type: double_solenoid, forward_id: 9, reverse_id: 8, module_type: rev_ph, pcm_id: 2}\n  - {name: b, type: double_solenoid, forward_id: 9, reverse_id: 8}\n", []string{`r.yaml:3:50: error: double_solenoid "b": forward_id: channel 9 is out of range 0-7 of a ctre_pcm`, `r.yaml:3:65: error: double_solenoid "b": reverse_id: channel 8 is out of range 0-7 of a ctre_pcm`}},
		{"module type enum", "joints:\n  - {name: a, type: solenoid, id: 1, module_type: rev_pcm}\n", []string{`r.yaml:2:51: error: solenoid "a": module_type "rev_pcm" is not one of ctre_pcm, rev_ph (did you mean "rev_ph"?)`}},
		{"channels per module", "joints:\n  - {name: a, type: solenoid, id: 1}\n  - {name: b, type: solenoid, id: 1, module_type: rev_ph}\n  - {name: c, type: solenoid, id: 1, pcm_id: 1}\n  - {name: d, type: solenoid, id: 1, can_bus: can1}\n  - {name: e, type: solenoid, id: 1, module_type: rev_ph, pcm_id: 1}\n", []string{`r.yaml:6:35: error: solenoid "e": channel 1 of PH 1 is already used by solenoid "b" (line 3)`}},
		{"one compressor per hub", "joints:\n  - {name: a, type: compressor, module_type: rev_ph}\n  - {name: b, type: compressor, module_type: rev_ph, pcm_id: 1}\n  - {name: c, type: compressor, module_type: rev_ph, pcm_id: 1, can_bus: can1}\n", []string{`r.yaml:3:62: error: compressor "b": the compressor of PH 1 is already used by compressor "a" (line 2)`}},
		{"can ids per bus", "joints:\n  - {name: a, type: pdp, id: 0}\n  - {name: b, type: pdp, id: 0, can_bus: can1}\n  - {name: c, type: pdp, id: 0, can_bus: can1}\n  - {name: d, type: talon_srx, id: 3}\n  - {name: e, type: talon_srx, id: 3, can_bus: can1}\n  - {name: f, type: rev_pdh, id: 0}\n", []string{
			`r.yaml:4:30: error: pdp "c": CAN id (power distribution) 0 on CAN bus "can1" is already used by pdp "b" (line 3)`,
			`r.yaml:7:34: error: rev_pdh "f": CAN id (power distribution) 0 is already used by pdp "a" (line 2)`, `r.yaml:7:34: error: rev_pdh "f": REV devices take CAN ids 1-62, not 0`}},
		{"rev ids", "joints:\n  - {name: a, type: rev_pdh, id: 0}\n  - {name: b, type: rev_ph, id: 0}\n  - {name: c, type: rev_ph, id: 1}\n  - {name: d, type: rev_ph, id: 1}\n", []string{
			`r.yaml:2:34: error: rev_pdh "a": REV devices take CAN ids 1-62, not 0`,
			`r.yaml:3:33: error: rev_ph "b": REV devices take CAN ids 1-62, not 0`,
			`r.yaml:5:33: error: rev_ph "d": CAN id (pneumatics hubs) 1 is already used by rev_ph "c" (line 4)`}},
		{"can faults", "joints:\n  - {name: p, type: pdp, id: 0}\n  - {name: g, type: pigeon_imu, frame_id: b, talon: t}\n  - {name: t, type: talon_srx, id: 1}\n  - {name: e, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 1}\nsim:\n  can_faults:\n    - {name: p, from: 1, until: 2}\n    - {name: t}\n    - {name: g}\n    - {name: e}\n    - {name: q}\n    - {name: p, from: 3, until: 3}\n", []string{
			`r.yaml:10:14: error: sim CAN fault "g": is a pigeon_imu, not a device on the CAN bus`,
			`r.yaml:11:14: error: sim CAN fault "e": is an encoder, not a device on the CAN bus`,
			`r.yaml:12:14: error: sim CAN fault "q": names no device (did you mean "g"?)`,
			`r.yaml:13:33: error: sim CAN fault "p": until (3 s) must be after from (3 s)`}},
		{"pdh channels", "joints:\n  - {name: p, type: rev_pdh, id: 1}\n  - {name: a, type: talon, id: 1, pdp_ch: 23}\n  - {name: b, type: talon, id: 2, pdp_ch: 24}\n", []string{`r.yaml:4:43: error: talon "b": pdp_ch: PDP channel 24 is out of range 0-23`}},
		{"pcm id range", "joints:\n  - {name: a, type: solenoid, id: 1, pcm_id: 63}\n", []string{`r.yaml:2:46: error: solenoid "a": pcm_id: 63 is out of range 0-62`}},
		{"can range", "joints:\n  - {name: a, type: talon_srx, id: 63}\n", []string{`r.yaml:2:36: error: talon_srx "a": id: CAN id (motor controllers) 63 is out of range 0-62`}},
		{"pdp ch range", "joints:\n  - {name: p, type: pdp, id: 0}\n  - {name: a, type: talon, id: 1, pdp_ch: 16}\n", []string{`r.yaml:3:43: error: talon "a": pdp_ch: channel 16 is out of range 0-15 of the PDP "p" (a REV PDH has 0-23)`}},
		{"encoding", "joints:\n  - {name: e, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.1, encoding: 3}\n", []string{`r.yaml:2:79: error: encoder "e": encoding "3" is not one of 1, 2, 4`}},
		{"zero dist per pulse", "joints:\n  - {name: e, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0}\n", []string{`r.yaml:2:64: error: encoder "e": dist_per_pulse must not be 0`}},
		{"encoder same channels", "joints:\n  - {name: e, type: encoder, ch_a: 4, ch_b: 4, dist_per_pulse: 0.1}\n", []string{`r.yaml:2:45: error: encoder "e": ch_a and ch_b are both DIO 4; an encoder needs two channels`}},
		{"relay direction", "joints:\n  - {name: r, type: relay, relay_id: 0, direction: forwrd}\n", []string{`r.yaml:2:52: error: relay "r": direction "forwrd" is not one of both, forward, reverse (did you mean "forward"?)`}},
		{"navx interface", "joints:\n  - {name: n, type: navx, frame_id: b, interface: usb, id: 0}\n", []string{`r.yaml:2:51: error: navx "n": interface "usb" is not one of spi, serial, i2c`}},
		{"navx i2c port", "joints:\n  - {name: n, type: navx, frame_id: b, interface: i2c, id: 2}\n", []string{`r.yaml:2:60: error: navx "n": i2c port 2 is out of range 0-1`}},
		{"navx same port", "joints:\n  - {name: n, type: navx, frame_id: b, interface: spi, id: 4}\n  - {name: m, type: navx, frame_id: b, interface: spi, id: 4}\n", []string{`r.yaml:3:60: error: navx "m": spi port 4 is already used by navx "n" (line 2)`}},
		{"navx spi and i2c may share a number", "joints:\n  - {name: n, type: navx, frame_id: b, interface: spi, id: 1}\n  - {name: m, type: navx, frame_id: b, interface: i2c, id: 1}\n", nil},
		{"navx linux spi", "joints:\n  - {name: n, type: navx, frame_id: b, interface: spi, bus: 1, chip_select: 2}\n  - {name: m, type: navx, frame_id: b, interface: i2c, bus: 1}\n  - {name: o, type: navx, frame_id: b, interface: spi, id: 1}\n", nil},
		{"navx neither id nor bus", "joints:\n  - {name: n, type: navx, frame_id: b, interface: spi}\n", []string{`r.yaml:2:5: error: navx "n": needs id (its roboRIO spi port, 0-4) or bus (its Linux spi bus on a coprocessor)`}},
		{"navx id and bus", "joints:\n  - {name: n, type: navx, frame_id: b, interface: i2c, id: 0, bus: 1}\n", []string{`r.yaml:2:63: error: navx "n": give id (a roboRIO i2c port) or bus (a Linux i2c bus on a coprocessor), not both`}},
		{"navx chip select without bus", "joints:\n  - {name: n, type: navx, frame_id: b, interface: spi, id: 0, chip_select: 1}\n", []string{`r.yaml:2:63: error: navx "n": chip_select is for a navX on a Linux SPI bus (interface: spi with bus)`}},
		{"navx chip select on i2c", "joints:\n  - {name: n, type: navx, frame_id: b, interface: i2c, bus: 1, chip_select: 1}\n", []string{`r.yaml:2:64: error: navx "n": chip_select is for a navX on a Linux SPI bus (interface: spi with bus)`}},
		{"navx serial bus", "joints:\n  - {name: n, type: navx, frame_id: b, interface: serial, bus: 0}\n", []string{`r.yaml:2:59: error: navx "n": a navX on serial has no Linux bus: connect it by spi or i2c`}},
		{"navx same linux bus", "joints:\n  - {name: n, type: navx, frame_id: b, interface: spi, bus: 0}\n  - {name: m, type: navx, frame_id: b, interface: spi, bus: 0, chip_select: 0}\n", []string{`r.yaml:3:61: error: navx "m": /dev/spidev0.0 is already used by navx "n" (line 2)`}},
		{"pigeon neither", "joints:\n  - {name: p, type: pigeon_imu, frame_id: b}\n", []string{`r.yaml:2:5: error: pigeon_imu "p": needs id (its CAN id) or talon (the Talon SRX it is plugged into)`}},
		{"pigeon both", "joints:\n  - {name: t, type: talon_srx, id: 1}\n  - {name: p, type: pigeon_imu, frame_id: b, id: 1, talon: t}\n", []string{`r.yaml:3:53: error: pigeon_imu "p": give either id (on CAN) or talon (on a Talon SRX), not both`}},
		{"pigeon talon missing", "joints:\n  - {name: left, type: talon_srx, id: 1}\n  - {name: p, type: pigeon_imu, frame_id: b, talon: lefft}\n", []string{`r.yaml:3:53: error: pigeon_imu "p": talon "lefft" names no device (did you mean "left"?)`}},
		{"pigeon on a PWM talon", "joints:\n  - {name: left, type: talon, id: 1}\n  - {name: p, type: pigeon_imu, frame_id: b, talon: left}\n", []string{`r.yaml:3:53: error: pigeon_imu "p": talon "left" is a talon, not a talon_srx`}},
		{"pigeon can id apart from motor ids", "joints:\n  - {name: t, type: talon_srx, id: 1}\n  - {name: p, type: pigeon_imu, frame_id: b, id: 1}\n", nil},
		{"duplicate name", "joints:\n  - {name: a, type: talon, id: 1}\n  - {name: a, type: spark, id: 2}\n", []string{`r.yaml:3:12: error: spark "a": name "a" is already used by talon "a" (line 2)`}},
		{"pwm twice", "joints:\n  - {name: a, type: talon, id: 1}\n  - {name: b, type: servo, id: 1}\n", []string{`r.yaml:3:32: error: servo "b": PWM channel 1 is already used by talon "a" (line 2)`}},
		{"encoder collides with digital input", "joints:\n  - {name: s, type: digital_input, dio_channel: 5}\n  - {name: e, type: encoder, ch_a: 4, ch_b: 5, dist_per_pulse: 0.1}\n", []string{`r.yaml:3:45: error: encoder "e": DIO channel 5 is already used by digital_input "s" (line 2)`}},
		{"nidec dio collides", "joints:\n  - {name: s, type: digital_output, dio_channel: 9}\n  - {name: n, type: nidec, id: 0, dio_channel: 9}\n", []string{`r.yaml:3:48: error: nidec "n": DIO channel 9 is already used by digital_output "s" (line 2)`}},
		{"can motor ids shared by talon_srx and victor spx", "joints:\n  - {name: a, type: talon_srx, id: 3}\n  - {name: b, type: can_victor_spx, id: 3}\n", []string{`r.yaml:3:41: error: can_victor_spx "b": CAN id (motor controllers) 3 is already used by talon_srx "a" (line 2)`}},
		{"pdp ids", "joints:\n  - {name: a, type: pdp, id: 0}\n  - {name: b, type: pdp, id: 0}\n", []string{`r.yaml:3:30: error: pdp "b": CAN id (power distribution) 0 is already used by pdp "a" (line 2)`}},
		{"pcm channel per pcm", "joints:\n  - {name: a, type: solenoid, id: 1}\n  - {name: b, type: double_solenoid, forward_id: 2, reverse_id: 1}\n  - {name: c, type: solenoid, id: 1, pcm_id: 1}\n", []string{`r.yaml:3:65: error: double_solenoid "b": channel 1 of PCM 0 is already used by solenoid "a" (line 2)`}},
		{"double solenoid same channel", "joints:\n  - {name: b, type: double_solenoid, forward_id: 2, reverse_id: 2}\n", []string{`r.yaml:2:65: error: double_solenoid "b": forward_id and reverse_id are both PCM channel 2`}},
		{"two compressors on a pcm", "joints:\n  - {name: a, type: compressor}\n  - {name: b, type: compressor, pcm_id: 0}\n", []string{`r.yaml:3:41: error: compressor "b": the compressor of PCM 0 is already used by compressor "a" (line 2)`}},
		{"relay twice", "joints:\n  - {name: a, type: relay, relay_id: 1, direction: both}\n  - {name: b, type: relay, relay_id: 1, direction: forward}\n", []string{`r.yaml:3:38: error: relay "b": relay channel 1 is already used by relay "a" (line 2)`}},
		{"analog in twice", "joints:\n  - {name: a, type: analog_input, ain_channel: 1, scale: 1, offset: 0}\n  - {name: b, type: analog_input, ain_channel: 1, scale: 1, offset: 0}\n", []string{`r.yaml:3:48: error: analog_input "b": analog input channel 1 is already used by analog_input "a" (line 2)`}},
		{"analog out twice", "joints:\n  - {name: a, type: analog_output, aout_channel: 1, scale: 1, offset: 0}\n  - {name: b, type: analog_output, aout_channel: 1, scale: 1, offset: 0}\n", []string{`r.yaml:3:50: error: analog_output "b": analog output channel 1 is already used by analog_output "a" (line 2)`}},
		{"mxp pwm on a dio pin", "joints:\n  - {name: s, type: digital_input, dio_channel: 18}\n  - {name: a, type: spark, id: 14}\n", []string{`r.yaml:3:32: error: spark "a": PWM channel 14 is on the MXP pin of DIO channel 18, which is already used by digital_input "s" (line 2)`}},
		{"mxp dio on a pwm pin", "joints:\n  - {name: a, type: spark, id: 10}\n  - {name: s, type: digital_input, dio_channel: 10}\n", []string{`r.yaml:3:49: error: digital_input "s": DIO channel 10 is on the MXP pin of PWM channel 10, which is already used by spark "a" (line 2)`}},
		{"mxp pwm and spi dio pins apart", "joints:\n  - {name: a, type: spark, id: 14}\n  - {name: s, type: digital_input, dio_channel: 14}\n  - {name: b, type: spark, id: 9}\n  - {name: t, type: digital_input, dio_channel: 9}\n", nil},
		{"accumulator channel", "joints:\n  - {name: a, type: analog_input, ain_channel: 3, scale: 1, offset: 0, accumulator: true}\n", []string{`r.yaml:2:85: error: analog_input "a": the roboRIO has accumulators on analog inputs 0 and 1 only, not on 3`}},
		{"pdp channel twice", "joints:\n  - {name: p, type: pdp, id: 0}\n  - {name: a, type: talon, id: 1, pdp_ch: 4}\n  - {name: b, type: spark, id: 2, pdp_ch: 4}\n", []string{`r.yaml:4:43: error: spark "b": channel 4 of PDP "p" is already used by talon "a" (line 3)`}},
		{"pdp channel on two pdps", "joints:\n  - {name: p, type: pdp, id: 0}\n  - {name: q, type: pdp, id: 1}\n  - {name: a, type: talon, id: 1, pdp_ch: 4}\n  - {name: b, type: spark, id: 2, pdp: q, pdp_ch: 4}\n", nil},
		{"pdp_ch without a pdp", "joints:\n  - {name: a, type: talon, id: 1, pdp_ch: 4}\n", []string{`r.yaml:2:35: error: talon "a": pdp_ch needs a PDP: add a pdp with id 0 or a rev_pdh with id 1 (the defaults), or name one with pdp`}},
		{"pdp default is id 0 only", "joints:\n  - {name: p, type: pdp, id: 1}\n  - {name: a, type: talon, id: 1, pdp_ch: 4}\n", []string{`r.yaml:3:35: error: talon "a": pdp_ch needs a PDP: add a pdp with id 0 or a rev_pdh with id 1 (the defaults), or name one with pdp`}},
		{"pdp names a motor", "joints:\n  - {name: m, type: spark, id: 0}\n  - {name: a, type: talon, id: 1, pdp: m, pdp_ch: 4}\n", []string{`r.yaml:3:40: error: talon "a": pdp "m" is a spark, not a pdp or a rev_pdh`}},
		{"k_eff without pdp_ch", "joints:\n  - {name: a, type: talon, id: 1, k_eff: 2}\n", []string{`r.yaml:2:35: warning: talon "a": k_eff has no effect without pdp_ch`}},
		{"servo pulses", "joints:\n  - {name: s, type: servo, id: 1, min_pulse_us: 2000, max_pulse_us: 1000}\n", []string{`r.yaml:2:69: error: servo "s": max_pulse_us (1000) must be greater than min_pulse_us (2000)`}},
		{"limit enum", "joints:\n  - {name: s, type: digital_input, dio_channel: 1, limit: top}\n", []string{`r.yaml:2:59: error: digital_input "s": limit "top" is not one of lower, upper`}},
		{"merge keys and anchors", "x-base: &b {type: talon, pdp_ch: 1}\njoints:\n  - {name: p, type: pdp, id: 0}\n  - {<<: *b, name: a, id: 1}\n  - {<<: *b, name: c, id: 2}\n", []string{`r.yaml:1:34: error: talon "c": channel 1 of PDP "p" is already used by talon "a" (line 4)`}},
		{"merged key overridden", "x-base: &b {type: talon, pdp_ch: 1}\njoints:\n  - {name: p, type: pdp, id: 0}\n  - {<<: *b, name: a, id: 1}\n  - {<<: *b, name: c, id: 2, pdp_ch: 2}\n", nil},
		{"bad merge", "joints:\n  - {<<: 3, name: a, type: pdp, id: 0}\n", []string{"r.yaml:2:10: error: a `<<` merge takes a mapping or a list of mappings, not the integer 3"}},
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

func TestDefaultsAndAccessors(t *testing.T) {
	src := `joints:
  - {name: pdp0, type: pdp, id: 0}
  - {name: arm, type: talon, id: 3, pdp_ch: 2}
  - {name: enc, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.5}
  - {name: srv, type: servo, id: 4}
  - {name: pot, type: analog_input, ain_channel: 0, scale: 2, offset: -1}
  - {name: comp, type: compressor}
  - {name: sol, type: double_solenoid, forward_id: 0, reverse_id: 1}
`
	f, list := Parse("r.yaml", []byte(src))
	if len(list) != 0 {
		t.Fatalf("findings: %v", list)
	}
	arm := f.Device("arm")
	if arm == nil || arm.Type != Lookup("talon") {
		t.Fatalf("arm = %v", arm)
	}
	if arm.Int("id") != 3 || arm.Bool("inverted") || arm.Float("k_eff") != 1.0 || arm.Int("pdp_ch") != 2 {
		t.Errorf("talon values: id %d inverted %v k_eff %g pdp_ch %d", arm.Int("id"), arm.Bool("inverted"), arm.Float("k_eff"), arm.Int("pdp_ch"))
	}
	if arm.Has("k_eff") || !arm.Has("pdp_ch") {
		t.Errorf("Has: k_eff %v pdp_ch %v", arm.Has("k_eff"), arm.Has("pdp_ch"))
	}
	if got := arm.Ref("pdp"); got != f.Device("pdp0") {
		t.Errorf("default pdp = %v, want pdp0", got)
	}
	if v, _ := arm.Value("id"); v.Pos.Line != 3 || v.Pos.Col != 34 || v.KeyPos.Col != 30 {
		t.Errorf("id positions: value %v key %v", v.Pos, v.KeyPos)
	}
	if enc := f.Device("enc"); enc.Int("encoding") != 4 || enc.Float("dist_per_pulse") != 0.5 || enc.Bool("inverted") {
		t.Errorf("encoder defaults: encoding %d", enc.Int("encoding"))
	}
	if srv := f.Device("srv"); srv.Int("min_pulse_us") != 600 || srv.Int("max_pulse_us") != 2400 || srv.Float("min_angle") != 0 || srv.Float("max_angle") < 3.14159 {
		t.Errorf("servo defaults wrong")
	}
	if pot := f.Device("pot"); pot.Int("average_bits") != 7 || pot.Int("oversample_bits") != 0 || pot.Bool("accumulator") || pot.Float("offset") != -1 {
		t.Errorf("analog defaults wrong")
	}
	if f.Device("comp").Int("pcm_id") != 0 || f.Device("sol").Int("pcm_id") != 0 {
		t.Errorf("pcm_id default wrong")
	}
	if got := strings.Join(f.Names(), ","); got != "pdp0,arm,enc,srv,pot,comp,sol" {
		t.Errorf("Names = %s", got)
	}
	if f.Device("nope") != nil {
		t.Errorf("Device(nope) != nil")
	}
}

func TestUnknownTypeKeptForNameChecks(t *testing.T) {
	f, list := Parse("r.yaml", []byte("joints:\n  - {name: a, type: nope}\n"))
	if len(list) != 1 || len(f.Devices) != 1 || f.Devices[0].Type != nil || f.Devices[0].Name != "a" {
		t.Fatalf("devices %v findings %v", f.Devices, list)
	}
}

// Every type's documented example must parse clean, with the devices it
// refers to beside it.
func TestTypeExamplesParse(t *testing.T) {
	for _, ty := range Types() {
		src := "joints:\n  - " + ty.ExampleEntry() + "\n"
		if ty.Name == "pigeon_imu" {
			src += "  - {name: left_front_wheel_joint, type: talon_srx, id: 1}\n"
		}
		_, list := Parse("r.yaml", []byte(src))
		if len(list) != 0 {
			t.Errorf("%s example %s: %v", ty.Name, ty.ExampleEntry(), list)
		}
	}
}

// The spec's tables, key by key: a change to a required key or default
// must be deliberate. (Types beyond the spec's may be added freely.)
func TestSpecKeys(t *testing.T) {
	const can = " can_bus=the backend's default bus (can0 on Linux) required=false" // every CAN device
	want := map[string]string{
		"analog_input":    "ain_channel! scale! offset! average_bits=7 oversample_bits=0 accumulator=false joint",
		"digital_input":   "dio_channel! inverted=false limit joint",
		"encoder":         "ch_a! ch_b! dist_per_pulse! inverted=false encoding=4 joint",
		"pigeon_imu":      "frame_id! id talon" + can,
		"navx":            "frame_id! interface! id bus chip_select=0",
		"analog_output":   "aout_channel! scale! offset!",
		"digital_output":  "dio_channel! inverted=false",
		"double_solenoid": "forward_id! reverse_id! pcm_id=0 for a ctre_pcm, 1 for a rev_ph module_type=ctre_pcm" + can,
		"relay":           "relay_id! direction!",
		"servo":           "id! min_angle=0.0 max_angle=3.141592653589793 min_pulse_us=600 max_pulse_us=2400",
		"solenoid":        "id! pcm_id=0 for a ctre_pcm, 1 for a rev_ph module_type=ctre_pcm" + can,
		"compressor":      "pcm_id=0 for a ctre_pcm, 1 for a rev_ph module_type=ctre_pcm" + can,
		"pdp":             "id!" + can,
		"rev_pdh":         "id!" + can,
		"rev_ph":          "id!" + can,
		"built_in_accel":  "frame_id! range=8",
	}
	speed := "id! inverted=false pdp=the PDP with id 0, else the PDH with id 1 pdp_ch k_eff=1.0"
	for _, n := range []string{"dmc60", "jaguar", "pwm_talon_srx", "pwm_victor_spx", "sd540", "spark", "talon", "victor", "victor_sp", "can_victor_spx", "talon_srx"} {
		want[n] = speed
	}
	want["nidec"] = speed + " dio_channel!"
	// beyond the spec: the vendors' neutral mode and (Talon SRX) current
	// limits, keys of their own after the spec's
	want["can_victor_spx"] = speed + can + " neutral_mode=device"
	want["talon_srx"] = speed + can + " neutral_mode=device current_limit_enable=false peak_current_limit=1 peak_current_duration=1 continuous_current_limit=1"
	for name, keys := range want {
		ty := Lookup(name)
		if ty == nil {
			t.Errorf("type %s missing", name)
			continue
		}
		var got []string
		for _, k := range ty.Keys {
			s := k.Name
			if k.Required {
				s += "!"
			} else if d := k.DefaultString(); d != "" {
				s += "=" + d
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != keys {
			t.Errorf("%s keys:\n got %s\nwant %s", name, strings.Join(got, " "), keys)
		}
	}
}
