package hal

import (
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"
)

// LinuxBuses is implemented by backends with a Linux computer's SPI and
// I2C buses by number, as a coprocessor has them (/dev/spidevB.C,
// /dev/i2c-B): package hal/periph's Host on hardware, and the sim, which
// puts the same emulated devices there, so that a coprocessor robot runs
// on the sim unchanged.
type LinuxBuses interface {
	// SPIDev returns the SPI port of bus and chip select cs
	// (/dev/spidevBUS.CS).
	SPIDev(bus, cs int) (spi.Port, error)
	// I2CDev returns I2C bus bus (/dev/i2c-BUS).
	I2CDev(bus int) (i2c.Bus, error)
}

// LinuxGPIO is implemented by backends with a Linux computer's GPIO pins
// by name (periph's gpioreg names, such as GPIO17).
type LinuxGPIO interface {
	OpenGPIOIn(name string) (DigitalIn, error)
	OpenGPIOOut(name string) (DigitalOut, error)
}

// OpenLinuxBuses returns b as LinuxBuses, or an error saying the backend
// has none (a roboRIO's ports are by WPILib number: use id).
func OpenLinuxBuses(b Backend) (LinuxBuses, error) {
	if lb, ok := b.(LinuxBuses); ok {
		return lb, nil
	}
	return nil, LackError(b, CapLinuxBuses)
}
