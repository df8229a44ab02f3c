package ros_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/ros"
)

// TestPublishCadenceSlowerThanLoop: with the state topics at 100 Hz and
// the loop at 1 kHz the bridge sleeps between publications (it does not
// wake at every cycle) and still publishes each message a period after
// the last, less a cycle and a half (one a cycle late brings the next a
// cycle sooner, on the rate's grid), and about one message every 10 ms
// of the loop's time. Counted in the loop's time and stamps.
func TestPublishCadenceSlowerThanLoop(t *testing.T) {
	const want = 40
	port := freePort(t)
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{RealTime: true}, daemon.Options{Rate: 1000, ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: fmt.Sprintf("http://127.0.0.1:%d", port)}, Master: ros.MasterEmbedded, PublishRate: 100}})
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

	stamps := make([]time.Time, 0, want)
	done := make(chan struct{})
	node, err := goroslib.NewNode(goroslib.NodeConf{Name: "cadence_test", MasterAddress: fmt.Sprintf("127.0.0.1:%d", port),
		Host: "127.0.0.1", LogDestinations: goroslib.LogDestinationCallback})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: node, Topic: "/joint_states",
		Callback: func(m *sensor_msgs.JointState) {
			if len(stamps) < want {
				stamps = append(stamps, m.Header.Stamp)
				if len(stamps) == want {
					close(done)
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	now0, published0 := snap.Now, d.Bridge.Stats().JointStates
	wait(fmt.Sprintf("%d /joint_states", want), done)
	d.Loop.ReadSnapshot(snap)
	elapsed, published := snap.Now-now0, d.Bridge.Stats().JointStates-published0

	// The stamps are the cycles' times: 10 ms apart at least, less a
	// cycle and a half of 1 ms.
	for i := 1; i < len(stamps); i++ {
		if gap := stamps[i].Sub(stamps[i-1]); gap < 8500*time.Microsecond {
			t.Errorf("messages %d and %d are %v apart; want 10ms less a cycle and a half at least", i-1, i, gap)
		}
	}
	// One publication per 10 ms of the loop's time; fewer when the
	// machine is loaded (the timer wakes late), never more.
	if every := elapsed / time.Duration(published); every < 9500*time.Microsecond || every > 50*time.Millisecond {
		t.Errorf("%d publications in %v of the loop's time: one per %v; want one per 10ms (at most 50ms on a loaded machine)", published, elapsed, every)
	}
}
