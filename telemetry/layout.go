package telemetry

import (
	"fmt"
	"strings"
	"time"

	"github.com/frcd/frcd/control"
)

// Layout is the NetworkTables layout frcd publishes in (Options.Layout).
//
// Layout2026, the default, is what AdvantageScope's and Elastic's current
// releases read: frcd's topics under PREFIX (/frcd), a PID controller's
// gains as PREFIX/controllers/NAME/gains double[], the Alerts at
// /SmartDashboard/Alerts (as in both layouts), the first drive base in a WPILib 2026 Field2d at
// /SmartDashboard/Field (odometry.go). Its two tables' .type topics carry
// the property WPILib 2026's SendableBuilderImpl gives every .type,
// {"SmartDashboard":TYPE} (allwpilib v2026.2.2 wpilibj
// SendableBuilderImpl.java setSmartDashboardType).
//
// Layout2027 lays the tables out as a WPILib 2027 robot program does
// (allwpilib ae765842dd, "[telemetry,tunable] Add Telemetry and Tunable
// APIs (#7773)"; RobotBase.java registers NetworkTablesTelemetryBackend at
// /Telemetry and NetworkTablesTunableBackend at /Tunables):
//
//   - the topics under /Telemetry (unless the prefix is set otherwise),
//     with the "unit" property Telemetry.setProperty uses;
//   - each PID controller as WPILib's PIDController tunable
//     (wpimath PIDController.java publishTunable, getTunableType):
//     /Tunables/controllers/NAME/ with .type "PIDController" and the
//     doubles p, i, d, plus f (frcd's feedforward gain), each topic with
//     the property {"mutable":true} (NetworkTablesTunableBackend.java
//     getProperties, and MUTABLE_PROPERTIES for the .type). A dashboard
//     tunes one by publishing a double to the same topic, as WPILib's
//     backend subscribes to its own topic; frcd takes it as a gain change
//     under today's rules (nt4: tuning: true, the robot enabled, finite
//     and >= 0), else refuses and counts it, and publishes the gain it
//     has again, as WPILib's backend republishes after a remote set;
//   - the Field2d as Telemetry logs one (Field2d.logTo, TelemetryTable.log
//     of a TelemetryLoggable): PREFIX/Field/.type "Field2d" (properties
//     {}), PREFIX/Field/Robot struct:Pose2d[] (one pose), with the struct
//     schemas under /.schema/struct:Pose2d, :Translation2d, :Rotation2d;
//   - the Alerts where WPILib's SmartDashboard puts them,
//     /SmartDashboard/Alerts/ with .type "Alerts" and errors, warnings,
//     infos string[] (v2026.2.2 wpilibj Alert.java SendableAlerts:
//     SmartDashboard.putData(group)). WPILib 2027 moved Alert to the HAL
//     (#8646) and wpiutil (#9025), the Systemcore's system software
//     carries them to the Driver Station, and no robot program publishes
//     an NT table of them; glass's NTAlerts, Elastic and AdvantageScope
//     find the table by its .type.
type Layout uint8

// The layouts.
const (
	Layout2026 Layout = iota // frcd's own tables, WPILib 2026's Field2d (the default)
	Layout2027               // /Telemetry and /Tunables, as WPILib 2027
)

// Prefix2027 is the topics' root in Layout2027; TunablesPrefix the
// tunables' (WPILib 2027's RobotBase).
const (
	Prefix2027     = "/Telemetry"
	TunablesPrefix = "/Tunables/"
	tunablePIDs    = TunablesPrefix + "controllers/"
)

// ParseLayout reads a layout's name: "2026" or "2027".
func ParseLayout(s string) (Layout, error) {
	switch s {
	case "2026":
		return Layout2026, nil
	case "2027":
		return Layout2027, nil
	}
	return 0, fmt.Errorf("NetworkTables layout %q: want 2026 or 2027", s)
}

func (l Layout) String() string {
	if l == Layout2027 {
		return "2027"
	}
	return "2026"
}

// The terms of a PID controller's tunable, in Gains' order.
var gainTerms = [4]string{"p", "i", "d", "f"}

// TunableGain reads a tunable's topic name,
// /Tunables/controllers/NAME/TERM: the controller's name and the term's
// index in {p, i, d, f}; false for any other name.
func TunableGain(topic string) (controller string, term int, ok bool) {
	rest, found := strings.CutPrefix(topic, tunablePIDs)
	i := strings.LastIndexByte(rest, '/')
	if !found || i <= 0 {
		return "", 0, false
	}
	for k, t := range gainTerms {
		if rest[i+1:] == t {
			return rest[:i], k, true
		}
	}
	return "", 0, false
}

// tunable is a PID controller's gains as WPILib 2027's PIDController
// tunable.
type tunable struct {
	c     *control.Controller
	terms [4]*Topic
}

// addTunables publishes the PID controllers' gains under /Tunables.
func (s *Source) addTunables() {
	mutable := jsonProp("mutable", "true")
	for _, g := range s.gains {
		base := tunablePIDs + g.c.Name + "/"
		s.add(base+".type", "string", String, mutable).setString("PIDController", time.Microsecond)
		tu := tunable{c: g.c}
		for k, term := range gainTerms {
			tu.terms[k] = s.add(base+term, "double", Double, mutable)
		}
		s.tunables = append(s.tunables, tu)
	}
}

// sampleTunables updates the tunables that are needed.
func (s *Source) sampleTunables(now time.Duration) {
	for _, tu := range s.tunables {
		t := &tu.terms
		if !anyNeeded(t[0], t[1], t[2], t[3]) {
			continue
		}
		g := tu.c.Gains()
		for k, v := range [4]float64{g.P, g.I, g.D, g.F} {
			t[k].setDouble(v, now)
		}
	}
}

// jsonProp is the JSON object of one property whose value is JSON already
// (props quotes its values as strings).
func jsonProp(key, jsonValue string) string {
	return `{"` + key + `":` + jsonValue + `}`
}
