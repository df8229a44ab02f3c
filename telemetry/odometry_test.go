package telemetry_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/telemetry"
)

// TestOdometryTopics: a drive base's odometry is a struct:Pose2d and the
// Field2d's Robot, with no sim truth asked for (as on real hardware), and
// both follow the base as it drives.
func TestOdometryTopics(t *testing.T) {
	yp := tooltest.DiffDriveYAML(t, "../examples/competition/robot.yaml", "linear: {max_acceleration: 2}, angular: {max_acceleration: 4}")
	r, list, err := robot.Load("../examples/competition/robot.urdf", yp)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := telemetry.New(telemetry.Options{Loop: d.Loop, Robot: r, Prefix: "robot/"})
	byName := map[string]*telemetry.Topic{}
	for _, tp := range s.Topics {
		byName[tp.Name] = tp
	}
	pose, field, typ := byName["/robot/drive/drive/pose"], byName["/SmartDashboard/Field/Robot"], byName["/SmartDashboard/Field/.type"]
	if pose == nil || field == nil || typ == nil || pose.Type != "struct:Pose2d" || typ.Str != "Field2d" || byName["/.schema/struct:Pose2d"] == nil {
		t.Fatalf("topics: pose %v, field %v, type %v", pose, field, typ)
	}
	if byName["/robot/sim/pose"] != nil {
		t.Fatal("no truth was asked for, yet the sim's pose is published")
	}
	// The twist (vx, vy, ωz) is no command of a wheel: the wheels' command
	// topics once showed vx and vy.
	if tp := byName["/robot/joints/left_front_wheel_joint/command"]; tp != nil {
		t.Errorf("a drive base's wheel has a command topic: %v", tp.Name)
	}
	c := d.Loop.Controller("drive")
	for i := 0; i < 200; i++ {
		if err := c.CommandGroup([]float64{1, 0, 0.5}, d.Now()); err != nil {
			t.Fatal(err)
		}
		d.Step()
	}
	s.Sample()
	x := math.Float64frombits(binary.LittleEndian.Uint64(pose.Raw[0:]))
	y := math.Float64frombits(binary.LittleEndian.Uint64(pose.Raw[8:]))
	yaw := math.Float64frombits(binary.LittleEndian.Uint64(pose.Raw[16:]))
	truth, _ := d.Sim.Pose()
	t.Logf("odometry %.3f, %.3f, %.3f rad; truth %.3f, %.3f, %.3f; Field2d %v", x, y, yaw, truth.X, truth.Y, truth.Yaw, field.Doubles)
	if math.Hypot(x-truth.X, y-truth.Y) > 0.05 || x < 0.5 || len(field.Doubles) != 3 ||
		field.Doubles[0] != x || field.Doubles[1] != y || math.Abs(field.Doubles[2]-yaw*180/math.Pi) > 1e-9 {
		t.Errorf("pose %v, %v, %v; Field2d %v; truth %+v", x, y, yaw, field.Doubles, truth)
	}
}
