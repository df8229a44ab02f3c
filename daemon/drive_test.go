package daemon

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// driveRobot loads an example robot with its YAML edited: lines holding
// any of drop removed, the controllers add appended to controllers:, and
// sim appended to its sim: section (or as one).
//
// edits are old, new pairs replaced once in the URDF ("<robot" for the
// URDF, "joints:" for the YAML: a pair applies to the file that has old).
func driveRobot(t *testing.T, dir string, drop []string, add, simExtra string, edits ...string) *robot.Robot {
	t.Helper()
	us, err := os.ReadFile(dir + "/robot.urdf")
	if err != nil {
		t.Fatal(err)
	}
	ys, err := os.ReadFile(dir + "/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(edits); i += 2 {
		if strings.Contains(string(us), edits[i]) {
			us = []byte(strings.Replace(string(us), edits[i], edits[i+1], 1))
		} else if strings.Contains(string(ys), edits[i]) {
			ys = []byte(strings.Replace(string(ys), edits[i], edits[i+1], 1))
		} else {
			t.Fatalf("edit: %q is in neither file", edits[i])
		}
	}
	var lines []string
	for _, l := range strings.Split(string(ys), "\n") {
		keep := true
		for _, d := range drop {
			keep = keep && !strings.Contains(l, d)
		}
		if keep {
			lines = append(lines, l)
		}
		if strings.HasPrefix(l, "controllers:") {
			lines = append(lines, add)
		}
		if strings.HasPrefix(l, "sim:") && simExtra != "" {
			lines = append(lines, simExtra)
			simExtra = ""
		}
	}
	if simExtra != "" {
		lines = append(lines, "sim:", simExtra)
	}
	u, ul := urdf.Parse("robot.urdf", us)
	c, cl := config.Parse("robot.yaml", []byte(strings.Join(lines, "\n")))
	r, xl := robot.Check(u, c)
	for _, l := range []diag.List{ul, cl, xl} {
		for _, f := range l {
			if f.Severity == diag.Error {
				t.Fatalf("robot: %s", f)
			}
		}
	}
	return r
}

// squareResult is a square drive's scores: where odometry ended against
// the sim's truth, the largest distance between them on the way, and how
// far the true base ended from where it started.
type squareResult struct {
	endErr, maxErr, yawErr, closure float64
	reach, path                     float64 // the truth's farthest from its start, and its path's length, m
	last                            [2]float64
}

func (r squareResult) String() string {
	return fmt.Sprintf("odometry vs truth: end %.3f m (yaw %.2f°), worst %.3f m; truth: path %.2f m, reached %.2f m out, ended %.3f m from its start",
		r.endErr, r.yawErr*180/math.Pi, r.maxErr, r.path, r.reach, r.closure)
}

// driveSquare drives a square of 2 m sides through the drive controller's
// twist (a cmd_vel stream at the loop's rate), steering each leg on the
// controller's own odometry: forward at 1 m/s until 2 m along the leg,
// then a 90° turn to the left (a diff drive), or the next leg sideways
// without turning (holonomic: swerve). It scores odometry against the
// sim's ground truth.
func driveSquare(t *testing.T, d *Daemon, ctl string, turn bool) squareResult {
	t.Helper()
	c := d.Loop.Controller(ctl)
	if c == nil {
		t.Fatalf("no controller %q", ctl)
	}
	snap := d.Loop.NewSnapshot()
	odo := func() control.Pose {
		d.Loop.ReadSnapshot(snap)
		return snap.Odometry[0].Pose
	}
	var res squareResult
	score := func() {
		p, ok := d.Sim.Pose()
		if !ok {
			t.Fatal("the sim has no drivetrain")
		}
		o := odo()
		e := math.Hypot(o.X-p.X, o.Y-p.Y)
		res.maxErr = max(res.maxErr, e)
		res.endErr, res.yawErr = e, math.Abs(math.Remainder(o.Yaw-p.Yaw, 2*math.Pi))
		res.closure = math.Hypot(p.X, p.Y)
		res.reach = max(res.reach, res.closure)
		res.path += math.Hypot(p.X-res.last[0], p.Y-res.last[1])
		res.last = [2]float64{p.X, p.Y}
	}
	cmd := func(vx, vy, wz float64) {
		if err := c.CommandGroup([]float64{vx, vy, wz}, d.Now()); err != nil {
			t.Fatal(err)
		}
		d.Step()
		score()
	}
	for i := 0; i < 20; i++ { // settle
		d.Step()
	}
	corners := [4][2]float64{{2, 0}, {2, 2}, {0, 2}, {0, 0}}
	heading := 0.0
	for leg, to := range corners {
		for steps := 0; steps < 2000; steps++ { // at most 20 s a leg
			o := odo()
			dx, dy := to[0]-o.X, to[1]-o.Y
			dist := math.Hypot(dx, dy)
			if dist < 0.02 {
				break
			}
			v := min(1.0, 2*dist)
			// the leg's direction in the base frame, and the heading error
			sy, cy := math.Sincos(-o.Yaw)
			bx, by := (cy*dx-sy*dy)/dist, (sy*dx+cy*dy)/dist
			wz := 4 * math.Remainder(heading-o.Yaw, 2*math.Pi)
			if turn {
				wz = 4 * math.Atan2(by, bx)
				if math.Abs(math.Atan2(by, bx)) > 0.3 {
					v = 0 // turn on the spot first
				}
				cmd(v*math.Max(0, bx), 0, max(-2, min(2, wz)))
				continue
			}
			cmd(v*bx, v*by, max(-2, min(2, wz)))
		}
		_ = leg
	}
	for i := 0; i < 100; i++ { // stop: the twist expires
		d.Step()
		score()
	}
	return res
}

// swerveDrop are the lines of examples/2026 that drive its swerve (its
// swerve controller and the sim's drivetrain; before them, its steering
// PIDs and drive group): a test drops them and adds its own.
var swerveDrop = []string{"_steer, type: effort_controllers", "name: swerve_drive", "type: voltage_controllers/JointGroupVoltageController", "joints: [front_left_drive_joint",
	"type: frcd_controllers/SwerveDriveController", "drivetrain: {type: swerve"}

const (
	diffDrive = "  drive: {type: diff_drive_controller/DiffDriveController, left_wheel: [left_front_wheel_joint, left_rear_wheel_joint], " +
		"right_wheel: [right_front_wheel_joint, right_rear_wheel_joint], wheel_pid: {p: 0.5, i: 4, f: 0.23}, " +
		"linear: {max_velocity: 1.5, max_acceleration: 3}, angular: {max_acceleration: 8}}"
	swerveDrive = "  - {name: swerve, type: frcd_controllers/SwerveDriveController, " +
		"drive: [front_left_drive_joint, front_right_drive_joint, rear_left_drive_joint, rear_right_drive_joint], " +
		"steer: [front_left_steer_joint, front_right_steer_joint, rear_left_steer_joint, rear_right_steer_joint], " +
		"steer_pid: {p: 8, d: 0.1}, wheel_pid: {p: 0.2, i: 2, f: 0.14}, max_wheel_speed: 4, linear: {max_acceleration: 3}, angular: {max_acceleration: 8}}"
	mecanumDrive = "  mecanum: {type: frcd_controllers/MecanumDriveController, front_left: left_front_wheel_joint, front_right: right_front_wheel_joint, " +
		"rear_left: left_rear_wheel_joint, rear_right: right_rear_wheel_joint, wheel_pid: {p: 0.5, i: 4, f: 0.23}, linear: {max_acceleration: 2}, angular: {max_acceleration: 6}}"
	swerveSim = "  drivetrain: {type: swerve, drive: [front_left_drive_joint, front_right_drive_joint, rear_left_drive_joint, rear_right_drive_joint], " +
		"steer: [front_left_steer_joint, front_right_steer_joint, rear_left_steer_joint, rear_right_steer_joint]}"
)

// TestDriveSquareDifferential drives the competition robot, as a
// differential drive through diff_drive_controller's twist, around a 2 m
// square on the sim, and scores its wheel odometry against the sim's
// truth, clean and with the encoders' noise, drift and dropouts and random
// shoves of the base.
func TestDriveSquareDifferential(t *testing.T) {
	drop := []string{tooltest.ExampleDrive}
	for _, tc := range []struct {
		name, sim string
		within    float64 // m, odometry's end error allowed
	}{
		{"clean", "", 0.1},
		{"faults", "  sensors:\n" +
			"    - {name: left_drive_encoder, noise: {sigma: 0.002}, drift: {mu: 0.001, sigma: 0.0005}, dropout: 0.05}\n" +
			"    - {name: right_drive_encoder, noise: {sigma: 0.002}, dropout: 0.05}\n" +
			"  disturbances:\n" +
			"    - {name: shove, base: true, kind: velocity, magnitude: 0.05, update_period: 0.5, min_x: -0.05, max_x: 0.05, min_y: -0.05, max_y: 0.05}", 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := driveRobot(t, "../examples/competition", drop, diffDrive, tc.sim)
			d, err := NewSim(r, SimOptions{Seed: 4, Enabled: true}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			res := driveSquare(t, d, "drive", true)
			t.Logf("differential, %s: %s", tc.name, res)
			if res.endErr > tc.within || res.closure > 1 || res.reach < 2.7 || res.path < 7.5 {
				t.Errorf("%s: want the odometry within %.2f m of the truth, the base round the square (8 m, 2.83 m out) and back within 1 m", res, tc.within)
			}
		})
	}
}

// TestDriveSquareSwerve does the same with examples/2026's swerve (its
// steering PIDs and drive group replaced by the swerve controller, and a
// swerve drivetrain on the sim), the odometry's heading from the wheels or
// its Pigeon 2. The sim has no sensor faults for CANcoders, Talon FX
// rotors or the Pigeon 2, so its faulty run has the base's random shoves
// alone.
func TestDriveSquareSwerve(t *testing.T) {
	drop := swerveDrop
	for _, tc := range []struct {
		name, ctl, sim string
		within         float64
	}{
		{"clean", swerveDrive, swerveSim, 0.1},
		{"imu", strings.Replace(swerveDrive, "max_wheel_speed: 4", "max_wheel_speed: 4, imu: pigeon", 1), swerveSim, 0.1},
		{"faults", strings.Replace(swerveDrive, "max_wheel_speed: 4", "max_wheel_speed: 4, imu: pigeon", 1), swerveSim + "\n" +
			"  disturbances:\n" +
			"    - {name: shove, base: true, kind: velocity, magnitude: 0.05, update_period: 0.5, min_x: -0.05, max_x: 0.05, min_y: -0.05, max_y: 0.05}", 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := driveRobot(t, "../examples/2026", drop, tc.ctl, tc.sim)
			d, err := NewSim(r, SimOptions{Seed: 4, Enabled: true}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			res := driveSquare(t, d, "swerve", false)
			t.Logf("swerve, %s: %s", tc.name, res)
			if res.endErr > tc.within || res.closure > 1 || res.reach < 2.7 || res.path < 7.5 {
				t.Errorf("%s: want the odometry within %.2f m of the truth, the base round the square (8 m, 2.83 m out) and back within 1 m", res, tc.within)
			}
		})
	}
}

// TestDriveCycleDoesNotAllocate: a cycle with a drive base, its twist,
// odometry and wheel loops, allocates nothing.
func TestDriveCycleDoesNotAllocate(t *testing.T) {
	drop := swerveDrop
	r := driveRobot(t, "../examples/2026", drop, strings.Replace(swerveDrive, "max_wheel_speed: 4", "max_wheel_speed: 4, imu: pigeon, field_relative: true", 1), swerveSim)
	d, err := NewSim(r, SimOptions{Seed: 4, Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := d.Loop.Controller("swerve")
	twist := []float64{1, 0.5, 0.3}
	now := d.Now()
	allocs := testing.AllocsPerRun(200, func() {
		now += d.Loop.Period()
		if err := c.CommandGroup(twist, now); err != nil {
			t.Fatal(err)
		}
		d.Loop.Cycle(now)
	})
	if allocs != 0 {
		t.Errorf("a cycle allocates %v times", allocs)
	}
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	if len(snap.Odometry) != 1 || !snap.Odometry[0].OK || snap.Odometry[0].BaseFrame != "base_link" {
		t.Errorf("odometry %+v", snap.Odometry)
	}
	if err := c.ResetPose(-3, 1, 0.5); err != nil {
		t.Fatal(err)
	}
	d.Loop.Cycle(now + d.Loop.Period())
	d.Loop.ReadSnapshot(snap)
	if p := snap.Odometry[0].Pose; math.Abs(p.X+3) > 0.05 || math.Abs(p.Y-1) > 0.05 || math.Abs(p.Yaw-0.5) > 0.05 {
		t.Errorf("after ResetPose(-3, 1, 0.5): %+v", p)
	}
}

// The competition robot as a mecanum base: its drive controller and
// tank drivetrain dropped (mecanumDrop), an encoder added on each rear
// wheel and the sim's mecanum drivetrain on its four wheels
// (mecanumEdits, driveRobot's).
var (
	mecanumDrop = []string{tooltest.ExampleDrive, "type: tank",
		"left:  [left_front", "right: [right_front"}
	mecanumEdits = []string{
		`<joint name="left_rear_wheel_joint" type="continuous">`, `<joint name="left_rear_wheel_joint" type="continuous"><sensor name="left_rear_encoder" type="encoder"/>`,
		`<joint name="right_rear_wheel_joint" type="continuous">`, `<joint name="right_rear_wheel_joint" type="continuous"><sensor name="right_rear_encoder" type="encoder"/>`,
		"joints:\n", "joints:\n  - {name: left_rear_encoder, type: encoder, ch_a: 14, ch_b: 15, dist_per_pulse: 0.0174533}\n" +
			"  - {name: right_rear_encoder, type: encoder, ch_a: 16, ch_b: 17, dist_per_pulse: 0.0174533, inverted: true}\n",
		"  drivetrain:\n", "  drivetrain:\n    type: mecanum\n    front_left: left_front_wheel_joint\n    front_right: right_front_wheel_joint\n" +
			"    rear_left: left_rear_wheel_joint\n    rear_right: right_rear_wheel_joint\n",
	}
)

// TestDriveSquareMecanum drives the competition robot as a mecanum base
// (the sim's mecanum drivetrain on its four wheels, an encoder added on
// each rear wheel) around the square, holonomically.
func TestDriveSquareMecanum(t *testing.T) {
	r := driveRobot(t, "../examples/competition", mecanumDrop, mecanumDrive, "", mecanumEdits...)
	d, err := NewSim(r, SimOptions{Seed: 4, Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	res := driveSquare(t, d, "mecanum", false)
	t.Logf("mecanum, clean: %s", res)
	if res.endErr > 0.15 || res.closure > 1 || res.reach < 2.7 || res.path < 7.5 {
		t.Errorf("%s: want the odometry within 0.15 m of the truth, the base round the square (8 m, 2.83 m out) and back within 1 m", res)
	}
}
