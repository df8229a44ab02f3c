package devices

import (
	"math"
	"testing"
	"time"
)

func TestRateOfARamp(t *testing.T) {
	var r rateEstimator
	if got := r.update(0, 5); got != 0 {
		t.Errorf("first sample: rate %v", got)
	}
	// 2.5 units/s, sampled every ms: exact from the second sample on.
	for i := 1; i <= 200; i++ {
		now := time.Duration(i) * time.Millisecond
		if got := r.update(now, 5+2.5*now.Seconds()); !approx(got, 2.5, 1e-9) {
			t.Fatalf("at %v: rate %v, want 2.5", now, got)
		}
	}
	// The same time again changes nothing; time going backwards restarts.
	if got := r.update(200*time.Millisecond, 100); !approx(got, 2.5, 1e-9) {
		t.Errorf("repeated time: %v", got)
	}
	if got := r.update(100*time.Millisecond, 1); got != 0 || r.n != 1 {
		t.Errorf("time going back: rate %v, %d samples", got, r.n)
	}
}

// A coarse encoder read at 1 kHz moves one count every few cycles: a
// one-cycle difference would read 0 and then a spike. Over the window, the
// rate stays within one count per window of the truth.
func TestRateOfAQuantizedRamp(t *testing.T) {
	const count = 0.0174533 / 4 // rad: a 360-pulse encoder, 4x
	const speed = 1.0           // rad/s: one count every 4.4 ms
	var r rateEstimator
	var got []float64
	for i := 0; i <= 1000; i++ {
		now := time.Duration(i) * time.Millisecond
		x := math.Floor(speed*now.Seconds()/count) * count
		rate := r.update(now, x)
		if now >= rateWindow {
			got = append(got, rate)
		}
	}
	tol := count / rateWindow.Seconds() // 0.218 rad/s
	for i, v := range got {
		if !approx(v, speed, tol) {
			t.Fatalf("sample %d: rate %v, want %v ± %v", i, v, speed, tol)
		}
	}
}

// At 100 Hz the window holds two samples; at 5 kHz the ring (64 samples,
// 12.8 ms) is shorter than the window and its oldest sample is used.
func TestRateAtOtherLoopRates(t *testing.T) {
	for _, period := range []time.Duration{10 * time.Millisecond, 200 * time.Microsecond} {
		var r rateEstimator
		for i := 0; i < 500; i++ {
			now := time.Duration(i) * period
			got := r.update(now, -3*now.Seconds())
			if i > 0 && !approx(got, -3, 1e-9) {
				t.Fatalf("period %v, sample %d: %v", period, i, got)
			}
		}
	}
}
