package telemetry

import (
	"time"

	"github.com/frcd/frcd/hal"
)

// The robot's op modes (the YAML's op_modes:): the one selected as
// /DriverStation/OpMode (ds.go) and PREFIX/ds/op_mode, which the log
// writes as WPILib 2027's DataLogManager does, DS:opMode (a string: the
// op mode's name, "" for none; allwpilib caf0fb2dcc
// wpilibc/src/main/native/cpp/driverstation/internal/DriverStationBackend.cpp,
// DataLogSender::Init). With Options.Chooser, the 2026 way beside: one
// SendableChooser per robot mode that has op modes, at
// /SmartDashboard/<Mode> Op Mode/ with the topics WPILib 2026 publishes
// for one (allwpilib v2026.2.2 wpilibj/.../smartdashboard/SendableChooser.java
// initSendable, SendableBuilderImpl.java, SmartDashboard.java putData):
// .type "String Chooser" (properties {"SmartDashboard":"String Chooser"}),
// .name, .instance, .controllable true, default (the first op mode),
// options (string[]), active (the op mode chosen, the default until a
// dashboard chooses). A dashboard chooses by publishing the name to
// .../selected, a topic the robot subscribes to and never publishes (the
// daemon takes it: ChooserTopic).

// chooserModes are the robot modes with a chooser, in instance order.
var chooserModes = [3]hal.Mode{hal.Autonomous, hal.Teleop, hal.Test}

// ChooserTopic is the chooser table of mode m:
// /SmartDashboard/Autonomous Op Mode, .../Teleop Op Mode, .../Test Op Mode.
func ChooserTopic(m hal.Mode) string {
	title := "Teleop"
	switch m {
	case hal.Autonomous:
		title = "Autonomous"
	case hal.Test:
		title = "Test"
	}
	return "/SmartDashboard/" + title + " Op Mode"
}

type opModeTopics struct {
	op     *Topic    // PREFIX/ds/op_mode, logged as DS:opMode
	active [3]*Topic // per chooserModes, nil without a chooser
}

func (s *Source) addOpModes() {
	op := s.add(s.o.Prefix+"/ds/op_mode", "string", String, "{}")
	op.LogAs, op.LogAsType = "DS:opMode", "string"
	s.opModes.op = op
	if s.o.Chooser == nil {
		return
	}
	const at = time.Microsecond
	for i, m := range chooserModes {
		names := s.o.OpModes.Of(m)
		if len(names) == 0 {
			continue
		}
		key := ChooserTopic(m)
		p := key + "/"
		s.add(p+".type", "string", String, props("SmartDashboard", "String Chooser")).setString("String Chooser", at)
		s.add(p+".name", "string", String, "{}").setString(key[len("/SmartDashboard/"):], at)
		s.add(p+".instance", "int", Int, "{}").setInt(int64(i), at)
		s.add(p+".controllable", "boolean", Bool, "{}").setBool(true, at)
		s.add(p+"default", "string", String, "{}").setString(names[0], at)
		s.add(p+"options", "string[]", Strings, "{}").setStrings(names, at)
		s.opModes.active[i] = s.add(p+"active", "string", String, "{}")
	}
}

// sampleOpModes updates the op mode selected and the choosers' active
// op modes that are needed. It does not allocate.
func (s *Source) sampleOpModes(now time.Duration) {
	o := &s.opModes
	if o.op.need {
		o.op.setString(s.o.OpModes.Name(s.snap.DS.OpMode), now)
	}
	for i, t := range o.active {
		if t != nil && t.need {
			t.setString(s.o.OpModes.Name(s.o.Chooser(chooserModes[i])), now)
		}
	}
}
