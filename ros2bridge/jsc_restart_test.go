package ros2bridge_test

import (
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/ros2bridge"
)

// TestJointStatesRestart: while the joint state controller is stopped and
// an IMU sensor controller runs at a low rate (0.5 Hz), the bridge wakes
// only on the broadcaster's grid, so the loop's ring keeps cycles run
// while the joint state controller was stopped. Started again, it is seen
// at the next cycle (Manager.OnStart), not at the broadcaster's next
// time up to 2 s later, and /joint_states does not publish the ring's
// cycles from while it was stopped in a burst: the first publication
// after the restart comes within 3 cycles, one message, for a cycle at or
// after the restart. The test asks for the loop's signals as Run does
// (UpdateAsk, Wanted). Without the ring's cycles dropped at the restart:
// 6 at once, the newest for a cycle 0.69 s before the restart (the ring
// full); without OnStart: the first 72 cycles late.
func TestJointStatesRestart(t *testing.T) {
	yaml := exampleWithController(t, "  navx_broadcaster:    {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 0.5}\n")
	d, b, m := newManagedBridge(t, yaml, nil, func(o *ros2bridge.Options) {
		o.Every = 10 * o.Loop.Period() // the joint state controller's publish_rate 10
	})
	if p := d.Loop.Period(); p != 10*time.Millisecond {
		t.Fatalf("loop period %v, the test wants 10 ms", p)
	}
	if ok, err := m.Switch([]string{"drive", "joint_state_controller"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	// step runs one cycle and, if the bridge asked to be woken by then,
	// its Update; it returns the /joint_states published and the last
	// cycle published.
	step := func() (uint64, time.Duration) {
		d.Step()
		if d.Now() < b.Wanted() {
			return 0, 0
		}
		before := b.Stats().JointStates
		b.UpdateAsk()
		return b.Stats().JointStates - before, b.LastCycle()
	}
	for range 330 { // stopped: the broadcaster's wake-ups only
		if n, _ := step(); n != 0 {
			t.Fatalf("%d /joint_states with the joint state controller stopped", n)
		}
	}
	restart := d.Now()
	if ok, err := m.Switch(nil, []string{"joint_state_controller"}, control.Strict); !ok {
		t.Fatal(err)
	}
	for i := range 250 {
		n, last := step()
		if n == 0 {
			continue
		}
		if n != 1 || last < restart || i+1 > 3 {
			t.Errorf("first publication %d cycles after the restart at %v: %d /joint_states at once, the last for the cycle at %v; want 1, at or after the restart, within 3 cycles",
				i+1, restart, n, last)
		}
		return
	}
	t.Error("no /joint_states in the 250 cycles after the joint state controller's restart")
}
