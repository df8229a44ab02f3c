package daemon

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/ros"
)

// examples/2026's arm, measured only by its SPARK MAX's built-in encoder
// and held at 0.8 rad by a position controller on the roboRIO, through a
// reboot of the SPARK (the sim's emulated brown-out: its encoder counts
// from 0 again, as frcd assumes REV's does; its idle mode is back at the
// factory's coast until configured again, so the 9 N·m arm sinks while it
// is neutral): its reported position stays within 0.1 rad of the truth
// throughout (Status 2 every 20 ms lags a moving arm by up to about
// 0.07 rad, as before the reboot), the controller never drives it above
// its goal (without the carry-over the joint read about 0 after the
// reboot and the controller drove the arm up to its 1.6 rad limit), it
// is back at 0.8 rad after, and the carry-over is logged and a warning on
// /diagnostics.
func TestSparkRebootKeepsPosition(t *testing.T) {
	r := exampleRobot(t, "2026", func(y string) string {
		return strings.Replace(y, "  - {name: arm_voltage, type: voltage_controllers/JointVoltageController, joint: arm_joint}",
			"  - {name: arm_position, type: effort_controllers/JointPositionController, joint: arm_joint, pid: {p: 60, i: 60, d: 1, i_clamp: 20}}", 1)
	})
	var mu sync.Mutex
	var logged []string
	d, err := NewSim(r, SimOptions{Enabled: true, Seed: 1}, Options{Rate: 100, Logf: func(f string, a ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(f, a...))
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Loop.Controller("arm_position")
	snap := d.Loop.NewSnapshot()
	const goal = 0.8
	// run steps for dur holding the arm at goal, and returns the largest
	// gap between the joint's reported position (when it has one) and the
	// truth, and the truth's highest position.
	run := func(dur time.Duration) (gap, top float64) {
		t.Helper()
		for end := d.Now() + dur; d.Now() < end; {
			if err := c.Command(goal, d.Now()); err != nil {
				t.Fatal(err)
			}
			d.Step()
			d.Loop.ReadSnapshot(snap)
			truth, _ := d.Sim.Joint("arm_joint")
			for _, j := range snap.Joints {
				if j.Name == "arm_joint" && j.State.Has&interfaces.HasPosition != 0 {
					gap = max(gap, math.Abs(j.State.Position-truth.Position))
				}
			}
			top = max(top, truth.Position)
		}
		return gap, top
	}
	run(4 * time.Second) // up from 0 (the status frames lag it while it moves)
	if gap, _ := run(time.Second); gap > 0.01 {
		t.Fatalf("before the reboot: reported %v rad from the truth", gap)
	}
	if truth, _ := d.Sim.Joint("arm_joint"); math.Abs(truth.Position-goal) > 0.02 {
		t.Fatalf("before the reboot: arm at %v, want %v", truth.Position, goal)
	}
	if err := d.Sim.RebootCAN("arm_joint"); err != nil {
		t.Fatal(err)
	}
	gap, top := run(3 * time.Second)
	t.Logf("across the reboot: reported at most %.4f rad from the truth, the arm at most at %.4f rad", gap, top)
	if gap > 0.1 {
		t.Errorf("across the reboot: the reported position %v rad from the truth, want < 0.1", gap)
	}
	if top > goal+0.05 {
		t.Errorf("across the reboot: the arm driven up to %v rad, its goal %v", top, goal)
	}
	if truth, _ := d.Sim.Joint("arm_joint"); math.Abs(truth.Position-goal) > 0.02 {
		t.Errorf("after the reboot: arm at %v, want %v", truth.Position, goal)
	}
	mu.Lock()
	log := strings.Join(logged, "\n")
	mu.Unlock()
	if !strings.Contains(log, "arm_joint: rebooted, its encoder restarted at 0: position carried over") {
		t.Errorf("the carry-over not logged:\n%s", log)
	}
	found := false
	for _, st := range d.health(nil) {
		if strings.HasPrefix(st.Name, "frcd: arm_joint") {
			found = true
			if st.Level != ros.LevelWarn || !strings.Contains(st.Message, "position carried over 1 reboot(s)") {
				t.Errorf("/diagnostics: %+v", st)
			}
		}
	}
	if !found {
		t.Errorf("no arm_joint on /diagnostics")
	}
}
