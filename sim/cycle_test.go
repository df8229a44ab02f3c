package sim

import (
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func bench(t testing.TB, o Options) *Sim {
	t.Helper()
	return newSim(t, loadRobot(t, benchURDF, benchYAML), o)
}

// handles are a typical set of channels a driver set holds.
type handles struct {
	wheel, shoulder, elevator, servo, nidecEn hal.PWM
	dout                                      hal.DigitalOut
	duty                                      hal.DutyCycleOut
	limit                                     hal.DigitalIn
	pot                                       hal.AnalogIn
	ao                                        hal.AnalogOut
	enc                                       hal.Encoder
	relay                                     hal.Relay
	talon                                     hal.CANMotor
	pigeon                                    hal.Pigeon
	bus                                       hal.CANBus
}

func openHandles(t testing.TB, s *Sim) *handles {
	t.Helper()
	h := &handles{bus: s.CAN()}
	var err error
	must := func(e error) {
		if e != nil {
			t.Fatal(e)
		}
	}
	h.wheel, err = s.OpenPWM(0)
	must(err)
	h.shoulder, err = s.OpenPWM(2)
	must(err)
	h.elevator, err = s.OpenPWM(4)
	must(err)
	h.servo, err = s.OpenPWM(3)
	must(err)
	h.nidecEn, err = s.OpenPWM(6)
	must(err)
	h.dout, err = s.OpenDigitalOut(13)
	must(err)
	h.duty, err = s.OpenDutyCycleOut(11)
	must(err)
	h.limit, err = s.OpenDigitalIn(6)
	must(err)
	h.pot, err = s.OpenAnalogIn(0, 7, 0)
	must(err)
	h.ao, err = s.OpenAnalogOut(0)
	must(err)
	h.enc, err = s.OpenEncoder(4, 5, hal.X4)
	must(err)
	h.relay, err = s.OpenRelay(0)
	must(err)
	h.talon, err = s.OpenCANMotor(frc.TalonSRX, 1)
	must(err)
	h.pigeon, err = s.OpenPigeon(-1, 1)
	must(err)
	return h
}

// cycle is one control cycle of a typical driver set at time now: read
// everything, write everything.
func (h *handles) cycle(s *Sim, now time.Duration) float64 {
	s.AdvanceTo(now)
	var sum float64
	lim, _ := h.limit.Get()
	v, _ := h.pot.Voltage()
	c, _ := h.enc.Count()
	st, _ := h.talon.Status()
	q, _, _, _ := h.pigeon.Read()
	f, _, _ := h.bus.Latest(0x08041400)
	g, _, _ := h.bus.Latest(0x09041400)
	sum += v + float64(c) + st.OutputCurrent + q[0] + float64(f.Data[0]) + float64(g.Data[0])
	if lim {
		sum++
	}
	k := float64(now/time.Millisecond%1000) / 1000 // a ramp, 0 to 1 each second
	cal := frc.PWMSpark
	h.wheel.SetPulse(cal.Pulse(k))
	h.shoulder.SetPulse(frc.PWMTalonSRX.Pulse(0.5 - k))
	h.elevator.SetPulse(frc.PWMSD540.Pulse(k - 0.3))
	h.servo.SetPulse(600*time.Microsecond + time.Duration(k*1800)*time.Microsecond)
	h.nidecEn.SetPulse(hal.AlwaysHigh)
	h.duty.SetDutyCycle(0.5 + k/2)
	h.dout.Set(k > 0.5)
	h.ao.SetVoltage(5 * k)
	h.relay.Set(k < 0.5, k >= 0.5)
	h.talon.SetDuty(1 - 2*k)
	bits := byte(0x01)
	if k > 0.5 {
		bits = 0x06
	}
	h.bus.Send(hal.Frame{ID: 0x09041C00, Len: 8, Data: [8]byte{2: bits, 3: 0x40}})
	return sum
}

// TestDeterminism runs the same script on two Sims, with the loop
// advancing at uneven times: the truth, the battery and the frames are
// bit-identical.
func TestDeterminism(t *testing.T) {
	r := competition(t)
	run := func() ([]JointTruth, [3]float64, [2]hal.Frame, float64) {
		s := newSim(t, r, Options{Seed: 7})
		s.SetDS(enabled)
		h := openHandles(t, s)
		s.SetIMU("pigeon", IMU{AngularVelocity: [3]float64{0, 0, 0.3}})
		var sum float64
		for now := time.Duration(0); now < 1500*time.Millisecond; now += 3700 * time.Microsecond {
			sum += h.cycle(s, now)
		}
		var out []JointTruth
		for _, j := range r.Joints {
			out = append(out, truth(t, s, j.Name))
		}
		v, a := s.Battery()
		_, psi := s.Compressor(0)
		f1, _, _ := s.CAN().Latest(0x08041740)
		f2, _, _ := s.CAN().Latest(0x09041400)
		return out, [3]float64{v, a, psi}, [2]hal.Frame{f1, f2}, sum
	}
	j1, b1, f1, s1 := run()
	j2, b2, f2, s2 := run()
	for i := range j1 {
		if j1[i] != j2[i] {
			t.Errorf("joint %d: %+v then %+v", i, j1[i], j2[i])
		}
	}
	if b1 != b2 || f1 != f2 || s1 != s2 {
		t.Errorf("runs differ: %v %v %v / %v %v %v", b1, f1, s1, b2, f2, s2)
	}
	moved := 0
	for _, j := range j1 {
		if j.Position != 0 {
			moved++
		}
	}
	if moved < 8 {
		t.Errorf("only %d joints moved in the script: %+v", moved, j1)
	}
}

// TestNoAllocations: a control cycle (AdvanceTo with its CAN status
// frames, every kind of channel read and written) and the inspection
// getters allocate nothing.
func TestNoAllocations(t *testing.T) {
	r := competition(t)
	s := newSim(t, r, ConfigOptions(r.Config, 0, false)) // with the drivetrain
	s.SetDS(enabled)
	h := openHandles(t, s)
	now := time.Duration(0)
	h.cycle(s, now) // warm up
	allocs := testing.AllocsPerRun(200, func() {
		now += time.Millisecond
		h.cycle(s, now)
		s.Joint("elevator_joint")
		s.Battery()
		s.Vin()
		s.PWMPulse(4)
		s.DIO(13)
		s.DutyCycle(11)
		s.AnalogOut(0)
		s.RelayOut(0)
		s.Solenoid(0, 0)
		s.Compressor(0)
		s.CANMotorDuty(1)
		s.Now()
		s.DS()
		s.Pose()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per cycle, want 0", allocs)
	}
}

// TestGettersFromAnotherGoroutine reads the truth while the loop runs
// (for the race detector).
func TestGettersFromAnotherGoroutine(t *testing.T) {
	r := competition(t)
	s := newSim(t, r, ConfigOptions(r.Config, 0, false)) // with the drivetrain
	s.SetDS(enabled)
	h := openHandles(t, s)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 200; i++ {
			s.Joint("shoulder_joint")
			s.Battery()
			s.PWMPulse(2)
			s.Compressor(0)
			s.CANMotorDuty(1)
			s.Now()
			s.Pose()
			s.EachJoint(func(string, JointTruth) {})
		}
	}()
	for now := time.Duration(0); now < 200*time.Millisecond; now += time.Millisecond {
		h.cycle(s, now)
	}
	<-done
}

// BenchmarkCycle is one 1 ms control cycle of the competition robot.
func BenchmarkCycle(b *testing.B) {
	s := newSim(b, competition(b), Options{})
	s.SetDS(enabled)
	h := openHandles(b, s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.cycle(s, time.Duration(i)*time.Millisecond)
	}
}
