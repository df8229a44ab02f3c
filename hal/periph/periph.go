// Package periph is the I/O of a Linux coprocessor (a Raspberry Pi, a
// Jetson) for frcd, over periph.io/x/host/v3: SPI ports by bus and chip
// select (/dev/spidevB.C) and I2C buses by number (/dev/i2c-B) as
// hal.LinuxBuses, and GPIO pins by periph's names (GPIO17) as
// hal.DigitalIn and hal.DigitalOut (hal.LinuxGPIO).
//
// The host code is thin: it checks the device node, opens it through
// periph's registries after host.Init, and keeps what it opened. It only
// runs on hardware; the drivers above it are tested with periph's playback
// fakes (spitest, i2ctest, gpiotest) through the same interfaces, and
// deploy/coprocessor-io.md says how to check the wiring on the robot.
//
// Errors name the /dev node and the usual fix: a node that does not exist
// needs its interface enabled (a device-tree overlay), one that is not
// permitted needs the user in the spi, i2c or gpio group. They wrap
// hal.ErrNoDevice, hal.ErrInUse or the system's error.
package periph

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"github.com/frcd/frcd/hal"
)

var (
	_ hal.LinuxBuses = (*Host)(nil)
	_ hal.LinuxGPIO  = (*Host)(nil)
)

// Host is a Linux computer's SPI, I2C and GPIO. Ports and buses are
// shared: asking twice for one returns the same. It is safe for
// concurrent use.
type Host struct {
	mu sync.Mutex
	// devDir is where the device nodes are ("/dev"); the open functions
	// are periph's registries (spireg.Open, i2creg.Open, gpioreg.ByName).
	devDir    string
	openSPI   func(name string) (spi.PortCloser, error)
	openI2C   func(name string) (i2c.BusCloser, error)
	pinByName func(name string) gpio.PinIO

	spis map[[2]int]spi.PortCloser
	i2cs map[int]i2c.BusCloser
	pins map[string]bool
}

var (
	initOnce sync.Once
	initErr  error
)

// Open initializes periph's host drivers (once per process) and returns
// the host.
func Open() (*Host, error) {
	initOnce.Do(func() { _, initErr = host.Init() })
	if initErr != nil {
		return nil, fmt.Errorf("periph: initializing the host drivers: %w", initErr)
	}
	return newHost("/dev", spireg.Open, i2creg.Open, gpioreg.ByName), nil
}

func newHost(devDir string, openSPI func(string) (spi.PortCloser, error), openI2C func(string) (i2c.BusCloser, error), pinByName func(string) gpio.PinIO) *Host {
	return &Host{devDir: devDir, openSPI: openSPI, openI2C: openI2C, pinByName: pinByName,
		spis: map[[2]int]spi.PortCloser{}, i2cs: map[int]i2c.BusCloser{}, pins: map[string]bool{}}
}

// SPIDev opens /dev/spidevBUS.CS.
func (h *Host) SPIDev(bus, cs int) (spi.Port, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if p, ok := h.spis[[2]int{bus, cs}]; ok {
		return p, nil
	}
	node := fmt.Sprintf("%s/spidev%d.%d", h.devDir, bus, cs)
	if err := checkNode(node, "spi"); err != nil {
		return nil, err
	}
	// periph registers each port by its node's name under /dev.
	p, err := h.openSPI(fmt.Sprintf("/dev/spidev%d.%d", bus, cs))
	if err != nil {
		return nil, nodeError(node, "spi", err)
	}
	h.spis[[2]int{bus, cs}] = p
	return p, nil
}

// I2CDev opens /dev/i2c-BUS.
func (h *Host) I2CDev(bus int) (i2c.Bus, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if b, ok := h.i2cs[bus]; ok {
		return b, nil
	}
	node := fmt.Sprintf("%s/i2c-%d", h.devDir, bus)
	if err := checkNode(node, "i2c"); err != nil {
		return nil, err
	}
	b, err := h.openI2C(fmt.Sprintf("/dev/i2c-%d", bus))
	if err != nil {
		return nil, nodeError(node, "i2c", err)
	}
	h.i2cs[bus] = b
	return b, nil
}

// OpenGPIOIn opens a pin by name as an input, its pull left as it is.
func (h *Host) OpenGPIOIn(name string) (hal.DigitalIn, error) {
	p, err := h.pin(name)
	if err != nil {
		return nil, err
	}
	if err := p.In(gpio.PullNoChange, gpio.NoEdge); err != nil {
		h.release(name)
		return nil, gpioError(name, err)
	}
	return digitalIn{p}, nil
}

// OpenGPIOOut opens a pin by name as an output, driven low.
func (h *Host) OpenGPIOOut(name string) (hal.DigitalOut, error) {
	p, err := h.pin(name)
	if err != nil {
		return nil, err
	}
	if err := p.Out(gpio.Low); err != nil {
		h.release(name)
		return nil, gpioError(name, err)
	}
	return digitalOut{p}, nil
}

// pin claims a pin by name: once only.
func (h *Host) pin(name string) (gpio.PinIO, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pins[name] {
		return nil, fmt.Errorf("GPIO %s: %w", name, hal.ErrInUse)
	}
	p := h.pinByName(name)
	if p == nil {
		return nil, fmt.Errorf("GPIO %s: no pin of that name (periph names them GPIO17 and the like; "+
			"check /dev/gpiochip* and that the gpio driver is loaded): %w", name, hal.ErrNoDevice)
	}
	h.pins[name] = true
	return p, nil
}

func (h *Host) release(name string) {
	h.mu.Lock()
	delete(h.pins, name)
	h.mu.Unlock()
}

// Close closes the SPI ports and I2C buses opened; pins stay as they are.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for k, p := range h.spis {
		errs = append(errs, p.Close())
		delete(h.spis, k)
	}
	for k, b := range h.i2cs {
		errs = append(errs, b.Close())
		delete(h.i2cs, k)
	}
	return errors.Join(errs...)
}

type digitalIn struct{ p gpio.PinIO }

// Get reads the level.
func (d digitalIn) Get() (bool, error) { return d.p.Read() == gpio.High, nil }

type digitalOut struct{ p gpio.PinIO }

// Set drives the level.
func (d digitalOut) Set(high bool) error { return d.p.Out(gpio.Level(high)) }

// checkNode checks that a device node exists and may be opened for
// reading and writing, for an error that says why not.
func checkNode(node, group string) error {
	f, err := os.OpenFile(node, os.O_RDWR, 0)
	if err != nil {
		return nodeError(node, group, err)
	}
	return f.Close()
}

// nodeError explains a failure to open a device node: a missing node,
// one not permitted, or another error, with the usual fix.
func nodeError(node, group string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist: enable the %s interface (on a Raspberry Pi dtparam=%s=on in config.txt, "+
			"elsewhere its device-tree overlay) and check with `ls /dev/%s`: %w",
			node, group, group, listGlob(group), errors.Join(hal.ErrNoDevice, err))
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied: add the user to the %s group (sudo usermod -aG %s $USER, "+
			"then log in again) or run frcd as root: %w", node, group, group, err)
	}
	return fmt.Errorf("%s: %w", node, err)
}

func listGlob(group string) string {
	if group == "spi" {
		return "spidev*"
	}
	return "i2c-*"
}

func gpioError(name string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("GPIO %s: permission denied: add the user to the gpio group (sudo usermod -aG gpio $USER) or run frcd as root: %w", name, err)
	}
	return fmt.Errorf("GPIO %s: %w", name, err)
}
