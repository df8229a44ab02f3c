package control

import (
	"math"
	"testing"
	"time"
)

func TestPID(t *testing.T) {
	c := PID{P: 2, I: 10, D: 0.5, F: 0.1, IClamp: 1, Max: 6}
	// P, F and D: 0.1*3 + 2*1 - 0.5*2 = 1.3, plus the first integral step 10*1*0.01 = 0.1.
	if got := c.Update(3, 1, 2, 0.01); math.Abs(got-1.4) > 1e-12 {
		t.Errorf("first update %v, want 1.4", got)
	}
	// The integral clamps at IClamp.
	for i := 0; i < 100; i++ {
		c.Update(0, 1, 0, 0.01)
	}
	if c.Integral() != 1 {
		t.Errorf("integral %v, want clamped to 1", c.Integral())
	}
	// The output clamps at Max, both ways.
	if got := c.Update(0, 100, 0, 0.01); got != 6 {
		t.Errorf("output %v, want 6", got)
	}
	if got := c.Update(0, -100, 0, 0.01); got != -6 {
		t.Errorf("output %v, want -6", got)
	}
	c.Reset()
	if c.Integral() != 0 {
		t.Errorf("reset left %v", c.Integral())
	}
}

func TestWrapAngle(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{{0, 0}, {math.Pi / 2, math.Pi / 2}, {3 * math.Pi / 2, -math.Pi / 2}, {-3 * math.Pi / 2, math.Pi / 2}, {4 * math.Pi, 0}} {
		if got := wrapAngle(c.in); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("wrapAngle(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestHistogram(t *testing.T) {
	var h Histogram
	for i := 0; i < 98; i++ {
		h.Add(10 * time.Microsecond) // [8192, 10240) ns
	}
	h.Add(100 * time.Microsecond) // [98304, 114688) ns
	h.Add(3 * time.Millisecond)
	if h.Count != 100 || h.Max != 3*time.Millisecond {
		t.Fatalf("count %d max %v", h.Count, h.Max)
	}
	if q := h.Quantile(0.5); q != 10240*time.Nanosecond {
		t.Errorf("p50 %v, want 10.24µs (the bucket's upper bound)", q)
	}
	if q := h.Quantile(0.99); q != 114688*time.Nanosecond {
		t.Errorf("p99 %v, want 114.688µs", q)
	}
	if q := h.Quantile(1); q != 3*time.Millisecond {
		t.Errorf("p100 %v, want the max", q)
	}
	if m := h.Mean(); m != (98*10+100+3000)*time.Microsecond/100 {
		t.Errorf("mean %v", m)
	}
	h.Add(time.Hour) // beyond the last bucket: counted there
	if h.Buckets[len(h.Buckets)-1] != 1 {
		t.Errorf("overflow bucket %d", h.Buckets[len(h.Buckets)-1])
	}
	h.Add(50) // below the first octave
	if h.Buckets[0] != 1 {
		t.Errorf("underflow bucket %d", h.Buckets[0])
	}
	if a := testing.AllocsPerRun(100, func() { h.Add(time.Millisecond) }); a != 0 {
		t.Errorf("Add allocates %v", a)
	}
}

// TestHistogramBounds: every value lands in a bucket whose bounds hold it,
// and the bounds are within 25% of each other.
func TestHistogramBounds(t *testing.T) {
	for _, d := range []time.Duration{128, 129, 159, 160, 255, 256, 1000, 12345, time.Millisecond, 999999999, 1 << 35} {
		k := histIndex(d)
		lo := histUpper(k - 1)
		if d < lo || d >= histUpper(k) {
			t.Errorf("%d ns in bucket %d [%d, %d)", d, k, lo, histUpper(k))
		}
		if hi := histUpper(k); float64(hi) > 1.25*float64(lo) {
			t.Errorf("bucket %d [%d, %d) is wider than 25%%", k, lo, hi)
		}
	}
}
