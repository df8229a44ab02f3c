package sim

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// armSim is the SPARK test's arm (sparkURDF) on a controller of type typ
// at CAN id 5, geared 100:1, pulled down by 15 N·m, starting at 1.5 rad.
func armSim(t *testing.T, typ string) *Sim {
	t.Helper()
	y := "joints:\n  - {name: arm_joint, type: " + typ + ", id: 5}\n"
	return newSim(t, loadRobot(t, sparkURDF, y), Options{
		Joints:  map[string]JointParams{"arm_joint": {Gearing: 100, Load: 15}},
		Initial: map[string]JointState{"arm_joint": {Position: 1.5}},
	})
}

// A disabled arm held against its load by nothing but its motor: in
// coast it falls to its lower stop within 2 s; in brake the shorted
// windings slow it to a creep, the speed at which their back-EMF torque
// meets the load (with a NEO-class motor through 100:1 under 15 N·m,
// about 0.34 rad/s: brake mode slows a heavy arm, it does not hold it), on a Talon FX (Phoenix 6's NeutralMode), a Talon SRX
// (Phoenix 5's) and a SPARK (REV's idle mode, a parameter write).
func TestNeutralBrakeHoldsArm(t *testing.T) {
	for _, tc := range []struct {
		typ   string
		brake func(t *testing.T, s *Sim, on bool)
	}{
		{"talon_fx", func(t *testing.T, s *Sim, on bool) {
			fx, err := s.OpenTalonFX("", 5)
			if err != nil {
				t.Fatal(err)
			}
			c := fxFactory
			c.Brake = on
			if err := fx.(phoenix6.FXConfigurer).ApplyConfig(c); err != nil {
				t.Fatal(err)
			}
		}},
		{"talon_srx", func(t *testing.T, s *Sim, on bool) {
			m, err := s.OpenCANMotor(frc.TalonSRX, 5)
			if err != nil {
				t.Fatal(err)
			}
			n := hal.NeutralCoast
			if on {
				n = hal.NeutralBrake
			}
			if err := m.(hal.CANMotorConfigurer).ApplyConfig(hal.CANMotorConfig{Neutral: n}); err != nil {
				t.Fatal(err)
			}
		}},
		{"spark_max", func(t *testing.T, s *Sim, on bool) {
			bus, _ := s.CANBus("")
			v := uint32(0)
			if on {
				v = 1
			}
			d, n := frc.EncodeSparkParameterBits(frc.SparkParamIdleMode, v)
			bus.Send(hal.Frame{ID: frc.SparkID(frc.SparkAPIParameterWrite, 5), Len: n, Data: d})
			f := latest(t, bus, frc.SparkID(frc.SparkAPIParameterAck, 5))
			a, _ := frc.DecodeSparkParameterAck(f.Data[:])
			if a.Result != 0 || a.Value != v || a.Type != frc.SparkParamUint32 {
				t.Fatalf("idle mode ack %+v", a)
			}
		}},
	} {
		var fell [2]float64
		for i, on := range []bool{false, true} {
			s := armSim(t, tc.typ)
			tc.brake(t, s, on)
			s.AdvanceTo(2 * time.Second) // disabled throughout
			fell[i] = 1.5 - truth(t, s, "arm_joint").Position
		}
		t.Logf("%s, disabled for 2 s: coast fell %.3f rad, brake %.3f rad", tc.typ, fell[0], fell[1])
		if fell[0] < 1.99 || fell[1] > 0.4*fell[0] || fell[1] <= 0 {
			t.Errorf("%s: coast fell %.3f rad (want to its stop, 2 rad), brake %.3f rad (want a creep, under 0.8)", tc.typ, fell[0], fell[1])
		}
	}
}

// A PWM controller's neutral mode is its jumper, which the sim is told
// (JointParams.Brake, the sim joint's jumper): the disabled arm on a PWM
// Spark falls to its stop with the jumper on coast and creeps on brake, as
// on a CAN controller in brake (the FPGA sends no pulses, so the
// controller is neutral). A jumper on a CAN controller is refused: its
// brake is its entry's neutral_mode.
func TestPWMJumperBrake(t *testing.T) {
	var fell [2]float64
	for i, on := range []bool{false, true} {
		s := newSim(t, loadRobot(t, sparkURDF, "joints:\n  - {name: arm_joint, type: spark, id: 5}\n"), Options{
			Joints:  map[string]JointParams{"arm_joint": {Motor: "neo", Gearing: 100, Load: 15, Brake: on}},
			Initial: map[string]JointState{"arm_joint": {Position: 1.5}},
		})
		s.AdvanceTo(2 * time.Second) // disabled throughout
		fell[i] = 1.5 - truth(t, s, "arm_joint").Position
	}
	t.Logf("PWM Spark, disabled for 2 s: jumper on coast fell %.3f rad, on brake %.3f rad", fell[0], fell[1])
	if fell[0] < 1.99 || fell[1] > 0.4*fell[0] || fell[1] <= 0 {
		t.Errorf("coast fell %.3f rad (want to its stop, 2 rad), brake %.3f rad (want a creep, under 0.8)", fell[0], fell[1])
	}
	_, err := New(loadRobot(t, sparkURDF, "joints:\n  - {name: arm_joint, type: talon_srx, id: 5}\n"), Options{
		Joints: map[string]JointParams{"arm_joint": {Brake: true}}})
	if err == nil || !strings.Contains(err.Error(), "neutral_mode") {
		t.Errorf("a jumper on a Talon SRX: %v; want refused, naming neutral_mode", err)
	}
}

// A stalled motor (the arm at its upper stop, driven up at full voltage)
// draws no more than its controller's limit: a Talon FX's stator limit, a
// SPARK's smart current limit; without the limits it draws its stall
// current.
func TestStalledMotorCurrentLimited(t *testing.T) {
	stall := func(s *Sim, drive func()) float64 {
		s.SetDS(enabled)
		var worst float64
		for now := time.Millisecond; now <= 500*time.Millisecond; now += time.Millisecond {
			drive()
			s.AdvanceTo(now)
			if now > 300*time.Millisecond { // at the stop by then
				worst = max(worst, math.Abs(truth(t, s, "arm_joint").Current))
			}
		}
		return worst
	}
	for _, tc := range []struct {
		name    string
		limit   float64
		enabled bool
	}{{"limited", 40, true}, {"unlimited", 0, false}} {
		s := armSim(t, "talon_fx")
		fx, _ := s.OpenTalonFX("", 5)
		fx.(phoenix6.FXConfigurer).ApplyConfig(phoenix6.FXConfig{StatorLimit: tc.limit, StatorLimitEnable: tc.enabled})
		got := stall(s, func() { fx.Control(phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: 12}) })
		t.Logf("Talon FX %s: %.1f A at a stall", tc.name, got)
		if tc.enabled && (got > tc.limit+0.5 || got < tc.limit-2) || !tc.enabled && got < 100 {
			t.Errorf("Talon FX %s: %.1f A at a stall", tc.name, got)
		}
	}
	s := armSim(t, "spark_max")
	bus, _ := s.CANBus("")
	d, n := frc.EncodeSparkParameterBits(frc.SparkParamSmartStallLimit, 30)
	bus.Send(hal.Frame{ID: frc.SparkID(frc.SparkAPIParameterWrite, 5), Len: n, Data: d})
	duty := hal.Frame{ID: frc.SparkID(frc.SparkAPIDutyCycle, 5), Len: 8, Data: frc.EncodeSparkSetpoint(1, 0)}
	hb := hal.Frame{ID: frc.SparkID(frc.SparkAPIHeartbeat, 0), Len: 8, Data: [8]byte{1 << 5}}
	got := stall(s, func() { bus.Send(duty); bus.Send(hb) })
	t.Logf("SPARK MAX, smart current limit 30 A: %.1f A at a stall", got)
	if got > 30.5 || got < 28 {
		t.Errorf("SPARK MAX, smart current limit 30 A: %.1f A at a stall", got)
	}
}

// The same brake whatever made the output neutral: e-stopped, or enabled
// with a command that went stale (the controller's own timeout), the arm
// on a Talon SRX in brake creeps as when disabled; in coast it falls.
func TestNeutralBrakeEStopAndStale(t *testing.T) {
	for _, how := range []string{"estop", "stale"} {
		var fell [2]float64
		for i, n := range []hal.NeutralMode{hal.NeutralCoast, hal.NeutralBrake} {
			s := armSim(t, "talon_srx")
			m, err := s.OpenCANMotor(frc.TalonSRX, 5)
			if err != nil {
				t.Fatal(err)
			}
			m.(hal.CANMotorConfigurer).ApplyConfig(hal.CANMotorConfig{Neutral: n})
			st := enabled
			if how == "estop" {
				st.EStop = true
			}
			s.SetDS(st)
			m.SetDuty(0.05) // once: stale after motorTimeout
			s.AdvanceTo(2 * time.Second)
			fell[i] = 1.5 - truth(t, s, "arm_joint").Position
		}
		t.Logf("%s, 2 s: coast fell %.3f rad, brake %.3f rad", how, fell[0], fell[1])
		if fell[0] < 1.99 || fell[1] > 0.4*fell[0] || fell[1] <= 0 {
			t.Errorf("%s: coast fell %.3f rad, brake %.3f rad", how, fell[0], fell[1])
		}
	}
}

// A stalled Talon SRX with Phoenix 5's current limit on draws from the
// battery no more than its continuous limit once its supply current has
// been over the peak for the peak duration (CTRE's Phoenix 5 docs: the
// Talon SRX limits its supply current); with the limit off it draws what
// the stalled motor takes at full output.
func TestStalledTalonSRXSupplyLimited(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  hal.CANMotorConfig
	}{
		{"limited", hal.CANMotorConfig{HasCurrentLimit: true, CurrentLimit: true, PeakA: 60, PeakMs: 100, ContinuousA: 30}},
		{"unlimited", hal.CANMotorConfig{HasCurrentLimit: true, PeakA: 60, PeakMs: 100, ContinuousA: 30}},
	} {
		s := armSim(t, "talon_srx")
		m, err := s.OpenCANMotor(frc.TalonSRX, 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.(hal.CANMotorConfigurer).ApplyConfig(tc.cfg); err != nil {
			t.Fatal(err)
		}
		s.SetDS(enabled)
		var worst float64
		for now := time.Millisecond; now <= 800*time.Millisecond; now += time.Millisecond {
			if err := m.SetDuty(1); err != nil {
				t.Fatal(err)
			}
			s.AdvanceTo(now)
			st, _ := m.Status()
			j := truth(t, s, "arm_joint")
			if now > 500*time.Millisecond { // at the stop, and limited, by then
				worst = max(worst, math.Abs(j.Current*j.Voltage)/st.BusVoltage)
			}
		}
		t.Logf("Talon SRX %s (peak 60 A for 100 ms, continuous 30 A): %.1f A from the battery at a stall", tc.name, worst)
		if tc.cfg.CurrentLimit && (worst > 30.5 || worst < 28) || !tc.cfg.CurrentLimit && worst < 60 {
			t.Errorf("Talon SRX %s: %.1f A from the battery at a stall", tc.name, worst)
		}
	}
}

// Phoenix 5's rule for a peak below the continuous limit ("peak is set
// equal to continuous"; a peak of 0 limits at the continuous current
// alone): 30 A asked for 1 s under a 0 A peak and 40 A continuous limit
// starts no limit and no timer, so 50 A then runs unlimited for the peak
// duration (100 ms) before it is held to 40 A.
func TestTalonSRXPeakBelowContinuous(t *testing.T) {
	s := armSim(t, "talon_srx")
	m, err := s.OpenCANMotor(frc.TalonSRX, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.(hal.CANMotorConfigurer).ApplyConfig(hal.CANMotorConfig{HasCurrentLimit: true, CurrentLimit: true, PeakA: 0, PeakMs: 100, ContinuousA: 40}); err != nil {
		t.Fatal(err)
	}
	l := m.(interface{ limits() *driveLimits }).limits()
	const h = 0.001
	for i := 0; i < 1000; i++ {
		if got := l.supplyLimit(30, h); got != 0 {
			t.Fatalf("30 A under a 40 A continuous limit, after %d ms: limited to %g A", i, got)
		}
	}
	for i := 1; i <= 150; i++ {
		got := l.supplyLimit(50, h)
		if i < 100 && got != 0 || i > 100 && got != 40 {
			t.Fatalf("50 A, %d ms over the continuous limit (peak 0 raised to it, 100 ms): limit %g A", i, got)
		}
	}
}
