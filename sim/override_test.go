package sim

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// TestOverrides: a DIO input, an analog input, an encoder and an IMU read
// what an override says until it is cleared, then their sensors again;
// outputs cannot be overridden.
func TestOverrides(t *testing.T) {
	s := bench(t, Options{})
	beam, err := s.OpenDigitalIn(10) // the link sensor "beam"
	if err != nil {
		t.Fatal(err)
	}
	flap, err := s.OpenDigitalOut(9)
	if err != nil {
		t.Fatal(err)
	}
	_ = flap
	rng, err := s.OpenAnalogIn(3, 0, 0) // "range", 5.12 m per 5 V
	if err != nil {
		t.Fatal(err)
	}
	enc, err := s.OpenEncoder(0, 1, hal.X4) // enc_a on "spin"
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetSensor("range", 2.56); err != nil {
		t.Fatal(err)
	}
	if err := s.SetJoint("spin", 1, 0); err != nil {
		t.Fatal(err)
	}

	if v, _ := beam.Get(); v {
		t.Fatal("beam active before anything")
	}
	if err := s.OverrideDIO(10, true); err != nil {
		t.Fatal(err)
	}
	if v, _ := beam.Get(); !v {
		t.Error("overridden high, beam reads low")
	}
	if err := s.OverrideDIO(9, true); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("override of an output: %v, want ErrUnsupported", err)
	}
	if err := s.OverrideDIO(26, true); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("override of DIO 26: %v, want ErrNoDevice", err)
	}

	if v, _ := rng.Voltage(); !near(v, 2.5, 1e-12) {
		t.Fatalf("range reads %v V, want 2.5", v)
	}
	if err := s.OverrideAI(3, 7); err != nil {
		t.Fatal(err)
	}
	if v, _ := rng.Voltage(); v != 5 {
		t.Errorf("overridden to 7 V, reads %v (want clamped to 5)", v)
	}
	if err := s.OverrideAI(3, math.NaN()); err == nil {
		t.Error("NaN override accepted")
	}

	before, _ := enc.Count()
	if before != 400 { // 1 rad / 0.01 × 4
		t.Fatalf("encoder counts %d, want 400", before)
	}
	if err := s.OverrideEncoder(0, -7); err != nil {
		t.Fatal(err)
	}
	if c, _ := enc.Count(); c != -7 {
		t.Errorf("overridden encoder counts %d, want -7", c)
	}
	if err := s.OverrideEncoder(1, 0); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("override of an encoder never opened: %v", err)
	}

	var io IO
	s.ReadIO(&io)
	if !io.DIO[10].Level || io.DIO[10].Use != DIOInput || io.DIO[9].Use != DIOOutput || io.AI[3].Volts != 5 || !io.AI[3].Open {
		t.Errorf("ReadIO with overrides: DIO10 %+v DIO9 %+v AI3 %+v", io.DIO[10], io.DIO[9], io.AI[3])
	}
	if len(io.Encoders) != 1 || io.Encoders[0] != (EncoderIO{A: 0, B: 1, Count: -7, Period: math.Inf(1)}) {
		t.Errorf("ReadIO encoders %+v", io.Encoders)
	}

	s.Clear(Override{Kind: OverrideDIO, Channel: 10})
	s.Clear(Override{Kind: OverrideAI, Channel: 3})
	s.Clear(Override{Kind: OverrideEncoder, Channel: 0})
	s.Clear(Override{Kind: OverrideDIO, Channel: 99}) // nothing there: ignored
	if v, _ := beam.Get(); v {
		t.Error("cleared: beam still reads high")
	}
	if v, _ := rng.Voltage(); !near(v, 2.5, 1e-12) {
		t.Errorf("cleared: range reads %v V", v)
	}
	if c, _ := enc.Count(); c != before {
		t.Errorf("cleared: encoder counts %d, want %d", c, before)
	}
	if err := s.SetJoint("spin", 1, -2); err != nil {
		t.Fatal(err)
	}
	s.ReadIO(&io)
	if p := io.Encoders[0].Period; !near(p, 0.01/4/2, 1e-15) { // 2 rad/s at 400 counts per rad
		t.Errorf("period at 2 rad/s: %v s", p)
	}
}

func TestOverrideIMU(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	p, err := s.OpenPigeon(-1, 1)
	if err != nil {
		t.Fatal(err)
	}
	set := IMU{Orientation: [4]float64{1, 0, 0, 0}, AngularVelocity: [3]float64{0, 0, 0.5}}
	held := IMU{Orientation: [4]float64{0.7071, 0, 0, 0.7071}, LinearAcceleration: [3]float64{1, 2, 3}}
	if err := s.OverrideIMU("pigeon", held); err != nil {
		t.Fatal(err)
	}
	if err := s.SetIMU("pigeon", set); err != nil { // the physics moves on; the override wins
		t.Fatal(err)
	}
	if q, g, a, _ := p.Read(); q != held.Orientation || g != held.AngularVelocity || a != held.LinearAcceleration {
		t.Errorf("held pigeon reads %v %v %v, want %+v", q, g, a, held)
	}
	var io IO
	s.ReadIO(&io)
	if len(io.IMUs) != 2 || io.IMUs[1].Name != "pigeon" || io.IMUs[1].Motion != held {
		t.Errorf("ReadIO IMUs %+v", io.IMUs)
	}
	s.Clear(Override{Kind: OverrideIMU, Name: "pigeon"})
	if _, g, _, _ := p.Read(); g != set.AngularVelocity {
		t.Errorf("cleared pigeon reads rate %v, want what SetIMU set", g)
	}
	if err := s.OverrideIMU("nope", held); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("override of no IMU: %v", err)
	}
	if err := s.OverrideIMU("navx", IMU{AngularVelocity: [3]float64{math.Inf(1)}}); err == nil {
		t.Error("infinite rate accepted")
	}
	// The navX latches the override too.
	if err := s.OverrideIMU("navx", held); err != nil {
		t.Fatal(err)
	}
	s.AdvanceTo(50 * time.Millisecond)
	n := s.sensors["navx"].imu.nav
	if yaw := int16(uint16(n.regs[frc.NavXRegYaw]) | uint16(n.regs[frc.NavXRegYaw+1])<<8); !near(float64(yaw), -9000, 2) {
		t.Errorf("overridden navX yaw register %d, want -9000", yaw)
	}
}

func TestJoysticksAndDS(t *testing.T) {
	s := bench(t, Options{})
	j := Joystick{Axes: []float64{0.5, -2}, Buttons: []bool{true, false}, POVs: []int{90}}
	if err := s.SetJoystick(2, j); err != nil {
		t.Fatal(err)
	}
	j.Axes[0] = 0.9 // the sim keeps its own copy
	got := s.Joystick(2)
	if len(got.Axes) != 2 || got.Axes[0] != 0.5 || got.Axes[1] != -1 || !got.Buttons[0] || got.POVs[0] != 90 {
		t.Errorf("joystick 2 = %+v", got)
	}
	for _, bad := range []struct {
		n int
		j Joystick
	}{
		{6, Joystick{}},
		{-1, Joystick{}},
		{0, Joystick{Axes: make([]float64, MaxAxes+1)}},
		{0, Joystick{Buttons: make([]bool, MaxButtons+1)}},
		{0, Joystick{POVs: []int{360}}},
		{0, Joystick{POVs: []int{-2}}},
		{0, Joystick{Axes: []float64{math.NaN()}}},
	} {
		if err := s.SetJoystick(bad.n, bad.j); err == nil {
			t.Errorf("SetJoystick(%d, %+v) accepted", bad.n, bad.j)
		}
	}
	if g := s.Joystick(0); g.Axes != nil && len(g.Axes) != 0 {
		t.Errorf("joystick 0 changed by refused calls: %+v", g)
	}
	s.UpdateDS(func(ds *hal.DSState) { ds.Enabled, ds.Mode = true, hal.Autonomous })
	if ds := s.DS(); !ds.Enabled || ds.Mode != hal.Autonomous || !ds.Attached {
		t.Errorf("DS after UpdateDS: %+v", ds)
	}
}

// TestReadIO: what the drivers opened and wrote shows in IO.
func TestReadIO(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	h := openHandles(t, s)
	s.SetDS(enabled)
	_ = h.wheel.SetPulse(1800 * time.Microsecond)
	_ = h.relay.Set(true, false)
	_ = h.dout.Set(true)
	_ = h.duty.SetDutyCycle(0.75)
	_ = h.talon.SetDuty(0.25)
	var io IO
	s.ReadIO(&io)
	if !io.PWM[0].Open || io.PWM[0].Width != 1800*time.Microsecond || io.PWM[19].Open {
		t.Errorf("PWM 0 %+v, 19 %+v", io.PWM[0], io.PWM[19])
	}
	if !io.Relay[0].Open || !io.Relay[0].Fwd || io.Relay[0].Rev {
		t.Errorf("relay 0 %+v", io.Relay[0])
	}
	if io.DIO[13].Use != DIOOutput || !io.DIO[13].Level || io.DIO[11].Use != DIODutyCycle || io.DIO[11].Duty != 0.75 {
		t.Errorf("DIO 13 %+v, 11 %+v", io.DIO[13], io.DIO[11])
	}
	if len(io.CANMotors) != 1 || io.CANMotors[0] != (CANMotorIO{Model: frc.TalonSRX, ID: 1, Duty: 0.25}) {
		t.Errorf("CAN motors %+v", io.CANMotors)
	}
	if !io.DS.Enabled {
		t.Errorf("DS %+v", io.DS)
	}
}
