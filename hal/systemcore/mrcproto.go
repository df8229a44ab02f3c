package systemcore

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The Driver Station's messages as the system server published them, in
// protobuf (WPILib's hal/src/mrc/proto/MrcComm.proto, package mrc.proto,
// at 6e5171cd8f^; docs/systemcore.md): ProtobufControlData on
// /Netcomm/Control/ControlData, ProtobufMatchInfo on
// /Netcomm/Control/MatchInfo. Decoded here by hand (a few fields, no
// dependency), into fixed arrays: decoding allocates nothing.

// Limits of the messages, as WPILib's mrc/NtNetComm.h has them
// (MRC_MAX_NUM_JOYSTICKS, _AXES, _POVS, _GAME_DATA_LEN, _EVENT_NAME_LEN).
const (
	mrcJoysticks = 6
	mrcAxes      = 12
	mrcPOVs      = 8
	mrcGameData  = 8
	mrcEventName = 64
)

// The control word's bits (WPILib's ControlDataProto.cpp, ToControlWord):
// enabled bit 0, robot mode bits 1-2, e-stop 3, FMS 4, DS 5, watchdog
// active 6, supports op modes 7, alliance bits 8-11.
const (
	cwEnabled  = 1 << 0
	cwModeMask = 3 << 1
	cwEStop    = 1 << 3
	cwFMS      = 1 << 4
	cwDS       = 1 << 5
	cwWatchdog = 1 << 6
)

// mrc::RobotMode (NetComm.h): 0 unknown, 1 autonomous, 2 teleoperated,
// 3 test (HAL_RobotMode calls 3 utility).
const (
	mrcAutonomous = 1
	mrcTeleop     = 2
	mrcTest       = 3
)

// mrcStick is one ProtobufJoystickData.
type mrcStick struct {
	availButtons, buttons uint64
	availAxes             uint32
	axes                  [mrcAxes]int16
	nAxes                 int // axes received (at most mrcAxes)
	povCount, povs        uint32
}

// controlData is one ProtobufControlData.
type controlData struct {
	word      uint32
	matchTime int32 // seconds, as WPILib's HAL_GetMatchTime returns it
	opMode    uint64
	sticks    [mrcJoysticks]mrcStick
	nSticks   int
	game      [mrcGameData]byte
	nGame     int
}

// matchInfo is one ProtobufMatchInfo.
type matchInfo struct {
	event               [mrcEventName]byte
	nEvent              int
	number, replay, typ int32
}

var errTruncated = errors.New("truncated")

// field reads one protobuf field's key and value: for varint and fixed
// types the number in v, for length-delimited ones the bytes in b.
func field(p []byte) (num int, wire int, v uint64, b, rest []byte, err error) {
	key, n := binary.Uvarint(p)
	if n <= 0 {
		return 0, 0, 0, nil, nil, errTruncated
	}
	p = p[n:]
	if key>>3 == 0 || key>>3 > 1<<29 {
		return 0, 0, 0, nil, nil, fmt.Errorf("field number %d", key>>3)
	}
	num, wire = int(key>>3), int(key&7)
	switch wire {
	case 0:
		if v, n = binary.Uvarint(p); n <= 0 {
			return 0, 0, 0, nil, nil, errTruncated
		}
		return num, wire, v, nil, p[n:], nil
	case 1:
		if len(p) < 8 {
			return 0, 0, 0, nil, nil, errTruncated
		}
		return num, wire, binary.LittleEndian.Uint64(p), nil, p[8:], nil
	case 2:
		l, n := binary.Uvarint(p)
		if n <= 0 || l > uint64(len(p)-n) {
			return 0, 0, 0, nil, nil, errTruncated
		}
		return num, wire, 0, p[n : n+int(l)], p[n+int(l):], nil
	case 5:
		if len(p) < 4 {
			return 0, 0, 0, nil, nil, errTruncated
		}
		return num, wire, uint64(binary.LittleEndian.Uint32(p)), nil, p[4:], nil
	}
	return 0, 0, 0, nil, nil, fmt.Errorf("field %d: wire type %d", num, wire)
}

// decodeControlData reads a ProtobufControlData. Fields it does not know
// are skipped, as protobuf wants; joysticks past six, axes past twelve and
// game data past eight bytes are dropped, as WPILib's HAL drops them.
func decodeControlData(p []byte, d *controlData) error {
	*d = controlData{}
	for len(p) > 0 {
		num, wire, v, b, rest, err := field(p)
		if err != nil {
			return fmt.Errorf("ControlData: %w", err)
		}
		p = rest
		switch {
		case num == 5 && wire == 0:
			d.word = uint32(v)
		case num == 2 && wire == 0:
			d.matchTime = int32(v)
		case num == 4 && wire == 1:
			d.opMode = v
		case num == 3 && wire == 2:
			if d.nSticks < mrcJoysticks {
				if err := decodeStick(b, &d.sticks[d.nSticks]); err != nil {
					return fmt.Errorf("ControlData: joystick %d: %w", d.nSticks, err)
				}
				d.nSticks++
			}
		case num == 6 && wire == 2: // the last one wins, as in protobuf
			d.game = [mrcGameData]byte{}
			d.nGame = copy(d.game[:], b)
		}
	}
	return nil
}

// decodeStick reads a ProtobufJoystickData; Axes (sint32) come packed or
// one by one.
func decodeStick(p []byte, s *mrcStick) error {
	axis := func(v uint64) {
		if s.nAxes < mrcAxes {
			z := int64(v>>1) ^ -int64(v&1) // zigzag
			s.axes[s.nAxes] = int16(max(-32768, min(32767, z)))
			s.nAxes++
		}
	}
	for len(p) > 0 {
		num, wire, v, b, rest, err := field(p)
		if err != nil {
			return err
		}
		p = rest
		switch {
		case num == 1 && wire == 0:
			s.availButtons = v
		case num == 2 && wire == 0:
			s.buttons = v
		case num == 3 && wire == 0:
			s.availAxes = uint32(v)
		case num == 4 && wire == 0:
			axis(v)
		case num == 4 && wire == 2:
			for len(b) > 0 {
				x, n := binary.Uvarint(b)
				if n <= 0 {
					return fmt.Errorf("axes: %w", errTruncated)
				}
				axis(x)
				b = b[n:]
			}
		case num == 5 && wire == 0:
			s.povCount = uint32(v)
		case num == 6 && wire == 0:
			s.povs = uint32(v)
		}
	}
	return nil
}

// decodeMatchInfo reads a ProtobufMatchInfo.
func decodeMatchInfo(p []byte, m *matchInfo) error {
	*m = matchInfo{}
	for len(p) > 0 {
		num, wire, v, b, rest, err := field(p)
		if err != nil {
			return fmt.Errorf("MatchInfo: %w", err)
		}
		p = rest
		switch {
		case num == 1 && wire == 2:
			m.event = [mrcEventName]byte{}
			m.nEvent = copy(m.event[:], b)
		case num == 2 && wire == 0:
			m.number = int32(v)
		case num == 3 && wire == 0:
			m.replay = int32(v)
		case num == 4 && wire == 0:
			m.typ = int32(v)
		}
	}
	return nil
}

// povDegrees turns a 4-bit POV (WPILib's HAL_JoystickPOV: up 1, right 2,
// down 4, left 8, diagonals their sums, 0 centred) into degrees clockwise
// from up, -1 when centred or impossible.
func povDegrees(v uint32) int {
	switch v & 0xF {
	case 1:
		return 0
	case 3:
		return 45
	case 2:
		return 90
	case 6:
		return 135
	case 4:
		return 180
	case 12:
		return 225
	case 8:
		return 270
	case 9:
		return 315
	}
	return -1
}
