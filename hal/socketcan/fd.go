package socketcan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// CAN FD (ISO 11898-1:2015): up to 64 data bytes, the data phase
// optionally at a higher bit rate. A bus opened with Options.FD takes and
// gives struct canfd_frame (CANFD_MTU, 72 bytes) beside the classic
// frames: SendFD sends one, LatestFD returns the newest received of an
// id. Classic frames keep their path (Send, Latest) unchanged.

// FDFrame is a CAN FD data frame with a 29-bit id.
type FDFrame struct {
	ID uint32
	// Len is the number of data bytes: 0-8, 12, 16, 20, 24, 32, 48 or 64
	// (the lengths a CAN FD DLC can say).
	Len uint8
	// BRS (bit rate switch) sends the data phase at the interface's data
	// bit rate.
	BRS bool
	// ESI (error state indicator) is set on a received frame whose sender
	// was error passive.
	ESI  bool
	Data [64]byte
}

// rawFDFrame is Linux's struct canfd_frame as a CAN_RAW socket with
// CAN_RAW_FD_FRAMES reads and writes it (linux/can.h): can_id as in
// struct can_frame, the length, flags, two reserved bytes, 64 data bytes.
type rawFDFrame [72]byte

// canfd_frame flags (linux/can.h).
const (
	fdBRS = 0x01 // CANFD_BRS
	fdESI = 0x02 // CANFD_ESI
	fdFDF = 0x04 // CANFD_FDF: marks a CAN FD frame (Linux 6.2 and later read it; older ones ignore it)
)

var (
	errFDLen  = errors.New("socketcan: a CAN FD frame has 0-8, 12, 16, 20, 24, 32, 48 or 64 data bytes")
	errNoFD   = errors.New("socketcan: this bus was opened without Options.FD: no CAN FD frames")
	errFDRecv = errors.New("socketcan: a CAN FD frame was received") // recv's report: fdConn.lastFD holds it
)

// fdLen reports whether n is a length a CAN FD frame can have.
func fdLen(n uint8) bool {
	switch n {
	case 12, 16, 20, 24, 32, 48, 64:
		return true
	}
	return n <= 8
}

// encodeFD makes the struct canfd_frame that sends f as an extended
// frame.
func encodeFD(f FDFrame) rawFDFrame {
	var r rawFDFrame
	binary.NativeEndian.PutUint32(r[0:4], f.ID&effMask|effFlag)
	n := min(f.Len, 64)
	r[4] = n
	r[5] = fdFDF
	if f.BRS {
		r[5] |= fdBRS
	}
	copy(r[8:8+n], f.Data[:n])
	return r
}

// decodeFD reads a received struct canfd_frame; its kind is as decode's
// (CAN FD has no remote frames, and error frames come as struct
// can_frame).
func decodeFD(r *rawFDFrame) (f FDFrame, k kind) {
	f.ID, k = classify(binary.NativeEndian.Uint32(r[0:4]))
	f.Len = min(r[4], 64)
	f.BRS, f.ESI = r[5]&fdBRS != 0, r[5]&fdESI != 0
	copy(f.Data[:f.Len], r[8:8+f.Len])
	return f, k
}

// fdConn is a conn that carries CAN FD frames too (a socket with
// CAN_RAW_FD_FRAMES): its recv returns errFDRecv for a CAN FD frame,
// which lastFD then holds until the next recv.
type fdConn interface {
	sendFD(r *rawFDFrame) error
	lastFD() *rawFDFrame
}

// SendFD queues f as a CAN FD frame without blocking, as Send does a
// classic one. The bus must have been opened with Options.FD (on an
// interface with the CAN FD MTU, 72). CAN FD frames count in TxFrames
// and TxErrors, not in the load (their length on the wire depends on the
// data bit rate).
func (b *Bus) SendFD(f FDFrame) error {
	if !fdLen(f.Len) {
		return errFDLen
	}
	if f.ID > effMask {
		return errFrameID
	}
	fc, ok := b.c.(fdConn)
	if !ok || !b.o.FD {
		return errNoFD
	}
	r := encodeFD(f)
	b.life.RLock()
	if b.closed || b.closing.Load() {
		b.life.RUnlock()
		return b.errSend
	}
	err := fc.sendFD(&r)
	b.life.RUnlock()
	b.noteLink(err)
	b.mu.Lock()
	if err != nil {
		b.stats.TxErrors++
	} else {
		b.stats.TxFrames++
	}
	b.mu.Unlock()
	return err
}

// LatestFD returns the newest CAN FD data frame received with that
// 29-bit id and when it arrived (Latest's classic frames are apart).
func (b *Bus) LatestFD(id uint32) (FDFrame, time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fdFrames.get(id)
}

// handleFD takes one received CAN FD frame into the FD table and the
// counters (not the load). Its table holds at most Options.MaxIDs ids.
func (b *Bus) handleFD(r *rawFDFrame, drops uint32) {
	f, k := decodeFD(r)
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.Dropped += uint64(drops - b.drops)
	b.drops = drops
	b.stats.RxFrames++
	if k != kindData {
		return
	}
	if b.fdFrames.index == nil {
		b.fdFrames = newTable[FDFrame](0)
	}
	if !b.fdFrames.put(f.ID, f, now, b.o.MaxIDs) {
		b.stats.Dropped++
	}
}

// fdMTUProblem explains an interface whose MTU cannot carry CAN FD
// frames (CANFD_MTU, 72), or returns nil.
func fdMTUProblem(name string, mtu int) error {
	if mtu >= len(rawFDFrame{}) {
		return nil
	}
	return fmt.Errorf("%s: CAN FD needs the interface's MTU at 72 (it is %d): `sudo ip link set %s mtu 72` for a vcan, "+
		"`sudo ip link set %s up type can bitrate 1000000 dbitrate 5000000 fd on` for a CAN FD controller", name, mtu, name, name)
}
