package ros2bridge_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// imuBroadcasterLine is an IMU sensor controller of the example's navX,
// at 10 Hz where the state topics run at the loop's 100 Hz.
const imuBroadcasterLine = "  navx_broadcaster:    {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 10, frame_id: navx_link}\n"

// exampleWithIMUBroadcaster is the example robot's YAML with
// imuBroadcasterLine among its controllers, in a file of the test's.
func exampleWithIMUBroadcaster(t testing.TB) string {
	return exampleWithController(t, imuBroadcasterLine)
}

// exampleWithController is the example robot's YAML with line among its
// controllers, in a file of the test's.
func exampleWithController(t testing.TB, line string) string {
	src, err := os.ReadFile(exampleYAML)
	if err != nil {
		t.Fatal(err)
	}
	const after = "controllers:\n"
	text := string(src)
	if !strings.Contains(text, after) {
		t.Fatalf("%s has no %q", exampleYAML, after)
	}
	out := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(out, []byte(strings.Replace(text, after, after+line, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIMUSensorController: with an IMU sensor controller of the navX
// (publish_rate 10, frame_id navx_link), a ROS 2 peer gets the navX on
// /navx_broadcaster/imu (IMUSensorBroadcaster's ~/imu) in navx_link, 10
// times over 100 state publications a loop cycle apart, while the
// Pigeon, which has none, comes with every one on /pigeon/imu; /navx/imu
// is gone. Stopped by controller_manager, the navX is not published;
// started again, it is. list_controllers reports it as
// imu_sensor_broadcaster/IMUSensorBroadcaster, and its node's update_rate
// is its publish_rate.
func TestIMUSensorController(t *testing.T) {
	yaml := exampleWithIMUBroadcaster(t)
	d, b, m := newManagedBridge(t, yaml, t.Logf)
	cfg := discovery(t)
	cfg.Name = "peer"
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	type imuMsg struct {
		topic string
		m     ros2msg.Imu
	}
	got := make(chan imuMsg, 1000)
	readers := map[string]*ros2node.Subscription{}
	for _, topic := range []string{"/navx_broadcaster/imu", "/pigeon/imu", "/navx/imu"} {
		r, err := peer.Subscribe(topic, &ros2msg.Imu{}, ros2node.Default, func(s rtps.Sample) {
			var m ros2msg.Imu
			if err := ros2msg.Unmarshal(s.Payload, &m); err != nil {
				t.Errorf("%s: %v", topic, err)
				return
			}
			got <- imuMsg{topic, m}
		})
		if err != nil {
			t.Fatal(err)
		}
		readers[topic] = r
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for _, topic := range []string{"/navx_broadcaster/imu", "/pigeon/imu"} {
		if err := readers[topic].WaitMatched(ctx, 1); err != nil {
			t.Fatalf("%s: %v", topic, err)
		}
	}
	// frcd announces the navX's writer before the Pigeon's: a /navx/imu
	// writer would have matched by now.
	if n := readers["/navx/imu"].Matched(); n != 0 {
		t.Errorf("/navx/imu has %d writers: the navX is its IMU sensor controller's", n)
	}
	// cycles steps and publishes n cycles, each time waiting for the
	// Pigeon's message of the cycle (sent after the navX's, on one
	// socket), and returns how many navX messages of these cycles came
	// (by their stamps: the cycles' times).
	cycles := func(n int) int {
		navx := 0
		for range n {
			d.Step()
			stamp := ros2msg.TimeOf(d.Epoch().Add(b.Publish()))
			for done := false; !done; {
				select {
				case e := <-got:
					if e.m.Header.Stamp != stamp {
						continue // an earlier cycle's
					}
					switch e.topic {
					case "/pigeon/imu":
						done = true
						if e.m.Header.FrameID != "pigeon" {
							t.Errorf("/pigeon/imu in frame %q", e.m.Header.FrameID)
						}
					case "/navx_broadcaster/imu":
						navx++
						if e.m.Header.FrameID != "navx_link" {
							t.Errorf("/navx_broadcaster/imu in frame %q, want frame_id's navx_link", e.m.Header.FrameID)
						}
					}
				case <-ctx.Done():
					t.Fatal("no /pigeon/imu message for a state publication")
				}
			}
		}
		return navx
	}
	// frcd's writers match the peer's readers when frcd has the peer's
	// announcements, which may come after the peer has frcd's: publish
	// until both IMUs' messages come, then count.
	for pigeon, navx := false, false; !pigeon || !navx; {
		d.Step()
		b.Publish()
		select {
		case e := <-got:
			pigeon, navx = pigeon || e.topic == "/pigeon/imu", navx || e.topic == "/navx_broadcaster/imu"
		case <-ctx.Done():
			t.Fatal("no IMU messages")
		default:
		}
	}
	if n := cycles(100); n < 9 || n > 11 {
		t.Errorf("%d navX messages over 100 state publications 10 ms apart, want 10 (publish_rate 10)", n)
	}
	if ok, err := m.Switch([]string{"navx_broadcaster"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	if n := cycles(30); n != 0 {
		t.Errorf("%d navX messages while its IMU sensor controller is stopped", n)
	}
	if ok, err := m.Switch(nil, []string{"navx_broadcaster"}, control.Strict); !ok {
		t.Fatal(err)
	}
	if n := cycles(30); n < 2 || n > 4 {
		t.Errorf("%d navX messages over 30 publications once started again, want 3", n)
	}
	found := false
	for _, c := range m.List() {
		if c.Name == "navx_broadcaster" {
			found = true
			if typ := config.ROS2ControllerType(c.Type); typ != "imu_sensor_broadcaster/IMUSensorBroadcaster" || c.State != control.Running {
				t.Errorf("list_controllers: navx_broadcaster %s, %s", typ, c.State)
			}
		}
	}
	if !found {
		t.Errorf("the manager does not list navx_broadcaster: %+v", m.List())
	}
	if v := newParamClient(newClient(t, ctx), "/navx_broadcaster").values("update_rate")[0]; v.typ != 2 || v.i != 10 {
		t.Errorf("/navx_broadcaster's update_rate %+v, want its publish_rate 10", v)
	}
}

// TestIMUSensorControllerOwnRate: an IMU sensor controller publishes at
// its own rate, not the joint state controller's, and follows only its
// own running state, as ros2_control's broadcasters each run at their
// update rate. Stepped sim at 100 Hz, the joint state topics at 10 Hz,
// the navX's IMU sensor controller at 50 Hz; the test calls Update as
// Run does, only for the cycles from the time the bridge asks to be woken
// (NextWake). Over 100 cycles: 50 wake-ups, 50 navX messages (each a
// cycle's stamp, none twice), 10 /joint_states; with the joint state
// controller stopped, still 50 navX messages and no /joint_states; with
// the navX's controller stopped and the joint state controller running,
// no navX message and 10 wake-ups (no extra wake). Its node's update_rate
// is its publish_rate 50.
func TestIMUSensorControllerOwnRate(t *testing.T) {
	yaml := exampleWithController(t, "  navx_broadcaster:    {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 50}\n")
	d, b, m := newManagedBridge(t, yaml, t.Logf, func(o *ros2bridge.Options) {
		o.Every = 10 * o.Loop.Period() // the joint state controller's publish_rate 10
	})
	if p := d.Loop.Period(); p != 10*time.Millisecond {
		t.Fatalf("loop period %v, the test wants 10 ms", p)
	}
	// The drive base's odometry wakes the bridge on its own grid
	// (TestOdometryOwnRate): stopped, so that the wake-ups counted here
	// are the joint states' and the navX's.
	if ok, err := m.Switch([]string{"drive"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	got := subscribeIMUs(t, "/navx_broadcaster/imu", "/pigeon/imu")
	timeout := time.After(waitLimit)
	stampOf := func(t time.Duration) ros2msg.Time { return ros2msg.TimeOf(d.Epoch().Add(t)) }
	// Publish until both topics' messages come (frcd may match the
	// peer's readers after the peer has matched its writers).
	untilBoth(t, got, "/pigeon/imu", "/navx_broadcaster/imu", func() {
		d.Step()
		b.Publish()
	})
	b.Update() // past the cycles stepped so far
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if v := newParamClient(newClient(t, ctx), "/navx_broadcaster").values("update_rate")[0]; v.typ != 2 || v.i != 50 {
		t.Errorf("/navx_broadcaster's update_rate %+v, want its publish_rate 50 (the state topics' is 10)", v)
	}
	// run steps 100 cycles, calling Update for those at or after the
	// time the bridge asks to be woken from, then one more with Publish
	// (the Pigeon's message marks the end), and returns the wake-ups, the
	// navX messages stamped with the 100 cycles' times (each once) and
	// the /joint_states published.
	run := func() (wakes, busy, navx int, joints uint64) {
		js0 := b.Stats().JointStates
		from := d.Now()
		cycles := map[ros2msg.Time]bool{}
		published := map[ros2msg.Time]bool{} // the cycles with a publication, from either
		for range 100 {
			d.Step()
			cycles[stampOf(d.Now())] = true
			if d.Now() >= b.NextWake() {
				wakes++
				if at, ok := b.Update(); ok {
					published[stampOf(at)] = true
				}
			}
		}
		joints = b.Stats().JointStates - js0
		d.Step()
		end := stampOf(b.Publish())
		seen := map[ros2msg.Time]bool{}
		for {
			select {
			case e := <-got:
				switch {
				case e.topic == "/pigeon/imu" && e.stamp == end:
					for st := range seen {
						published[st] = true
					}
					busy = len(published)
					t.Logf("100 cycles: %d wake-ups, %d cycles with a publication, %d navX messages, %d /joint_states", wakes, busy, navx, joints)
					return wakes, busy, navx, joints
				case e.topic != "/navx_broadcaster/imu" || !cycles[e.stamp]:
				case seen[e.stamp]:
					t.Errorf("navX sample of %v published twice", e.stamp)
				default:
					seen[e.stamp] = true
					navx++
				}
			case <-timeout:
				t.Fatalf("no Pigeon message at the end of the cycles from %v", from)
			}
		}
	}
	run() // settles both grids after the Publish calls above
	// A wake-up per cycle with a publication (the grids need not meet:
	// 50 to 60), one more at most after a switch (the wake-up asked for
	// before it).
	if wakes, busy, navx, joints := run(); wakes != busy || navx < 49 || navx > 51 || joints < 9 || joints > 11 {
		t.Errorf("joint states at 10 Hz, navX at 50 Hz, over 100 cycles: %d wake-ups, %d cycles with a publication, %d navX messages, %d /joint_states; want as many, 50, 10",
			wakes, busy, navx, joints)
	}
	if ok, err := m.Switch([]string{"joint_state_controller"}, nil, control.Strict); !ok {
		t.Fatal(err)
	}
	if wakes, busy, navx, joints := run(); wakes < busy || wakes > busy+1 || navx < 49 || navx > 51 || joints != 0 {
		t.Errorf("joint state controller stopped: %d wake-ups, %d cycles with a publication, %d navX messages, %d /joint_states; want as many, 50, 0",
			wakes, busy, navx, joints)
	}
	if ok, err := m.Switch([]string{"navx_broadcaster"}, []string{"joint_state_controller"}, control.Strict); !ok {
		t.Fatal(err)
	}
	if wakes, busy, navx, joints := run(); wakes < busy || wakes > busy+1 || navx != 0 || joints < 9 || joints > 11 {
		t.Errorf("navX's controller stopped: %d wake-ups, %d cycles with a publication, %d navX messages, %d /joint_states; want as many, 0, 10",
			wakes, busy, navx, joints)
	}
}

// TestIMUBroadcasterAllocatesNothing: a cycle of the stepped sim and the
// bridge's Update and NextWake, with /joint_states, an IMU sensor
// controller and the drive base's odometry (and its /tf) publishing at
// their own rates, allocate nothing (no peer: its receiving would count).
func TestIMUBroadcasterAllocatesNothing(t *testing.T) {
	yaml := exampleWithController(t, "  navx_broadcaster:    {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 50}\n")
	d, b, _ := newManagedBridge(t, yaml, nil, func(o *ros2bridge.Options) {
		o.Every = 5 * o.Loop.Period()
	})
	for range 50 { // the first sizes the slices; then each writer's history (keep last 10) fills
		d.Step()
		b.Update()
	}
	// 41 cycles from 0.5 s: before the next /diagnostics (once a
	// second, its strings allocated).
	if n := testing.AllocsPerRun(40, func() { d.Step(); b.UpdateAsk() }); n != 0 {
		t.Errorf("a cycle and Update allocate %v times (the stepped sim alone: %v)", n, testing.AllocsPerRun(40, d.Step))
	}
	if st := b.Stats(); st.JointStates < 17 || st.Odometry < 44 || st.PublishErr != 0 {
		t.Errorf("stats %+v, want 18 joint states (91 cycles, every 5th), 45 odometry (50 Hz)", st)
	}
}

// TestIMUSensorControllerEveryIMU: an IMU sensor controller written as
// ros_controllers' is (type and publish_rate only, as frc_control's
// uwreact_2019_robot.yaml has it) publishes every IMU, each on its
// /NAME/imu, at its own rate: over 100 stepped cycles at 100 Hz with the
// joint states at 10 Hz, 20 navX and 20 Pigeon messages for publish_rate
// 20, each a cycle's stamp, none twice. One naming an IMU keeps that IMU
// (BroadcasterOf).
func TestIMUSensorControllerEveryIMU(t *testing.T) {
	yaml := exampleWithController(t, "  imu_sensor_controller: {type: imu_sensor_controller/ImuSensorController, publish_rate: 20}\n")
	d, b, m := newManagedBridge(t, yaml, t.Logf, func(o *ros2bridge.Options) {
		o.Every = 10 * o.Loop.Period()
	})
	for _, imu := range []string{"navx", "pigeon"} {
		if bc, ok := m.BroadcasterOf(imu); !ok || bc.Name != "imu_sensor_controller" || bc.Sensor != "" || bc.Rate != 20 {
			t.Errorf("%s's broadcaster %+v %v, want imu_sensor_controller of every IMU at 20 Hz", imu, bc, ok)
		}
	}
	both := exampleWithController(t, "  imu_sensor_controller: {type: imu_sensor_controller/ImuSensorController, publish_rate: 20}\n"+
		"  navx_broadcaster: {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 50}\n")
	r2, _, err := robot.Load(exampleURDF, both)
	if err != nil {
		t.Fatal(err)
	}
	m2 := control.NewManager(r2.Config, d.Loop)
	if bc, _ := m2.BroadcasterOf("navx"); bc.Name != "navx_broadcaster" {
		t.Errorf("navX's broadcaster %q beside one of every IMU, want navx_broadcaster, which names it", bc.Name)
	}
	if bc, _ := m2.BroadcasterOf("pigeon"); bc.Name != "imu_sensor_controller" {
		t.Errorf("Pigeon's broadcaster %q, want imu_sensor_controller (every IMU)", bc.Name)
	}
	if ok, err := m.Switch([]string{"drive"}, nil, control.Strict); !ok { // its odometry's wake-ups aside
		t.Fatal(err)
	}
	got := subscribeIMUs(t, "/navx/imu", "/pigeon/imu")
	timeout := time.After(waitLimit)
	untilBoth(t, got, "/navx/imu", "/pigeon/imu", func() { // until frcd has matched both readers
		d.Step()
		if d.Now() >= b.NextWake() {
			b.Update()
		}
	})
	// Both IMUs come on the same grid: the last cycle with a publication
	// marks the end of the 100.
	stampOf := func(t time.Duration) ros2msg.Time { return ros2msg.TimeOf(d.Epoch().Add(t)) }
	for len(got) > 0 {
		<-got
	}
	cycles, last := map[ros2msg.Time]bool{}, ros2msg.Time{}
	for range 100 {
		d.Step()
		cycles[stampOf(d.Now())] = true
		if d.Now() >= b.NextWake() {
			if _, ok := b.Update(); ok {
				last = stampOf(d.Now())
			}
		}
	}
	count := map[string]int{}
	seen := map[imuMsg]bool{}
	for done := map[string]bool{}; !done["/navx/imu"] || !done["/pigeon/imu"]; {
		select {
		case e := <-got:
			if !cycles[e.stamp] {
				continue
			}
			if seen[e] {
				t.Errorf("%s sample of %v published twice", e.topic, e.stamp)
			}
			seen[e] = true
			count[e.topic]++
			if e.stamp == last {
				done[e.topic] = true
			}
		case <-timeout:
			t.Fatalf("IMU messages up to the last publication %v: %v", last, count)
		}
	}
	for _, topic := range []string{"/navx/imu", "/pigeon/imu"} {
		if n := count[topic]; n < 19 || n > 21 {
			t.Errorf("%s: %d messages over 100 cycles at 100 Hz, want 20 (publish_rate 20; the joint states at 10)", topic, n)
		}
	}
}

// imuMsg is an IMU message a peer got: its topic and its stamp.
type imuMsg struct {
	topic string
	stamp ros2msg.Time
}

// subscribeIMUs is a peer's IMU messages on topics, once its reader of
// each has matched frcd's writer (the peer is closed at the test's end).
func subscribeIMUs(t *testing.T, topics ...string) <-chan imuMsg {
	t.Helper()
	peer := newPeer(t)
	got := make(chan imuMsg, 1000)
	for _, topic := range topics {
		r, err := peer.Subscribe(topic, &ros2msg.Imu{}, ros2node.Default, func(s rtps.Sample) {
			var m ros2msg.Imu
			if err := ros2msg.Unmarshal(s.Payload, &m); err != nil {
				t.Errorf("%s: %v", topic, err)
				return
			}
			got <- imuMsg{topic, m.Header.Stamp}
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		err = r.WaitMatched(ctx, 1)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", topic, err)
		}
	}
	return got
}

// untilBoth calls step until a message of topic a and one of topic b
// have come on got, failing the test after waitLimit.
func untilBoth(t *testing.T, got <-chan imuMsg, a, b string, step func()) {
	t.Helper()
	timeout := time.After(waitLimit)
	for gotA, gotB := false, false; !gotA || !gotB; {
		step()
		select {
		case e := <-got:
			gotA, gotB = gotA || e.topic == a, gotB || e.topic == b
		case <-timeout:
			t.Fatal("no IMU messages")
		default:
		}
	}
}
