package proccpu

import (
	"math"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestCPUAndExited: this process has spent CPU and runs; a child that
// exited and was waited for has no clock and counts as exited.
func TestCPUAndExited(t *testing.T) {
	if d, err := CPU(os.Getpid()); err != nil || d <= 0 {
		t.Errorf("CPU(self) = %v, %v; want positive", d, err)
	}
	if Exited(os.Getpid()) {
		t.Error("Exited(self)")
	}
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	if !Exited(c.Process.Pid) {
		t.Error("a waited-for child is not exited")
	}
	if _, err := CPU(c.Process.Pid); err == nil {
		t.Error("CPU of a waited-for child: no error")
	}
}

// TestMedian: the middle value, or the mean of the two middle ones; NaN
// of none; its argument unchanged (both benches' cases, now shared).
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		in := slices.Clone(c.xs)
		if got := Median(c.xs); got != c.want || !slices.Equal(in, c.xs) {
			t.Errorf("Median(%v) = %v, want %v", in, got, c.want)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}
