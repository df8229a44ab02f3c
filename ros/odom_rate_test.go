package ros

import (
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
)

// TestOdometryOwnRate: a drive controller's odometry is published at its
// own publish_rate and follows only its own controller's running state,
// as ros_control runs each controller's update (diff_drive_controller
// publishes odom from it at its publish_rate), not the state topics'
// rate or the joint state controller's running state. The competition
// robot on the stepped sim at 100 Hz, its joint state controller at
// publish_rate 10, its diff drive at the default 50 (newStepped). Over 100
// cycles: 50 wake-ups, 50 odometry, 10 /joint_states; the joint state
// controller stopped: 50 odometry still, no /joint_states; the drive
// controller stopped: no odometry, 10 wake-ups.
func TestOdometryOwnRate(t *testing.T) {
	st := newStepped(t, jscRate10)
	if !st.m.Running("drive") {
		t.Fatal("the drive controller does not run")
	}
	// run steps 100 cycles and returns the wake-ups, the odometry and
	// the /joint_states published.
	run := func() (wakes int, odom, joints uint64) {
		w0, s0 := st.wakes, st.br.Stats()
		for range 100 {
			st.step()
		}
		s1 := st.br.Stats()
		wakes, odom, joints = st.wakes-w0, s1.Odometry-s0.Odometry, s1.JointStates-s0.JointStates
		t.Logf("100 cycles: %d wake-ups, %d odometry, %d /joint_states", wakes, odom, joints)
		return wakes, odom, joints
	}
	run() // the grids settle
	if w, odom, joints := run(); w < 49 || w > 51 || odom < 49 || odom > 51 || joints < 9 || joints > 11 {
		t.Errorf("joint states at 10 Hz, odometry at 50 Hz, over 100 cycles: %d wake-ups, %d odometry, %d /joint_states; want 50, 50, 10",
			w, odom, joints)
	}
	if ok, err := st.m.Switch([]string{"joint_state_controller"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	if w, odom, joints := run(); w < 49 || w > 51 || odom < 49 || odom > 51 || joints != 0 {
		t.Errorf("joint state controller stopped: %d wake-ups, %d odometry, %d /joint_states; want 50, 50, 0", w, odom, joints)
	}
	if ok, err := st.m.Switch([]string{"drive"}, []string{"joint_state_controller"}, control.Strict); !ok {
		t.Fatal(err)
	}
	if w, odom, joints := run(); w < 9 || w > 11 || odom != 0 || joints < 9 || joints > 11 {
		t.Errorf("drive controller stopped: %d wake-ups, %d odometry, %d /joint_states; want 10, 0, 10", w, odom, joints)
	}
}

// TestOwnerStartSeenAtOnce: with the state topics at publish_rate 1, a
// drive controller started again publishes its odometry within 2 cycles,
// not at the state topics' next time up to a second later: the manager's
// start wakes the session (Manager.OnStart, session.answer), which the
// stepped harness sees as run does (the Notice's stored From). Without
// the wake-up: the first odometry 51 cycles late (up to 100).
func TestOwnerStartSeenAtOnce(t *testing.T) {
	st := newStepped(t, func(t *testing.T, yaml string) string {
		return strings.Replace(jscRate10(t, yaml), "publish_rate: 10\n", "publish_rate: 1\n", 1)
	})
	if st.br.every != time.Second {
		t.Fatalf("state topics every %v, want 1 s", st.br.every)
	}
	if ok, err := st.m.Switch([]string{"drive"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	for range 150 {
		st.step()
	}
	if ok, err := st.m.Switch(nil, []string{"drive"}, control.Strict); !ok {
		t.Fatal(err)
	}
	odom0 := st.br.Stats().Odometry
	for i := range 150 {
		st.step()
		if st.br.Stats().Odometry != odom0 {
			if i+1 > 2 {
				t.Errorf("the first odometry %d cycles after the drive controller's start, want within 2", i+1)
			}
			return
		}
	}
	t.Error("no odometry in the 150 cycles after the drive controller's start")
}
