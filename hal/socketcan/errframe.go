package socketcan

import "github.com/frcd/frcd/hal"

// Linux CAN error frames (linux/can/error.h). The driver of the CAN
// controller reports trouble as frames with CAN_ERR_FLAG in the id; the
// rest of the id is a set of error classes, the data bytes say more.
// A CAN_RAW socket receives them only after CAN_RAW_ERR_FILTER asks for
// them, which Open does for every class.
const (
	errTxTimeout = 0x001 // the controller gave up sending a frame
	errLostArb   = 0x002 // lost arbitration; data[0] the bit
	errCtrl      = 0x004 // controller problem; data[1]
	errProt      = 0x008 // protocol violation; data[2] type, data[3] location
	errTrx       = 0x010 // transceiver status; data[4]
	errAck       = 0x020 // no ACK for a frame sent
	errBusOff    = 0x040 // the controller went bus-off
	errBusError  = 0x080 // bus error (may flood)
	errRestarted = 0x100 // the controller restarted after bus-off
	errCnt       = 0x200 // data[6] TX and data[7] RX error counters

	// data[1], controller problems.
	ctrlRxOverflow = 0x01
	ctrlTxOverflow = 0x02
	ctrlRxWarning  = 0x04
	ctrlTxWarning  = 0x08
	ctrlRxPassive  = 0x10
	ctrlTxPassive  = 0x20
	ctrlActive     = 0x40
)

// ErrorState is the CAN controller's fault confinement state (ISO 11898):
// error active, warning (an error counter at 96 or more), error passive
// (128 or more) or bus-off (the transmit counter past 255: the controller
// has left the bus until it restarts).
type ErrorState int

const (
	ErrorActive ErrorState = iota
	ErrorWarning
	ErrorPassive
	BusOff
)

func (s ErrorState) String() string {
	switch s {
	case ErrorWarning:
		return "error warning"
	case ErrorPassive:
		return "error passive"
	case BusOff:
		return "bus-off"
	}
	return "error active"
}

// BusErrors are the details of a bus's error frames, beyond the
// hal.CANStats counters, for diagnostics.
type BusErrors struct {
	// State is the controller's state as its last error frame told it
	// (ErrorActive until one says otherwise).
	State ErrorState
	// TxErrorCounter and RxErrorCounter are the controller's error
	// counters as last reported; CountersKnown is false until a driver
	// reports them (CAN_ERR_CNT, Linux 5.19 and later).
	TxErrorCounter, RxErrorCounter uint8
	CountersKnown                  bool

	Restarts        uint64 // restarts after bus-off
	LostArbitration uint64
	ProtocolErrors  uint64 // bit, stuff, form, CRC... errors (bus errors)
	AckErrors       uint64 // frames sent that nobody acknowledged: alone on the bus, or a broken wire
	TxTimeouts      uint64 // frames the controller gave up sending
	Overflows       uint64 // controller RX or TX buffer overflows
	Transceiver     uint64 // transceiver faults (CANH/CANL shorts or open wires)

	// RecvErrors counts failed socket reads other than timeouts;
	// LastRecvErr is the newest (the interface going down reads as
	// ENETDOWN once).
	RecvErrors  uint64
	LastRecvErr error
}

// applyErrorFrame counts one error frame of that class and data into s
// and e.
func applyErrorFrame(class uint32, d *[8]byte, s *hal.CANStats, e *BusErrors) {
	s.ErrorFrames++
	if class&errTxTimeout != 0 {
		e.TxTimeouts++
		s.TxErrors++
	}
	if class&errLostArb != 0 {
		e.LostArbitration++
	}
	if class&errCtrl != 0 {
		c := d[1]
		if c&ctrlRxOverflow != 0 {
			s.Dropped++ // at least one frame the controller could not keep
		}
		if c&(ctrlRxOverflow|ctrlTxOverflow) != 0 {
			e.Overflows++
		}
		switch {
		case c&(ctrlRxPassive|ctrlTxPassive) != 0:
			e.State = ErrorPassive
		case c&(ctrlRxWarning|ctrlTxWarning) != 0:
			e.State = ErrorWarning
		case c&ctrlActive != 0:
			e.State = ErrorActive
		}
	}
	if class&(errProt|errBusError) != 0 {
		e.ProtocolErrors++
	}
	if class&errTrx != 0 {
		e.Transceiver++
	}
	if class&errAck != 0 {
		e.AckErrors++
	}
	if class&errBusOff != 0 {
		s.BusOff++
		e.State = BusOff
	}
	if class&errRestarted != 0 {
		e.Restarts++
		e.State = ErrorActive
	}
	if class&errCnt != 0 {
		e.TxErrorCounter, e.RxErrorCounter, e.CountersKnown = d[6], d[7], true
	}
}
