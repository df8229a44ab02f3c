package sim

import (
	"github.com/frcd/frcd/config"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func TestDefaultsFromTheRobot(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	cimKt := 2.42 / 133
	for _, c := range []struct {
		joint         string
		gear, inertia float64
	}{
		// k_eff 0.195 N·m/A of a CIM: 0.195 / 0.018195 = 10.717, the
		// 10.71:1 gearbox the YAML's comment names. The wheel's 0.001444
		// kg·m² is its izz, turned onto the y axis by its inertial's roll.
		{"left_front_wheel_joint", 0.195 / cimKt, 0.001444},
		// The carriage, the arm and the claw it carries: 2 + 2.5 + 1 kg.
		{"elevator_joint", 4.2 / cimKt, 5.5},
		// Arm: iyy 0.07575 + 2.5 kg × 0.3² m²; claw (through the wrist at
		// 0.6 m): iyy 0.002708 + 1 kg × 0.675² m².
		{"shoulder_joint", 3.2 / cimKt, 0.07575 + 2.5*0.09 + 0.002708 + 0.675*0.675},
		{"climber_joint", 45.5 / cimKt, 1.5},
	} {
		j := s.byName[c.joint]
		if !near(j.gear, c.gear, 1e-9*c.gear) || !near(j.inertia, c.inertia, 1e-5*c.inertia) {
			t.Errorf("%s: gearing %.6g, inertia %.6g; want %.6g, %.6g", c.joint, j.gear, j.inertia, c.gear, c.inertia)
		}
	}
	b := bench(t, Options{})
	// arm: no k_eff, URDF limit velocity 2 rad/s: 556.06 / 2; its link has
	// 1 kg but no tensor: 1 kg × 0.1 m². spin: neither, gearing 10, and no
	// inertial at all: 0.1.
	for _, c := range []struct {
		joint         string
		gear, inertia float64
	}{{"arm", 5310 * 2 * math.Pi / 60 / 2, 0.1}, {"spin", 10, 0.1}} {
		j := b.byName[c.joint]
		if !near(j.gear, c.gear, 1e-9*c.gear) || j.inertia != c.inertia {
			t.Errorf("%s: gearing %.6g, inertia %.6g; want %.6g, %.6g", c.joint, j.gear, j.inertia, c.gear, c.inertia)
		}
	}
}

// TestFreeSpeedIsTheURDFLimit: without k_eff, the default gearing makes
// the joint's free speed its URDF limit velocity (2 rad/s for the arm).
func TestFreeSpeedIsTheURDFLimit(t *testing.T) {
	s := bench(t, Options{Battery: idealBattery})
	s.SetDS(enabled)
	p, _ := s.OpenPWM(1)
	p.SetPulse(frc.PWMTalon.Pulse(1))
	if err := s.SetJoint("arm", -1, 0); err != nil {
		t.Fatal(err)
	}
	s.AdvanceTo(300 * time.Millisecond)
	if v := truth(t, s, "arm").Velocity; !near(v, 2, 0.01) {
		t.Errorf("arm at full forward: %.4f rad/s, want 2", v)
	}
}

func TestHardStops(t *testing.T) {
	s := bench(t, Options{})
	s.SetDS(enabled)
	p, _ := s.OpenPWM(1)
	p.SetPulse(frc.PWMTalon.Pulse(-1))
	s.AdvanceTo(2 * time.Second)
	if j := truth(t, s, "arm"); j.Position != -1 || j.Velocity != 0 {
		t.Errorf("arm driven down: %.6f rad, %.6f rad/s; want held at -1, 0", j.Position, j.Velocity)
	}
	// The plant is placed within its limits too.
	s.SetJoint("arm", 7, 3)
	if j := truth(t, s, "arm"); j.Position != 1 || j.Velocity != 0 {
		t.Errorf("SetJoint(arm, 7, 3) gave %.3f rad, %.3f rad/s; want 1, 0", j.Position, j.Velocity)
	}
	// A continuous joint is unbounded.
	s.SetJoint("spin", 1000, 0)
	if j := truth(t, s, "spin"); j.Position != 1000 {
		t.Errorf("spin placed at %v, want 1000", j.Position)
	}
	if err := s.SetJoint("nope", 0, 0); err == nil {
		t.Error("SetJoint of an unknown joint worked")
	}
	if err := s.SetJoint("arm", math.NaN(), 0); err == nil {
		t.Error("SetJoint(NaN) worked")
	}
}

// TestStiffPlantIsStable drives the stiffest plant there is (high gearing,
// a tiny inertia, the strongest motor) at 1 ms and at 10 ms steps: it
// reaches its free speed without overshoot or oscillation.
func TestStiffPlantIsStable(t *testing.T) {
	r := loadRobot(t, shaftURDF, shaftYAML)
	for _, step := range []time.Duration{time.Millisecond, 10 * time.Millisecond} {
		s := newSim(t, r, Options{Step: step, Joints: map[string]JointParams{"shaft": {Motor: "falcon500", Gearing: 1e4, Inertia: 1e-6}}})
		s.SetDS(enabled)
		p, _ := s.OpenPWM(0)
		p.SetPulse(frc.PWMSpark.Pulse(1))
		limit := 6380 * 2 * math.Pi / 60 / 1e4 * 12.8 / 12 // free speed at the open-circuit voltage
		prev := 0.0
		for i := 1; i <= 200; i++ {
			s.AdvanceTo(time.Duration(i) * step)
			v := truth(t, s, "shaft").Velocity
			if math.IsNaN(v) || v > limit || v < prev-1e-12 {
				t.Fatalf("step %v, n %d: velocity %v after %v (limit %v)", step, i, v, prev, limit)
			}
			prev = v
		}
	}
	// The climber: 2500:1 onto 1.5 kg.
	s := newSim(t, competition(t), Options{})
	s.SetDS(enabled)
	p, _ := s.OpenPWM(8)
	p.SetPulse(frc.PWMJaguar.Pulse(1))
	prev := 0.0
	for i := 1; i <= 500; i++ {
		s.AdvanceTo(time.Duration(i) * time.Millisecond)
		v := truth(t, s, "climber_joint").Velocity
		if math.IsNaN(v) || v < prev-1e-9 || v > 0.24 {
			t.Fatalf("climber at %d ms: %v m/s after %v", i, v, prev)
		}
		prev = v
	}
}

func TestPassiveJoint(t *testing.T) {
	r := loadRobot(t, shaftURDF, shaftYAML)
	// Coulomb friction 2 N·m on 1 kg·m² from 10 rad/s: it stops after 5 s
	// having turned 10² / (2 × 2) = 25 rad, and stays.
	s := newSim(t, r, Options{Joints: map[string]JointParams{"idler": {Inertia: 1, Friction: 2}}})
	s.SetJoint("idler", 0, 10)
	s.AdvanceTo(2500 * time.Millisecond)
	if j := truth(t, s, "idler"); !near(j.Velocity, 5, 1e-9) {
		t.Errorf("friction: %v rad/s after 2.5 s, want 5", j.Velocity)
	}
	s.AdvanceTo(6 * time.Second)
	if j := truth(t, s, "idler"); j.Velocity != 0 || !near(j.Position, 25, 0.01) {
		t.Errorf("friction: %v rad, %v rad/s after 6 s; want 25 rad, stopped", j.Position, j.Velocity)
	}
	// Viscous damping 1 N·m·s/rad: 10 e^-1 = 3.679 rad/s after 1 s.
	s = newSim(t, r, Options{Joints: map[string]JointParams{"idler": {Inertia: 1, Damping: 1}}})
	s.SetJoint("idler", 0, 10)
	s.AdvanceTo(time.Second)
	if j := truth(t, s, "idler"); !near(j.Velocity, 10*math.Exp(-1), 0.01) {
		t.Errorf("damping: %v rad/s after 1 s, want 3.679", j.Velocity)
	}
	// A load of 0.5 N·m on 0.25 kg·m²: -2 rad/s² from rest.
	s = newSim(t, r, Options{Joints: map[string]JointParams{"idler": {Inertia: 0.25, Load: 0.5}}})
	s.AdvanceTo(time.Second)
	if j := truth(t, s, "idler"); !near(j.Velocity, -2, 1e-9) {
		t.Errorf("load: %v rad/s after 1 s, want -2", j.Velocity)
	}
}

func TestMimic(t *testing.T) {
	s := bench(t, Options{})
	s.SetJoint("spin", 1, 0.25)
	s.AdvanceTo(time.Millisecond)
	spin, follower := truth(t, s, "spin"), truth(t, s, "follower")
	if follower.Position != 2*spin.Position+0.5 || follower.Velocity != 2*spin.Velocity {
		t.Errorf("follower %+v, spin %+v; want 2 × spin + 0.5", follower, spin)
	}
}

func TestBatterySag(t *testing.T) {
	s := newSim(t, loadRobot(t, shaftURDF, shaftYAML), Options{})
	s.SetDS(enabled)
	p, _ := s.OpenPWM(1)
	p.SetPulse(frc.PWMSpark.Pulse(1))
	s.AdvanceTo(time.Second)
	// One CIM stalled against the stop at full duty: I = V / R with R =
	// 12/133 Ω, and V = 12.8 - 0.020 × (I + 1.5 A), so
	// V = (12.8 - 0.03) / (1 + 0.020 × 133 / 12) = 10.4529 V, I = 115.85 A.
	v, a := s.Battery()
	wantV := (12.8 - 0.03) / (1 + 0.020*133/12)
	if !near(v, wantV, 1e-6) || !near(a, wantV*133/12+1.5, 1e-4) {
		t.Errorf("battery %.4f V, %.3f A; want %.4f V, %.3f A", v, a, wantV, wantV*133/12+1.5)
	}
	if j := truth(t, s, "stop"); !near(j.Current, wantV*133/12, 1e-4) || j.Voltage != v {
		t.Errorf("stalled motor %+v, want %.3f A at %.4f V", j, wantV*133/12, v)
	}
	if vin, _ := s.Vin(); !near(vin, wantV-0.05, 1e-6) {
		t.Errorf("Vin %.4f, want %.4f", vin, wantV-0.05)
	}
	// At half duty the stalled motor carries 0.5 V / R, and the battery
	// supplies half of that: V = 12.77 / (1 + 0.02 × 0.25 × 133 / 12).
	cal := frc.PWMSpark
	p.SetPulse(cal.DeadbandMax + (cal.Max-cal.DeadbandMax)/2)
	s.AdvanceTo(1100 * time.Millisecond)
	v, a = s.Battery()
	wantV = 12.77 / (1 + 0.02*0.25*133/12)
	if !near(v, wantV, 1e-6) || !near(a, 0.25*wantV*133/12+1.5, 1e-4) {
		t.Errorf("half duty: battery %.4f V, %.3f A; want %.4f V, %.3f A", v, a, wantV, 0.25*wantV*133/12+1.5)
	}
	if j := truth(t, s, "stop"); !near(j.Current, 0.5*wantV*133/12, 1e-4) {
		t.Errorf("half duty: motor %.3f A, want %.3f", j.Current, 0.5*wantV*133/12)
	}
	// Disabled, the FPGA stops the pulses: the motor coasts, only the
	// controller's 1.5 A flows.
	s.SetDS(hal.DSState{Attached: true})
	s.AdvanceTo(1101 * time.Millisecond)
	if v, a := s.Battery(); !near(a, 1.5, 1e-9) || !near(v, 12.77, 1e-9) {
		t.Errorf("disabled: battery %.4f V, %.3f A; want 12.77 V, 1.5 A", v, a)
	}
	if j := truth(t, s, "stop"); j.Current != 0 || j.Voltage != 0 {
		t.Errorf("disabled: motor %+v, want coasting", j)
	}
}

// TestManyStalledMotors: ten CIMs stalled at once pull the battery far
// down; the solution must still be steady (no step-to-step oscillation).
func TestManyStalledMotors(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	s.SetDS(enabled)
	for _, c := range []struct {
		ch  int
		typ string
		pos string
	}{{0, "spark", "right_front_wheel_joint"}, {1, "victor_sp", "right_rear_wheel_joint"}, {2, "pwm_talon_srx", "shoulder_joint"},
		{4, "sd540", "elevator_joint"}, {5, "victor", "intake_roller_joint"}, {7, "dmc60", "hood_joint"}, {8, "jaguar", "climber_joint"},
		{9, "pwm_victor_spx", "conveyor_joint"}, {10, "talon", "turret_joint"}} {
		p, err := s.OpenPWM(c.ch)
		if err != nil {
			t.Fatal(err)
		}
		p.SetPulse(config.Lookup(c.typ).PWM.Pulse(1))
	}
	// From rest, nine CIMs stall: V = (12.8 - 0.02 × 1.5) / (1 + 0.02 × 9
	// × 133 / 12) = 4.2638 V. Then the battery recovers steadily as they
	// spin up (until the hood reaches its stop, at 54 ms): no step-to-step
	// oscillation.
	s.AdvanceTo(time.Millisecond)
	prev, _ := s.Battery()
	if want := 12.77 / (1 + 0.02*9*133/12); !near(prev, want, 1e-9) {
		t.Errorf("nine stalled CIMs: %.4f V, want %.4f", prev, want)
	}
	for i := 2; i <= 50; i++ {
		s.AdvanceTo(time.Duration(i) * time.Millisecond)
		v, _ := s.Battery()
		if v < prev-1e-9 || v > 12.8 {
			t.Fatalf("at %d ms the battery reads %.4f V after %.4f V", i, v, prev)
		}
		prev = v
	}
}

func TestOutputsDriveJoints(t *testing.T) {
	s := bench(t, Options{Joints: map[string]JointParams{"pin": {Travel: time.Second}}})
	s.SetDS(enabled)
	// Before any driver opens its channel, a digital output's joint stays.
	s.AdvanceTo(50 * time.Millisecond)
	if j := truth(t, s, "flap"); j.Position != 0 {
		t.Errorf("flap moved to %v with its DIO never opened", j.Position)
	}
	// flap: a digital output, inverted: low is active, toward the upper
	// limit 0.1 m in 0.25 s (0.4 m/s).
	out, err := s.OpenDigitalOut(9)
	if err != nil {
		t.Fatal(err)
	}
	out.Set(false)
	s.AdvanceTo(100 * time.Millisecond)
	if j := truth(t, s, "flap"); !near(j.Position, 0.02, 1e-9) || !near(j.Velocity, 0.4, 1e-9) {
		t.Errorf("flap after 50 ms active: %+v, want 0.02 m at 0.4 m/s", j)
	}
	if s.DIO(9) {
		t.Error("DIO(9) reads high after Set(false)")
	}
	s.AdvanceTo(400 * time.Millisecond)
	if j := truth(t, s, "flap"); j.Position != 0.1 || j.Velocity != 0 {
		t.Errorf("flap after 300 ms active: %+v, want at 0.1 m", j)
	}
	out.Set(true)
	s.AdvanceTo(700 * time.Millisecond)
	if j := truth(t, s, "flap"); j.Position != 0 {
		t.Errorf("flap inactive: %+v, want back at 0", j)
	}
	// gate: an analog output, 2.5 V of 5 is 0.1 m of scale 0.2 m, moving
	// at 0.2 m per 0.25 s.
	ao, err := s.OpenAnalogOut(1)
	if err != nil {
		t.Fatal(err)
	}
	ao.SetVoltage(2.5)
	s.AdvanceTo(750 * time.Millisecond)
	if j := truth(t, s, "gate"); !near(j.Position, 0.04, 1e-9) {
		t.Errorf("gate after 50 ms: %v m, want 0.04", j.Position)
	}
	s.AdvanceTo(time.Second)
	if j := truth(t, s, "gate"); !near(j.Position, 0.1, 1e-12) || j.Velocity != 0 {
		t.Errorf("gate: %+v, want at 0.1 m", j)
	}
	ao.SetVoltage(9) // clamped to 5 V: the upper limit
	s.AdvanceTo(1500 * time.Millisecond)
	if j := truth(t, s, "gate"); j.Position != 0.2 || s.AnalogOut(1) != 5 {
		t.Errorf("gate at 9 V: %v m, AO reads %v V; want 0.2 m, 5 V", j.Position, s.AnalogOut(1))
	}
	if err := ao.SetVoltage(math.NaN()); err == nil {
		t.Error("SetVoltage(NaN) worked")
	}
	// pin: a solenoid on PCM 1, channel 3, with a 1 s travel: 0.05 m/s.
	bus := s.CAN()
	ctl := hal.Frame{ID: pcmControl1 + 1, Len: 8}
	ctl.Data[2] = 1 << 3
	bus.Send(ctl)
	s.AdvanceTo(1600 * time.Millisecond)
	if j := truth(t, s, "pin"); !near(j.Position, 0.005, 1e-9) || !s.Solenoid(1, 3) {
		t.Errorf("pin after 100 ms on: %v m (solenoid %v), want 0.005", j.Position, s.Solenoid(1, 3))
	}
	if _, psi := s.Compressor(1); psi != 118 {
		t.Errorf("tank at %v psi after one stroke, want 118", psi)
	}
	ctl.Data[2] = 0
	bus.Send(ctl)
	s.AdvanceTo(1650 * time.Millisecond)
	if j := truth(t, s, "pin"); !near(j.Position, 0.0025, 1e-9) {
		t.Errorf("pin 50 ms after off: %v m, want 0.0025 (the spring returns it)", j.Position)
	}
	if _, psi := s.Compressor(1); psi != 118 {
		t.Errorf("tank at %v psi after the spring return, want 118", psi)
	}
}

func TestDoubleSolenoidTravel(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	s.SetDS(enabled)
	bus := s.CAN()
	cmd := func(bits byte, until time.Duration) {
		for s.t < until {
			bus.Send(hal.Frame{ID: pcmControl1, Len: 8, Data: [8]byte{2: bits}})
			s.AdvanceTo(min(until, s.t+20*time.Millisecond))
		}
	}
	// Forward (channel 0): toward 0.25 m at 0.25 m per 0.25 s.
	cmd(0x01, 125*time.Millisecond)
	if j := truth(t, s, "intake_deploy_joint"); !near(j.Position, 0.125, 1e-9) || !near(j.Velocity, 1, 1e-9) {
		t.Errorf("forward 125 ms: %+v, want 0.125 m at 1 m/s", j)
	}
	cmd(0x00, 300*time.Millisecond) // both off: the valve stays, the piston goes on
	if j := truth(t, s, "intake_deploy_joint"); j.Position != 0.25 || j.Velocity != 0 {
		t.Errorf("forward then off: %+v, want at 0.25 m", j)
	}
	cmd(0x02, 400*time.Millisecond) // reverse
	if j := truth(t, s, "intake_deploy_joint"); !near(j.Position, 0.15, 1e-9) {
		t.Errorf("reverse 100 ms: %+v, want 0.15 m", j)
	}
	cmd(0x03, 500*time.Millisecond) // both on: stays reversed
	if j := truth(t, s, "intake_deploy_joint"); !near(j.Position, 0.05, 1e-9) {
		t.Errorf("reverse then both on 100 ms: %+v, want 0.05 m", j)
	}
	if _, psi := s.Compressor(0); psi != 116 {
		t.Errorf("tank at %v psi after two strokes, want 116", psi)
	}
}

func TestServo(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	s.SetDS(enabled)
	p, err := s.OpenPWM(3)
	if err != nil {
		t.Fatal(err)
	}
	// 2000 µs of 600-2400 µs: -π/2 + 1400/1800 × π = 0.87266 rad, at 6 rad/s.
	p.SetPulse(2000 * time.Microsecond)
	s.AdvanceTo(100 * time.Millisecond)
	if j := truth(t, s, "wrist_joint"); !near(j.Position, 0.6, 1e-9) || j.Velocity != 6 {
		t.Errorf("wrist after 100 ms: %+v, want 0.6 rad at 6 rad/s", j)
	}
	s.AdvanceTo(200 * time.Millisecond)
	want := -1.5708 + 1400.0/1800*3.1416
	if j := truth(t, s, "wrist_joint"); !near(j.Position, want, 1e-9) || j.Velocity != 0 {
		t.Errorf("wrist: %+v, want %.5f rad", j, want)
	}
	p.SetPulse(3000 * time.Microsecond) // beyond the range: clamped to 2400 µs
	s.AdvanceTo(400 * time.Millisecond)
	if j := truth(t, s, "wrist_joint"); !near(j.Position, 1.5708, 1e-9) {
		t.Errorf("wrist at 3000 µs: %v rad, want 1.5708", j.Position)
	}
	p.SetPulse(600 * time.Microsecond)
	s.AdvanceTo(450 * time.Millisecond)
	p.SetPulse(0) // no pulses: it stays where it got to
	s.AdvanceTo(700 * time.Millisecond)
	if j := truth(t, s, "wrist_joint"); !near(j.Position, 1.5708-0.3, 1e-9) {
		t.Errorf("wrist without pulses: %v rad, want %v", j.Position, 1.5708-0.3)
	}
	if s.PWMPulse(3) != 0 {
		t.Errorf("PWMPulse(3) = %v, want 0", s.PWMPulse(3))
	}
}

func TestRelayJoint(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	r, err := s.OpenRelay(0)
	if err != nil {
		t.Fatal(err)
	}
	r.Set(true, false)
	s.AdvanceTo(50 * time.Millisecond) // disabled: the FPGA holds the relay open
	if j := truth(t, s, "hatch_joint"); j.Position != 0 {
		t.Errorf("hatch moved to %v while disabled", j.Position)
	}
	s.SetDS(enabled)
	s.AdvanceTo(100 * time.Millisecond)
	rate := 1.5708 / 0.25
	if j := truth(t, s, "hatch_joint"); !near(j.Position, 0.05*rate, 1e-9) || !near(j.Velocity, rate, 1e-9) {
		t.Errorf("hatch forward 50 ms: %+v, want %.4f rad", j, 0.05*rate)
	}
	r.Set(true, true) // both contacts: the motor is braked
	s.AdvanceTo(200 * time.Millisecond)
	if j := truth(t, s, "hatch_joint"); !near(j.Position, 0.05*rate, 1e-9) || j.Velocity != 0 {
		t.Errorf("hatch with both contacts: %+v, want stopped", j)
	}
	r.Set(false, true)
	s.AdvanceTo(220 * time.Millisecond)
	if j := truth(t, s, "hatch_joint"); !near(j.Position, 0.03*rate, 1e-9) {
		t.Errorf("hatch reverse 20 ms: %v, want %.4f", j.Position, 0.03*rate)
	}
	if f, rv := s.RelayOut(0); f || !rv {
		t.Errorf("RelayOut(0) = %v, %v; want reverse", f, rv)
	}
}

func TestNidecAndInversion(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	s.SetDS(enabled)
	en, _ := s.OpenPWM(6)
	dc, err := s.OpenDutyCycleOut(11)
	if err != nil {
		t.Fatal(err)
	}
	dc.SetDutyCycle(0.75) // (0.75 - 0.5) × 2 = half forward
	s.AdvanceTo(time.Millisecond)
	if j := truth(t, s, "shooter_joint"); j.Voltage != 0 {
		t.Errorf("nidec without its enable line: %v V, want 0", j.Voltage)
	}
	en.SetPulse(hal.AlwaysHigh)
	s.AdvanceTo(2 * time.Millisecond)
	v, _ := s.Battery()
	if j := truth(t, s, "shooter_joint"); j.Voltage != 0.5*v {
		t.Errorf("nidec at duty cycle 0.75: %v V, want %v (half the bus)", j.Voltage, 0.5*v)
	}
	if s.DutyCycle(11) != 0.75 {
		t.Errorf("DutyCycle(11) = %v", s.DutyCycle(11))
	}
	// right_front is wired reversed (inverted: true): full forward on its
	// Spark turns the plant backwards.
	p, _ := s.OpenPWM(0)
	p.SetPulse(frc.PWMSpark.Pulse(1))
	s.AdvanceTo(3 * time.Millisecond)
	v, _ = s.Battery()
	if j := truth(t, s, "right_front_wheel_joint"); j.Voltage != -v || j.Velocity >= 0 {
		t.Errorf("inverted spark at full forward: %+v, want -%v V and turning backwards", j, v)
	}
	// Inside the deadband is neutral: the motor coasts.
	p.SetPulse(1510 * time.Microsecond)
	s.AdvanceTo(4 * time.Millisecond)
	if j := truth(t, s, "right_front_wheel_joint"); j.Voltage != 0 || j.Current != 0 {
		t.Errorf("spark at 1510 µs: %+v, want neutral", j)
	}
}
