package ros2bridge

import (
	"math"
	"time"

	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/ros2msg"
)

// A sensor broadcaster (an IMU sensor controller) and a drive
// controller's odometry publish at their own rate, as each ros2_control
// controller runs at its own update rate (diff_drive_controller publishes
// odom at its publish_rate, ros-controls/ros2_controllers humble
// diff_drive_controller.cpp): Run wakes for whichever publication is due
// first (the joint states' grid or an owner's), and update publishes each
// on its own cadence, stamped with the time of the cycle it read, each
// cycle's sample once. An owner follows its own controller's running
// state only: it publishes while the joint state controller is stopped,
// and nothing while its own controller is (an inactive controller's
// update is not called).

// owner is a topic's own publisher: its controller (ctl; "" for an IMU
// that the joint state controller's state topics publish), its cadence
// (pace: its publish_rate), and the loop time of the last sample it
// published (last).
type owner struct {
	ctl  string
	pace ratelimit.Cadence
	last time.Duration
}

// runs says whether o's controller runs (without a manager, every
// controller does).
func (b *Bridge) runs(o *owner) bool {
	return o.ctl != "" && (b.o.Manager == nil || b.o.Manager.Running(o.ctl))
}

// take says whether o publishes at the newest cycle, and then takes it:
// o runs, the cycle is newer than o's last and due on o's cadence. It
// reads the snapshot unless it has been read (*read).
func (b *Bridge) take(o *owner, read *bool) bool {
	if b.jsNow <= o.last || !o.pace.Ready(b.jsNow) || !b.runs(o) {
		return false // nothing new, not due, or stopped
	}
	if !*read {
		b.o.Loop.ReadSnapshot(b.snap)
		*read = true
	}
	now := b.snap.Now
	if now <= o.last || !o.pace.Due(now) {
		return false
	}
	o.last = now
	return true
}

// publishBroadcasters publishes each running broadcaster's IMU and each
// running drive controller's odometry that is due at the newest cycle,
// from the snapshot, read here unless update has read it (read). It
// publishes nothing for a leftover notification (no cycle newer than the
// last each published), nor with JointStatesOnly.
func (b *Bridge) publishBroadcasters(read bool) {
	s := b.st
	if s == nil || b.o.JointStatesOnly {
		return
	}
	for i := range s.imuOwn {
		if own := &s.imuOwn[i]; b.take(&own.owner, &read) {
			b.publishIMU(i, ros2msg.TimeOf(b.o.Epoch.Add(b.snap.Now)), own.frame)
		}
	}
	for i := range s.odomOwn {
		if b.take(&s.odomOwn[i], &read) {
			b.publishOdometry(i, ros2msg.TimeOf(b.o.Epoch.Add(b.snap.Now)))
		}
	}
}

// nextWake is the loop time from which Run needs the loop's next
// notification: the earliest of the joint states' next grid time and
// each running owner's, less their slack; 0 (every cycle) before the
// first publication of either. While the joint state controller is
// stopped its grid goes on (update) but wakes Run only if no owner
// runs, to see it start again: a running owner's wake-ups see that, and
// its start wakes Run at the next cycle (Manager.OnStart, answer);
// update then drops the ring's cycles and starts the grid afresh, so none
// kept while it was stopped goes out.
func (b *Bridge) nextWake() time.Duration {
	if b.pace.Period <= 0 || b.pace.Next() == 0 {
		return 0
	}
	js := b.pace.Next() - b.pace.Slack
	t, any := js, false
	if b.o.Manager != nil && b.o.Manager.JointStatesStopped() {
		t = math.MaxInt64
	}
	if s := b.st; s != nil && !b.o.JointStatesOnly {
		for i := range s.imuOwn {
			t, any = b.wakeOf(&s.imuOwn[i].owner, t, any)
		}
		for i := range s.odomOwn {
			t, any = b.wakeOf(&s.odomOwn[i], t, any)
		}
	}
	if !any {
		return js
	}
	return max(t, 0)
}

// wakeOf is nextWake's earliest time t, and whether an owner runs (any),
// with o: its next time less its slack (before its first publication,
// every cycle) if it runs.
func (b *Bridge) wakeOf(o *owner, t time.Duration, any bool) (time.Duration, bool) {
	if !b.runs(o) {
		return t, any
	}
	if o.pace.Next() == 0 {
		return 0, true
	}
	return min(t, o.pace.Next()-o.pace.Slack), true
}

// takeTime keeps only a cycle's time: the joint state controller is
// stopped, its grid goes on.
func (b *Bridge) takeTime(now time.Duration, _ []interfaces.JointState) { b.jsNow = now }
