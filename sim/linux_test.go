package sim

import (
	"errors"
	"testing"

	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

const linuxURDF = `<robot name="coprocessor">
  <link name="base_link"><sensor name="gyro" type="imu"/><sensor name="gyro2" type="imu"/></link>
</robot>`

const linuxYAML = `joints:
  - {name: gyro, type: navx, frame_id: base_link, interface: spi, bus: 1, chip_select: 2}
  - {name: gyro2, type: navx, frame_id: base_link, interface: i2c, bus: 3}
`

// A navX on a coprocessor's Linux bus is the same emulated navX, at its
// bus and chip select, and nowhere else.
func TestLinuxBuses(t *testing.T) {
	s := newSim(t, loadRobot(t, linuxURDF, linuxYAML), Options{})
	var lb hal.LinuxBuses = s
	p, err := lb.SPIDev(1, 2)
	if err != nil || p != s.sensors["gyro"].imu.nav.spiPort() {
		t.Errorf("SPIDev(1, 2) = %v, %v; want the navX's port", p, err)
	}
	b, err := lb.I2CDev(3)
	if err != nil || b != s.sensors["gyro2"].imu.nav.i2cBus() {
		t.Errorf("I2CDev(3) = %v, %v; want the navX's bus", b, err)
	}
	// Elsewhere nothing answers: not at another chip select, not on the
	// roboRIO's port 0 (id is absent, not 0).
	for _, get := range []func() (spi.Port, error){
		func() (spi.Port, error) { return lb.SPIDev(1, 0) },
		func() (spi.Port, error) { return s.SPI(0) },
	} {
		p, err := get()
		if err != nil {
			t.Fatal(err)
		}
		if p == s.sensors["gyro"].imu.nav.spiPort() {
			t.Error("the navX answers where the YAML does not put it")
		}
		c, err := p.Connect(500000, spi.Mode3, 8)
		if err != nil {
			t.Fatal(err)
		}
		r := []byte{1, 2, 3}
		if err := c.Tx([]byte{0x00, 0x3A, frc.NavXCRC([]byte{0x00, 0x3A})}, r); err != nil || r[0]|r[1]|r[2] != 0 {
			t.Errorf("empty port read %v, %v; want zeros", r, err)
		}
	}
	if b, _ := lb.I2CDev(1); b == s.sensors["gyro2"].imu.nav.i2cBus() {
		t.Error("the I2C navX answers on bus 1")
	}
	if b, _ := s.I2C(0); b == s.sensors["gyro2"].imu.nav.i2cBus() {
		t.Error("the I2C navX answers on roboRIO port 0")
	}
	if _, err := lb.SPIDev(-1, 0); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("SPIDev(-1, 0): %v, want ErrNoDevice", err)
	}
	if _, err := lb.I2CDev(-1); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("I2CDev(-1): %v, want ErrNoDevice", err)
	}
}
