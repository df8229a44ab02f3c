package control

import (
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// Snapshot is a copy of the loop's state after a cycle, for other
// goroutines (the status line, the ROS bridge). Make one with
// NewSnapshot and refill it with ReadSnapshot: copying does not allocate.
type Snapshot struct {
	Now     time.Duration
	DS      hal.DSState
	Enabled bool
	Joints  []JointSample
	Devices []DeviceSample
	Stats   Stats
	// Refused adds the controllers' refused commands to Stats.Refused.
	Refused uint64
}

// DeviceSample is one device's health: whether its last Read succeeded,
// how many reads and writes failed, and the last failure.
type DeviceSample struct {
	Name    string
	OK      bool
	Errors  uint64
	LastErr error
}

// JointSample is one joint's merged state.
type JointSample struct {
	Name  string
	State interfaces.JointState
}

func (l *Loop) newSnapshot() Snapshot {
	s := Snapshot{Joints: make([]JointSample, len(l.m.joints)), Devices: make([]DeviceSample, len(l.devs))}
	for i := range l.m.joints {
		s.Joints[i].Name = l.m.joints[i].name
	}
	for i, d := range l.devs {
		s.Devices[i].Name = d.Name()
	}
	return s
}

// NewSnapshot returns a snapshot sized for this loop.
func (l *Loop) NewSnapshot() *Snapshot { s := l.newSnapshot(); return &s }

func (l *Loop) fill(s *Snapshot, now time.Duration, ds hal.DSState) {
	s.Now, s.DS, s.Enabled, s.Stats = now, ds, l.enabled, l.stats
	for i := range l.m.joints {
		s.Joints[i].State = l.m.joints[i].state
	}
	for i := range s.Devices {
		s.Devices[i].OK, s.Devices[i].Errors, s.Devices[i].LastErr = l.devOK[i], l.devErrs[i], l.devLast[i]
	}
}

// ReadSnapshot copies the latest published snapshot into dst (made by
// NewSnapshot). It is safe to call from any goroutine.
func (l *Loop) ReadSnapshot(dst *Snapshot) {
	l.pubMu.Lock()
	joints, devs := dst.Joints, dst.Devices
	*dst = l.pub
	dst.Joints = append(joints[:0], l.pub.Joints...)
	dst.Devices = append(devs[:0], l.pub.Devices...)
	l.pubMu.Unlock()
	var refused uint64
	for _, c := range l.ctls {
		refused += c.Refused()
	}
	dst.Refused = refused
}
