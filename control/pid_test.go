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
		h.Add(10 * time.Microsecond) // bucket [8, 16) µs
	}
	h.Add(100 * time.Microsecond) // [64, 128)
	h.Add(3 * time.Millisecond)   // [2048, 4096)
	if h.Count != 100 || h.Max != 3*time.Millisecond {
		t.Fatalf("count %d max %v", h.Count, h.Max)
	}
	if q := h.Quantile(0.5); q != 16*time.Microsecond {
		t.Errorf("p50 %v, want 16µs (the bucket's upper bound)", q)
	}
	if q := h.Quantile(0.99); q != 128*time.Microsecond {
		t.Errorf("p99 %v, want 128µs", q)
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
	if a := testing.AllocsPerRun(100, func() { h.Add(time.Millisecond) }); a != 0 {
		t.Errorf("Add allocates %v", a)
	}
}
