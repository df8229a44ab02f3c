package frc

import "testing"

func TestNavXCRC(t *testing.T) {
	// Worked by hand: 0x01 is odd, so 0x01^0x91 = 0x90, shifted 0x48;
	// 0x24, 0x12, 0x09 shift out zeros; 0x09 is odd: 0x98 -> 0x4C; 0x26;
	// 0x13 is odd: 0x82 -> 0x41.
	if got := NavXCRC([]byte{0x01}); got != 0x41 {
		t.Errorf("CRC(01) = %#02x, want 0x41", got)
	}
	// The write of UPDATE_RATE_HZ = 60 Hz, [0x84, 0x3C]: 0x3E (by a
	// separate implementation of the same CRC).
	if got := NavXCRC([]byte{0x84, 0x3C}); got != 0x3E {
		t.Errorf("CRC(84 3C) = %#02x, want 0x3e", got)
	}
	// The CRC of any run of zeros is 0.
	if got := NavXCRC(make([]byte, 59)); got != 0 {
		t.Errorf("CRC(zeros) = %#02x, want 0", got)
	}
}
