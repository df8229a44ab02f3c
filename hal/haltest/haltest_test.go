package haltest

import (
	"errors"
	"github.com/frcd/frcd/frc"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
)

func TestOpenChecks(t *testing.T) {
	b := New()
	if _, err := b.OpenPWM(20); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("PWM 20: %v", err)
	}
	if _, err := b.OpenPWM(19); err != nil {
		t.Errorf("PWM 19: %v", err)
	}
	if _, err := b.OpenPWM(19); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("PWM 19 twice: %v", err)
	}
	// An encoder claims both its DIO channels; a failed one claims neither.
	if _, err := b.OpenDigitalIn(5); err != nil {
		t.Fatal(err)
	}
	if _, err := b.OpenEncoder(4, 5, hal.X4); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("encoder on a used channel: %v", err)
	}
	if b.IsOpen("dio", 4) {
		t.Errorf("a failed encoder left DIO 4 open")
	}
	if _, err := b.OpenEncoder(4, 6, 3); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("3x encoding: %v", err)
	}
	if _, err := b.OpenEncoder(4, 6, hal.X2); err != nil || !b.IsOpen("dio", 6) || b.Encoder[4].Encoding != hal.X2 {
		t.Errorf("encoder: %v, %+v", err, b.Encoder[4])
	}
	if _, err := b.OpenDutyCycleOut(6); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("DIO 6 as duty cycle: %v", err)
	}
	if _, err := b.OpenCANMotor("falcon", 1); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("unknown model: %v", err)
	}
	if _, err := b.SPI(4); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("SPI without a fake: %v", err)
	}
}

func TestChannels(t *testing.T) {
	b := New()
	if v, err := b.Vin(); v != NominalVin || err != nil || !b.DS().Attached || b.DS().Enabled {
		t.Errorf("new backend: Vin %v %v, DS %+v", v, err, b.DS())
	}
	p, _ := b.OpenPWM(3)
	_ = p.SetPulse(1500 * time.Microsecond)
	if b.PWM[3].Pulse != 1500*time.Microsecond || b.PWM[3].Writes != 1 {
		t.Errorf("PWM 3: %+v", b.PWM[3])
	}
	a, _ := b.OpenAnalogOut(0)
	_ = a.SetVoltage(7)
	if b.AnalogOut[0].Volts != 5 {
		t.Errorf("analog out clamps: %v", b.AnalogOut[0].Volts)
	}
	in, _ := b.OpenAnalogIn(2, 4, 2)
	b.AnalogIn[2].Volts = 2.5
	if v, _ := in.Voltage(); v != 2.5 || b.AnalogIn[2].AverageBits != 4 {
		t.Errorf("analog in: %v, %+v", v, b.AnalogIn[2])
	}
	r, _ := b.OpenRelay(1)
	b.Relay[1].Err = hal.ErrClosed
	if err := r.Set(true, false); !errors.Is(err, hal.ErrClosed) || b.Relay[1].Forward {
		t.Errorf("failing relay: %v, %+v", err, b.Relay[1])
	}
	b.Pigeons[3] = &Pigeon{Q: [4]float64{0, 1, 0, 0}}
	pg, _ := b.OpenPigeon(3, -1)
	if q, _, _, _ := pg.Read(); q != [4]float64{0, 1, 0, 0} {
		t.Errorf("a pigeon set before opening: %v", q)
	}
	pt, _ := b.OpenPigeon(-1, 3)
	if q, _, _, _ := pt.Read(); q != [4]float64{1, 0, 0, 0} || b.TalonPigeons[3] == nil {
		t.Errorf("a pigeon on Talon 3: %v", q)
	}
}

func TestCAN(t *testing.T) {
	b := New()
	bus := b.CAN()
	if _, _, ok := bus.Latest(0x10); ok {
		t.Errorf("a frame before any was injected")
	}
	b.Bus.Inject(hal.Frame{ID: 0x10, Len: 1, Data: [8]byte{7}}, 5*time.Millisecond)
	if f, at, ok := bus.Latest(0x10); !ok || at != 5*time.Millisecond || f.Data[0] != 7 {
		t.Errorf("Latest: %+v %v %v", f, at, ok)
	}
	b.Bus.Forget(0x10)
	if _, _, ok := bus.Latest(0x10); ok {
		t.Errorf("forgotten frame still there")
	}
	_ = bus.Send(hal.Frame{ID: 0x20, Len: 2})
	_ = bus.Send(hal.Frame{ID: 0x20, Len: 3})
	if len(b.Bus.Sent) != 2 || b.Bus.Count[0x20] != 2 || b.Bus.Last[0x20].Len != 3 {
		t.Errorf("sent %+v, count %d", b.Bus.Sent, b.Bus.Count[0x20])
	}
}

// The calls drivers make do not allocate.
func TestDoesNotAllocate(t *testing.T) {
	b := New()
	p, _ := b.OpenPWM(0)
	d, _ := b.OpenDigitalOut(1)
	e, _ := b.OpenEncoder(2, 3, hal.X4)
	m, _ := b.OpenCANMotor(frc.TalonSRX, 1)
	bus := b.CAN()
	allocs := testing.AllocsPerRun(100, func() {
		b.Advance(time.Millisecond)
		_ = p.SetPulse(time.Millisecond)
		_ = d.Set(true)
		_, _ = e.Count()
		_ = m.SetDuty(0.5)
		_, _ = m.Status()
		_, _ = b.Vin()
		_ = bus.Send(hal.Frame{ID: 1})
		b.Bus.Inject(hal.Frame{ID: 2}, b.Now())
		_, _, _ = bus.Latest(2)
		b.Bus.Sent = b.Bus.Sent[:0]
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}
