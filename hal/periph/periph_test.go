package periph

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"

	"github.com/frcd/frcd/hal"
)

// fakeHost is a Host over a temporary /dev with fake registries.
type fakeHost struct {
	*Host
	dev     string
	opened  []string
	spiPort *spitest.Playback
	i2cBus  *i2ctest.Playback
	pins    map[string]*gpiotest.Pin
	openErr error
}

func newFakeHost(t *testing.T, nodes ...string) *fakeHost {
	t.Helper()
	f := &fakeHost{dev: t.TempDir(), pins: map[string]*gpiotest.Pin{"GPIO17": {N: "GPIO17", Num: 17}, "GPIO27": {N: "GPIO27", Num: 27}}}
	for _, n := range nodes {
		if err := os.WriteFile(filepath.Join(f.dev, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f.Host = newHost(f.dev,
		func(name string) (spi.PortCloser, error) {
			f.opened = append(f.opened, name)
			return f.spiPort, f.openErr
		},
		func(name string) (i2c.BusCloser, error) {
			f.opened = append(f.opened, name)
			return f.i2cBus, f.openErr
		},
		func(name string) gpio.PinIO {
			if p, ok := f.pins[name]; ok {
				return p
			}
			return nil
		})
	return f
}

// SPIDev opens /dev/spidevB.C once through periph's registry and hands the
// port out; transfers reach the device byte for byte.
func TestSPIDev(t *testing.T) {
	f := newFakeHost(t, "spidev1.2")
	f.spiPort = &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{{W: []byte{0x00, 0x3A, 0x44}, R: []byte{0, 0, 0}}}}}
	p, err := f.SPIDev(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.SPIDev(1, 2)
	if err != nil || again != p || len(f.opened) != 1 || f.opened[0] != "/dev/spidev1.2" {
		t.Errorf("second SPIDev: %v, %v; opened %v, want one open of /dev/spidev1.2", again, err, f.opened)
	}
	c, err := p.Connect(500000, spi.Mode3, 8)
	if err != nil {
		t.Fatal(err)
	}
	r := make([]byte, 3)
	if err := c.Tx([]byte{0x00, 0x3A, 0x44}, r); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if len(f.spis) != 0 {
		t.Errorf("ports kept after Close: %v", f.spis)
	}
}

// A missing node says which and how to enable it; an open that fails
// otherwise names the node.
func TestSPIDevErrors(t *testing.T) {
	f := newFakeHost(t, "spidev0.0")
	_, err := f.SPIDev(0, 1)
	node := filepath.Join(f.dev, "spidev0.1")
	if err == nil || !errors.Is(err, hal.ErrNoDevice) || !strings.Contains(err.Error(), node+" does not exist: enable the spi interface") ||
		!strings.Contains(err.Error(), "dtparam=spi=on") || !strings.Contains(err.Error(), "ls /dev/spidev*") {
		t.Errorf("missing node: %v", err)
	}
	if len(f.opened) != 0 {
		t.Errorf("opened %v for a missing node", f.opened)
	}
	f.openErr = errors.New("sysfs-spi: invalid bus")
	if _, err := f.SPIDev(0, 0); err == nil || !strings.Contains(err.Error(), filepath.Join(f.dev, "spidev0.0")+": sysfs-spi: invalid bus") {
		t.Errorf("failed open: %v", err)
	}
}

func TestI2CDev(t *testing.T) {
	f := newFakeHost(t, "i2c-1")
	f.i2cBus = &i2ctest.Playback{Ops: []i2ctest.IO{{Addr: 0x32, W: []byte{0x00, 0x3A}, R: []byte{0x32}}}}
	b, err := f.I2CDev(1)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := f.I2CDev(1); again != b || len(f.opened) != 1 || f.opened[0] != "/dev/i2c-1" {
		t.Errorf("opened %v, want one open of /dev/i2c-1", f.opened)
	}
	r := make([]byte, 1)
	if err := b.Tx(0x32, []byte{0x00, 0x3A}, r); err != nil || r[0] != 0x32 {
		t.Errorf("Tx: %v, read %x", err, r)
	}
	_, err = f.I2CDev(2)
	if err == nil || !errors.Is(err, hal.ErrNoDevice) || !strings.Contains(err.Error(), "dtparam=i2c=on") || !strings.Contains(err.Error(), "ls /dev/i2c-*") {
		t.Errorf("missing bus: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// A node the user may not open says to join the group.
func TestNodeErrorPermission(t *testing.T) {
	err := nodeError("/dev/spidev0.0", "spi", &fs.PathError{Op: "open", Path: "/dev/spidev0.0", Err: fs.ErrPermission})
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "/dev/spidev0.0: permission denied: add the user to the spi group (sudo usermod -aG spi $USER") {
		t.Errorf("permission: %v", err)
	}
	err = gpioError("GPIO4", fs.ErrPermission)
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "gpio group") {
		t.Errorf("GPIO permission: %v", err)
	}
}

// GPIO pins by name: an input reads the level, an output drives it (low
// at open); a pin opens once; an unknown name is no device.
func TestGPIO(t *testing.T) {
	f := newFakeHost(t)
	in, err := f.OpenGPIOIn("GPIO17")
	if err != nil {
		t.Fatal(err)
	}
	pin := f.pins["GPIO17"]
	if pin.P != gpio.PullNoChange {
		t.Errorf("pull %v, want left as it is", pin.P)
	}
	for _, l := range []gpio.Level{gpio.High, gpio.Low} {
		pin.L = l
		if v, err := in.Get(); err != nil || v != bool(l) {
			t.Errorf("level %v read %v, %v", l, v, err)
		}
	}
	out27 := f.pins["GPIO27"]
	out27.L = gpio.High
	out, err := f.OpenGPIOOut("GPIO27")
	if err != nil {
		t.Fatal(err)
	}
	if out27.L != gpio.Low {
		t.Error("an output opened high, want low")
	}
	if err := out.Set(true); err != nil || out27.L != gpio.High {
		t.Errorf("Set(true): %v, level %v", err, out27.L)
	}
	if err := out.Set(false); err != nil || out27.L != gpio.Low {
		t.Errorf("Set(false): %v, level %v", err, out27.L)
	}
	if _, err := f.OpenGPIOOut("GPIO17"); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("second open of GPIO17: %v, want ErrInUse", err)
	}
	if _, err := f.OpenGPIOIn("GPIO99"); !errors.Is(err, hal.ErrNoDevice) || !strings.Contains(err.Error(), "GPIO GPIO99: no pin of that name") {
		t.Errorf("unknown pin: %v", err)
	}
}
