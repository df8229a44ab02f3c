package devices

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

// A talon's calibration: Min 0.989, Center 1.513, Max 2.037 ms.
func TestTalonVoltage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		inverted bool
		vin      float64
		vinErr   error
		set      bool
		cmd      float64
		pulse    time.Duration
		volts    float64
	}{
		{"6 V of 12: duty 0.5, 1.513 + 0.5 x 0.524", false, 12, nil, true, 6, ms(1.775), 6},
		{"inverted negates", true, 12, nil, true, 6, ms(1.251), 6},
		{"-3 V of 12: duty -0.25", false, 12, nil, true, -3, ms(1.382), -3},
		{"20 V clamps to full", false, 12, nil, true, 20, ms(2.037), 12},
		{"-20 V clamps to full reverse", false, 12, nil, true, -20, ms(0.989), -12},
		{"inverted full", true, 12, nil, true, 20, ms(0.989), 12},
		{"5 V of a sagging 10 V: duty 0.5", false, 10, nil, true, 5, ms(1.775), 5},
		{"Vin error: 12 V assumed", false, 7, errors.New("no"), true, 6, ms(1.775), 6},
		{"Vin 3 V is a fault: 12 V assumed", false, 3, nil, true, 6, ms(1.775), 6},
		{"unset: center", false, 12, nil, false, 6, ms(1.513), 0},
		{"NaN: center", false, 12, nil, true, nan, ms(1.513), 0},
		{"+Inf: center", false, 12, nil, true, inf, ms(1.513), 0},
		{"-Inf inverted: center", true, 12, nil, true, -inf, ms(1.513), 0},
		{"0 V: center", false, 12, nil, true, 0, ms(1.513), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := bind(t, fmt.Sprintf("joints:\n  - {name: arm, type: talon, id: 3, inverted: %v}\n", tc.inverted))
			r.hal.VinVolts, r.hal.VinErr = tc.vin, tc.vinErr
			cmd := command[float64](r, "arm", interfaces.Voltage)
			if tc.set {
				cmd.Put(tc.cmd, 0)
			}
			r.cycle()
			if got := r.hal.PWM[3].Pulse; got != tc.pulse {
				t.Errorf("pulse = %v, want %v", got, tc.pulse)
			}
			if got := state[interfaces.AnalogState](r, "arm", interfaces.Voltage).Value; !approx(got, tc.volts, 1e-12) {
				t.Errorf("voltage state = %v, want %v", got, tc.volts)
			}
		})
	}
}

// Every PWM speed controller sends its calibration's ends at ±full and its
// center at 0 V, and disables its output on Halt.
func TestPWMSpeedControllers(t *testing.T) {
	for _, ct := range config.Types() {
		if !ct.Speed || ct.PWM == nil {
			continue
		}
		typ, cal := ct.Name, *ct.PWM
		t.Run(typ, func(t *testing.T) {
			r := bind(t, "joints:\n  - {name: j, type: "+typ+", id: 12}\n")
			cmd := command[float64](r, "j", interfaces.Voltage)
			volts := state[interfaces.AnalogState](r, "j", interfaces.Voltage)
			for _, tc := range []struct {
				v    float64
				want time.Duration
			}{{12, cal.Max}, {-12, cal.Min}, {0, cal.Center}, {6, cal.Center + (cal.Max-cal.Center)/2}} {
				cmd.Put(tc.v, r.now)
				r.cycle()
				if got := r.hal.PWM[12].Pulse; got != tc.want {
					t.Errorf("%v V: pulse %v, want %v", tc.v, got, tc.want)
				}
				// The controller reads the pulse back as the duty sent, out of its deadband.
				if d := cal.Duty(r.hal.PWM[12].Pulse); tc.v != 6 && d != tc.v/12 {
					t.Errorf("%v V: the controller reads duty %v", tc.v, d)
				}
			}
			if err := r.device("j").Halt(); err != nil {
				t.Fatal(err)
			}
			if r.hal.PWM[12].Pulse != 0 || volts.Value != 0 {
				t.Errorf("after Halt: pulse %v, voltage state %v", r.hal.PWM[12].Pulse, volts.Value)
			}
		})
	}
}

func TestPWMSpeedErrors(t *testing.T) {
	r := bind(t, "joints:\n  - {name: j, type: spark, id: 0}\n")
	boom := errors.New("FPGA says no")
	r.hal.PWM[0].Err = boom
	err := r.step(time.Millisecond)
	if !errors.Is(err, boom) || err.Error() != `spark "j": write: FPGA says no` {
		t.Errorf("Write error = %v", err)
	}
	if err := r.device("j").Halt(); !errors.Is(err, boom) {
		t.Errorf("Halt error = %v", err)
	}
	// A channel already open is refused when binding, naming it.
	b := haltest.New()
	if _, err := b.OpenPWM(0); err != nil {
		t.Fatal(err)
	}
	f, _ := config.Parse("x.yaml", []byte("joints:\n  - {name: j, type: spark, id: 0}\n"))
	_, err = Build(f, NewEnv(b, interfaces.NewRegistry()))
	if !errors.Is(err, hal.ErrInUse) || !strings.Contains(err.Error(), `spark "j": PWM 0: `) {
		t.Errorf("Build over a busy channel: %v", err)
	}
}
