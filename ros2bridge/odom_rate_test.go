package ros2bridge_test

import (
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/ros2bridge"
)

// TestOdometryOwnRate: a drive controller's odometry is published at its
// own publish_rate and follows its own controller's running state, as
// diff_drive_controller does in ros2_control, not the joint states' rate
// or running state. The competition robot on the stepped sim at 100 Hz,
// the joint states at 10 Hz, its diff drive's publish_rate the default
// 50; the test answers the cycles the loop would signal Run for, as Run
// does (Wanted, UpdateAsk: a wake-up asked for before a switch stays).
// Over 100 cycles: 50 odometry messages, 10 /joint_states; the joint
// state controller stopped: 50 odometry, 0 /joint_states; the drive
// controller stopped: no odometry, 10 /joint_states and 10 (or 11)
// wake-ups.
func TestOdometryOwnRate(t *testing.T) {
	d, b, m := newManagedBridge(t, exampleYAML, nil, func(o *ros2bridge.Options) {
		o.Every = 10 * o.Loop.Period() // the joint state controller's publish_rate 10
	})
	if p := d.Loop.Period(); p != 10*time.Millisecond {
		t.Fatalf("loop period %v, the test wants 10 ms", p)
	}
	if !m.Running("drive") {
		t.Fatal("the drive controller does not run")
	}
	// run steps 100 cycles, calling Update for those at or after the
	// time the bridge asks to be woken from, and returns the wake-ups,
	// the odometry and the /joint_states published.
	run := func() (wakes int, odom, joints uint64) {
		st := b.Stats()
		for range 100 {
			d.Step()
			if d.Now() >= b.Wanted() { // as the loop signals Run
				wakes++
				b.UpdateAsk()
			}
		}
		now := b.Stats()
		odom, joints = now.Odometry-st.Odometry, now.JointStates-st.JointStates
		t.Logf("100 cycles: %d wake-ups, %d odometry, %d /joint_states", wakes, odom, joints)
		return wakes, odom, joints
	}
	run() // both grids settle
	if wakes, odom, joints := run(); wakes < 50 || wakes > 60 || odom < 49 || odom > 51 || joints < 9 || joints > 11 {
		t.Errorf("joint states at 10 Hz, odometry at 50 Hz, over 100 cycles: %d wake-ups, %d odometry, %d /joint_states; want 50 to 60, 50, 10",
			wakes, odom, joints)
	}
	if ok, err := m.Switch([]string{"joint_state_controller"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	if wakes, odom, joints := run(); wakes < 49 || wakes > 52 || odom < 49 || odom > 51 || joints != 0 {
		t.Errorf("joint state controller stopped: %d wake-ups, %d odometry, %d /joint_states; want 50, 50, 0", wakes, odom, joints)
	}
	if ok, err := m.Switch([]string{"drive"}, []string{"joint_state_controller"}, control.Strict); !ok {
		t.Fatal(err)
	}
	if wakes, odom, joints := run(); wakes < 9 || wakes > 12 || odom != 0 || joints < 9 || joints > 11 {
		t.Errorf("drive controller stopped: %d wake-ups, %d odometry, %d /joint_states; want 10, 0, 10", wakes, odom, joints)
	}
}

// TestOdometryWhileDisabled: disabled or e-stopped, the robot's drive
// controller is not stopped (only controller_manager stops it), so its
// odometry goes on at its publish_rate, as before i38g (docs/drive.md: the
// odometry keeps counting while disabled or e-stopped). Over 100 cycles at
// 100 Hz with the default publish_rate 50: 50 odometry messages disabled,
// and 50 e-stopped.
func TestOdometryWhileDisabled(t *testing.T) {
	d, b, _ := newManagedBridge(t, exampleYAML, nil, func(o *ros2bridge.Options) {
		o.Every = 10 * o.Loop.Period()
	})
	snap := d.Loop.NewSnapshot()
	run := func() uint64 {
		st := b.Stats()
		for range 100 {
			d.Step()
			if d.Now() >= b.NextWake() {
				b.Update()
			}
		}
		if d.Loop.ReadSnapshot(snap); snap.Enabled {
			t.Fatal("the robot is enabled: the test wants it disabled")
		}
		return b.Stats().Odometry - st.Odometry
	}
	if err := d.Enable(false); err != nil {
		t.Fatal(err)
	}
	run()
	if n := run(); n < 49 || n > 51 {
		t.Errorf("disabled: %d odometry over 100 cycles, want 50", n)
	}
	d.Sim.SetDS(hal.DSState{Enabled: true, EStop: true, Attached: true})
	run()
	if n := run(); n < 49 || n > 51 {
		t.Errorf("e-stopped: %d odometry over 100 cycles, want 50", n)
	}
}
