package frc

import "testing"

func TestFRCIDRoundTrip(t *testing.T) {
	// PROTOCOLS.md: the PDP's Status1 at device 0 is 0x08041400, the PH's
	// SetAll 0x09050C00, the heartbeat 0x01011840 (API 0x061).
	for _, c := range []struct {
		id                    uint32
		typ, mfr, api, device int
	}{
		{0x08041400, DevPowerDistribution, MfrCTRE, 0x50, 0},
		{0x08041740 + 3, DevPowerDistribution, MfrCTRE, 0x5D, 3},
		{0x09050C00, DevPneumatics, MfrREV, 0x30, 0},
		{0x08051900 + 1, DevPowerDistribution, MfrREV, 0x64, 1},
		{0x01011840, DevRobotController, MfrNI, 0x061, 0},
	} {
		if got := FRCID(c.typ, c.mfr, c.api, c.device); got != c.id {
			t.Errorf("FRCID(%d,%d,%#x,%d) = %#08x, want %#08x", c.typ, c.mfr, c.api, c.device, got, c.id)
		}
		typ, mfr, api, dev := SplitFRCID(c.id)
		if typ != c.typ || mfr != c.mfr || api != c.api || dev != c.device {
			t.Errorf("SplitFRCID(%#08x) = %d,%d,%#x,%d", c.id, typ, mfr, api, dev)
		}
	}
	if DeviceTypeName(DevPneumatics) != "pneumatics" || ManufacturerName(MfrREV) != "REV" {
		t.Error("names")
	}
	if DeviceTypeName(20) != "device type 20" || ManufacturerName(99) != "manufacturer 99" {
		t.Error("unknown names should give the number")
	}
}
