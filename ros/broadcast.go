package ros

import (
	"time"

	"github.com/frcd/frcd/internal/ratelimit"
)

// An IMU sensor controller's IMU and a drive controller's odometry are
// published at their own rate, as ros_control runs each controller's
// update, where ImuSensorController and diff_drive_controller publish at
// their publish_rate: the publishing goroutine wakes for whichever
// publication is due first (the state topics' grid or an owner's), and
// update publishes each on its own cadence, stamped with the time of the
// snapshot it read, each sample once. An owner follows its own
// controller's running state only: it publishes while the joint state
// controller is stopped, and nothing while its own controller is (a
// stopped controller's update is not called).

// owner is a topic's own publisher: its controller (ctl; "" for an IMU
// that the state topics publish), its cadence (pace: its publish_rate),
// and the loop time of the last sample it published (last).
type owner struct {
	ctl  string
	pace ratelimit.Cadence
	last time.Duration
}

// update answers one of the loop's notifications: it reads the newest
// snapshot, publishes the state topics if due on pace (their grid) and
// each running owner's topic if due on its own, and returns the loop
// time from which the next notification is wanted.
func (s *session) update(pace *ratelimit.Cadence) time.Duration {
	s.b.o.Loop.ReadSnapshot(s.snap)
	if pace.Due(s.snap.Now) {
		s.publishState()
	}
	s.publishBroadcasters()
	return s.nextWake(pace)
}

// answer answers one of the loop's notifications at loop time now: the
// update if anything is due (not even a copy of the snapshot otherwise),
// and the loop time from which the next is wanted. A controller started
// meanwhile (the manager's OnStart sets From(0), which the From here may
// have overwritten) makes it every cycle again, so that an owner started
// is seen at the next cycle, not at the state topics' next time (their
// publish_rate down to 0.1 Hz).
func (s *session) answer(pace *ratelimit.Cadence, now time.Duration) {
	b := s.b
	starts := b.cm.Starts()
	if s.due(pace, now) {
		b.updated.From(s.update(pace))
	} else if pace.Next() != 0 {
		b.updated.From(s.nextWake(pace)) // a start's wake-up, nothing due
	}
	if b.cm.Starts() != starts {
		b.updated.From(0)
	}
}

// ready says whether o runs and is due at now.
func (s *session) ready(o *owner, now time.Duration) bool {
	return o.ctl != "" && o.pace.Ready(now) && s.b.cm.Running(o.ctl)
}

// take says whether o publishes the snapshot just read, and then takes
// it: o runs, the snapshot is newer than o's last and due on o's cadence.
func (s *session) take(o *owner) bool {
	now := s.snap.Now
	if now <= o.last || !s.ready(o, now) || !o.pace.Due(now) {
		return false // not new, stopped, or not due
	}
	o.last = now
	return true
}

// due says whether anything is due at now: the state topics (pace) or a
// running owner.
func (s *session) due(pace *ratelimit.Cadence, now time.Duration) bool {
	if pace.Ready(now) {
		return true
	}
	for i := range s.imuOwn {
		if s.ready(&s.imuOwn[i].owner, now) {
			return true
		}
	}
	if o := s.odom; o != nil {
		for i := range o.own {
			if s.ready(&o.own[i], now) {
				return true
			}
		}
	}
	return false
}

// publishBroadcasters publishes each running IMU sensor controller's IMU
// and each running drive controller's odometry due at the snapshot just
// read, once a snapshot.
func (s *session) publishBroadcasters() {
	n := 0
	for i := range s.imuOwn {
		if own := &s.imuOwn[i]; s.take(&own.owner) {
			s.imus[i].Write(s.msgs.imu(i, own.frame))
			n++
		}
	}
	odom := 0
	if o := s.odom; o != nil {
		for i := range o.own {
			if s.take(&o.own[i]) {
				s.publishOdometry(i)
				odom++
			}
		}
	}
	if n+odom > 0 {
		s.b.mu.Lock()
		s.b.stats.IMUs += uint64(n)
		s.b.stats.Odometry += uint64(odom)
		s.b.mu.Unlock()
	}
}

// nextWake is the loop time from which the next notification is wanted:
// the earliest of the state topics' next grid time and each running
// owner's, less their slack; 0 (every cycle) before the first
// publication of either.
func (s *session) nextWake(pace *ratelimit.Cadence) time.Duration {
	if pace.Period <= 0 || pace.Next() == 0 {
		return 0
	}
	t := pace.Next() - pace.Slack
	for i := range s.imuOwn {
		t = s.wakeOf(&s.imuOwn[i].owner, t)
	}
	if o := s.odom; o != nil {
		for i := range o.own {
			t = s.wakeOf(&o.own[i], t)
		}
	}
	return max(t, 0)
}

// wakeOf is nextWake's earliest time t with o: its next time less its
// slack (before its first publication, every cycle) if it runs.
func (s *session) wakeOf(o *owner, t time.Duration) time.Duration {
	if o.ctl == "" || !s.b.cm.Running(o.ctl) {
		return t
	}
	if o.pace.Next() == 0 {
		return 0
	}
	return min(t, o.pace.Next()-o.pace.Slack)
}
