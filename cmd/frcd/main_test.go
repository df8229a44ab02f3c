package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with the file, or rewrites the file with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/frcd -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./cmd/frcd -update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func runFrcd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestValidateGolden runs `frcd validate` on each broken robot under
// testdata/validate and compares its text and JSON output and exit status
// with the golden files there.
func TestValidateGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/validate/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var extra []string
			if b, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
				extra = strings.Fields(string(b))
			}
			files := []string{filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")}
			code, out, errOut := runFrcd(append(append([]string{"validate"}, extra...), files...)...)
			if errOut != "" {
				t.Errorf("stderr: %s", errOut)
			}
			golden(t, filepath.Join(dir, "want.txt"), "exit "+itoa(code)+"\n"+out)
			jcode, jout, _ := runFrcd(append(append([]string{"validate", "--json"}, extra...), files...)...)
			if jcode != code {
				t.Errorf("--json exit %d, text exit %d", jcode, code)
			}
			var rep struct {
				Findings []map[string]any `json:"findings"`
				Errors   int              `json:"errors"`
			}
			if err := json.Unmarshal([]byte(jout), &rep); err != nil {
				t.Fatalf("--json output is not JSON: %v\n%s", err, jout)
			}
			if (rep.Errors > 0) != (code != 0) {
				t.Errorf("json errors %d but exit %d", rep.Errors, code)
			}
			golden(t, filepath.Join(dir, "want.json"), jout)
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The examples must validate clean, even with --strict, and must pass
// Debian's check_urdf: our <sensor> extension must not break a stock URDF
// parser.
func TestExamples(t *testing.T) {
	dirs, _ := filepath.Glob("../../examples/*")
	if len(dirs) < 2 {
		t.Fatalf("examples missing: %v", dirs)
	}
	checkURDF, lookErr := exec.LookPath("check_urdf")
	for _, dir := range dirs {
		urdfPath, yamlPath := filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")
		code, out, errOut := runFrcd("validate", "--strict", urdfPath, yamlPath)
		if code != 0 || !strings.Contains(out, ": ok, ") || errOut != "" {
			t.Errorf("%s: frcd validate --strict exit %d:\n%s%s", dir, code, out, errOut)
		}
		if lookErr != nil {
			if os.Getenv("FRCD_REQUIRE_TOOLS") != "" {
				t.Fatalf("check_urdf not found (make deps installs liburdfdom-tools): %v", lookErr)
			}
			t.Logf("check_urdf not installed; skipping it for %s (make test installs it)", dir)
			continue
		}
		cmd := exec.Command(checkURDF, urdfPath)
		b, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(b), "Successfully Parsed XML") {
			t.Errorf("check_urdf %s: %v\n%s", urdfPath, err, b)
		}
	}
}

// specTypes are the spec's device types (seeds/001), and the REV hubs:
// the competition robot uses each at least once, the REV robot the REV
// hubs. Types added later need not appear in the examples.
var specTypes = []string{"analog_input", "digital_input", "encoder", "pigeon_imu", "navx", "analog_output", "digital_output",
	"double_solenoid", "relay", "servo", "solenoid", "compressor", "pdp", "rev_pdh", "rev_ph", "dmc60", "jaguar",
	"pwm_talon_srx", "pwm_victor_spx", "sd540", "spark", "talon", "victor", "victor_sp", "nidec", "can_victor_spx", "talon_srx"}

func TestCompetitionUsesEveryType(t *testing.T) {
	used := map[string]bool{}
	for _, ex := range []string{"competition", "rev"} {
		data, err := os.ReadFile("../../examples/" + ex + "/robot.yaml")
		if err != nil {
			t.Fatal(err)
		}
		f, list := config.Parse("robot.yaml", data)
		if len(list) != 0 {
			t.Fatalf("%s findings: %v", ex, list)
		}
		for _, d := range f.Devices {
			used[d.TypeName] = true
		}
	}
	for _, n := range specTypes {
		if config.Lookup(n) == nil {
			t.Errorf("the spec's type %s is not registered", n)
		}
		if !used[n] {
			t.Errorf("the competition and REV robots do not use %s", n)
		}
	}
}

// validate, describe and schema cover the REV types; validate reports
// their mistakes with positions.
func TestREVTypes(t *testing.T) {
	for _, typ := range []string{"rev_pdh", "rev_ph", "sim_can_fault"} {
		if code, out, _ := runFrcd("describe", typ); code != 0 || !strings.Contains(out, typ+": ") || !strings.Contains(out, "Example:") {
			t.Errorf("describe %s: exit %d\n%s", typ, code, out)
		}
	}
	if code, out, _ := runFrcd("describe", "solenoid"); code != 0 || !strings.Contains(out, "module_type") || !strings.Contains(out, "rev_ph") {
		t.Errorf("describe solenoid: exit %d\n%s", code, out)
	}
	code, out, _ := runFrcd("schema")
	for _, want := range []string{`"rev_pdh"`, `"rev_ph"`, `"module_type"`, `"can_faults"`} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("schema: exit %d, no %s", code, want)
		}
	}
	dir := t.TempDir()
	y := filepath.Join(dir, "robot.yaml")
	bad := "joints:\n  - {name: pdh, type: rev_pdh, id: 0}\n  - {name: latch_joint, type: solenoid, id: 16, module_type: rev_ph}\n" +
		"  - {name: arm_joint, type: talon_srx, id: 1, pdp: pdh, pdp_ch: 24}\n"
	if err := os.WriteFile(y, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runFrcd("validate", "../../examples/rev/robot.urdf", y)
	all := out + errOut
	for _, want := range []string{"robot.yaml:2:36: error: rev_pdh \"pdh\": REV devices take CAN ids 1-62, not 0", "robot.yaml:3:45: error: solenoid \"latch_joint\": id: pneumatics channel 16 is out of range 0-15", "pdp_ch: PDP channel 24 is out of range 0-23"} {
		if code == 0 || !strings.Contains(all, want) {
			t.Errorf("validate: exit %d, no %q in\n%s", code, want, all)
		}
	}
}

func TestDescribe(t *testing.T) {
	code, out, _ := runFrcd("describe", "talon")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"talon: A CTRE Talon", "KEY", "id ", "int", "yes", "PWM channel 0-19", "inverted", "false", "pdp", "the PDP with id 0", "pdp_ch", "k_eff", "1.0", "N·m/A", "Example:"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe talon lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runFrcd("describe")
	if code != 0 || !strings.Contains(out, "speed controllers:") || !strings.Contains(out, "  navx ") {
		t.Errorf("describe: exit %d\n%s", code, out)
	}
	code, _, errOut := runFrcd("describe", "tallon")
	if code != 2 || !strings.Contains(errOut, `unknown device type "tallon" (did you mean "talon"?)`) {
		t.Errorf("describe tallon: exit %d, %s", code, errOut)
	}
}

// `frcd describe` lists each motor controller's neutral mode and current
// limit keys in its vendor's terms, with the vendor's default and range
// (issue 42: "frcd describe lists the keys").
func TestDescribeCurrentLimitKeys(t *testing.T) {
	for typ, want := range map[string][]string{
		"talon_fx": {"neutral_mode", "coast", "stator_current_limit", "120.0", "(0-800)", "stator_current_limit_enable",
			"supply_current_limit", "70.0", "supply_current_limit_enable", "supply_current_lower_limit", "40.0", "(0-500)",
			"supply_current_lower_time", "(0-5)"},
		"talon_srx":      {"neutral_mode", "device", "current_limit_enable", "peak_current_limit", "peak_current_duration", "continuous_current_limit", "(0-300)", "(0-60000)"},
		"can_victor_spx": {"neutral_mode", "device"},
		"spark_max": {"neutral_mode", "coast", "smart_current_limit", "80", "smart_current_free_limit", "20", "smart_current_rpm", "10000",
			"secondary_current_limit", "115.0", "(0-125)", "secondary_current_limit_cycles"},
		"spark_flex": {"smart_current_limit", "secondary_current_limit", "(0-125)"},
	} {
		code, out, _ := runFrcd("describe", typ)
		if code != 0 {
			t.Fatalf("describe %s: exit %d", typ, code)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("describe %s lacks %q:\n%s", typ, w, out)
			}
		}
	}
	if _, out, _ := runFrcd("describe", "can_victor_spx"); strings.Contains(out, "current_limit") {
		t.Errorf("a Victor SPX measures no current: describe lists a limit:\n%s", out)
	}
}

func TestUsageAndVersion(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string // in stdout or stderr
	}{
		{nil, 2, "Usage:"},
		{[]string{"help"}, 0, "frcd validate"},
		{[]string{"validat"}, 2, `unknown command "validat" (did you mean "validate"?)`},
		{[]string{"validate", "only.urdf"}, 2, "usage: frcd validate"},
		{[]string{"validate", "--bogus", "a", "b"}, 2, "flag provided but not defined"},
		{[]string{"schema", "extra"}, 2, "usage: frcd schema"},
		{[]string{"version"}, 0, "frcd dev ("},
	}
	for _, c := range cases {
		code, out, errOut := runFrcd(c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.out) {
			t.Errorf("frcd %v: exit %d, want %d; output lacks %q:\n%s%s", c.args, code, c.code, c.out, out, errOut)
		}
	}
}

// Flags may follow the files, and the files may come in either order.
func TestValidateArgumentOrder(t *testing.T) {
	u, y := "../../examples/minimal/robot.urdf", "../../examples/minimal/robot.yaml"
	for _, args := range [][]string{{"validate", u, y, "--json"}, {"validate", "--json", y, u}} {
		code, out, _ := runFrcd(args...)
		if code != 0 || !strings.Contains(out, `"errors": 0`) {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}

func TestSchemaCommand(t *testing.T) {
	code, out, _ := runFrcd("schema")
	var s map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil || s["$schema"] == nil {
		t.Fatalf("schema: exit %d\n%.200s", code, out)
	}
}

// validate --hal warns about each device the backend cannot run: on a
// coprocessor everything but DIO, CAN frames and Linux buses (and CTRE's
// devices in a build without -tags ctre); the sim runs everything; on the
// roboRIO the CTRE devices run only with CTRE's libraries deployed.
func TestValidateHAL(t *testing.T) {
	u, y := "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"
	count := func(hal string) (int, string) {
		code, out, errOut := runFrcd("validate", "--hal", hal, u, y)
		if code != 0 {
			t.Fatalf("--hal %s: exit %d\n%s%s", hal, code, out, errOut)
		}
		return strings.Count(out, "backend cannot run it"), out
	}
	if n, out := count("sim"); n != 0 || strings.Contains(out, "deploy/ctre.md") {
		t.Errorf("--hal sim: %d warnings\n%s", n, out)
	}
	n, out := count("roborio")
	if n != 0 {
		t.Errorf("--hal roborio: %d devices it cannot run\n%s", n, out)
	}
	for _, want := range []string{
		`talon_srx "left_front_wheel_joint": the roborio backend runs it only with CTRE's libraries deployed (vendor-library CAN motor controllers; see deploy/ctre.md)`,
		`pigeon_imu "pigeon": the roborio backend runs it only with CTRE's libraries deployed (vendor-library Pigeon IMUs; see deploy/ctre.md)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--hal roborio lacks %q\n%s", want, out)
		}
	}
	if strings.Contains(out, `spark "right_front_wheel_joint": the roborio`) {
		t.Errorf("--hal roborio warns about a PWM controller\n%s", out)
	}
	if m, out := count("linux"); m == 0 || !strings.Contains(out, `spark "right_front_wheel_joint": the linux backend cannot run it: it has no PWM outputs`) ||
		strings.Contains(out, `pdp "pdp": the linux`) {
		t.Errorf("--hal linux: %d warnings (roborio %d)\n%s", m, n, out)
	}
	if code, _, errOut := runFrcd("validate", "--hal", "robrio", u, y); code != 2 || !strings.Contains(errOut, `did you mean "roborio"`) {
		t.Errorf("--hal robrio: exit %d\n%s", code, errOut)
	}
}

// A robot YAML's `hal:` names its controller: plain validate checks for
// that hardware as --hal would (an addressable LED on a roboRIO, which
// frcd's roborio backend cannot run), --hal overrides it (with a note), and a name
// no backend has is an error at the key's value.
func TestValidateFileHAL(t *testing.T) {
	dir := t.TempDir()
	u := filepath.Join(dir, "robot.urdf")
	data, err := os.ReadFile("../../examples/minimal/robot.urdf")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(u, data, 0o644); err != nil {
		t.Fatal(err)
	}
	robotYAML := func(hal string) string {
		y := filepath.Join(dir, "robot.yaml")
		body := "joints:\n  - {name: pdp, type: pdp, id: 0}\n  - {name: arm_joint, type: talon, id: 0, pdp_ch: 4}\n" +
			"  - {name: arm_encoder, type: duty_cycle_encoder, dio_channel: 0}\n  - {name: lights, type: addressable_led, dio_channel: 1, length: 10}\n"
		if hal != "" {
			body = "hal: " + hal + "\n" + body
		}
		if err := os.WriteFile(y, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return y
	}
	const cannot = `robot.yaml:6:26: warning: addressable_led "lights": the roborio backend cannot run it: it has no addressable LEDs`
	for _, tc := range []struct {
		hal   string
		flags []string
		code  int
		want  string // in the output ("" : no finding at all)
	}{
		{"", nil, 0, ""},
		{"roborio", nil, 0, cannot},
		{"roborio", []string{"--hal", "sim"}, 0, "robot.yaml:1:6: note: --hal sim overrides the file's hal: roborio"},
		{"", []string{"--hal", "roborio"}, 0, strings.Replace(cannot, ":6:26:", ":5:26:", 1)},
		{"sim", nil, 0, ""},
		{"robrio", nil, 1, `robot.yaml:1:6: error: hal: unknown controller "robrio"; want sim, linux, roborio or systemcore (did you mean "roborio"?)`},
	} {
		args := append(append([]string{"validate"}, tc.flags...), u, robotYAML(tc.hal))
		code, out, errOut := runFrcd(args...)
		findings := strings.Count(out, ": warning: ") + strings.Count(out, ": error: ") + strings.Count(out, ": note: ")
		if code != tc.code || errOut != "" || (tc.want == "" && findings != 0) || (tc.want != "" && (findings != 1 || !strings.Contains(out, tc.want))) {
			t.Errorf("hal: %q %v: exit %d, want %d; want %q\n%s%s", tc.hal, tc.flags, code, tc.code, tc.want, out, errOut)
		}
	}
}

// The REV SPARKs speak CAN frames only: every backend with a CAN bus runs
// them (the daemon's SPARK scenario robot, with a REV PDH).
func TestValidateHALSpark(t *testing.T) {
	u, y := "../../daemon/testdata/spark/robot.urdf", "../../daemon/testdata/spark/robot.yaml"
	for _, hal := range []string{"sim", "linux", "roborio"} {
		code, out, errOut := runFrcd("validate", "--hal", hal, u, y)
		if code != 0 || strings.Contains(out, "cannot run") || !strings.Contains(out, "0 warnings") {
			t.Errorf("--hal %s: exit %d\n%s%s", hal, code, out, errOut)
		}
	}
}
