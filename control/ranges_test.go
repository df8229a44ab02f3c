package control

import (
	"errors"
	"strings"
	"testing"
)

// TestCommandRanges: a command outside its controller's physically
// meaningful range is refused and counted (1e300 V once became full
// output); a small overshoot is taken, for the device or the joint to
// clamp as before. The arm joint's limits are -1..2 rad, 1 rad/s, 1 N·m.
func TestCommandRanges(t *testing.T) {
	armV := "  - {name: arm_v, type: voltage_controllers/JointVoltageController, joint: arm, timeout: 0.1}\n"
	with := func(ctl string) string { return strings.Replace(testYAML, armV, ctl, 1) }
	analog := func(keys string) string {
		return strings.Replace(with("  - {name: gauge_out, type: frcd_controllers/AnalogOutputController, joint: led}\n"), "controllers:",
			"  - {name: led, type: analog_output, aout_channel: 0, "+keys+"}\ncontrollers:", 1)
	}
	for _, c := range []struct {
		yaml, ctl string
		ok, bad   []float64
	}{
		{testYAML, "arm_v", []float64{0, 12, -13.5, 16, -16}, []float64{1e300, -1e300, 16.01, -30}},
		{with("  - {name: arm_p, type: effort_controllers/JointPositionController, joint: arm, pid: {p: 1}}\n"), "arm_p",
			[]float64{-1, 2, 0.5, -1.3, 2.3}, []float64{-1.31, 2.31, 100, -1e300}},
		{with("  - {name: arm_w, type: effort_controllers/JointVelocityController, joint: arm, pid: {p: 1}}\n"), "arm_w",
			[]float64{1, -1, 1.5, 2, -2}, []float64{2.01, -50, 1e300}},
		{with("  - {name: arm_e, type: effort_controllers/JointEffortController, joint: arm, pid: {p: 1}}\n"), "arm_e",
			[]float64{1, -2, 2}, []float64{2.5, -1e300}},
		// An LED colour: 0xRRGGBB, 0 to 0xFFFFFF, not an analog output's volts.
		{strings.Replace(with("  - {name: glow, type: frcd_controllers/LEDColorController, joint: led}\n"), "controllers:",
			"  - {name: led, type: addressable_led, dio_channel: 5, length: 8}\ncontrollers:", 1), "glow",
			[]float64{0, 0xFF0000, 255, 0xFFFFFF}, []float64{-1, 0x1000000, 1e300}},
		// An analog output's command is in its units: 0..5 V give or take
		// 1 V is 0..140 at scale 100, offset 20 (it once was -1..6 in any
		// units, refusing most of such an output's range).
		{analog("scale: 100, offset: 20"), "gauge_out", []float64{20, 120, 0, 140, 70}, []float64{140.1, -0.5, 1e300}},
		// A negative scale turns the range round: -7..7 at scale -10, offset 5.
		{analog("scale: -10, offset: 5"), "gauge_out", []float64{-7, 7, 5, -5}, []float64{7.5, -8}},
	} {
		g := newRigWith(t, c.yaml)
		ctl := g.l.Controller(c.ctl)
		for _, v := range c.ok {
			if err := ctl.Command(v, 0); err != nil {
				t.Errorf("%s: %v refused: %v", c.ctl, v, err)
			}
		}
		for _, v := range c.bad {
			if err := ctl.Command(v, 0); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "is outside") {
				t.Errorf("%s: %v taken (%v), want refused", c.ctl, v, err)
			}
		}
		if n := ctl.Refused(); n != uint64(len(c.bad)) {
			t.Errorf("%s: %d refused, want %d", c.ctl, n, len(c.bad))
		}
	}
}
