package ros_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

// TestIMUSensorController: the example robot with an IMU sensor
// controller of its navX (publish_rate 10, frame_id navx_link) while the
// joint state controller publishes the state topics at 50 Hz: a ROS 1
// subscriber gets the navX on /navx/imu in navx_link about every 100 ms
// of stamps (ten times fewer than the Pigeon, which has none and comes
// with every state publication on /pigeon/imu, in its own frame).
// Counted on the messages' stamps (the loop's time), not the wall clock.
// Stopped by switch_controller, it publishes nothing while the Pigeon
// goes on.
func TestIMUSensorController(t *testing.T) {
	src, err := os.ReadFile(exampleYAML)
	if err != nil {
		t.Fatal(err)
	}
	yaml := filepath.Join(t.TempDir(), "robot.yaml")
	line := "  navx_broadcaster: {type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 10, frame_id: navx_link}\n"
	if err := os.WriteFile(yaml, []byte(strings.Replace(string(src), "controllers:\n", "controllers:\n"+line, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load(exampleURDF, yaml)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	port := freePort(t)
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: fmt.Sprintf("http://127.0.0.1:%d", port)}, Master: ros.MasterEmbedded}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		if err := d.Run(ctx); err != nil {
			t.Errorf("daemon: %v", err)
		}
	}()
	defer func() { cancel(); <-runDone }()
	wait := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case <-runDone:
			t.Fatalf("waiting for %s: the daemon stopped", what)
		case <-time.After(30 * time.Second):
			t.Fatalf("no %s within 30s", what)
		}
	}
	wait("registration", d.Bridge.Registered(1))

	const pigeons = 100 // 2 s of state publications at 50 Hz
	var mu sync.Mutex
	var navx, pigeon []time.Time
	frames := map[string]string{}
	done := make(chan struct{})
	node, err := goroslib.NewNode(goroslib.NodeConf{Name: "imu_test", MasterAddress: fmt.Sprintf("127.0.0.1:%d", port),
		Host: "127.0.0.1", LogDestinations: goroslib.LogDestinationCallback})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	for _, topic := range []string{"/navx/imu", "/pigeon/imu"} {
		sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: node, Topic: topic,
			Callback: func(m *sensor_msgs.Imu) {
				mu.Lock()
				defer mu.Unlock()
				frames[topic] = m.Header.FrameId
				if topic == "/navx/imu" {
					navx = append(navx, m.Header.Stamp)
					return
				}
				if pigeon = append(pigeon, m.Header.Stamp); len(pigeon)%pigeons == 0 {
					close(done)
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
	}
	wait(fmt.Sprintf("%d /pigeon/imu", pigeons), done)
	mu.Lock()
	first, last := pigeon[0], pigeon[pigeons-1]
	n := 0
	for _, s := range navx {
		if !s.Before(first) && !s.After(last) {
			n++
		}
	}
	span := last.Sub(first)
	if want := int(span / (100 * time.Millisecond)); n < want-1 || n > want+1 {
		t.Errorf("%d /navx/imu over %v of stamps (%d /pigeon/imu), want %d (publish_rate 10)", n, span, pigeons, want)
	}
	if frames["/navx/imu"] != "navx_link" || frames["/pigeon/imu"] != "pigeon" {
		t.Errorf("frames %v, want navx_link (frame_id) and pigeon", frames)
	}

	// Stopped (controller_manager's switch_controller): no /navx/imu
	// over the next 100 state publications' stamps; the Pigeon goes on.
	mu.Unlock()
	integration(t, tooltest.Rosservice, genpy)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	e.Vars = append(e.Vars, "PYTHONPATH="+genControllerManagerMsgs(t, e))
	if !switchControllers(t, e, nil, []string{"navx_broadcaster"}, 2) {
		t.Fatal("switch_controller did not stop navx_broadcaster")
	}
	mu.Lock()
	stoppedAt, before := len(pigeon), len(navx)
	done = make(chan struct{})
	mu.Unlock()
	wait(fmt.Sprintf("%d more /pigeon/imu", pigeons), done)
	mu.Lock()
	// The switch reached the bridge at some publication after the
	// service answered: count from the first stamp after it.
	from := pigeon[stoppedAt]
	late := 0
	for _, s := range navx[before:] {
		if s.After(from) {
			late++
		}
	}
	mu.Unlock()
	if late != 0 {
		t.Errorf("%d /navx/imu after its IMU sensor controller stopped, want 0", late)
	}
}
