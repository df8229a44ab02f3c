package frc

import (
	"math"
	"testing"
	"time"
)

func ms(f float64) time.Duration { return time.Duration(math.Round(f * float64(time.Millisecond))) }

// The talon's figures (Max 2.037, DeadbandMax 1.539, Center 1.513,
// DeadbandMin 1.487, Min 0.989 ms) worked by hand.
func TestTalonPulse(t *testing.T) {
	c := PWMTalon
	for _, tc := range []struct {
		duty float64
		want time.Duration
	}{
		{1, ms(2.037)},
		{0, ms(1.513)},
		{-1, ms(0.989)},
		{0.5, ms(1.775)},   // 1.513 + 0.5 x (2.037 - 1.513)
		{-0.5, ms(1.251)},  // 1.513 - 0.5 x (1.513 - 0.989)
		{0.25, ms(1.644)},  // 1.513 + 0.25 x 0.524
		{-0.25, ms(1.382)}, // 1.513 - 0.25 x 0.524
	} {
		if got := c.Pulse(tc.duty); got != tc.want {
			t.Errorf("talon Pulse(%v) = %v, want %v", tc.duty, got, tc.want)
		}
	}
}

func TestTalonDuty(t *testing.T) {
	c := PWMTalon
	for _, tc := range []struct {
		width time.Duration
		want  float64
	}{
		{0, 0},            // disabled
		{ms(1.513), 0},    // center
		{ms(1.52), 0},     // inside the deadband 1.487-1.539
		{ms(1.539), 0},    // its upper edge
		{ms(1.487), 0},    // its lower edge
		{ms(2.037), 1},    // full forward
		{ms(2.5), 1},      // beyond: clamped
		{ms(0.989), -1},   // full reverse
		{ms(0.5), -1},     // beyond: clamped
		{ms(1.788), 0.5},  // 1.539 + 0.5 x (2.037 - 1.539)
		{ms(1.238), -0.5}, // 1.487 - 0.5 x (1.487 - 0.989)
		{ms(1.775), (1.775 - 1.539) / (2.037 - 1.539)}, // the firmware's reading of a driver's duty 0.5: 0.4739
	} {
		if got := c.Duty(tc.width); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("talon Duty(%v) = %v, want %v", tc.width, got, tc.want)
		}
	}
}

// Every named calibration maps its ends to ±1 and its center to 0 both ways, and
// is ordered Min < DeadbandMin < Center < DeadbandMax < Max.
func TestCalibrationsRoundTrip(t *testing.T) {
	for name, c := range map[string]PWMCalibration{"PWMDMC60": PWMDMC60, "PWMJaguar": PWMJaguar, "PWMTalonSRX": PWMTalonSRX,
		"PWMVictorSPX": PWMVictorSPX, "PWMSD540": PWMSD540, "PWMSpark": PWMSpark, "PWMTalon": PWMTalon, "PWMVictor": PWMVictor,
		"PWMVictorSP": PWMVictorSP} {
		if !(c.Min < c.DeadbandMin && c.DeadbandMin < c.Center && c.Center < c.DeadbandMax && c.DeadbandMax < c.Max) {
			t.Errorf("%s: widths out of order: %+v", name, c)
		}
		if c.Pulse(1) != c.Max || c.Pulse(-1) != c.Min || c.Pulse(0) != c.Center {
			t.Errorf("%s: Pulse(1, -1, 0) = %v %v %v", name, c.Pulse(1), c.Pulse(-1), c.Pulse(0))
		}
		if c.Duty(c.Max) != 1 || c.Duty(c.Min) != -1 || c.Duty(c.Center) != 0 || c.Duty(0) != 0 {
			t.Errorf("%s: Duty(Max, Min, Center, 0) = %v %v %v %v", name, c.Duty(c.Max), c.Duty(c.Min), c.Duty(c.Center), c.Duty(0))
		}
	}
	// A Victor SP's deadband is 1.48-1.52 ms around 1.5 ms, full scale
	// 0.997-2.004 ms (VEX's figures).
	vsp := PWMVictorSP
	if vsp.Pulse(1) != ms(2.004) || vsp.Pulse(-1) != ms(0.997) || vsp.Duty(ms(1.51)) != 0 {
		t.Errorf("PWMVictorSP: %v %v %v", vsp.Pulse(1), vsp.Pulse(-1), vsp.Duty(ms(1.51)))
	}
}
