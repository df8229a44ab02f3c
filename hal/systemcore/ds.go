package systemcore

import (
	"sync"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/nt4"
)

// The Driver Station's topics on the system server (WPILib's
// mrc/NtNetComm.h at 6e5171cd8f^), and their NT4 type strings ("proto:"
// and the message's full name, as WPILib's protobuf topics name them).
const (
	ControlDataTopic = "/Netcomm/Control/ControlData"
	MatchInfoTopic   = "/Netcomm/Control/MatchInfo"
	ControlDataType  = "proto:mrc.proto.ProtobufControlData"
	MatchInfoType    = "proto:mrc.proto.ProtobufMatchInfo"
)

// dsStale is how old the newest control data may be before frcd counts
// the Driver Station lost (disabled). WPILib's HAL at 6e5171cd8f^ had a
// 125 ms check written and commented out ("TODO add a new way to detect
// if mrccomm has stopped"); the Driver Station sends every 20 ms.
const dsStale = 500 * time.Millisecond

// dsCache is the Driver Station as the system server last said it,
// decoded once per message.
type dsCache struct {
	mu      sync.Mutex
	cd      controlData
	cdSeen  uint64        // Updates of the control data topic decoded
	cdAt    time.Duration // backend time the newest message came
	cdValid bool
	gen     uint64 // the link's connection the cache is of
	primed  bool   // a message has come on this connection
	bad     uint64 // messages that did not decode
	mi      matchInfo
	miSeen  uint64
	miValid bool
	lastErr error // why the last DS read failed
}

// refresh decodes a new control data message, if one came; the caller
// holds d.mu.
//
// The first message on a connection is not counted fresh: an NT4 server
// sends each topic's stored value to a new subscriber, so it may be the
// last one a Driver Station sent long ago (enabled). Only the next one,
// which the Driver Station sends 20 ms later when it is there, counts.
// A new connection starts the cache over.
func (l *link) refreshDS(now time.Duration) {
	d := &l.ds
	l.mu.Lock()
	gen := l.gen
	l.mu.Unlock()
	if gen != d.gen {
		d.gen, d.primed, d.cdValid, d.cdSeen = gen, false, false, 0
	}
	d.lastErr = l.get(ControlDataTopic, func(t *nt4.ClientTopic) {
		if t.Updates == d.cdSeen || t.Value.Raw == nil {
			return
		}
		d.cdSeen = t.Updates
		raw, ok := rawBytes(t.Value)
		if !ok || decodeControlData(raw, &d.cd) != nil {
			d.bad++
			d.cdValid = false
			return
		}
		if !d.primed {
			d.primed, d.cdValid = true, false
			return
		}
		d.cdValid, d.cdAt = true, now
	})
}

// rawBytes is a raw (protobuf) value's bytes: MessagePack bin.
func rawBytes(v nt4.Value) ([]byte, bool) {
	if v.Type != nt4.TypeRaw {
		return nil, false
	}
	return v.Bytes()
}

// live says whether the control data is fresh and from a connected
// Driver Station; the caller holds d.mu.
func (d *dsCache) live(now time.Duration) bool {
	return d.lastErr == nil && d.cdValid && now-d.cdAt <= dsStale && d.cd.word&cwDS != 0
}

// dsState is the Driver Station's control word: enabled only while the
// link is up, the newest control data is fresh, the DS is connected, not
// e-stopped, and the system's watchdog is active (WPILib's
// HAL_GetOutputsEnabled).
func (l *link) dsState(now time.Duration) hal.DSState {
	d := &l.ds
	d.mu.Lock()
	defer d.mu.Unlock()
	l.refreshDS(now)
	if !d.live(now) {
		return hal.DSState{}
	}
	w := d.cd.word
	s := hal.DSState{Attached: true, EStop: w&cwEStop != 0}
	switch (w & cwModeMask) >> 1 {
	case mrcAutonomous:
		s.Mode = hal.Autonomous
	case mrcTest:
		s.Mode = hal.Test
	default:
		s.Mode = hal.Teleop
	}
	s.Enabled = w&cwEnabled != 0 && !s.EStop && w&cwWatchdog != 0
	return s
}

// joystick fills dst with joystick n from the newest control data; no
// axes, buttons or POVs while the Driver Station is not live.
func (l *link) joystick(now time.Duration, n int, dst *hal.JoystickState) error {
	if n < 0 || n >= hal.MaxJoysticks {
		return hal.ErrNoDevice
	}
	*dst = hal.JoystickState{}
	d := &l.ds
	d.mu.Lock()
	defer d.mu.Unlock()
	l.refreshDS(now)
	if !d.live(now) || n >= d.cd.nSticks {
		return nil
	}
	s := &d.cd.sticks[n]
	// Axes: WPILib counts them by the highest available bit and scales a
	// raw -32768..32767 to -1..1 (FIRSTDriverStation.cpp).
	na := min(bitLen(uint64(s.availAxes)&(1<<mrcAxes-1)), s.nAxes, hal.MaxJoystickAxes)
	for i := range na {
		if a := s.axes[i]; a < 0 {
			dst.Axes[i] = float64(a) / 32768
		} else {
			dst.Axes[i] = float64(a) / 32767
		}
	}
	dst.NumAxes = na
	dst.NumButtons = min(bitLen(s.availButtons), hal.MaxJoystickButtons)
	dst.Buttons = uint32(s.buttons & (1<<dst.NumButtons - 1))
	np := min(int(s.povCount), mrcPOVs, hal.MaxJoystickPOVs)
	for i := range np {
		dst.POVs[i] = povDegrees(s.povs >> (4 * i))
	}
	dst.NumPOVs = np
	return nil
}

// bitLen is the number of bits up to the highest set one.
func bitLen(v uint64) int {
	n := 0
	for v != 0 {
		v >>= 1
		n++
	}
	return n
}

// matchTime is the match time the Driver Station sent, s; -1 when not
// live.
func (l *link) matchTime(now time.Duration) float64 {
	d := &l.ds
	d.mu.Lock()
	defer d.mu.Unlock()
	l.refreshDS(now)
	if !d.live(now) {
		return -1
	}
	return float64(d.cd.matchTime)
}

// match reads the match info the server last sent.
func (l *link) match() (hal.MatchInfo, error) {
	d := &l.ds
	d.mu.Lock()
	defer d.mu.Unlock()
	err := l.get(MatchInfoTopic, func(t *nt4.ClientTopic) {
		if t.Updates == d.miSeen || t.Value.Raw == nil {
			return
		}
		d.miSeen = t.Updates
		raw, ok := rawBytes(t.Value)
		if !ok || decodeMatchInfo(raw, &d.mi) != nil {
			d.bad++
			d.miValid = false
			return
		}
		d.miValid = true
	})
	if err != nil {
		return hal.MatchInfo{}, err
	}
	if !d.miValid {
		return hal.MatchInfo{}, nil
	}
	m := hal.MatchInfo{Event: string(d.mi.event[:d.mi.nEvent]), Number: int(d.mi.number), Replay: int(d.mi.replay)}
	// mrc::MatchType: 0 none, 1 practice, 2 qualification, 3 playoff,
	// 4 test; HAL_MatchType has the first four.
	if t := d.mi.typ; t >= 0 && t <= int32(hal.MatchElimination) {
		m.Type = hal.MatchType(t)
	}
	if d.cdValid {
		m.GameMessage = string(d.cd.game[:d.cd.nGame])
	}
	return m, nil
}
