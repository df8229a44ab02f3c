package hal

import (
	"errors"
	"github.com/frcd/frcd/frc"
	"testing"
)

// The heartbeat's id is the robot controller's FRC id (frc.FRCID).
func TestHeartbeatID(t *testing.T) {
	if id := frc.FRCID(frc.DevRobotController, frc.MfrNI, 0x061, 0); id != HeartbeatID {
		t.Errorf("heartbeat id %#08x, want %#08x", HeartbeatID, id)
	}
}

func TestHeartbeatBits(t *testing.T) {
	// PROTOCOLS.md: data[3] bit 1 = enabled, data[3] bit 4 = watchdog.
	f := HeartbeatOf(DSState{Enabled: true, Attached: true}).Frame()
	if f.ID != HeartbeatID || f.Len != 8 {
		t.Fatalf("frame %#08x len %d", f.ID, f.Len)
	}
	if f.Data[3] != 1<<1|1<<4 {
		t.Errorf("enabled heartbeat data[3] = %#02x, want 0x12", f.Data[3])
	}
	for i, b := range f.Data {
		if i != 3 && b != 0 {
			t.Errorf("data[%d] = %#x, want 0", i, b)
		}
	}
	for _, ds := range []DSState{
		{Enabled: true, Attached: false},
		{Enabled: true, Attached: true, EStop: true},
		{Enabled: false, Attached: true},
	} {
		if f := HeartbeatOf(ds).Frame(); f.Data[3]&(1<<1|1<<4) != 0 {
			t.Errorf("%+v: data[3] = %#x, want enabled and watchdog clear", ds, f.Data[3])
		}
	}
	if f := HeartbeatOf(DSState{Enabled: true, Attached: true, Mode: Autonomous}).Frame(); f.Data[3] != 1<<1|1<<2|1<<4 {
		t.Errorf("autonomous data[3] = %#x", f.Data[3])
	}
	if f := HeartbeatOf(DSState{Enabled: true, Attached: true, Mode: Test}).Frame(); f.Data[3] != 1<<1|1<<3|1<<4 {
		t.Errorf("test data[3] = %#x", f.Data[3])
	}
}

func TestHeartbeatRoundTrip(t *testing.T) {
	h := Heartbeat{MatchTime: 135, MatchNumber: 1023, ReplayNumber: 63, RedAlliance: true, Enabled: true,
		Autonomous: true, Test: false, Watchdog: true, TournamentType: 5, TimeOfDay: 0xDEADBEEF}
	got, err := ParseHeartbeat(h.Frame())
	if err != nil || got != h {
		t.Fatalf("round trip: %+v, %v; want %+v", got, err, h)
	}
	if _, err := ParseHeartbeat(Frame{ID: HeartbeatID, Len: 7}); err == nil {
		t.Error("short heartbeat accepted")
	}
	if _, err := ParseHeartbeat(Frame{ID: 0x08041400, Len: 8}); err == nil {
		t.Error("other id accepted")
	}
}

func TestFrameBits(t *testing.T) {
	// Unstuffed: 1+11+2+18+3+4 + 8n data + 15 CRC + 13 = 67 + 8n.
	for n := 0; n <= 8; n++ {
		lo, hi := 67+8*n, WorstFrameBits(n)
		for _, f := range []Frame{
			{ID: 0, Len: uint8(n)},
			{ID: 0x1FFFFFFF, Len: uint8(n), Data: [8]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
			{ID: 0x08041400, Len: uint8(n), Data: [8]byte{0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA}},
			{ID: HeartbeatID, Len: uint8(n), Data: [8]byte{0, 0, 0, 0x12}},
		} {
			b := FrameBits(f)
			if b < lo || b > hi {
				t.Errorf("FrameBits(%#08x, %d bytes) = %d, outside [%d, %d]", f.ID, n, b, lo, hi)
			}
		}
	}
	if WorstFrameBits(8) != 160 {
		t.Errorf("WorstFrameBits(8) = %d, want 160", WorstFrameBits(8))
	}
	// All-zero id and data: SOF and 11 id zeros make 12 dominant bits,
	// stuffed after the 5th and 10th; long zero runs go on through the
	// frame, so it takes many more bits than an alternating pattern.
	zero := FrameBits(Frame{ID: 0, Len: 8})
	alt := FrameBits(Frame{ID: 0x0AAAAAAA, Len: 8, Data: [8]byte{0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55}})
	if zero <= alt {
		t.Errorf("zero frame %d bits, alternating %d: stuffing not counted", zero, alt)
	}
	// A remote frame asking for 8 bytes carries none: 67 bits and its
	// stuff bits, far below a data frame's 131 at the least.
	if b := FrameBits(Frame{ID: 0x02052605, Len: 8, RTR: true}); b < 67 || b > WorstFrameBits(0) {
		t.Errorf("remote frame: %d bits, want [67, %d]", b, WorstFrameBits(0))
	}
	if FrameBits(Frame{Len: 200}) != FrameBits(Frame{Len: 8}) {
		t.Error("lengths over 8 should count as 8")
	}
}

func TestCANCRC15(t *testing.T) {
	// A CRC register shifted through its own value comes out zero: the
	// receiver's check over data plus CRC.
	bits := []bool{true, false, true, true, false, false, true, true, true, false, true, false}
	crc := canCRC15(bits)
	for i := 14; i >= 0; i-- {
		bits = append(bits, crc>>uint(i)&1 == 1)
	}
	if canCRC15(bits) != 0 {
		t.Errorf("CRC over data and its CRC = %#x, want 0", canCRC15(bits))
	}
	if canCRC15(nil) != 0 || canCRC15([]bool{true}) != 0x4599 {
		t.Error("CRC of a single 1 bit should be the polynomial")
	}
}

type oneBus struct{ Backend }

func (oneBus) CAN() CANBus { return nil }

func TestOpenCANUnnamed(t *testing.T) {
	if _, err := OpenCAN(oneBus{}, ""); err != nil {
		t.Errorf("default bus: %v", err)
	}
	if _, err := OpenCAN(oneBus{}, "can1"); !errors.Is(err, ErrUnsupported) {
		t.Errorf("named bus on a one-bus backend: %v, want ErrUnsupported", err)
	}
}
