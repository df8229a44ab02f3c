package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/robot"
)

// TestCommandsHeldToLimits: on the sim, the competition robot with a
// scorpion-style hood servo (joint limits 0..0.8 rad, the servo's range
// 0..π) and a turret position PID whose joint is limited to ±1.5 rad.
// The hood's position controller refuses 5.0 (it once went to 3.142)
// and holds 0.85 to 0.8; the turret's PID refuses a set point of 5.0
// and holds 1.7 to 1.5: the turret is not driven past 1.5.
func TestCommandsHeldToLimits(t *testing.T) {
	dir := t.TempDir()
	u, err := os.ReadFile("../examples/competition/robot.urdf")
	if err != nil {
		t.Fatal(err)
	}
	const turretLimit = `<limit lower="-2.5" upper="2.5" effort="50" velocity="4.0"/>`
	if !strings.Contains(string(u), turretLimit) {
		t.Fatal("the competition robot's turret limits changed")
	}
	urdfPath := filepath.Join(dir, "robot.urdf")
	if err := os.WriteFile(urdfPath, []byte(strings.Replace(string(u), turretLimit, `<limit lower="-1.5" upper="1.5" effort="50" velocity="4.0"/>`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile("../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ys := string(y)
	for _, e := range [][2]string{
		{"{name: hood_joint,    type: dmc60,        id: 7, pdp_ch: 6, k_eff: 0.53}", "{name: hood_joint, type: servo, id: 7}"},
		{"  - {name: hood_pot,      type: analog_input, ain_channel: 1, scale: 4.712, offset: -0.35}\n", ""},
		{"hood_position:       {type: effort_controllers/JointPositionController, joint: hood_joint, pid: {p: 20, i: 2}}",
			"hood_position: {type: position_controllers/JointPositionController, joint: hood_joint}"},
		{"turret_position:     {type: frcd_controllers/ProfiledPositionController, joint: turret_joint, pid: {p: 25, i: 5, d: 0.8, i_clamp: 2, f: 0.86}, max_acceleration: 8, tolerance: 0.02}",
			"turret_position: {type: effort_controllers/JointPositionController, joint: turret_joint, pid: {p: 30, d: 2}}"},
	} {
		if !strings.Contains(ys, e[0]) {
			t.Fatalf("the competition robot's YAML changed: no %q", e[0])
		}
		ys = strings.Replace(ys, e[0], e[1], 1)
	}
	yamlPath := filepath.Join(dir, "robot.yaml")
	if err := os.WriteFile(yamlPath, []byte(ys), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load(urdfPath, yamlPath)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	d, err := NewSim(r, SimOptions{Enabled: true}, Options{Rate: 100})
	if err != nil {
		t.Fatal(err)
	}
	hood, turret := d.Loop.Controller("hood_position"), d.Loop.Controller("turret_position")
	// run commands the hood and the turret every cycle for secs of loop
	// time; it returns the furthest each went.
	var snap control.Snapshot
	run := func(h, tu float64, secs float64) (hoodMax, turretMax float64) {
		hoodMax, turretMax = -10, -10
		for range int(secs * 100) {
			_, _ = hood.Command(h, d.Now()), turret.Command(tu, d.Now())
			d.Step()
			d.Loop.ReadSnapshot(&snap)
			for _, p := range snap.PIDs {
				if p.Name == turret.Name && p.Active && p.SetPoint > 1.5 {
					t.Fatalf("the turret's set point is %v, past its limit 1.5", p.SetPoint)
				}
			}
			hj, _ := d.Sim.Joint("hood_joint")
			tj, _ := d.Sim.Joint("turret_joint")
			hoodMax, turretMax = max(hoodMax, hj.Position), max(turretMax, tj.Position)
		}
		return hoodMax, turretMax
	}
	run(0.4, 1, 2) // somewhere inside the limits
	for _, c := range []*control.Controller{hood, turret} {
		if err := c.Command(5, d.Now()); !errors.Is(err, control.ErrRefused) {
			t.Errorf("%s: 5.0 taken (%v), want refused", c.Name, err)
		}
	}
	h, tu := run(5, 5, 2)
	t.Logf("5.0 to both: hood at most %.3f, turret at most %.3f", h, tu)
	if h > 0.8 || tu > 1.5 {
		t.Errorf("5.0: the hood went to %.3f (limit 0.8), the turret to %.3f (limit 1.5)", h, tu)
	}
	h, tu = run(0.85, 1.7, 4)
	t.Logf("just past the limits (0.85, 1.7): hood at most %.3f, turret at most %.3f; clamped %d and %d", h, tu, hood.Clamped(), turret.Clamped())
	if h > 0.8+1e-9 || tu > 1.5+0.02 {
		t.Errorf("0.85 and 1.7: the hood went to %.3f (limit 0.8), the turret to %.3f (limit 1.5, PID overshoot 0.02)", h, tu)
	}
	if hood.Clamped() == 0 || turret.Clamped() == 0 {
		t.Errorf("clamped %d and %d, want both counted", hood.Clamped(), turret.Clamped())
	}
}
