package linux

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/heartbeat"
)

var (
	_ hal.Backend    = (*Backend)(nil)
	_ hal.NamedCAN   = (*Backend)(nil)
	_ hal.Stepper    = (*Backend)(nil)
	_ hal.Enabler    = (*Backend)(nil)
	_ hal.Epocher    = (*Backend)(nil)
	_ hal.LinuxBuses = (*Backend)(nil)
	_ hal.Reporter   = (*Backend)(nil)
	_ Heartbeat      = (*heartbeat.Sender)(nil)
)

type fakeIO struct {
	pins map[string]*haltest.DIO
	spi  map[[2]int]spi.Port
	i2c  map[int]i2c.Bus
}

func (f *fakeIO) SPIDev(bus, cs int) (spi.Port, error) {
	if p, ok := f.spi[[2]int{bus, cs}]; ok {
		return p, nil
	}
	return nil, hal.ErrNoDevice
}

func (f *fakeIO) I2CDev(bus int) (i2c.Bus, error) {
	if b, ok := f.i2c[bus]; ok {
		return b, nil
	}
	return nil, hal.ErrNoDevice
}

func (f *fakeIO) OpenGPIOIn(pin string) (hal.DigitalIn, error) {
	if d, ok := f.pins[pin]; ok {
		return d, nil
	}
	return nil, errors.New("no such pin")
}

func (f *fakeIO) OpenGPIOOut(pin string) (hal.DigitalOut, error) {
	if d, ok := f.pins[pin]; ok {
		return d, nil
	}
	return nil, errors.New("no such pin")
}

type tick struct {
	now time.Duration
	ds  hal.DSState
}

type fakeHeartbeat struct {
	ticks        []tick
	st           heartbeat.Status
	sent, failed uint64
	last         error
}

func (h *fakeHeartbeat) Tick(now time.Duration, ds hal.DSState) error {
	h.ticks = append(h.ticks, tick{now, ds})
	return nil
}

func (h *fakeHeartbeat) Status() heartbeat.Status { return h.st }

// stoppedBus is a bus whose reader has stopped.
type stoppedBus struct{ *haltest.CAN }

func (stoppedBus) Err() error { return errors.New("1000 receive errors in a row: network is down") }

func (h *fakeHeartbeat) Counts() (sent, failed uint64, last error) { return h.sent, h.failed, h.last }

func TestOptionsFrom(t *testing.T) {
	f, list := config.Parse("r.yaml", []byte("joints: []\nlinux: {can: [can1, can0], heartbeat: off, gpio: [GPIO4, '-']}\n"))
	if list.Errors() != 0 {
		t.Fatal(list)
	}
	o := OptionsFrom(f)
	if strings.Join(o.CAN, ",") != "can1,can0" || o.Heartbeat != "off" || strings.Join(o.GPIO, ",") != "GPIO4,-" {
		t.Errorf("%+v", o)
	}
	f, _ = config.Parse("r.yaml", []byte("joints: []\n"))
	if o := OptionsFrom(f); strings.Join(o.CAN, ",") != "can0" || o.Heartbeat != "auto" || len(o.GPIO) != 0 {
		t.Errorf("defaults %+v", o)
	}
}

// TestBackend: buses by name with the first the default, DIO channels on
// their pins (each once), the software Driver Station starting disabled
// and reaching the heartbeats, and the roboRIO-only I/O refused clearly.
func TestBackend(t *testing.T) {
	can0, can1 := haltest.NewCAN(), haltest.NewCAN()
	hb := &fakeHeartbeat{st: heartbeat.Status{Mode: heartbeat.Auto, State: heartbeat.Listening}}
	closed := false
	pin := &haltest.DIO{High: true}
	sp := &spitest.Record{}
	ib := &i2ctest.Record{}
	io := &fakeIO{pins: map[string]*haltest.DIO{"GPIO17": pin}, spi: map[[2]int]spi.Port{{1, 0}: sp}, i2c: map[int]i2c.Bus{1: ib}}
	b := New(Options{CAN: []string{"can1", "can0"}, GPIO: []string{"-", "GPIO17", "GPIO99"}},
		Parts{Buses: map[string]hal.CANBus{"can0": can0, "can1": can1}, Heartbeats: []Heartbeat{hb}, HeartbeatBuses: []string{"can1"}, IO: io,
			Close: func() error { closed = true; return nil }})

	if b.CAN() != can1 {
		t.Error("the default bus is not the first listed")
	}
	if bus, err := hal.OpenCAN(b, "can0"); err != nil || bus != can0 {
		t.Errorf("can0: %v", err)
	}
	if _, err := hal.OpenCAN(b, "can7"); !errors.Is(err, hal.ErrNoDevice) || !strings.Contains(err.Error(), "linux: can [can1, can0]") {
		t.Errorf("can7: %v", err)
	}

	in, err := b.OpenDigitalIn(1)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := in.Get(); !v || err != nil {
		t.Errorf("pin reads %v %v", v, err)
	}
	if _, err := b.OpenDigitalOut(1); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("channel 1 twice: %v", err)
	}
	for _, ch := range []int{0, 5, -1} {
		if _, err := b.OpenDigitalIn(ch); !errors.Is(err, hal.ErrNoDevice) || !strings.Contains(err.Error(), "linux: gpio") {
			t.Errorf("unwired channel %d: %v", ch, err)
		}
	}
	if _, err := b.OpenDigitalOut(2); err == nil || !strings.Contains(err.Error(), "GPIO99") {
		t.Errorf("a pin the machine lacks: %v", err)
	}
	if _, err := b.OpenDigitalOut(2); err == nil || errors.Is(err, hal.ErrInUse) {
		t.Errorf("a failed open must not hold the channel: %v", err)
	}
	if p, err := b.SPIDev(1, 0); err != nil || p != sp {
		t.Errorf("spidev1.0: %v", err)
	}
	if bus, err := b.I2CDev(1); err != nil || bus != ib {
		t.Errorf("i2c-1: %v", err)
	}

	if ds := b.DS(); ds.Enabled || !ds.Attached {
		t.Errorf("start: %+v, want attached and disabled", ds)
	}
	var logs []string
	b.Logf = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
	b.AdvanceTo(10 * time.Millisecond)
	b.SetEnabled(true)
	b.AdvanceTo(20 * time.Millisecond)
	hb.st = heartbeat.Status{Mode: heartbeat.Auto, State: heartbeat.Yielding, Foreign: true}
	b.SetEnabled(false)
	b.AdvanceTo(30 * time.Millisecond)
	b.AdvanceTo(40 * time.Millisecond)
	if len(logs) != 2 || !strings.Contains(logs[0], "CAN can1: heartbeat auto: listening") || !strings.Contains(logs[1], "another sender (a roboRIO?) drives the bus") {
		t.Errorf("heartbeat logs %q, want the first state and the one change", logs)
	}
	if r := b.Report(nil); len(r) != 1 || r[0].Name != "heartbeat can1" || r[0].Warn || !strings.Contains(r[0].Message, "not sending") {
		t.Errorf("report %+v", r)
	}
	hb.st = heartbeat.Status{Mode: heartbeat.Off}
	if r := b.Report(nil); !r[0].Warn {
		t.Errorf("off with no other sender should warn: %+v", r)
	}
	hb.st = heartbeat.Status{Mode: heartbeat.On, State: heartbeat.Sending}
	hb.sent, hb.failed, hb.last = 7, 3, errors.New("no buffer space available")
	if r := b.Report(nil); !r[0].Warn || !strings.Contains(r[0].Message, "sending every 20 ms; 3 sends failed since the last report (3 of 10 in all), the last: no buffer space available") {
		t.Errorf("failed sends should warn and say how many: %+v", r)
	}
	hb.sent = 20
	if r := b.Report(nil); r[0].Warn || r[0].Message != "heartbeat on: sending every 20 ms" {
		t.Errorf("no failure since the last report, yet %+v", r)
	}
	if len(hb.ticks) != 4 || hb.ticks[0].ds.Enabled || !hb.ticks[1].ds.Enabled || hb.ticks[1].now != 20*time.Millisecond || hb.ticks[2].ds.Enabled {
		t.Errorf("heartbeat ticks %+v", hb.ticks)
	}

	if got := hal.CapsOf(b); got != Caps&^ctreCaps { // CTRE's come with its libraries: TestCTRE...
		t.Errorf("the backend provides %s; Caps says %s", got, Caps)
	}
	for name, err := range map[string]error{
		"pwm":      second(hal.OpenPWM(b, 0)),
		"duty":     second(hal.OpenDutyCycleOut(b, 0)),
		"ain":      second(hal.OpenAnalogIn(b, 0, 0, 0)),
		"aout":     second(hal.OpenAnalogOut(b, 0)),
		"encoder":  second(hal.OpenEncoder(b, 0, 1, hal.X4)),
		"relay":    second(hal.OpenRelay(b, 0)),
		"talon":    second(hal.OpenCANMotor(b, "", frc.TalonSRX, 1)),
		"pigeon":   second(hal.OpenPigeon(b, "", 0, -1)),
		"spi port": second(hal.OpenRIOPorts(b)),
	} {
		if !errors.Is(err, hal.ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", name, err)
		}
	}
	if _, err := hal.OpenPWM(b, 0); err == nil || !strings.Contains(err.Error(), "no roboRIO FPGA") {
		t.Errorf("PWM on a coprocessor: %v, want the advice to use CAN or the roboRIO", err)
	}
	if _, err := b.Vin(); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("Vin: %v", err)
	}
	if n1, n2 := b.Now(), b.Now(); n2 < n1 {
		t.Error("clock went backwards")
	}
	if err := b.Close(); err != nil || !closed {
		t.Errorf("Close: %v %v", err, closed)
	}
}

func second[T any](_ T, err error) error { return err }

// TestNoIO: without GPIO or SPI, opening them says so.
func TestNoIO(t *testing.T) {
	b := New(Options{GPIO: []string{"GPIO4"}}, Parts{Buses: map[string]hal.CANBus{"can0": haltest.NewCAN()}})
	if _, err := b.OpenDigitalIn(0); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("DIO: %v", err)
	}
	if _, err := b.SPIDev(0, 0); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("SPI: %v", err)
	}
	if _, err := b.I2CDev(0); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("I2C: %v", err)
	}
	if b.CAN() == nil {
		t.Error("no default bus (can0)")
	}
}

// TestReportStoppedReader: a bus whose reader has stopped is a warning on
// /diagnostics; a running one is not reported (the daemon reports its
// load).
func TestReportStoppedReader(t *testing.T) {
	b := New(Options{CAN: []string{"can0", "can1"}}, Parts{Buses: map[string]hal.CANBus{"can0": haltest.NewCAN(), "can1": stoppedBus{haltest.NewCAN()}}})
	r := b.Report(nil)
	if len(r) != 1 || r[0].Name != "CAN can1" || !r[0].Warn || r[0].Message != "the receiver stopped: 1000 receive errors in a row: network is down" {
		t.Errorf("report %+v", r)
	}
}

// TestOpenWithoutInterface: on a machine without the interface, Open
// fails with the interface's name and what to check, and a bad heartbeat
// mode is refused.
func TestOpenWithoutInterface(t *testing.T) {
	_, err := Open(Options{CAN: []string{"frcdnone7"}, Heartbeat: "auto"}, nil)
	if err == nil || !strings.Contains(err.Error(), "frcdnone7") {
		t.Errorf("Open: %v", err)
	}
	t.Log(err)
	if _, err := Open(Options{Heartbeat: "sometimes"}, nil); err == nil {
		t.Error("heartbeat sometimes accepted")
	}
}

// twoBusBackend is a backend with two fake buses, each with a real
// heartbeat sender, enabled.
func twoBusBackend() (be *Backend, can0, can1 *haltest.CAN) {
	can0, can1 = haltest.NewCAN(), haltest.NewCAN()
	be = New(Options{CAN: []string{"can0", "can1"}}, Parts{
		Buses:          map[string]hal.CANBus{"can0": can0, "can1": can1},
		Heartbeats:     []Heartbeat{heartbeat.New(can0, heartbeat.Auto), heartbeat.New(can1, heartbeat.On)},
		HeartbeatBuses: []string{"can0", "can1"}})
	be.SetEnabled(true)
	return be, can0, can1
}

// AdvanceTo, the backend's work on every cycle, allocates nothing once
// the heartbeats have started.
func TestAdvanceToDoesNotAllocate(t *testing.T) {
	be, can0, can1 := twoBusBackend()
	var now time.Duration
	step := func() {
		now += 10 * time.Millisecond
		be.AdvanceTo(now)
		can0.Sent, can1.Sent = can0.Sent[:0], can1.Sent[:0]
	}
	for range 20 { // past auto's listening: both buses send
		step()
	}
	if n := testing.AllocsPerRun(100, step); n != 0 {
		t.Errorf("AdvanceTo: %v allocations per cycle", n)
	}
	if can0.Count[hal.HeartbeatID] == 0 || can1.Count[hal.HeartbeatID] == 0 {
		t.Error("no heartbeat sent")
	}
}

// BenchmarkAdvanceTo: the Linux backend's work on every cycle, two buses
// each with a real heartbeat sender (sending every 20 ms), on the loop's
// 10 ms beat. It must not allocate (TestAdvanceToDoesNotAllocate).
func BenchmarkAdvanceTo(b *testing.B) {
	be, can0, can1 := twoBusBackend()
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += 10 * time.Millisecond
		be.AdvanceTo(now)
		can0.Sent, can1.Sent = can0.Sent[:0], can1.Sent[:0]
	}
	if can1.Count[hal.HeartbeatID] == 0 {
		b.Fatal("no heartbeat sent")
	}
}

// linkBus is a bus whose interface the test takes down and up.
type linkBus struct {
	*haltest.CAN
	down error
}

func (l *linkBus) Down() error { return l.down }

// TestInterfaceDownAndUp: a bus whose interface goes down is logged once
// and is a warning on /diagnostics while down; its coming back up is
// logged once, and the warning goes.
func TestInterfaceDownAndUp(t *testing.T) {
	bus := &linkBus{CAN: haltest.NewCAN()}
	b := New(Options{CAN: []string{"can0"}}, Parts{Buses: map[string]hal.CANBus{"can0": bus}})
	var logs []string
	b.Logf = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
	b.AdvanceTo(10 * time.Millisecond)
	if len(logs) != 0 || len(b.Report(nil)) != 0 {
		t.Fatalf("up: logs %q, report %+v", logs, b.Report(nil))
	}
	bus.down = errors.New("can0: the interface is down: bring it up ...: network is down")
	b.AdvanceTo(20 * time.Millisecond)
	b.AdvanceTo(30 * time.Millisecond)
	if r := b.Report(nil); len(r) != 1 || r[0].Name != "CAN can0" || !r[0].Warn || r[0].Message != bus.down.Error() {
		t.Errorf("down: report %+v", r)
	}
	bus.down = nil
	b.AdvanceTo(40 * time.Millisecond)
	b.AdvanceTo(50 * time.Millisecond)
	want := []string{
		"frcd: warning: CAN can0: the interface is down: bring it up ...: network is down; its frames are lost until it is up again",
		"frcd: CAN can0: the interface is up again",
	}
	if !slices.Equal(logs, want) {
		t.Errorf("logs %q, want %q", logs, want)
	}
	if r := b.Report(nil); len(r) != 0 {
		t.Errorf("up again: report %+v", r)
	}
}
