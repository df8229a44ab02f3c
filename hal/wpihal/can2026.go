//go:build cgo && roborio

package wpihal

/*
#include <stdlib.h>
#include "hal2026.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/frcd/frcd/hal"
)

// canBus is the roboRIO's CAN bus through NetComm: it sends frames once
// and, per id a driver asks for, keeps the newest frame received.
type canBus struct {
	b        *Backend
	mu       sync.Mutex // guards what follows
	latest   map[uint32]*canEntry
	rx       *C.frcd_canrx // C memory for the receive trampoline
	tx       *C.uint8_t    // 8 bytes of C memory for the frame sent
	errs     uint64        // receives failed
	reported uint64        // errs at the last Report
	err      error         // the last failure
}

type canEntry struct {
	f  hal.Frame
	at time.Duration
}

func (c *canBus) init(b *Backend) {
	c.b = b
	c.latest = map[uint32]*canEntry{}
	c.rx = (*C.frcd_canrx)(C.calloc(1, C.size_t(unsafe.Sizeof(C.frcd_canrx{}))))
	c.tx = (*C.uint8_t)(C.calloc(8, 1))
}

func (c *canBus) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	C.free(unsafe.Pointer(c.rx))
	C.free(unsafe.Pointer(c.tx))
	c.rx, c.tx = nil, nil
}

// CAN returns the CAN bus.
func (b *Backend) CAN() hal.CANBus { return &b.bus }

// canFrameRemote is HAL_CAN_IS_FRAME_REMOTE, the flag in the upper bits of
// a message id that makes HAL_CAN_SendMessage send a remote frame
// (allwpilib v2026.2.2 hal/src/main/native/include/hal/CAN.h).
const canFrameRemote = 0x80000000

// Send sends f once (HAL_CAN_SendMessage, no repeat); a remote frame
// (f.RTR) with HAL_CAN_IS_FRAME_REMOTE on its id.
func (c *canBus) Send(f hal.Frame) error {
	if f.ID > 0x1FFFFFFF || f.Len > 8 {
		return fmt.Errorf("wpihal: CAN frame id %#x with %d bytes: not a 29-bit id with 0-8 bytes: %w", f.ID, f.Len, hal.ErrUnsupported)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tx == nil {
		return c.b.closedErr()
	}
	tx := unsafe.Slice((*byte)(unsafe.Pointer(c.tx)), 8)
	id := f.ID
	if f.RTR { // a remote frame: the flag on the id, the length asked for, no data (as CANAPI's HAL_WriteCANRTRFrame sends it)
		id |= canFrameRemote
		clear(tx)
	} else {
		copy(tx, f.Data[:f.Len])
	}
	return c.b.status("HAL_CAN_SendMessage", C.frcd_can_send(C.uint32_t(id), c.tx, C.uint8_t(f.Len)))
}

// Latest asks NetComm for a frame of that id newer than the last it gave,
// keeps it, and returns the newest kept. Its time is when NetComm stamped
// the frame's arrival, on the backend's Clock. A receive error other than
// "no new frame" is counted (CANErrors) and the kept frame returned.
func (c *canBus) Latest(id uint32) (hal.Frame, time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rx == nil {
		return hal.Frame{}, 0, false
	}
	C.frcd_can_receive(C.uint32_t(id), c.rx)
	e := c.latest[id]
	switch st := c.rx.status; st {
	case 0:
		if e == nil {
			e = &canEntry{}
			c.latest[id] = e
		}
		e.f = hal.Frame{ID: id, Len: uint8(min(c.rx.len, 8))}
		copy(e.f.Data[:], unsafe.Slice((*byte)(unsafe.Pointer(&c.rx.data[0])), 8)[:e.f.Len])
		// NetComm stamps in ms of CLOCK_MONOTONIC, as the base time is;
		// the difference is the frame's age (uint32 arithmetic wraps).
		age := time.Duration(uint32(c.rx.baseTime)-uint32(c.rx.stamp)) * time.Millisecond
		e.at = max(0, c.b.Now()-age)
	case C.FRCD_CAN_MESSAGE_NOT_FOUND:
	default:
		c.errs++
		c.err = statusError("HAL_CAN_ReceiveMessage", st)
	}
	if e == nil {
		return hal.Frame{}, 0, false
	}
	return e.f, e.at, true
}

// Report gives the CAN bus's health for /diagnostics (hal.Reporter): a
// warning when receives failed with a status other than "no new frame"
// since the last report, with the last such error.
func (b *Backend) Report(dst []hal.Report) []hal.Report {
	c := &b.bus
	c.mu.Lock()
	defer c.mu.Unlock()
	r := hal.Report{Name: "CAN receive", Message: fmt.Sprintf("no failed receives since the last report (%d in all)", c.errs)}
	if c.errs > c.reported {
		r.Message, r.Warn = fmt.Sprintf("%d receives failed since the last report (%d in all), the last: %v", c.errs-c.reported, c.errs, c.err), true
	}
	c.reported = c.errs
	return append(dst, r)
}
