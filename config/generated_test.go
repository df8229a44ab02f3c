package config_test

import (
	"bytes"
	"encoding/json"
	"flag"
	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite docs/devices.md from the device tables")

const docsPath = "../docs/devices.md"

// docs/devices.md is generated from the tables; this test fails when it is
// stale. `make docs` (go test ./config -run TestDocsUpToDate -update)
// regenerates it.
func TestDocsUpToDate(t *testing.T) {
	want := Markdown()
	if *update {
		if err := os.WriteFile(docsPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatalf("%v (run `make docs`)", err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run `make docs`", docsPath)
	}
	for _, ty := range Types() {
		if !strings.Contains(want, "### `"+ty.Name+"`") {
			t.Errorf("docs miss type %s", ty.Name)
		}
		for _, k := range ty.Keys {
			if !strings.Contains(want, "| `"+k.Name+"` |") {
				t.Errorf("docs miss key %s.%s", ty.Name, k.Name)
			}
		}
	}
}

func TestDescribeHasEveryKey(t *testing.T) {
	for _, ty := range append(Types(), append(ControllerTypes(), SectionTypes()...)...) {
		d := ty.Describe()
		for _, k := range ty.Keys {
			if !strings.Contains(d, "\n"+k.Name+" ") {
				t.Errorf("describe %s misses key %s:\n%s", ty.Name, k.Name, d)
			}
		}
	}
	s := Summaries()
	for _, n := range TypeNames() {
		if !strings.Contains(s, "  "+n+" ") {
			t.Errorf("summaries miss %s", n)
		}
	}
}

// compileSchema checks the generated schema with an independent draft-07
// validator, the way an editor's language server would use it.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("frcd.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("frcd.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func yamlToJSON(t *testing.T, src string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestSchema(t *testing.T) {
	s := compileSchema(t)
	for _, ty := range Types() {
		src := "joints:\n  - " + ty.ExampleEntry() + "\n"
		if err := s.Validate(yamlToJSON(t, src)); err != nil {
			t.Errorf("%s example fails the schema: %v", ty.Name, err)
		}
	}
	for _, ty := range append(ControllerTypes(), SectionTypes()...) {
		src := "joints: []\n" + ty.ExampleYAML("")
		if ty.Name == "sim_joint" || ty.Name == "sim" {
			src = "joints: []\n" + SimJoint.ExampleYAML("")
		}
		if err := s.Validate(yamlToJSON(t, src)); err != nil {
			t.Errorf("%s example fails the schema: %v\n%s", ty.Name, err, src)
		}
	}
	if err := s.Validate(yamlToJSON(t, "x-defaults: {a: 1}\njoints: []\n")); err != nil {
		t.Errorf("x- section refused: %v", err)
	}
	bad := map[string]string{
		"unknown type":        "joints:\n  - {name: a, type: tallon, id: 1}\n",
		"unknown key":         "joints:\n  - {name: a, type: talon, id: 1, invertd: true}\n",
		"missing required":    "joints:\n  - {name: a, type: talon}\n",
		"wrong scalar type":   "joints:\n  - {name: a, type: talon, id: \"1\"}\n",
		"out of range":        "joints:\n  - {name: a, type: talon, id: 20}\n",
		"bad enum":            "joints:\n  - {name: a, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 1, encoding: 3}\n",
		"pigeon id and talon": "joints:\n  - {name: p, type: pigeon_imu, frame_id: b, id: 1, talon: t}\n",
		"pigeon neither":      "joints:\n  - {name: p, type: pigeon_imu, frame_id: b}\n",
		"no name":             "joints:\n  - {type: pdp, id: 0}\n",
		"unknown section":     "joints: []\nfoo: 1\n",
		"no joints":           "{}\n",
		"controller type":     "joints: []\ncontrollers:\n  - {name: a, type: positon, joint: b}\n",
		"controller key":      "joints: []\ncontrollers:\n  - {name: a, type: voltage_controllers/JointVoltageController, joint: b, pid: {p: 1}}\n",
		"loop key":            "joints: []\nloop: {rate: 1}\n",
		"sim motor":           "joints: []\nsim: {joints: [{name: a, motor: cim2}]}\n",
		"drivetrain type":     "joints: []\nsim: {drivetrain: {type: holonomic}}\n",
		"drivetrain key":      "joints: []\nsim: {drivetrain: {type: tank, track: 1}}\n",
	}
	for name, src := range bad {
		if err := s.Validate(yamlToJSON(t, src)); err == nil {
			t.Errorf("%s: the schema accepts %q", name, src)
		}
	}
}
