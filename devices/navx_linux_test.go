package devices

import (
	"errors"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
)

// linuxBackend is a fake backend with Linux buses: a coprocessor.
type linuxBackend struct {
	*haltest.Backend
	spi    map[[2]int]spi.Port
	i2c    map[int]i2c.Bus
	opened []string
}

func (b *linuxBackend) SPIDev(bus, cs int) (spi.Port, error) {
	b.opened = append(b.opened, "spi")
	if p, ok := b.spi[[2]int{bus, cs}]; ok {
		return p, nil
	}
	return nil, hal.ErrNoDevice
}

func (b *linuxBackend) I2CDev(bus int) (i2c.Bus, error) {
	b.opened = append(b.opened, "i2c")
	if p, ok := b.i2c[bus]; ok {
		return p, nil
	}
	return nil, hal.ErrNoDevice
}

// navxResponse is the fake navX's registers 0x00-0x39 (its register map,
// newFakeNavX) and, when withCRC, their CRC computed apart from hal's.
func navxResponse(withCRC bool) []byte {
	f := newFakeNavX()
	b := append([]byte(nil), f.regs[:0x3A]...)
	if withCRC {
		b = append(b, fakeNavXCRC(b))
	}
	return b
}

// On a coprocessor's SPI bus (bus 1, chip select 2: /dev/spidev1.2) the
// navX speaks the same protocol, byte for byte: the request [00 3A 44]
// (registers 0x00-0x39 and their CRC), then 59 bytes clocked out, the
// last the CRC of the 58 before. A response with a bad CRC is refused
// and counted; the state keeps the last good sample.
func TestNavXLinuxSPIPlayback(t *testing.T) {
	good, bad := navxResponse(true), navxResponse(true)
	bad[len(bad)-1] ^= 0x01
	zeros := make([]byte, 0x3B)
	req := []byte{0x00, 0x3A, 0x44}
	// The CRC of the request, from the table: the navX checks it.
	if fakeNavXCRC(req[:2]) != req[2] {
		t.Fatalf("request CRC %#x, want %#x", fakeNavXCRC(req[:2]), req[2])
	}
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{
		{W: req, R: make([]byte, 3)}, {W: zeros, R: good},
		{W: req, R: make([]byte, 3)}, {W: zeros, R: bad},
	}}}
	b := &linuxBackend{Backend: haltest.New(), spi: map[[2]int]spi.Port{{1, 2}: pb}}
	d, s, err := navxDevice(t, "{name: gyro, type: navx, frame_id: base_link, interface: spi, bus: 1, chip_select: 2}", b)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.opened) != 1 || b.opened[0] != "spi" {
		t.Errorf("opened %v, want the SPI device", b.opened)
	}
	ms := time.Millisecond
	if err := d.Read(0, 10*ms); err != nil {
		t.Fatal(err)
	}
	if err := d.Write(0, 10*ms); err != nil {
		t.Fatal(err)
	}
	checkNavXState(t, s) // +90° about z: yaw -90.00° in the navX's clockwise sense, as register 0x16 says
	if err := d.Read(10*ms, 10*ms); err != nil {
		t.Fatal(err)
	}
	if err := d.Write(10*ms, 10*ms); err == nil || !strings.Contains(err.Error(), "/dev/spidev1.2 failed its CRC") {
		t.Errorf("a bad CRC: %v, want it refused", err)
	}
	if d.crcErrors != 1 {
		t.Errorf("%d CRC errors counted, want 1", d.crcErrors)
	}
	checkNavXState(t, s)
	if err := pb.Close(); err != nil {
		t.Errorf("playback: %v", err)
	}
}

// On a coprocessor's I2C bus (/dev/i2c-3) the navX at 0x32 is read in one
// transaction: write [00 3A], read 58 bytes, no CRC.
func TestNavXLinuxI2CPlayback(t *testing.T) {
	pb := &i2ctest.Playback{Ops: []i2ctest.IO{{Addr: 0x32, W: []byte{0x00, 0x3A}, R: navxResponse(false)}}}
	b := &linuxBackend{Backend: haltest.New(), i2c: map[int]i2c.Bus{3: pb}}
	d, s, err := navxDevice(t, "{name: gyro, type: navx, frame_id: base_link, interface: i2c, bus: 3}", b)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Read(0, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	checkNavXState(t, s)
	if err := pb.Close(); err != nil {
		t.Errorf("playback: %v", err)
	}
}

// A bus the backend does not have, or a backend without Linux buses,
// fails with the device node and the reason.
func TestNavXLinuxErrors(t *testing.T) {
	b := &linuxBackend{Backend: haltest.New()}
	_, _, err := navxDevice(t, "{name: gyro, type: navx, frame_id: base_link, interface: spi, bus: 0}", b)
	if err == nil || !strings.Contains(err.Error(), "/dev/spidev0.0") || !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("missing SPI device: %v", err)
	}
	_, _, err = navxDevice(t, "{name: gyro, type: navx, frame_id: base_link, interface: i2c, bus: 7}", b)
	if err == nil || !strings.Contains(err.Error(), "/dev/i2c-7") || !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("missing I2C bus: %v", err)
	}
	_, _, err = navxDevice(t, "{name: gyro, type: navx, frame_id: base_link, interface: i2c, bus: 1}", haltest.New())
	if err == nil || !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), "no Linux SPI or I2C buses") {
		t.Errorf("a backend without Linux buses: %v", err)
	}
}
