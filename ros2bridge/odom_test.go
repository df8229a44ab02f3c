package ros2bridge_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
)

// TestOdometryTopics: the competition robot with a diff drive (drive) on
// the stepped sim, driven by TwistStamped on /drive/cmd_vel over ROS 2, as
// Nav2 or teleop would: a peer reads /drive/odom (nav_msgs/Odometry, odom
// -> base_link, moving forward at the commanded speed) and /tf (the same
// pose as odom -> base_link), and the odometry's pose agrees with the
// sim's ground truth.
func TestOdometryTopics(t *testing.T) {
	d, b, _ := newBridgeFor(t, motionYAML(t), t.Logf)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c := newClient(t, ctx)
	cmd, err := c.p.NewWriter("rt/drive/cmd_vel", (&ros2msg.TwistStamped{}).TypeName(), ros2node.Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.WaitMatched(ctx, 1); err != nil {
		t.Fatal(err)
	}
	peer := newPeer(t)
	odoms := sub(t, peer, "/drive/odom", ros2node.Default, func() *ros2msg.Odometry { return &ros2msg.Odometry{} })
	tfs := sub(t, peer, "/tf", ros2node.Default, func() *ros2msg.TFMessage { return &ros2msg.TFMessage{} })

	twist := ros2msg.Marshal(nil, &ros2msg.TwistStamped{Twist: ros2msg.Twist{Linear: ros2msg.Vector3{X: 0.5}}})
	var odom *ros2msg.Odometry
	var tf *ros2msg.TFMessage
	// Drive until the peer has read an odometry 0.3 m ahead: each round
	// sends the twist until the bridge has taken one more command (its
	// reader is best effort), then steps the loop 5 cycles and publishes.
	for odom == nil || odom.Position.X < 0.3 || tf == nil {
		before := b.Stats().Commands
		for i := 0; b.Stats().Commands == before; i++ {
			if i%50 == 0 {
				if err := cmd.Write(twist); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-ctx.Done():
				t.Fatalf("odometry %+v, tf %+v; stats %+v", odom, tf, b.Stats())
			case <-time.After(time.Millisecond):
			}
		}
		for range 5 {
			d.Step()
			b.Publish()
		}
		for drained := false; !drained; {
			select {
			case odom = <-odoms:
			case m := <-tfs:
				if len(m.Transforms) == 1 && m.Transforms[0].ChildFrameID == "base_link" {
					tf = m
				}
			default:
				drained = true
			}
		}
	}
	if odom.Header.FrameID != "odom" || odom.ChildFrameID != "base_link" || odom.Header.Stamp.Sec < int32(time.Now().Unix()-60) {
		t.Errorf("odometry header %+v, child %q", odom.Header, odom.ChildFrameID)
	}
	if v := odom.Twist.Linear.X; math.Abs(v-0.5) > 0.05 { // (wheel_pid's feedforward fits the sim's CIMs: tooltest.DiffDriveYAML)
		t.Errorf("odometry's forward speed %.3f m/s, commanded 0.5: want within 10 %%", v)
	}
	if math.Abs(odom.Position.Y) > 0.05 || math.Abs(odom.Orientation.Z) > 0.05 || math.Abs(odom.Orientation.W-1) > 0.01 {
		t.Errorf("driving straight: odometry pose %+v %+v", odom.Position, odom.Orientation)
	}
	tr := tf.Transforms[0]
	if tr.Header.FrameID != "odom" || tr.Transform.Translation.X < 0.2 {
		t.Errorf("/tf %+v", tr)
	}
	// The odometry (from the wheels' encoders) against the sim's truth,
	// both read now: within 5 cm after the drive.
	for range 5 {
		d.Step()
	}
	truth, ok := d.Sim.Pose()
	if !ok {
		t.Fatal("the sim has no base pose")
	}
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	if len(snap.Odometry) != 1 {
		t.Fatalf("%d odometries in the snapshot", len(snap.Odometry))
	}
	if p := snap.Odometry[0].Pose; math.Hypot(p.X-truth.X, p.Y-truth.Y) > 0.05 {
		t.Errorf("odometry at (%.3f, %.3f), the sim's base at (%.3f, %.3f)", p.X, p.Y, truth.X, truth.Y)
	}
}

// TestOdometryRate: on the stepped sim, the bridge publishing its state
// topics as Run does (Update: every Every on the loop's clock, woken a cycle late
// at random, never twice in a row), each drive base's odometry arrives at
// its publish_rate ± 1 Hz over 10 s of loop time: 50 Hz and 20 Hz.
func TestOdometryRate(t *testing.T) {
	for _, rate := range []float64{50, 20} {
		yaml := tooltest.DiffDriveYAML(t, exampleYAML, fmt.Sprintf("publish_rate: %v", rate))
		d, b, _ := newBridgeFor(t, yaml, nil)
		rnd := rand.New(rand.NewSource(1))
		const span = 10 * time.Second
		start, before := d.Now(), b.Stats().Odometry
		late := false
		for d.Now()-start < span {
			d.Step()
			if late = !late && rnd.Intn(3) == 0; !late {
				b.Update()
			}
		}
		got := float64(b.Stats().Odometry-before) / span.Seconds()
		t.Logf("publish_rate %v Hz, loop %v, state topics every %v: odometry at %.2f Hz", rate, d.Loop.Period(), b.Every(), got)
		if got < rate-1 || got > rate+1 {
			t.Errorf("publish_rate %v Hz: odometry at %.2f Hz", rate, got)
		}
	}
}
