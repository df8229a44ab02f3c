package sim

import (
	"fmt"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
)

var _ hal.LinuxBuses = (*Sim)(nil)

// roboRIOPort is a navX's roboRIO port (`id`), or -1 when the YAML puts
// it on a Linux bus (`bus`): SPI and I2C by port then never find it.
func roboRIOPort(d *config.Device) int {
	if d.Has("bus") {
		return -1
	}
	return d.Int("id")
}

// SPIDev returns the SPI port of a Linux bus and chip select
// (/dev/spidevBUS.CS, hal.LinuxBuses): the emulated navX whose YAML entry
// gives that bus and chip_select, else a port where nothing answers, as
// SPI does for an unwired roboRIO port. A coprocessor robot thus runs on
// the sim unchanged.
func (s *Sim) SPIDev(bus, cs int) (spi.Port, error) {
	if bus < 0 || cs < 0 {
		return nil, fmt.Errorf("sim: /dev/spidev%d.%d: %w", bus, cs, hal.ErrNoDevice)
	}
	if m := s.linuxNavX("spi", bus, cs); m != nil {
		return m.nav.spiPort(), nil
	}
	return emptySPI{}, nil
}

// I2CDev returns a Linux I2C bus (/dev/i2c-BUS, hal.LinuxBuses): the
// emulated navX's (at 0x32) when its YAML entry gives that bus, else a bus
// where no device acknowledges.
func (s *Sim) I2CDev(bus int) (i2c.Bus, error) {
	if bus < 0 {
		return nil, fmt.Errorf("sim: /dev/i2c-%d: %w", bus, hal.ErrNoDevice)
	}
	if m := s.linuxNavX("i2c", bus, 0); m != nil {
		return m.nav.i2cBus(), nil
	}
	return emptyI2C{}, nil
}

// linuxNavX finds the navX the YAML puts on that Linux bus (and chip
// select, on SPI), or nil.
func (s *Sim) linuxNavX(iface string, bus, cs int) *imuDev {
	for _, m := range s.imus {
		if m.nav == nil || m.iface != iface {
			continue
		}
		d := s.r.Config.Device(m.name)
		if d == nil || !d.Has("bus") || d.Int("bus") != bus {
			continue
		}
		if iface == "spi" && d.Int("chip_select") != cs {
			continue
		}
		return m
	}
	return nil
}
