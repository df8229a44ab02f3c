package ros2bridge

import (
	"math"
	"time"

	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/ros2msg"
)

// A sensor broadcaster (an IMU sensor controller) publishes at its own
// rate, as each ros2_control broadcaster runs at its own update rate:
// Run wakes for whichever publication is due first (the joint states'
// grid or a broadcaster's), and update publishes each on its own cadence,
// stamped with the time of the cycle it read, each cycle's sample once.
// A broadcaster follows its own running state only: it publishes while
// the joint state controller is stopped.

// publishBroadcasters publishes each running broadcaster's IMU that is
// due at the newest cycle, from the snapshot, read here unless update has
// read it (read). It publishes nothing for a leftover notification (no
// cycle newer than the last each published).
func (b *Bridge) publishBroadcasters(read bool) {
	s := b.st
	if s == nil || b.o.Manager == nil {
		return
	}
	for i := range s.imuOwn {
		own := &s.imuOwn[i]
		if own.ctl == "" || b.jsNow <= own.last || !own.pace.Ready(b.jsNow) || !b.o.Manager.Running(own.ctl) {
			continue // the joint state controller's, nothing new, not due, or stopped
		}
		if !read {
			b.o.Loop.ReadSnapshot(b.snap)
			read = true
		}
		now := b.snap.Now
		if now <= own.last || !own.pace.Due(now) {
			continue
		}
		own.last = now
		b.publishIMU(i, ros2msg.TimeOf(b.o.Epoch.Add(now)), own.frame)
	}
}

// nextWake is the loop time from which Run needs the loop's next
// notification: the earliest of the joint states' next grid time and
// each running broadcaster's, less their slack; 0 (every cycle) before
// the first publication of either. While the joint state controller is
// stopped its grid goes on (update) but wakes Run only if no broadcaster
// runs, to see it start again: a running broadcaster's wake-ups see that.
func (b *Bridge) nextWake() time.Duration {
	if b.pace.Period <= 0 || b.pace.Next() == 0 {
		return 0
	}
	js := b.pace.Next() - b.pace.Slack
	t, any := js, false
	if b.o.Manager != nil && b.o.Manager.JointStatesStopped() {
		t = math.MaxInt64
	}
	if s := b.st; s != nil && b.o.Manager != nil {
		for i := range s.imuOwn {
			own := &s.imuOwn[i]
			if own.ctl == "" || !b.o.Manager.Running(own.ctl) {
				continue
			}
			if own.pace.Next() == 0 {
				return 0
			}
			t, any = min(t, own.pace.Next()-own.pace.Slack), true
		}
	}
	if !any {
		return js
	}
	return t
}

// takeTime keeps only a cycle's time: the joint state controller is
// stopped, its grid goes on.
func (b *Bridge) takeTime(now time.Duration, _ []interfaces.JointState) { b.jsNow = now }
