package hal

import (
	"encoding/binary"
	"fmt"
	"time"
)

// The universal heartbeat (PROTOCOLS.md "Universal heartbeat").
const (
	HeartbeatID      = 0x01011840
	HeartbeatPeriod  = 20 * time.Millisecond
	HeartbeatTimeout = 100 * time.Millisecond // devices treat longer without one as disabled
)

// Heartbeat is the FRC universal heartbeat's content, bit for bit.
type Heartbeat struct {
	MatchTime      uint8  // s, bits 0-7
	MatchNumber    uint16 // bits 8-17
	ReplayNumber   uint8  // bits 18-23
	RedAlliance    bool   // bit 24
	Enabled        bool   // bit 25
	Autonomous     bool   // bit 26
	Test           bool   // bit 27
	Watchdog       bool   // bit 28: devices act only while it is set
	TournamentType uint8  // bits 29-31
	TimeOfDay      uint32 // bits 32-63
}

func bit(b bool, n uint) uint64 {
	if b {
		return 1 << n
	}
	return 0
}

// Frame encodes the heartbeat as its 8-byte frame (little-endian 64 bits).
func (h Heartbeat) Frame() Frame {
	v := uint64(h.MatchTime) | uint64(h.MatchNumber&0x3FF)<<8 | uint64(h.ReplayNumber&0x3F)<<18 |
		bit(h.RedAlliance, 24) | bit(h.Enabled, 25) | bit(h.Autonomous, 26) | bit(h.Test, 27) |
		bit(h.Watchdog, 28) | uint64(h.TournamentType&7)<<29 | uint64(h.TimeOfDay)<<32
	f := Frame{ID: HeartbeatID, Len: 8}
	binary.LittleEndian.PutUint64(f.Data[:], v)
	return f
}

// ParseHeartbeat decodes a heartbeat frame; it fails on another id or a
// frame shorter than 8 bytes.
func ParseHeartbeat(f Frame) (Heartbeat, error) {
	if f.ID != HeartbeatID || f.Len != 8 {
		return Heartbeat{}, fmt.Errorf("not a heartbeat: id %#08x, %d bytes", f.ID, f.Len)
	}
	v := binary.LittleEndian.Uint64(f.Data[:])
	return Heartbeat{
		MatchTime: uint8(v), MatchNumber: uint16(v>>8) & 0x3FF, ReplayNumber: uint8(v>>18) & 0x3F,
		RedAlliance: v&(1<<24) != 0, Enabled: v&(1<<25) != 0, Autonomous: v&(1<<26) != 0, Test: v&(1<<27) != 0,
		Watchdog: v&(1<<28) != 0, TournamentType: uint8(v>>29) & 7, TimeOfDay: uint32(v >> 32),
	}, nil
}

// HeartbeatOf is the heartbeat a sender owning the bus sends for a Driver
// Station state: enabled only when enabled, attached and not e-stopped,
// with the watchdog bit set alongside (devices act only with both).
func HeartbeatOf(ds DSState) Heartbeat {
	on := ds.Enabled && ds.Attached && !ds.EStop
	return Heartbeat{Enabled: on, Watchdog: on, Autonomous: ds.Mode == Autonomous, Test: ds.Mode == Test}
}

// CANBitRate is the FRC CAN bus's bit rate, bit/s.
const CANBitRate = 1_000_000

// FrameBits is the number of bit times a frame with a 29-bit id takes on
// the wire: start of frame through CRC with the stuff bits the
// transmitter inserts (a complement after five equal bits), then the
// unstuffed CRC delimiter, ACK, end of frame and interframe space. A
// remote frame carries its length code and no data.
func FrameBits(f Frame) int {
	n := int(min(f.Len, 8))
	rtr, data := uint64(0), n
	if f.RTR {
		rtr, data = 1, 0
	}
	var bits [64 + 54 + 15]bool
	k := 0
	put := func(v uint64, w int) {
		for i := w - 1; i >= 0; i-- {
			bits[k] = v>>uint(i)&1 == 1
			k++
		}
	}
	put(0, 1)                 // SOF
	put(uint64(f.ID>>18), 11) // base id
	put(3, 2)                 // SRR, IDE recessive
	put(uint64(f.ID), 18)     // extension
	put(rtr, 1)               // RTR
	put(0, 2)                 // r1, r0
	put(uint64(n), 4)         // DLC
	for i := 0; i < data; i++ {
		put(uint64(f.Data[i]), 8)
	}
	put(uint64(canCRC15(bits[:k])), 15)
	stuffed, run := 0, 0
	var last bool
	for i := 0; i < k; i++ {
		if i > 0 && bits[i] == last {
			run++
		} else {
			run = 1
		}
		last = bits[i]
		if run == 5 {
			stuffed++
			last, run = !last, 1 // the stuff bit starts a new run
		}
	}
	return k + stuffed + 13
}

// canCRC15 is CAN's CRC-15 (polynomial 0x4599) over a bit sequence.
func canCRC15(bits []bool) uint16 {
	var crc uint16
	for _, b := range bits {
		next := b != (crc>>14&1 == 1)
		crc = crc << 1 & 0x7FFF
		if next {
			crc ^= 0x4599
		}
	}
	return crc
}

// WorstFrameBits is the most bit times an n-byte data frame with a 29-bit
// id can take: 67 + 8n bits and a stuff bit for every four after the
// first of the 54 + 8n stuffed ones (160 for 8 bytes).
func WorstFrameBits(n int) int {
	n = min(max(n, 0), 8)
	return 67 + 8*n + (54+8*n-1)/4
}

// NamedCAN is implemented by backends with CAN buses by name, such as
// SocketCAN's can0 and can1.
type NamedCAN interface {
	// CANBus returns the bus of that name.
	CANBus(name string) (CANBus, error)
}

// OpenCAN returns b's bus of that name: "" is its CAN(), the default bus;
// another name needs a backend that is a NamedCAN.
func OpenCAN(b Backend, name string) (CANBus, error) {
	cb, ok := b.(CANBuses)
	if !ok {
		return nil, LackError(b, CapCAN)
	}
	if name == "" {
		return cb.CAN(), nil
	}
	if nb, ok := b.(NamedCAN); ok {
		return nb.CANBus(name)
	}
	return nil, fmt.Errorf("CAN bus %q: this backend has one CAN bus, use the default: %w", name, ErrUnsupported)
}

// Heard is one arbitration id a CAN bus has received.
type Heard struct {
	ID    uint32
	Last  time.Duration // when it last came, on the backend's Clock
	Count uint64        // frames with that id since the bus opened
}

// CANStats are a bus's counters since it opened, and its recent load.
type CANStats struct {
	RxFrames, TxFrames uint64
	ErrorFrames        uint64 // error frames the controller reported
	BusOff             uint64 // times the controller went bus-off
	TxErrors           uint64 // frames the bus refused to send
	Dropped            uint64 // received frames lost (queue full)
	// Load is the fraction of the bus's bit time that frames took over
	// the last second, both ways (FrameBits at CANBitRate); 0-1.
	Load float64
}

// CANMonitor is implemented by buses that hear every frame on the wire:
// the inventory lists devices from it, diagnostics report its load. Its
// methods are safe from any goroutine.
type CANMonitor interface {
	// Heard appends every id received since the bus opened to dst, in
	// increasing id order, and returns it.
	Heard(dst []Heard) []Heard
	Stats() CANStats
}
