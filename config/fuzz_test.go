package config_test

import (
	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
)

func FuzzParse(f *testing.F) {
	seeds := []string{
		// frc_control's forms (frccontrol.go)
		"ns:\n  joints: &j\n    a: {type: can_talon_srx, id: 1, velocity_gains: {p: 1, f: 2}}\n    b: {type: spark, id: 0, position_gains: {p: 1}}\nsim_ns:\n  joints: *j\njsc: {type: joint_state_controller/JointStateController}\ncontrollers: []\n",
		"a:\n  joints: {x: 1}\nb:\n  joints: [1]\n",
		"joints:\n  - {name: arm, type: talon, id: 3, pdp_ch: 1}\n  - {name: pdp, type: pdp, id: 0}\n",
		"joints:\n  - name: enc\n    type: encoder\n    ch_a: 0\n    ch_b: 1\n    dist_per_pulse: 0.01\n    encoding: 2\n",
		"x-d: &d {type: solenoid, pcm_id: 1}\njoints:\n  - {<<: *d, name: a, id: 0}\n  - {<<: [*d], name: b, id: 1}\n",
		"joints:\n  - {name: p, type: pigeon_imu, frame_id: base, talon: t}\n  - {name: t, type: talon_srx, id: 1}\n",
		"joints:\n  - {name: n, type: navx, frame_id: b, interface: spi, id: 4}\n",
		"joints: [{name: a, type: relay, relay_id: 0, direction: both}, {name: b, type: compressor}]",
		"joints:\n  - {name: a, type: talon, id: 3\n",
		"joints: &a [*a]\n",
		"a: &a {b: *a}\njoints: []\n",
		"joints:\n  - {<<: {<<: {<<: {type: pdp}}}, name: x, id: 0}\n",
		"--- \njoints: []\n---\n",
		"joints:\n  - {name: \"\\u0000\", type: \"\\xff\", id: 0x10}\n",
		"joints:\n  - {name: l, type: spark, id: 0}\n  - {name: r, type: spark, id: 1}\nsim:\n  drivetrain: {type: tank, left: [l], right: [r, l], drive: [x]}\n",
		"joints: []\nsim: {drivetrain: {type: swerve, drive: [a, b], steer: 1}, joints: [{name: a}]}\n",
		"\t",
		"",
		"joints:\n  - {name: e, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.01}\nsim:\n  sensors:\n    - {name: e, noise: {mu: 0, sigma: 0.1}, drift: {mu: 1}, dropout: 0.5, stuck: true, fault_at: 1}\n  disturbances:\n    - {joint: a, kind: force, magnitude: 2, min_x: -1}\n    - {base: true, initial_y: 3}\n",
	}
	for _, ty := range SectionTypes() {
		f.Add([]byte("joints: []\n" + ty.ExampleYAML("")))
	}
	seeds = append(seeds, mergeBomb(40)) // bounded: refused at the merge
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	for _, ty := range Types() {
		f.Add([]byte("joints:\n  - " + ty.ExampleEntry() + "\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer bounds.Slow(t)()
		file, list := Parse("f.yaml", data)
		if file == nil {
			t.Fatal("nil file")
		}
		for _, fd := range list {
			if fd.File != "f.yaml" || fd.Line < 1 || fd.Col < 1 || fd.Message == "" {
				t.Fatalf("bad finding %+v", fd)
			}
			if fd.Message == "" || fd.Message[len(fd.Message)-1] == ' ' {
				t.Fatalf("bad message %q", fd.Message)
			}
		}
		for _, d := range file.Devices {
			if d.Type != nil && d.Type.Name != d.TypeName {
				t.Fatalf("type mismatch %q %q", d.TypeName, d.Type.Name)
			}
		}
		if list.Errors() == 0 {
			// A clean file has every required key of every device.
			for _, d := range file.Devices {
				if d.Type == nil || d.Name == "" {
					t.Fatalf("clean file with an undecoded device %+v", d)
				}
				for _, k := range d.Type.Keys {
					if k.Required && !d.Has(k.Name) {
						t.Fatalf("clean file, but %s lacks %s", d, k.Name)
					}
				}
			}
		}
	})
}
