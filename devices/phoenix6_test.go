package devices

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/interfaces"
)

func TestTalonFXVoltageAndRotor(t *testing.T) {
	b := haltest.New()
	fx := &haltest.TalonFX{Reported: phoenix6.FXStatus{Position: 10, Velocity: -5, SupplyVoltage: 12}}
	b.TalonFXs[3] = fx
	r := buildOn(t, b, "joints:\n  - {name: arm, type: talon_fx, id: 3, can_bus: canivore, sensor_to_mechanism_ratio: 50, inverted: true}\n")
	if fx.Bus != "canivore" {
		t.Errorf("opened on %q", fx.Bus)
	}
	cmd := command[float64](r, "arm", interfaces.Voltage)
	cmd.Put(6, r.now)
	r.cycle()
	if fx.Last != (phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: -6}) {
		t.Errorf("control %+v, want VoltageOut -6 (inverted)", fx.Last)
	}
	if v := state[interfaces.AnalogState](r, "arm", interfaces.Voltage).Value; v != 6 {
		t.Errorf("voltage state %v", v)
	}
	rate := state[interfaces.RateState](r, "arm", interfaces.Rate)
	// 10 rotor rotations through 50:1, inverted: -0.2 turns of the arm.
	if !approx(rate.State, -0.2*2*math.Pi, 1e-12) || !approx(rate.Rate, 0.1*2*math.Pi, 1e-12) {
		t.Errorf("rotor sensor %+v", *rate)
	}
	// More than the supply is clamped to it; a NaN command is neutral.
	cmd.Put(20, r.now)
	r.cycle()
	if fx.Last.Value != -12 {
		t.Errorf("20 V at a 12 V supply: %+v", fx.Last)
	}
	cmd.Put(math.NaN(), r.now)
	r.cycle()
	if fx.Last != (phoenix6.FXControl{}) {
		t.Errorf("NaN: %+v, want neutral", fx.Last)
	}
	cmd.Put(3, r.now)
	r.cycle()
	r.halt()
	if fx.Last != (phoenix6.FXControl{}) {
		t.Errorf("Halt: %+v, want neutral", fx.Last)
	}
	if keys := r.reg.CommandKeys(); len(keys) != 1 {
		t.Errorf("closed_loop roborio registered commands %v, want the voltage only", keys)
	}
	fx.StatusErr = hal.ErrTimeout
	if err := r.step(0); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("stale status: %v", err)
	}
}

func TestTalonFXDeviceClosedLoop(t *testing.T) {
	b := haltest.New()
	fx := &haltest.TalonFX{Reported: phoenix6.FXStatus{SupplyVoltage: 12}}
	b.TalonFXs[4] = fx
	r := buildOn(t, b, "joints:\n  - {name: arm, type: talon_fx, id: 4, sensor_to_mechanism_ratio: 10, closed_loop: device, kp: 2.5, kd: 0.1, kv: 0.12}\n")
	if fx.GainsSet != 1 || fx.Gains[0] != (phoenix6.FXGains{P: 2.5, D: 0.1, V: 0.12}) {
		t.Errorf("gains %+v (%d applies)", fx.Gains, fx.GainsSet)
	}
	pos := command[float64](r, "arm", interfaces.Position)
	vel := command[float64](r, "arm", interfaces.Velocity)
	pos.Put(math.Pi, r.now) // half a turn of the arm: 5 rotor rotations
	r.cycle()
	if fx.Last.Mode != phoenix6.FXPosition || !approx(fx.Last.Value, 5, 1e-12) || fx.Last.Slot != 0 {
		t.Errorf("position command: %+v", fx.Last)
	}
	pos.Reset()
	vel.Put(2*math.Pi, r.now)
	r.cycle()
	if fx.Last.Mode != phoenix6.FXVelocity || !approx(fx.Last.Value, 10, 1e-12) {
		t.Errorf("velocity command: %+v", fx.Last)
	}
}

// Gains on a Talon FX that does not close its loop itself, and a key the
// type does not have, are errors at their file:line:col.
func TestTalonFXGainsRefusedWithoutDeviceLoop(t *testing.T) {
	_, list := config.Parse("robot.yaml", []byte("joints:\n  - {name: arm, type: talon_fx, id: 4, kp: 2, kf: 1}\n  - {name: lift, type: talon_fx, id: 5, closed_loop: roborio,\n     kv: 0.1}\n"))
	got := fmt.Sprint(list)
	for _, want := range []string{
		`robot.yaml:2:40: error: talon_fx "arm": kp is a gain of the device's own closed loop, used only with closed_loop: device`,
		`robot.yaml:2:47: error: talon_fx "arm": unknown key "kf"`,
		`robot.yaml:4:6: error: talon_fx "lift": kv is a gain of the device's own closed loop`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}
	if list.Errors() != 3 {
		t.Errorf("%d errors, want 3:\n%s", list.Errors(), got)
	}
}

func TestCANcoderMeasuresItsJoint(t *testing.T) {
	b := haltest.New()
	c := &haltest.CANcoder{Pos: 0.25, Vel: -0.5}
	b.CANcoders[9] = c
	r := buildOn(t, b, "joints:\n  - {name: steer, type: cancoder, id: 9}\n")
	r.cycle()
	rate := state[interfaces.RateState](r, "steer", interfaces.Rate)
	if !approx(rate.State, math.Pi/2, 1e-12) || !approx(rate.Rate, -math.Pi, 1e-12) {
		t.Errorf("CANcoder %+v", *rate)
	}
	c.Err = hal.ErrTimeout
	if err := r.step(0); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("stale: %v", err)
	}
	c.Err, c.Pos = nil, math.Inf(1)
	if err := r.step(0); !errors.Is(err, errNotFinite) {
		t.Errorf("Inf: %v", err)
	}
}

func TestPigeon2IsAnIMU(t *testing.T) {
	b := haltest.New()
	s := math.Sqrt2 / 2
	b.Pigeon2s[12] = &haltest.Pigeon2{Pigeon: haltest.Pigeon{Q: [4]float64{s, 0, 0, s}, Gyro: [3]float64{0, 0, 1}}}
	r := buildOn(t, b, "joints:\n  - {name: gyro, type: pigeon2, id: 12, frame_id: base_link}\n")
	r.cycle()
	st := state[interfaces.IMUState](r, "gyro", interfaces.IMU)
	if st.Orientation != [4]float64{0, 0, s, s} || st.AngularVelocity[2] != 1 {
		t.Errorf("IMU %+v", *st)
	}
}

// The Phoenix 6 devices load a bus as CTRE publishes (average utilization
// at default signal frequencies on CAN 2.0), beside the REV hubs.
func TestPhoenix6CANLoad(t *testing.T) {
	base := "joints:\n  - {name: pdh, type: rev_pdh, id: 1}\n  - {name: ph, type: rev_ph, id: 1}\n"
	load := func(extra string) float64 {
		t.Helper()
		f := parseYAML(t, base+extra)
		l := EstimateCANLoad(f)
		if len(l) != 1 {
			t.Fatalf("buses %+v", l)
		}
		return l[0].Load
	}
	hubs := load("")
	for _, tc := range []struct {
		entry string
		share float64 // CTRE's figure, plus the control request for a Talon
	}{
		{"  - {name: arm, type: talon_fx, id: 3}\n", 0.041 + 100*float64(hal.WorstFrameBits(8))/hal.CANBitRate},
		{"  - {name: steer_cc, type: cancoder, id: 3}\n", 0.017},
		{"  - {name: gyro, type: pigeon2, id: 3, frame_id: base_link}\n", 0.031},
	} {
		if got := load(tc.entry) - hubs; !approx(got, tc.share, 1e-4) {
			t.Errorf("%s: adds %.4f of the bus, want %.4f", strings.TrimSpace(tc.entry), got, tc.share)
		}
	}
	// The three, a Talon SRX and the hubs: one bus, every device listed.
	f := parseYAML(t, base+"  - {name: arm, type: talon_fx, id: 3}\n  - {name: cc, type: cancoder, id: 3}\n"+
		"  - {name: gyro, type: pigeon2, id: 3, frame_id: base_link}\n  - {name: lift, type: talon_srx, id: 4}\n")
	if got := len(ExpectedCAN(f)); got != 6 {
		t.Errorf("%d CAN devices, want 6", got)
	}
}

// With k_eff, the stator current × k_eff is the joint's effort, signed
// like the applied voltage.
func TestTalonFXEffort(t *testing.T) {
	b := haltest.New()
	fx := &haltest.TalonFX{Reported: phoenix6.FXStatus{SupplyVoltage: 12, StatorCurrent: 30}}
	b.TalonFXs[5] = fx
	r := buildOn(t, b, "joints:\n  - {name: arm, type: talon_fx, id: 5, k_eff: 0.5}\n")
	effort := state[interfaces.AnalogState](r, "arm", interfaces.Effort)
	cmd := command[float64](r, "arm", interfaces.Voltage)
	for _, tc := range []struct{ v, want float64 }{{-4, -15}, {4, 15}, {0, 0}} {
		cmd.Put(tc.v, r.now)
		r.cycle() // Write sets the voltage...
		r.cycle() // ...the next Read signs the current by it
		if effort.Value != tc.want {
			t.Errorf("at %v V: effort %v, want %v", tc.v, effort.Value, tc.want)
		}
	}
}

// The Phoenix 6 devices report their health for /diagnostics: the
// temperature, supply and fault fields as values; an error for a severe
// fault or health that cannot be read, a warning for the other faults and
// sticky ones.
func TestPhoenix6Reports(t *testing.T) {
	b := haltest.New()
	fx := &haltest.TalonFX{Reported: phoenix6.FXStatus{SupplyVoltage: 12.3, SupplyCurrent: 2, StatorCurrent: 10, Temperature: 41}}
	fx.HealthOf = phoenix6.Health{TempC: 41, SupplyV: 12.3}
	b.TalonFXs[5] = fx
	cc := &haltest.CANcoder{}
	cc.HealthOf = phoenix6.Health{TempC: math.NaN(), SupplyV: 5, Active: phoenix6.BadMagnet}
	b.CANcoders[6] = cc
	r := buildOn(t, b, "joints:\n  - {name: arm, type: talon_fx, id: 5}\n  - {name: arm_cc, type: cancoder, id: 6}\n"+
		"  - {name: imu, type: pigeon2, id: 7, frame_id: base_link}\n")
	b.Pigeon2s[7].HealthOf = phoenix6.Health{TempC: 33, SupplyV: 12, Active: phoenix6.BootIntoMotion}
	rep := r.device("arm").(hal.Reporter)
	r.cycle()
	got := rep.Report(nil)
	want := hal.Report{Name: "arm (Talon FX 5)", Message: "ok", Values: [][2]string{{"temperature (°C)", "41"}, {"supply (V)", "12.30"},
		{"supply current (A)", "2.0"}, {"stator current (A)", "10.0"}, {"motor voltage (V)", "0.00"}, {"faults", "0x0"}, {"sticky faults", "0x0"}}}
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("Report %+v, want %+v", got, want)
	}
	for _, c := range []struct {
		h           phoenix6.Health
		err         error
		warn, error bool
		msg         string
	}{
		{h: phoenix6.Health{TempC: 95, Active: phoenix6.DeviceTemp | phoenix6.Undervoltage}, error: true, msg: "fault: device over temperature, undervoltage"},
		{h: phoenix6.Health{Active: phoenix6.BridgeBrownout}, warn: true, msg: "fault: bridge brown-out"},
		{h: phoenix6.Health{Active: phoenix6.Undervoltage}, warn: true, msg: "fault: undervoltage"},
		{h: phoenix6.Health{Faults: 0x400}, warn: true, msg: "faults 0x400"},
		{h: phoenix6.Health{StickyFaults: 0x10}, warn: true, msg: "sticky faults 0x10 (cleared in Tuner X)"},
		{err: hal.ErrTimeout, error: true, msg: "no health signals: timed out"},
	} {
		fx.HealthOf, fx.HealthErr = c.h, c.err
		got := rep.Report(nil)[0]
		if got.Warn != c.warn || got.Error != c.error || got.Message != c.msg {
			t.Errorf("health %+v %v: %+v; want warn %v error %v %q", c.h, c.err, got, c.warn, c.error, c.msg)
		}
	}
	if got := r.device("arm_cc").(hal.Reporter).Report(nil); len(got) != 1 || !got[0].Error || got[0].Message != "fault: bad magnet" || got[0].Values[0][0] != "supply (V)" {
		t.Errorf("CANcoder: %+v", got)
	}
	if got := r.device("imu").(hal.Reporter).Report(nil); len(got) != 1 || got[0].Error || !got[0].Warn || got[0].Message != "fault: booted while moving" ||
		got[0].Name != "imu (Pigeon 2 7)" || got[0].Values[0] != [2]string{"temperature (°C)", "33"} {
		t.Errorf("Pigeon 2: %+v", got)
	}
}

// A cycle of the Phoenix 6 devices allocates nothing (the control loop's
// rule), in every mode.
func TestPhoenix6CycleAllocs(t *testing.T) {
	b := haltest.New()
	b.TalonFXs[1] = &haltest.TalonFX{Reported: phoenix6.FXStatus{SupplyVoltage: 12, StatorCurrent: 3}}
	r := buildOn(t, b, "joints:\n  - {name: a, type: talon_fx, id: 1, k_eff: 0.2}\n"+
		"  - {name: b, type: talon_fx, id: 2, closed_loop: device, kp: 1}\n  - {name: c, type: cancoder, id: 3}\n"+
		"  - {name: g, type: pigeon2, id: 4, frame_id: base_link}\n")
	command[float64](r, "a", interfaces.Voltage).Put(3, r.now)
	command[float64](r, "b", interfaces.Position).Put(1, r.now)
	cycle := func() { // the rig's step collects errors in a slice: this does not
		for _, d := range r.devs {
			if err := d.Read(r.now, time.Millisecond); err != nil {
				t.Fatal(err)
			}
		}
		for _, d := range r.devs {
			if err := d.Write(r.now, time.Millisecond); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := testing.AllocsPerRun(100, cycle); n != 0 {
		t.Errorf("%v allocations per cycle", n)
	}
}
