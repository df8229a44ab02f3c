package telemetry

import (
	"math"
	"time"
)

// The drive bases' odometry, on any backend (not only the sim's truth):
// PREFIX/drive/NAME/pose as struct:Pose2d (m, rad), and the first drive
// base's pose in a WPILib Field2d table, which AdvantageScope's and
// Elastic's field views show. In Layout2026 it is WPILib 2026's,
// /SmartDashboard/Field (.type "Field2d" with {"SmartDashboard":"Field2d"},
// Robot a double[] of x m, y m, heading in degrees, as wpilibj v2026.2.2's
// FieldObject2d writes it); in Layout2027 WPILib 2027's, PREFIX/Field
// (.type "Field2d", Robot a struct:Pose2d[]: allwpilib ae765842dd
// Field2d.java logTo, layout.go).

// odoTopics are one drive base's.
type odoTopics struct {
	pose  *Topic
	field *Topic // Field2d's Robot, or nil
	// field2027: field is Layout2027's struct:Pose2d[], not double[]
	field2027 bool
}

// addOdometry adds the drive bases' topics, and the struct schemas when
// the sim's have not.
func (s *Source) addOdometry() {
	if len(s.snap.Odometry) == 0 {
		return
	}
	s.addSchemas()
	for i, od := range s.snap.Odometry {
		t := odoTopics{pose: s.add(s.o.Prefix+"/drive/"+od.Name+"/pose", "struct:Pose2d", Raw,
			props("unit", "m, rad: the odometry's pose in "+od.OdomFrame))}
		t.pose.Raw = make([]byte, Pose2dSize)
		if i == 0 && s.o.Layout == Layout2027 { // one pose, 24 bytes
			s.add(s.o.Prefix+"/Field/.type", "string", String, "{}").setString("Field2d", time.Microsecond)
			t.field = s.add(s.o.Prefix+"/Field/Robot", "struct:Pose2d[]", Raw, "{}")
			t.field.Raw, t.field2027 = make([]byte, Pose2dSize), true
		} else if i == 0 {
			s.add("/SmartDashboard/Field/.type", "string", String, props("SmartDashboard", "Field2d")).setString("Field2d", time.Microsecond)
			t.field = s.addArray("/SmartDashboard/Field/Robot", "double[]", 3, props("unit", "m, m, deg"))
		}
		s.odo = append(s.odo, t)
	}
}

// addSchemas publishes the geometry struct schemas, once each.
func (s *Source) addSchemas() {
	for _, sc := range []Schema{Translation2d, Rotation2d, Pose2d, Translation3d, Quaternion, Rotation3d, Pose3d} {
		s.addSchema(sc)
	}
}

// sampleOdometry publishes the drive bases' poses.
func (s *Source) sampleOdometry(now time.Duration) {
	for i := range s.odo {
		p := s.snap.Odometry[i].Pose
		t := s.odo[i]
		if !anyNeeded(t.pose, t.field) {
			continue
		}
		copy(s.odoOld[:], t.pose.Raw)
		putPose2d(t.pose.Raw, p.X, p.Y, p.Yaw)
		t.pose.setRaw(s.odoOld[:], now)
		if t.field2027 { // the same pose as the Pose2d just packed
			copy(s.odoOld[:], t.field.Raw)
			copy(t.field.Raw, t.pose.Raw)
			t.field.setRaw(s.odoOld[:], now)
		} else if t.field != nil {
			v := [3]float64{p.X, p.Y, p.Yaw * 180 / math.Pi}
			t.field.setDoubles(v[:], now)
		}
	}
}
