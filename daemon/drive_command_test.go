package daemon

import (
	"math"
	"testing"
	"time"
)

// motion is how the sim's true base moved during a command: its travel
// (the straight distance from where it started) and its turn, and where
// the twist went stale.
type motion struct {
	dist, turn float64 // m, rad
	overrun    float64 // m, from the stale twist (cmd_vel_timeout) to rest
	rest       time.Duration
}

// commandMotion streams the twist (vx, vy, wz) at every cycle for d of
// loop time, then, with stop, a zero twist (a driver letting go of the
// stick) or, without, nothing (the publisher gone: the twist goes stale
// after cmd_vel_timeout), and steps on until the base has been at rest
// for half a second (at most 10 s). It measures the true base's motion.
func commandMotion(t *testing.T, d *Daemon, ctl string, vx, vy, wz float64, dur time.Duration, stop bool) motion {
	t.Helper()
	c := d.Loop.Controller(ctl)
	if c == nil {
		t.Fatalf("no controller %q", ctl)
	}
	for i := 0; i < 20; i++ { // settle
		d.Step()
	}
	p0, ok := d.Sim.Pose()
	if !ok {
		t.Fatal("the sim has no drivetrain")
	}
	yaw := p0.Yaw
	var m motion
	var staleAt [2]float64
	start, last := d.Now(), d.Now()
	for d.Now()-start < dur {
		if err := c.CommandGroup([]float64{vx, vy, wz}, d.Now()); err != nil {
			t.Fatal(err)
		}
		last = d.Now()
		d.Step()
		p, _ := d.Sim.Pose()
		m.turn += math.Remainder(p.Yaw-yaw, 2*math.Pi)
		yaw = p.Yaw
	}
	stale := false
	var still time.Duration
	for d.Now()-start < dur+10*time.Second && still < 500*time.Millisecond {
		if stop {
			if err := c.CommandGroup([]float64{0, 0, 0}, d.Now()); err != nil {
				t.Fatal(err)
			}
		}
		d.Step()
		p, _ := d.Sim.Pose()
		m.turn += math.Remainder(p.Yaw-yaw, 2*math.Pi)
		yaw = p.Yaw
		if !stale && !stop && d.Now()-last > c.Timeout() {
			stale, staleAt = true, [2]float64{p.X, p.Y}
		}
		if math.Hypot(p.VX, p.VY) < 0.005 && math.Abs(p.WZ) < 0.01 {
			still += d.Loop.Period()
		} else {
			still = 0
		}
	}
	p, _ := d.Sim.Pose()
	m.dist = math.Hypot(p.X-p0.X, p.Y-p0.Y)
	if stale {
		m.overrun = math.Hypot(p.X-staleAt[0], p.Y-staleAt[1])
	}
	m.rest = d.Now() - start - still
	return m
}

// A base does what it is told, on the sim's motors: told 1.5 m (1 m/s
// for 1.5 s, then a zero twist) it drives 1.5 m ± 5 %; told 2.4 rad (1.2
// rad/s for 2 s) it turns 2.4 rad ± 5 %; left with a stale twist at 1
// m/s it is driven to rest within 0.3 m of where cmd_vel_timeout struck
// (active zero velocity, not a coast). Each base's wheel feedforward is
// the sim's motor's back-EMF through its gearing (Sim.VoltsPerSpeed),
// written in its YAML below.
func TestDriveFollowsCommand(t *testing.T) {
	for _, tc := range []struct {
		name, dir, ctl, add, sim string
		drop, edits              []string
		wheel                    string
	}{
		// examples/competition and examples/2026 drive their bases as a
		// team would: as they are
		{name: "differential", dir: "../examples/competition", ctl: "drive", wheel: "left_front_wheel_joint"},
		{name: "swerve", dir: "../examples/2026", ctl: "swerve", wheel: "front_left_drive_joint"},
		{name: "mecanum", dir: "../examples/competition", ctl: "mecanum", add: mecanumDrive, wheel: "left_front_wheel_joint", edits: mecanumEdits,
			drop: mecanumDrop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f float64
			load := func() *Daemon {
				r := driveRobot(t, tc.dir, tc.drop, tc.add, tc.sim, tc.edits...)
				f = r.Config.Controller(tc.ctl).Float("wheel_pid.f")
				d, err := NewSim(r, SimOptions{Seed: 4, Enabled: true}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { d.Close() })
				return d
			}
			d := load()
			emf, ok := d.Sim.VoltsPerSpeed(tc.wheel)
			if !ok {
				t.Fatalf("%s has no motor", tc.wheel)
			}
			t.Logf("%s: the sim's back-EMF %.4f V per rad/s, wheel_pid.f %.4f", tc.wheel, emf, f)
			if math.Abs(f-emf) > 0.05*emf {
				t.Errorf("wheel_pid.f %.4f V per rad/s does not fit the sim's motor (%.4f): more than 5 %% off", f, emf)
			}

			m := commandMotion(t, d, tc.ctl, 1, 0, 0, 1500*time.Millisecond, true)
			t.Logf("told 1.5 m: drove %.3f m (turned %.3f rad), at rest %.2f s after the first twist", m.dist, m.turn, m.rest.Seconds())
			if math.Abs(m.dist-1.5) > 0.075 {
				t.Errorf("told 1.5 m, drove %.3f m: want within 5 %%", m.dist)
			}
			m = commandMotion(t, load(), tc.ctl, 0, 0, 1.2, 2*time.Second, true)
			t.Logf("told 2.4 rad: turned %.3f rad (moved %.3f m)", m.turn, m.dist)
			if math.Abs(m.turn-2.4) > 0.12 {
				t.Errorf("told 2.4 rad, turned %.3f rad: want within 5 %%", m.turn)
			}
			m = commandMotion(t, load(), tc.ctl, 1, 0, 0, 1500*time.Millisecond, false)
			t.Logf("a stale twist at 1 m/s: %.3f m from the timeout to rest (%.3f m in all)", m.overrun, m.dist)
			if m.overrun > 0.3 {
				t.Errorf("a stale twist: the base ran on %.3f m after cmd_vel_timeout; want at most 0.3 m", m.overrun)
			}
		})
	}
}
