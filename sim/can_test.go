package sim

import (
	"errors"
	"github.com/frcd/frcd/config"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/bounds"
)

// A decoder of the PDP's and PCM's frames written from PROTOCOLS.md alone,
// to check the sim's encoders against.

// pdpSix decodes the six 10-bit channel currents of a PDP status frame, A.
func pdpSix(d [8]byte) [6]float64 {
	raw := [6]int{
		int(d[0])<<2 | int(d[1])>>6,
		int(d[1]&0x3F)<<4 | int(d[2])>>4,
		int(d[2]&0x0F)<<6 | int(d[3])>>2,
		int(d[3]&3)<<8 | int(d[4]),
		int(d[5])<<2 | int(d[6])>>6,
		int(d[6]&0x3F)<<4 | int(d[7])>>4,
	}
	var a [6]float64
	for i, r := range raw {
		a[i] = float64(r) * 0.125
	}
	return a
}

type pdpReading struct {
	ch                       [16]float64 // A, YAML channels 0-15
	volts, tempC, resOhm     float64
	tmeasMS                  int
	total, power, energyJ    float64
	at1, at2, at3, atEnergy  time.Duration
	len1, len2, len3, lenEnr uint8
}

func readPDP(t *testing.T, bus hal.CANBus, id uint32) pdpReading {
	t.Helper()
	var r pdpReading
	get := func(base uint32) (hal.Frame, time.Duration) {
		f, at, ok := bus.Latest(base + id)
		if !ok {
			t.Fatalf("no frame %#x", base+id)
		}
		return f, at
	}
	f1, at1 := get(0x08041400)
	f2, at2 := get(0x08041440)
	f3, at3 := get(0x08041480)
	fe, ate := get(0x08041740)
	r.at1, r.at2, r.at3, r.atEnergy = at1, at2, at3, ate
	r.len1, r.len2, r.len3, r.lenEnr = f1.Len, f2.Len, f3.Len, fe.Len
	a, b, c := pdpSix(f1.Data), pdpSix(f2.Data), pdpSix(f3.Data)
	copy(r.ch[0:6], a[:])
	copy(r.ch[6:12], b[:])
	copy(r.ch[12:16], c[:4])
	r.resOhm = float64(f3.Data[5]) * 0.001
	r.volts = float64(f3.Data[6])*0.05 + 4.0
	r.tempC = float64(f3.Data[7])*1.03250836957542 - 67.8564500484966
	e := fe.Data
	r.tmeasMS = int(e[0])
	r.total = float64(int(e[1])<<4|int(e[2])>>4) * 0.125
	r.power = float64(int(e[2]&0xF)<<12|int(e[3])<<4|int(e[4])>>4) * 0.125
	r.energyJ = float64(int(e[4]&0xF)<<24|int(e[5])<<16|int(e[6])<<8|int(e[7])) * 0.125 * 0.001 * float64(r.tmeasMS)
	return r
}

func TestPDPFrames(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	bus := s.CAN()
	// Frames are there from the start.
	if r := readPDP(t, bus, 0); r.at1 != 0 || r.total != 1.5 || !near(r.volts, 12.77, 0.025) {
		t.Errorf("PDP at start: %+v; want stamped 0, 1.5 A, 12.77 V", r)
	}
	s.SetDS(enabled)
	for _, c := range []struct {
		ch   int
		typ  string
		duty float64
	}{{4, "sd540", 0.3}, {2, "pwm_talon_srx", -0.4}, {0, "spark", 0.5}} {
		p, err := s.OpenPWM(c.ch)
		if err != nil {
			t.Fatal(err)
		}
		p.SetPulse(config.Lookup(c.typ).PWM.Pulse(c.duty))
	}
	talon, _ := s.OpenCANMotor(frc.TalonSRX, 1)
	var energy float64
	for now := time.Millisecond; now <= 60*time.Millisecond; now += time.Millisecond {
		talon.SetDuty(0.6)
		s.AdvanceTo(now)
		v, a := s.Battery()
		energy += v * a * 0.001
	}
	r := readPDP(t, bus, 0)
	if r.at1 != 60*time.Millisecond || r.at2 != r.at1 || r.at3 != r.at1 || r.atEnergy != r.at1 {
		t.Errorf("stamps %v %v %v %v, want 60ms", r.at1, r.at2, r.at3, r.atEnergy)
	}
	if r.len1 != 8 || r.len2 != 8 || r.len3 != 8 || r.lenEnr != 8 {
		t.Errorf("frame lengths %d %d %d %d, want 8", r.len1, r.len2, r.len3, r.lenEnr)
	}
	want := [16]float64{}
	for _, c := range []struct {
		joint string
		ch    int
	}{{"elevator_joint", 2}, {"shoulder_joint", 4}, {"right_front_wheel_joint", 15}, {"left_front_wheel_joint", 0}} {
		j := truth(t, s, c.joint)
		if j.Current == 0 {
			t.Errorf("%s draws nothing", c.joint)
		}
		want[c.ch] = math.Abs(j.Current)
	}
	for ch := range want {
		if !near(r.ch[ch], want[ch], 0.0625+1e-9) {
			t.Errorf("PDP channel %d: %.4f A, want %.4f", ch, r.ch[ch], want[ch])
		}
	}
	v, a := s.Battery()
	if !near(r.volts, v, 0.025+1e-9) || !near(r.total, a, 0.0625+1e-9) || !near(r.power, v*a, 0.0625+1e-9) {
		t.Errorf("PDP %.3f V %.3f A %.3f W; want %.3f V %.3f A %.3f W", r.volts, r.total, r.power, v, a, v*a)
	}
	if !near(r.tempC, 25, 0.52) || r.resOhm != 0.020 || r.tmeasMS != 20 {
		t.Errorf("PDP %.2f °C, %v Ω, Tmeas %d ms; want 25 °C, 0.020 Ω, 20 ms", r.tempC, r.resOhm, r.tmeasMS)
	}
	if !near(r.energyJ, energy, 0.0025) {
		t.Errorf("PDP energy %.4f J, want %.4f", r.energyJ, energy)
	}
	// Control1 0x40 resets the energy: 20 ms later it holds 20 ms' worth.
	if err := bus.Send(hal.Frame{ID: 0x08041C00, Len: 1, Data: [8]byte{0x40}}); err != nil {
		t.Fatal(err)
	}
	energy = 0
	for now := 61 * time.Millisecond; now <= 80*time.Millisecond; now += time.Millisecond {
		talon.SetDuty(0.6)
		s.AdvanceTo(now)
		v, a := s.Battery()
		energy += v * a * 0.001
	}
	if r := readPDP(t, bus, 0); !near(r.energyJ, energy, 0.0025) {
		t.Errorf("PDP energy after reset %.4f J, want %.4f", r.energyJ, energy)
	}
}

func TestPDPEncoding(t *testing.T) {
	for _, c := range []struct {
		amps float64
		raw  uint32
	}{{0, 0}, {0.0624, 0}, {0.0625, 1}, {10, 80}, {127.875, 1023}, {200, 1023}, {-3, 24}, {math.NaN(), 0}} {
		if got := amps10(c.amps); got != c.raw {
			t.Errorf("amps10(%v) = %d, want %d", c.amps, got, c.raw)
		}
	}
}

func FuzzPDPPacking(f *testing.F) {
	f.Add(uint16(1023), uint16(0), uint16(512), uint16(1), uint16(1000), uint16(77))
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g uint16) {
		defer bounds.Slow(t)()
		in := [6]uint32{uint32(a & 1023), uint32(b & 1023), uint32(c & 1023), uint32(d & 1023), uint32(e & 1023), uint32(g & 1023)}
		var data [8]byte
		pack6(&data, in)
		out := pdpSix(data)
		for i := range in {
			if out[i] != float64(in[i])*0.125 {
				t.Fatalf("packed %v, decoded %v", in, out)
			}
		}
	})
}

// FuzzCANSend sends arbitrary frames to the emulated devices: nothing
// panics and the bus keeps answering.
func FuzzCANSend(f *testing.F) {
	f.Add(uint32(0x09041C00), uint8(8), []byte{0, 0, 0xFF, 0x40, 0, 0, 0, 0})
	f.Add(uint32(0x08041C00), uint8(1), []byte{0x40})
	f.Add(uint32(0xFFFFFFFF), uint8(200), []byte{})
	r := competition(f)
	f.Fuzz(func(t *testing.T, id uint32, n uint8, data []byte) {
		defer bounds.Slow(t)()
		s, err := New(r, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.SetDS(enabled)
		fr := hal.Frame{ID: id, Len: n}
		copy(fr.Data[:], data)
		err = s.CAN().Send(fr)
		if (n > 8 || id > 0x1FFFFFFF) != (err != nil) {
			t.Fatalf("Send(%#x, len %d) = %v", id, n, err)
		}
		s.AdvanceTo(25 * time.Millisecond)
		if _, at, ok := s.CAN().Latest(0x09041400); !ok || at != 20*time.Millisecond {
			t.Fatalf("PCM status at %v, %v", at, ok)
		}
	})
}

func pcmStatus(t *testing.T, bus hal.CANBus, id uint32) (out byte, comp, closed, full bool, amps float64, at time.Duration) {
	t.Helper()
	f, at, ok := bus.Latest(0x09041400 + id)
	if !ok || f.Len != 8 {
		t.Fatalf("PCM %d: no Status1 (%v, len %d)", id, ok, f.Len)
	}
	d := f.Data
	return d[0], d[1]&1 != 0, d[1]&0x40 != 0, d[1]&0x80 != 0, float64(int(d[4]&0x3F)<<4|int(d[5])>>4) * 0.03125, at
}

func TestPCMObeysWhenEnabledAndFresh(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	bus := s.CAN()
	ctl := hal.Frame{ID: 0x09041C00, Len: 8, Data: [8]byte{2: 0x05, 3: 0x40}} // channels 0 and 2, closed loop
	bus.Send(ctl)
	s.AdvanceTo(10 * time.Millisecond)
	if s.Solenoid(0, 0) || s.Solenoid(0, 2) {
		t.Error("the PCM obeyed Control1 while disabled")
	}
	if out, _, closed, full, _, at := pcmStatus(t, bus, 0); out != 0 || closed || !full || at != 0 {
		t.Errorf("Status1 at 0 ms: outputs %#x closed %v full %v at %v; want 0, open, full", out, closed, full, at)
	}
	// Enabled, it acts on the newest Control1, 10 ms old.
	s.SetDS(enabled)
	s.AdvanceTo(11 * time.Millisecond)
	if !s.Solenoid(0, 0) || s.Solenoid(0, 1) || !s.Solenoid(0, 2) {
		t.Errorf("enabled: solenoids %v %v %v, want on off on", s.Solenoid(0, 0), s.Solenoid(0, 1), s.Solenoid(0, 2))
	}
	s.AdvanceTo(20 * time.Millisecond)
	bus.Send(ctl) // the last one, at 20 ms
	s.AdvanceTo(40 * time.Millisecond)
	if out, comp, closed, full, amps, _ := pcmStatus(t, bus, 0); out != 0x05 || comp || !closed || !full || amps != 0 {
		t.Errorf("Status1: outputs %#x comp %v closed %v full %v %v A; want 0x05, off, closed loop, full, 0 A", out, comp, closed, full, amps)
	}
	s.AdvanceTo(120 * time.Millisecond) // the frame is 100 ms old: still obeyed
	if !s.Solenoid(0, 0) {
		t.Error("a 100 ms old Control1 was dropped")
	}
	s.AdvanceTo(121 * time.Millisecond)
	if s.Solenoid(0, 0) || s.Solenoid(0, 2) {
		t.Error("a 101 ms old Control1 was still obeyed")
	}
	bus.Send(ctl)
	s.AdvanceTo(130 * time.Millisecond)
	s.SetDS(hal.DSState{Attached: true})
	s.AdvanceTo(131 * time.Millisecond)
	if s.Solenoid(0, 0) {
		t.Error("the PCM kept its outputs after the robot was disabled")
	}
	if s.Solenoid(5, 0) || s.Solenoid(0, 9) {
		t.Error("a PCM or channel that does not exist reads on")
	}
}

func TestCompressorHysteresis(t *testing.T) {
	s := newSim(t, competition(t), Options{Pressure: 116})
	s.SetDS(enabled)
	bus := s.CAN()
	send := func(bits byte) {
		bus.Send(hal.Frame{ID: 0x09041C00, Len: 8, Data: [8]byte{2: bits, 3: 0x40}})
	}
	run := func(until time.Duration, bits byte) {
		for s.t < until {
			send(bits)
			s.AdvanceTo(min(until, s.t+20*time.Millisecond))
		}
	}
	// 116 psi: below full, the compressor runs at 2 psi/s drawing 10 A.
	run(1*time.Second, 0)
	on, psi := s.Compressor(0)
	if !on || !near(psi, 118, 1e-9) {
		t.Errorf("after 1 s: compressor %v at %.3f psi, want on at 118", on, psi)
	}
	if _, comp, closed, full, amps, _ := pcmStatus(t, bus, 0); !comp || !closed || full || amps != 10 {
		t.Errorf("Status1: comp %v closed %v full %v %v A; want on, closed loop, not full, 10 A", comp, closed, full, amps)
	}
	if _, a := s.Battery(); !near(a, 11.5, 1e-9) {
		t.Errorf("battery current %v A with the compressor on, want 11.5", a)
	}
	run(3*time.Second, 0)
	if on, psi := s.Compressor(0); on || !near(psi, 120, 0.002) {
		t.Errorf("at 3 s: compressor %v at %.3f psi, want off at 120", on, psi)
	}
	// Each stroke of the intake's double solenoid takes 2 psi: after ten,
	// 100 psi is not below the switch's 100 psi, so it stays off; the
	// eleventh brings it on.
	bits := byte(0x01)
	for i := 1; i <= 11; i++ {
		run(s.t+20*time.Millisecond, bits)
		bits ^= 0x03
		on, psi := s.Compressor(0)
		if want := i == 11; on != want {
			t.Errorf("after %d strokes at %.3f psi: compressor %v, want %v", i, psi, on, want)
		}
	}
	// Without closed-loop control it stays off.
	for i := 0; i < 10; i++ {
		bus.Send(hal.Frame{ID: 0x09041C00, Len: 8})
		s.AdvanceTo(s.t + 20*time.Millisecond)
	}
	if on, _ := s.Compressor(0); on {
		t.Error("the compressor runs without closed-loop control")
	}
}

func TestCANMotor(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	m, err := s.OpenCANMotor(frc.TalonSRX, 1)
	if err != nil {
		t.Fatal(err)
	}
	m.SetDuty(0.5)
	s.AdvanceTo(10 * time.Millisecond)
	if j := truth(t, s, "left_front_wheel_joint"); j.Voltage != 0 || j.Velocity != 0 {
		t.Errorf("talon disabled: %+v, want neutral", j)
	}
	if d := s.CANMotorDuty(1); d != 0.5 {
		t.Errorf("CANMotorDuty(1) = %v, want 0.5 (what the driver wrote)", d)
	}
	s.SetDS(enabled)
	m.SetDuty(0.5)
	s.AdvanceTo(11 * time.Millisecond)
	v, _ := s.Battery()
	j := truth(t, s, "left_front_wheel_joint")
	if j.Voltage != 0.5*v || j.Velocity <= 0 {
		t.Errorf("talon at 0.5: %+v, want %v V", j, 0.5*v)
	}
	st, err := m.Status()
	if err != nil || st.BusVoltage != v || st.OutputCurrent != math.Abs(j.Current) || st.Temperature != 25 || st.OutputCurrent == 0 {
		t.Errorf("Status = %+v, %v; want %v V, %v A, 25 °C", st, err, v, math.Abs(j.Current))
	}
	s.AdvanceTo(110 * time.Millisecond) // SetDuty 100 ms ago
	if j := truth(t, s, "left_front_wheel_joint"); j.Voltage == 0 {
		t.Error("talon neutral 100 ms after SetDuty")
	}
	s.AdvanceTo(111 * time.Millisecond)
	if j := truth(t, s, "left_front_wheel_joint"); j.Voltage != 0 {
		t.Errorf("talon 101 ms after SetDuty: %v V, want neutral", j.Voltage)
	}
	m.SetDuty(7) // clamped
	s.AdvanceTo(112 * time.Millisecond)
	if d := s.CANMotorDuty(1); d != 1 {
		t.Errorf("SetDuty(7) gave %v, want 1", d)
	}
	if err := m.SetDuty(math.NaN()); !errors.Is(err, errDuty) {
		t.Errorf("SetDuty(NaN) = %v", err)
	}
	// The Victor SPX on CAN id 2 drives the left rear wheel; e-stopped it
	// is neutral.
	vic, _ := s.OpenCANMotor(frc.VictorSPX, 2)
	s.SetDS(hal.DSState{Enabled: true, Attached: true, EStop: true})
	vic.SetDuty(-1)
	s.AdvanceTo(113 * time.Millisecond)
	if j := truth(t, s, "left_rear_wheel_joint"); j.Voltage != 0 {
		t.Errorf("victor e-stopped: %v V", j.Voltage)
	}
}

// TestPDPByID: the bench's PDP has CAN id 3 and its arm is on channel 3;
// there is no PDP 0 on that bus.
func TestPDPByID(t *testing.T) {
	s := bench(t, Options{})
	s.SetDS(enabled)
	p, _ := s.OpenPWM(1)
	p.SetPulse(frc.PWMTalon.Pulse(0.8))
	s.SetJoint("arm", -1, 0)
	s.AdvanceTo(40 * time.Millisecond)
	r := readPDP(t, s.CAN(), 3)
	want := math.Abs(truth(t, s, "arm").Current)
	if want < 1 || !near(r.ch[3], want, 0.0625+1e-9) {
		t.Errorf("PDP 3 channel 3: %.4f A, want %.4f", r.ch[3], want)
	}
	if _, _, ok := s.CAN().Latest(0x08041400); ok {
		t.Error("a PDP with CAN id 0 answers on the bench")
	}
	if _, _, ok := s.CAN().Latest(0x09041401); !ok {
		t.Error("PCM 1 sends no Status1")
	}
}
