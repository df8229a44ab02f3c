package daemon

import (
	"math"
	"testing"

	"github.com/frcd/frcd/ros"
)

// TestCompetitionRunsClean runs the full example robot at 50, 100 and
// 1000 Hz: after the first frames have arrived no device may fail, and
// every joint a device measures has a state.
func TestCompetitionRunsClean(t *testing.T) {
	for _, rate := range []float64{50, 100, 1000} {
		d := competition(t, rate, false)
		command(d)
		for d.Now() < d.Loop.Period()*10+100e6 { // 100 ms of start-up: the PDP's and PCM's first frames
			d.Step()
		}
		start := d.Loop.Stats().DeviceErrors
		for i := 0; i < 200; i++ {
			if i%20 == 0 {
				command(d)
			}
			d.Step()
		}
		s := d.Loop.NewSnapshot()
		d.Loop.ReadSnapshot(s)
		if n := s.Stats.DeviceErrors - start; n != 0 {
			for _, dv := range s.Devices {
				if dv.Errors > 0 {
					t.Errorf("%v Hz: %s: %d errors, last %v", rate, dv.Name, dv.Errors, dv.LastErr)
				}
			}
		}
		for _, j := range s.Joints {
			if j.State.Has == 0 {
				t.Errorf("%v Hz: joint %s has no state", rate, j.Name)
			}
		}
	}
}

// TestDriveHeadingAndTruth drives the example robot's tank base through
// its drive controller, turning left: the navX and the Pigeon, read
// through their drivers, report the base's true heading and turn rate;
// Truth gives the true pose and the joints' true states.
func TestDriveHeadingAndTruth(t *testing.T) {
	d := competition(t, 100, false)
	for i := 0; i < 80; i++ { // 0.8 s of a gentle left turn
		if err := d.Loop.Controller("drive").CommandGroup([]float64{0.6, 0, 0.8}, d.Now()); err != nil {
			t.Fatal(err)
		}
		d.Step()
	}
	var tr ros.Truth
	if !d.Truth(&tr) || !tr.HasPose || tr.BaseFrame != "base_link" {
		t.Fatalf("truth %+v", tr)
	}
	pose, _ := d.Sim.Pose()
	if tr.X != pose.X || tr.Yaw != pose.Yaw || tr.WZ != pose.WZ || !(pose.Yaw > 0.2) || !(tr.VX > 0.3) || math.Abs(tr.VY) > 0.01 {
		t.Errorf("truth %+v; pose %+v: want a left turn, moving forward in the base's frame", tr, pose)
	}
	for i, name := range tr.Names {
		jt, _ := d.Sim.Joint(name)
		if tr.Position[i] != jt.Position || tr.Velocity[i] != jt.Velocity || tr.Effort[i] != jt.Effort {
			t.Errorf("truth of %s: %v %v %v, want %+v", name, tr.Position[i], tr.Velocity[i], tr.Effort[i], jt)
		}
	}
	if len(tr.Names) != len(d.Robot.Joints) {
		t.Errorf("truth names %d joints, the robot has %d", len(tr.Names), len(d.Robot.Joints))
	}
	for _, imu := range readIMUs(t, d, 2) { // navx and pigeon
		q := imu.State.Orientation // x, y, z, w
		yaw := 2 * math.Atan2(q[2], q[3])
		// The navX samples at 60 Hz and its registers hold 0.01°; the
		// Pigeon reads the present motion.
		tol := pose.WZ/60 + 2e-4
		if !imu.OK || math.Abs(math.Remainder(yaw-pose.Yaw, 2*math.Pi)) > tol || math.Abs(imu.State.AngularVelocity[2]-pose.WZ) > 0.05*pose.WZ {
			t.Errorf("%s: ok %v, yaw %.4f rad, turning %.4f rad/s; the base is at %.4f rad, turning %.4f rad/s", imu.Name, imu.OK, yaw, imu.State.AngularVelocity[2], pose.Yaw, pose.WZ)
		}
	}
}

// TestLinkSensorsInSnapshot: the digital and analog inputs in URDF links
// (not the joints' limit switches and pots) reach the loop's snapshot,
// with what the sim says they sense, and reading it does not allocate.
func TestLinkSensorsInSnapshot(t *testing.T) {
	d := competition(t, 100, false)
	if err := d.Sim.SetSensor("ball_beam_break", 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Sim.SetSensor("front_ultrasonic", 2.5); err != nil {
		t.Fatal(err)
	}
	d.Step()
	s := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(s)
	if len(s.LinkDigital) != 1 || s.LinkDigital[0].Name != "ball_beam_break" || !s.LinkDigital[0].OK || !s.LinkDigital[0].State.Value {
		t.Errorf("digital link sensors %+v", s.LinkDigital)
	}
	if len(s.LinkAnalog) != 1 || s.LinkAnalog[0].Name != "front_ultrasonic" || !s.LinkAnalog[0].OK || math.Abs(s.LinkAnalog[0].State.Value-2.5) > 1e-9 {
		t.Errorf("analog link sensors %+v", s.LinkAnalog)
	}
	if err := d.Sim.SetSensor("ball_beam_break", 0); err != nil {
		t.Fatal(err)
	}
	d.Step()
	if a := testing.AllocsPerRun(100, func() { d.Loop.ReadSnapshot(s) }); a != 0 {
		t.Errorf("ReadSnapshot allocates %v", a)
	}
	if s.LinkDigital[0].State.Value {
		t.Error("beam still broken after it cleared")
	}
}
