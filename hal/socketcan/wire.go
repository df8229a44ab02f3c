package socketcan

import (
	"encoding/binary"
	"errors"

	"github.com/frcd/frcd/hal"
)

// rawFrame is Linux's struct can_frame as a CAN_RAW socket reads and
// writes it (CAN_MTU, 16 bytes): can_id in host byte order with its flags
// in bits 29-31, the data length, three pad bytes, eight data bytes.
type rawFrame [16]byte

// can_id flags and masks (linux/can.h).
const (
	effFlag = 0x80000000 // extended (29-bit) frame format
	rtrFlag = 0x40000000 // remote transmission request
	errFlag = 0x20000000 // error frame: the id holds its error class
	effMask = 0x1FFFFFFF
	sffMask = 0x7FF
)

// kind is what a received frame is.
type kind int

const (
	kindData     kind = iota // a 29-bit data frame: what FRC devices send
	kindRemote               // a 29-bit remote request (RTR)
	kindStandard             // an 11-bit frame, data or remote: not FRC's
	kindError                // an error frame the controller's driver made
)

var (
	errFrameLen = errors.New("socketcan: CAN frame longer than 8 bytes")
	errFrameID  = errors.New("socketcan: CAN identifier wider than 29 bits")
)

// encode makes the struct can_frame that sends f as an extended data
// frame, or a remote one (f.RTR: its length code, no data).
func encode(f hal.Frame) rawFrame {
	var r rawFrame
	id := f.ID&effMask | effFlag
	n := min(f.Len, 8)
	r[4] = n
	if f.RTR {
		binary.NativeEndian.PutUint32(r[0:4], id|rtrFlag)
		return r
	}
	binary.NativeEndian.PutUint32(r[0:4], id)
	copy(r[8:8+n], f.Data[:n])
	return r
}

// decode reads a received struct can_frame. For an error frame f.ID is
// the error class (linux/can/error.h); an 11-bit frame's id is its 11
// bits. Lengths beyond 8 (a classic frame's DLC 9-15) read as 8.
func decode(r *rawFrame) (f hal.Frame, k kind) {
	f.ID, k = classify(binary.NativeEndian.Uint32(r[0:4]))
	f.Len = min(r[4], 8)
	copy(f.Data[:f.Len], r[8:8+f.Len])
	return f, k
}

// classify reads a received can_id: its kind and its id (the error class
// of an error frame, 11 bits of a standard frame, 29 of an extended one).
func classify(id uint32) (uint32, kind) {
	switch {
	case id&errFlag != 0:
		return id & effMask, kindError
	case id&effFlag == 0:
		return id & sffMask, kindStandard
	case id&rtrFlag != 0:
		return id & effMask, kindRemote
	}
	return id & effMask, kindData
}
