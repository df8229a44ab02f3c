package devices

import (
	"errors"
	"os"
	"testing"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/interfaces"
)

// recorder is a fake backend noting which providers a constructor opens;
// every named bus is its one bus.
type recorder struct {
	*haltest.Backend
	used hal.Caps
}

func (r *recorder) OpenPWM(ch int) (hal.PWM, error) {
	r.used |= hal.CapPWM
	return r.Backend.OpenPWM(ch)
}
func (r *recorder) OpenDigitalIn(ch int) (hal.DigitalIn, error) {
	r.used |= hal.CapDIO
	return r.Backend.OpenDigitalIn(ch)
}
func (r *recorder) OpenDigitalOut(ch int) (hal.DigitalOut, error) {
	r.used |= hal.CapDIO
	return r.Backend.OpenDigitalOut(ch)
}
func (r *recorder) OpenDutyCycleOut(ch int) (hal.DutyCycleOut, error) {
	r.used |= hal.CapDutyCycle
	return r.Backend.OpenDutyCycleOut(ch)
}
func (r *recorder) OpenDutyCycleIn(ch int) (hal.DutyCycleIn, error) {
	r.used |= hal.CapDutyCycleIn
	return r.Backend.OpenDutyCycleIn(ch)
}
func (r *recorder) OpenAddressableLED(ch, start, n int, order hal.LEDOrder) (hal.AddressableLED, error) {
	r.used |= hal.CapAddressableLED
	return r.Backend.OpenAddressableLED(ch, start, n, order)
}
func (r *recorder) OpenAnalogIn(ch, avg, over int) (hal.AnalogIn, error) {
	r.used |= hal.CapAnalogIn
	return r.Backend.OpenAnalogIn(ch, avg, over)
}
func (r *recorder) OpenAnalogOut(ch int) (hal.AnalogOut, error) {
	r.used |= hal.CapAnalogOut
	return r.Backend.OpenAnalogOut(ch)
}
func (r *recorder) OpenEncoder(a, b int, e hal.Encoding) (hal.Encoder, error) {
	r.used |= hal.CapEncoder
	return r.Backend.OpenEncoder(a, b, e)
}
func (r *recorder) OpenRelay(ch int) (hal.Relay, error) {
	r.used |= hal.CapRelay
	return r.Backend.OpenRelay(ch)
}
func (r *recorder) CAN() hal.CANBus { r.used |= hal.CapCAN; return r.Backend.CAN() }
func (r *recorder) OpenCANMotor(model string, id int) (hal.CANMotor, error) {
	r.used |= hal.CapCANMotor
	return r.Backend.OpenCANMotor(model, id)
}
func (r *recorder) OpenPigeon(id, talonID int) (hal.Pigeon, error) {
	r.used |= hal.CapPigeon
	return r.Backend.OpenPigeon(id, talonID)
}
func (r *recorder) OpenTalonFX(bus string, id int) (phoenix6.TalonFX, error) {
	r.used |= phoenix6.Cap
	return r.Backend.OpenTalonFX(bus, id)
}
func (r *recorder) OpenCANcoder(bus string, id int) (phoenix6.CANcoder, error) {
	r.used |= phoenix6.Cap
	return r.Backend.OpenCANcoder(bus, id)
}
func (r *recorder) OpenPigeon2(bus string, id int) (phoenix6.Pigeon2, error) {
	r.used |= phoenix6.Cap
	return r.Backend.OpenPigeon2(bus, id)
}
func (r *recorder) OpenBuiltInIMU() (hal.Pigeon, error) {
	r.used |= hal.CapIMU
	return r.Backend.OpenBuiltInIMU()
}
func (r *recorder) OpenAccelerometer(rangeG int) (hal.Accelerometer, error) {
	r.used |= hal.CapAccel
	return r.Backend.OpenAccelerometer(rangeG)
}
func (r *recorder) CANBus(name string) (hal.CANBus, error) { return r.CAN(), nil }
func (r *recorder) OpenCANMotorOn(bus, model string, id int) (hal.CANMotor, error) {
	return r.OpenCANMotor(model, id)
}
func (r *recorder) OpenPigeonOn(bus string, id, talonID int) (hal.Pigeon, error) {
	return r.OpenPigeon(id, talonID)
}
func (r *recorder) SPI(port int) (spi.Port, error) {
	r.used |= hal.CapRIOPorts
	return r.Backend.SPI(port)
}
func (r *recorder) I2C(port int) (i2c.Bus, error) {
	r.used |= hal.CapRIOPorts
	return r.Backend.I2C(port)
}

// Each driver's Needs are what its constructor opens, exactly, for every
// entry of the example robots and, for a type none of them has, for its
// documented example entry: `frcd validate --hal` warns from Needs, so they
// must not drift from the code.
func TestNeedsAreWhatConstructorsOpen(t *testing.T) {
	seen := map[string]bool{}
	check := func(f *config.File) {
		for _, d := range f.Devices {
			rec := &recorder{Backend: haltest.New()}
			// The fake has no navX on its SPI port: the port is opened
			// all the same, and that is what is counted.
			if _, err := registry[d.Type.Name].New(d, NewEnv(rec, interfaces.NewRegistry())); err != nil && !errors.Is(err, hal.ErrNoDevice) {
				t.Fatalf("%s: %v", d, err)
			}
			if need := NeedsOf(d); rec.used != need {
				t.Errorf("%s: opens %s; its driver needs %s", d, rec.used, need)
			}
			seen[d.Type.Name] = true
		}
	}
	for _, path := range []string{"../examples/competition/robot.yaml", "../examples/rev/robot.yaml"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, list := config.Parse(path, data)
		if list.Errors() > 0 {
			t.Fatalf("%s: %v", path, list)
		}
		check(f)
	}
	for _, name := range Types() {
		if seen[name] {
			continue
		}
		entry := config.Lookup(name).ExampleEntry()
		f, list := config.Parse("example.yaml", []byte("joints:\n  - "+entry+"\n"))
		if list.Errors() > 0 {
			t.Errorf("%s: its example entry %s does not stand alone (%v): put one in an example robot", name, entry, list)
			continue
		}
		check(f)
	}
	if got := hal.CapsOf(&recorder{}); got != hal.AllCaps()&^hal.CapLinuxBuses {
		t.Errorf("the recorder provides %s", got)
	}
}
