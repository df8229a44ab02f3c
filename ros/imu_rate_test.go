package ros

import (
	"fmt"
	"strings"
	"testing"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"

	"github.com/frcd/frcd/control"
)

// TestIMUSensorControllerOwnRate: an IMU sensor controller publishes at
// its own rate, not the state topics', and follows only its own running
// state, as ros_control runs each controller. The example robot on the
// stepped sim at 100 Hz, its joint state controller at publish_rate 10,
// an IMU sensor controller of its navX at 50; the session connected to an
// embedded master, a goroslib subscriber on /navx/imu, and the test
// calling the session's update as its run does, for the cycles from the
// time it asks to be woken from. Over 100 cycles: 50 wake-ups, 50 /navx/imu
// (each a cycle's stamp, none twice), 10 /joint_states; the joint state
// controller stopped: 50 /navx/imu still; the IMU sensor controller
// stopped: none, and 10 wake-ups.
func TestIMUSensorControllerOwnRate(t *testing.T) {
	line := "  navx_broadcaster: {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 50}\n"
	st := newStepped(t, func(t *testing.T, yaml string) string {
		return jscRate10(t, strings.Replace(yaml, "controllers:\n", "controllers:\n"+line, 1))
	})
	s, m, br, ctx := st.s, st.m, st.br, st.ctx
	if br.every != 100*time.Millisecond {
		t.Fatalf("state topics every %v, want publish_rate 10's 100 ms", br.every)
	}
	// The drive base's odometry wakes the session on its own grid
	// (TestOdometryOwnRate): stopped, so that the wake-ups counted here
	// are the state topics' and the navX's.
	if ok, err := m.Switch([]string{"drive"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	node, err := goroslib.NewNode(goroslib.NodeConf{Name: "imu_rate_test", MasterAddress: fmt.Sprintf("127.0.0.1:%d", st.port),
		Host: "127.0.0.1", LogDestinations: goroslib.LogDestinationCallback})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	stamps := make(chan time.Time, 1000)
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: node, Topic: "/navx/imu",
		Callback: func(m *sensor_msgs.Imu) { stamps <- m.Header.Stamp }})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()

	step := st.step
	// until steps until a /navx/imu stamped after t comes.
	until := func(t0 time.Duration, seen func(time.Duration)) {
		for {
			step()
			select {
			case st := <-stamps:
				at := st.Sub(s.Epoch())
				if at > t0 {
					return
				}
				seen(at)
			case <-ctx.Done():
				t.Fatalf("no /navx/imu after %v", t0)
			default:
			}
		}
	}
	until(0, func(time.Duration) {}) // the subscriber connected
	// run steps 100 cycles, then until a /navx/imu of a later cycle
	// comes (after the IMU sensor controller is running: start), and
	// returns the wake-ups, the /navx/imu of the 100 cycles and the
	// /joint_states published.
	run := func(start func()) (w, navx int, joints uint64) {
		w0, js0, t0 := st.wakes, br.Stats().JointStates, st.now
		for range 100 {
			step()
		}
		w, joints, t1 := st.wakes-w0, br.Stats().JointStates-js0, st.now
		start()
		seen := map[time.Duration]bool{}
		until(t1, func(at time.Duration) {
			switch {
			case at <= t0:
			case seen[at]:
				t.Errorf("the navX's sample of %v came twice", at)
			default:
				seen[at] = true
				navx++
			}
		})
		t.Logf("100 cycles: %d wake-ups, %d /navx/imu, %d /joint_states", w, navx, joints)
		return w, navx, joints
	}
	none := func() {}
	if w, navx, joints := run(none); w < 49 || w > 51 || navx < 49 || navx > 51 || joints < 9 || joints > 11 {
		t.Errorf("joint states at 10 Hz, navX at 50 Hz, over 100 cycles: %d wake-ups, %d /navx/imu, %d /joint_states; want 50, 50, 10",
			w, navx, joints)
	}
	if ok, err := m.Switch([]string{"joint_state_controller"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	if w, navx, joints := run(none); w < 49 || w > 51 || navx < 49 || navx > 51 || joints != 0 {
		t.Errorf("joint state controller stopped: %d wake-ups, %d /navx/imu, %d /joint_states; want 50, 50, 0", w, navx, joints)
	}
	if ok, err := m.Switch([]string{"navx_broadcaster"}, []string{"joint_state_controller"}, control.Strict); !ok {
		t.Fatal(err)
	}
	restart := func() {
		if ok, err := m.Switch(nil, []string{"navx_broadcaster"}, control.Strict); !ok {
			t.Fatal(err)
		}
	}
	if w, navx, joints := run(restart); w < 9 || w > 11 || navx != 0 || joints < 9 || joints > 11 {
		t.Errorf("IMU sensor controller stopped: %d wake-ups, %d /navx/imu, %d /joint_states; want 10, 0, 10", w, navx, joints)
	}
}
