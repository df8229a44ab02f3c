package ros

import (
	"testing"

	"github.com/bluenviron/goroslib/v2/pkg/msgproc"
	"github.com/bluenviron/goroslib/v2/pkg/serviceproc"
)

// TestControllerManagerMD5: the md5sums the stock spawner and rosservice
// compare, as genpy computes them from cmmsgs/ (TestControllerManager
// generates the Python types from that text and calls frcd with them);
// and roscpp's logger services, as Debian's python3-roscpp-msg (genpy of
// ros_comm's .srv) has them, which rosservice and rqt_logger_level
// compare.
func TestControllerManagerMD5(t *testing.T) {
	for _, c := range []struct {
		srv  any
		want string
	}{
		{ListControllers{}, "1341feb2e63fa791f855565d0da950d8"},
		{ListControllerTypes{}, "c1d4cd11aefa9f97ba4aeb5b33987f4e"},
		{LoadController{}, "647e5c54b8d6468952d8d31f1efe96c0"},
		{UnloadController{}, "647e5c54b8d6468952d8d31f1efe96c0"},
		{SwitchController{}, "b29a7abc673b2c54c14b54e50f8d06a5"},
		{ReloadControllerLibraries{}, "40e8c411fd1797d2e2c486018f846040"},
		{GetLoggers{}, "32e97e85527d4678a8f9279894bb64b0"},
		{SetLoggerLevel{}, "51da076440d78ca1684d36c868df61ea"},
	} {
		if got, err := serviceproc.MD5(c.srv); err != nil || got != c.want {
			t.Errorf("%T: md5 %s (%v), want %s", c.srv, got, err, c.want)
		}
	}
	if got, err := msgproc.MD5(ControllerState{}); err != nil || got != "aeb6b261d97793ab74099a3740245272" {
		t.Errorf("ControllerState: md5 %s (%v)", got, err)
	}
	if got, err := msgproc.MD5(Logger{}); err != nil || got != "a6069a2ff40db7bd32143dd66e1f408e" {
		t.Errorf("Logger: md5 %s (%v)", got, err)
	}
	// control_msgs/JointControllerState: genpy's md5 of ctlmsgs/msg/'s text
	// (Header's md5 in place of its name), as rostopic compares it.
	if got, err := msgproc.MD5(JointControllerState{}); err != nil || got != "987ad85e4756f3aef7f1e5e7fe0595d1" {
		t.Errorf("JointControllerState: md5 %s (%v)", got, err)
	}
	// control_msgs/JointTrajectoryControllerState: genpy's md5 of
	// ctlmsgs/msg/'s text, with ctlmsgs/trajectory_msgs/.
	if got, err := msgproc.MD5(JointTrajectoryControllerState{}); err != nil || got != "10817c60c2486ef6b33e97dcd87f4474" {
		t.Errorf("JointTrajectoryControllerState: md5 %s (%v)", got, err)
	}
	// trajectory_msgs/JointTrajectory as Debian's python3-trajectory-msgs
	// has it (its _md5sum), for the command topic.
	if got, err := msgproc.MD5(JointTrajectory{}); err != nil || got != "65b4f94a94d1ed67169da35a02f33d3f" {
		t.Errorf("JointTrajectory: md5 %s (%v)", got, err)
	}
}
