package ros

import (
	"time"

	"github.com/frcd/frcd/internal/ratelimit"
)

// An IMU sensor controller publishes its IMU at its own rate, as
// ros_control runs each controller's update and ImuSensorController
// publishes at its publish_rate: the publishing goroutine wakes for
// whichever publication is due first (the state topics' grid or an IMU
// sensor controller's), and update publishes each on its own cadence,
// stamped with the time of the snapshot it read, each sample once. An
// IMU sensor controller follows its own running state only: it
// publishes while the joint state controller is stopped.

// update answers one of the loop's notifications: it reads the newest
// snapshot, publishes the state topics if due on pace (their grid) and
// each running IMU sensor controller's IMU if due on its own, and
// returns the loop time from which the next notification is wanted.
func (s *session) update(pace *ratelimit.Cadence) time.Duration {
	s.b.o.Loop.ReadSnapshot(s.snap)
	if pace.Due(s.snap.Now) {
		s.publishState()
	}
	s.publishBroadcasters()
	return s.nextWake(pace)
}

// due says whether anything is due at now: the state topics (pace) or a
// running IMU sensor controller.
func (s *session) due(pace *ratelimit.Cadence, now time.Duration) bool {
	if pace.Ready(now) {
		return true
	}
	for i := range s.imuOwn {
		if own := &s.imuOwn[i]; own.ctl != "" && own.pace.Ready(now) && s.b.cm.Running(own.ctl) {
			return true
		}
	}
	return false
}

// publishBroadcasters publishes each running IMU sensor controller's IMU
// due at the snapshot just read, once a snapshot.
func (s *session) publishBroadcasters() {
	now := s.snap.Now
	for i := range s.imuOwn {
		own := &s.imuOwn[i]
		if own.ctl == "" || now <= own.last || !own.pace.Ready(now) || !s.b.cm.Running(own.ctl) || !own.pace.Due(now) {
			continue // the state topics', not new, not due, or stopped
		}
		own.last = now
		s.imus[i].Write(s.msgs.imu(i, own.frame))
		s.b.mu.Lock()
		s.b.stats.IMUs++
		s.b.mu.Unlock()
	}
}

// nextWake is the loop time from which the next notification is wanted:
// the earliest of the state topics' next grid time and each running IMU
// sensor controller's, less their slack; 0 (every cycle) before the
// first publication of either.
func (s *session) nextWake(pace *ratelimit.Cadence) time.Duration {
	if pace.Period <= 0 || pace.Next() == 0 {
		return 0
	}
	t := pace.Next() - pace.Slack
	for i := range s.imuOwn {
		own := &s.imuOwn[i]
		if own.ctl == "" || !s.b.cm.Running(own.ctl) {
			continue
		}
		if own.pace.Next() == 0 {
			return 0
		}
		t = min(t, own.pace.Next()-own.pace.Slack)
	}
	return t
}
