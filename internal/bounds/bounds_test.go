package bounds

import (
	"testing"
)

// recorder stands for a test: it keeps whether Errorf was called.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()                   {}
func (r *recorder) Logf(string, ...any)       {}
func (r *recorder) Errorf(string, ...any)     { r.failed = true }
func (r *recorder) Fatalf(f string, a ...any) { r.failed = true }

var sink int

func spin(ops int) {
	for i := 0; i < ops; i++ {
		sink += i & 7
	}
}

// TestLinear: Linear passes linear work and fails quadratic work.
func TestLinear(t *testing.T) {
	lin := &recorder{TB: t}
	Linear(lin, 40_000, func(n int) { spin(10 * n) })
	if lin.failed {
		t.Error("linear work failed")
	}
	quad := &recorder{TB: t}
	Linear(quad, 400, func(n int) { spin(n * n) })
	if !quad.failed {
		t.Error("quadratic work passed")
	}
}

// TestCPUTime: the clock Slow reads advances with work the process does.
func TestCPUTime(t *testing.T) {
	start := cpuTime()
	if start <= 0 {
		t.Fatalf("cpuTime at start: %v", start)
	}
	x := 1.0
	for i := 0; i < 1<<34; i++ {
		x = x*1.0000001 + 1e-9
		if i&0xfffff == 0 && cpuTime() > start {
			return
		}
	}
	t.Fatalf("cpuTime stayed at %v through 2^34 iterations (%v)", start, x)
}
