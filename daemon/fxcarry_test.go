package daemon

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/sim"
)

// fxRig is devloop's two turrets (20:1, each measured only by its Talon
// FX's rotor), both held at 0.5 rad: turret_rio by a position controller
// on the roboRIO, turret_device by the Talon's own PositionVoltage.
type fxRig struct {
	t      *testing.T
	d      *Daemon
	snap   *control.Snapshot
	mu     sync.Mutex
	logged []string
}

const fxGoal = 0.5

func newFXRig(t *testing.T) *fxRig {
	t.Helper()
	dir := filepath.Join("testdata", "devloop")
	r, list, err := robot.Load(filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml"))
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	g := &fxRig{t: t}
	g.d, err = NewSim(r, SimOptions{Enabled: true, Seed: 1}, Options{Rate: 100, Logf: func(f string, a ...any) {
		g.mu.Lock()
		g.logged = append(g.logged, fmt.Sprintf(f, a...))
		g.mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	g.snap = g.d.Loop.NewSnapshot()
	return g
}

// run steps for dur holding both turrets at fxGoal and returns, per
// turret, the largest gap between its reported position (when it has
// one) and the truth, and the largest distance of the truth from the
// goal.
func (g *fxRig) run(dur time.Duration) (gap, off map[string]float64) {
	g.t.Helper()
	gap, off = map[string]float64{}, map[string]float64{}
	names := []string{"turret_rio", "turret_device"}
	for end := g.d.Now() + dur; g.d.Now() < end; {
		for _, n := range names {
			if err := g.d.Loop.Controller(n+"_position").Command(fxGoal, g.d.Now()); err != nil {
				g.t.Fatal(err)
			}
		}
		g.d.Step()
		g.d.Loop.ReadSnapshot(g.snap)
		for _, n := range names {
			truth, _ := g.d.Sim.Joint(n)
			for _, j := range g.snap.Joints {
				if j.Name == n && j.State.Has&interfaces.HasPosition != 0 {
					gap[n] = max(gap[n], math.Abs(j.State.Position-truth.Position))
				}
			}
			off[n] = max(off[n], math.Abs(truth.Position-fxGoal))
		}
	}
	return gap, off
}

func (g *fxRig) log() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return strings.Join(g.logged, "\n")
}

// settled runs 3 s and checks both turrets at the goal, reported where
// they are.
func (g *fxRig) settled(when string) {
	g.t.Helper()
	g.run(3 * time.Second)
	gap, off := g.run(time.Second)
	g.t.Logf("%s: at %v", when, g.d.Now())
	for _, n := range []string{"turret_rio", "turret_device"} {
		if gap[n] > 0.01 || off[n] > 0.02 {
			g.t.Fatalf("%s: %s reported %v rad from the truth, %v rad from its goal", when, n, gap[n], off[n])
		}
	}
}

// A Talon FX rebooting mid-match (the sim's emulated reboot: its rotor
// position restarts within one rotation, the rotor's absolute position,
// as CTRE documents; its configs kept) under a joint it alone measures:
// at 0.5 rad a turret's rotor is at 1.59 rotations and restarts at 0.59,
// so without the carry-over the joint reads 0.19 rad after the reboot and
// both position loops drive the turret to 0.81 rad. With it, the
// reported position stays within 0.01 rad of the truth throughout, the
// turret never leaves its goal by more than 0.02 rad, the device's own
// loop gets its set point in the Talon's new count, and each carry is
// logged and a warning on /diagnostics. Once with the reboot seen as a
// jump (the Talon back at once), once behind a silence (statuses lost
// for 0.3 s while it boots).
func TestTalonFXRebootKeepsPosition(t *testing.T) {
	for _, silent := range []bool{false, true} {
		t.Run(fmt.Sprintf("silent=%v", silent), func(t *testing.T) {
			g := newFXRig(t)
			g.settled("before the reboot")
			for _, n := range []string{"turret_rio", "turret_device"} {
				if silent {
					if err := g.d.Sim.SetCANSilent(n, true); err != nil {
						t.Fatal(err)
					}
				}
				if err := g.d.Sim.RebootCAN(n); err != nil {
					t.Fatal(err)
				}
			}
			if silent {
				g.run(300 * time.Millisecond)
				for _, n := range []string{"turret_rio", "turret_device"} {
					if err := g.d.Sim.SetCANSilent(n, false); err != nil {
						t.Fatal(err)
					}
				}
			}
			gap, off := g.run(3 * time.Second)
			for _, n := range []string{"turret_rio", "turret_device"} {
				t.Logf("%s across the reboot: reported at most %.4f rad from the truth, at most %.4f rad from its goal", n, gap[n], off[n])
				if gap[n] > 0.01 || off[n] > 0.02 {
					t.Errorf("%s across the reboot: reported %v rad from the truth, moved %v rad from its goal", n, gap[n], off[n])
				}
				if !strings.Contains(g.log(), n+": rebooted, its rotor position restarted within one rotation: position carried over from before the reboot (+1 rotor rotations, offset 1)") {
					t.Errorf("%s: the carry-over not logged:\n%s", n, g.log())
				}
			}
			found := 0
			for _, st := range g.d.health(nil) {
				if strings.HasPrefix(st.Name, "frcd: turret_") {
					found++
					if st.Level != ros.LevelWarn || !strings.Contains(st.Message, "position carried over 1 reboot(s) (offset 1 rotor rotations)") {
						t.Errorf("/diagnostics: %+v", st)
					}
				}
			}
			if found != 2 {
				t.Errorf("%d turrets on /diagnostics", found)
			}
		})
	}
}

// A CAN dropout is not a reboot: turret_rio cut off the bus for 0.5 s
// while pushed 0.5 rad away (1.6 rotor rotations: its Talon counts on,
// unheard), then heard again. Its position comes back where the turret
// is, nothing carried (a carry-over of the last position less the first
// after would read the joint 2 rotor rotations, 0.63 rad, off), nothing
// logged, and the controller brings it back.
func TestTalonFXDropoutNotCarried(t *testing.T) {
	g := newFXRig(t)
	g.settled("before the dropout")
	if err := g.d.Sim.SetCANSilent("turret_rio", true); err != nil {
		t.Fatal(err)
	}
	if err := g.d.Sim.SetDisturbances([]sim.Disturbance{{Joint: "turret_rio", Kind: sim.DisturbVelocity, InitialX: 1, UpdatePeriod: 100}}); err != nil {
		t.Fatal(err)
	}
	g.run(500 * time.Millisecond)
	if err := g.d.Sim.SetDisturbances(nil); err != nil {
		t.Fatal(err)
	}
	if truth, _ := g.d.Sim.Joint("turret_rio"); truth.Position < 0.9 {
		t.Fatalf("pushed to %v rad only", truth.Position)
	}
	if err := g.d.Sim.SetCANSilent("turret_rio", false); err != nil {
		t.Fatal(err)
	}
	gap, _ := g.run(3 * time.Second)
	if gap["turret_rio"] > 0.01 {
		t.Errorf("after the dropout: reported up to %v rad from the truth", gap["turret_rio"])
	}
	if truth, _ := g.d.Sim.Joint("turret_rio"); math.Abs(truth.Position-fxGoal) > 0.02 {
		t.Errorf("after the dropout: turret at %v, want %v", truth.Position, fxGoal)
	}
	if strings.Contains(g.log(), "carried over") {
		t.Errorf("a dropout carried:\n%s", g.log())
	}
}
