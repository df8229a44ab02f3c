package proccpu

import (
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
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

// TestTasks: this process's threads are read, with their voluntary
// switches, none at SCHED_FIFO; a thread that sleeps adds voluntary
// switches, counted by Wakes; a stat line whose command holds spaces and
// parentheses gives its policy.
func TestTasks(t *testing.T) {
	before, err := Tasks(os.Getpid())
	if err != nil || len(before) == 0 {
		t.Fatalf("Tasks(self) = %v, %v", before, err)
	}
	for _, tk := range before {
		if tk.FIFO {
			t.Errorf("thread %d at SCHED_FIFO in a test", tk.TID)
		}
	}
	for range 20 {
		exec.Command("true").Run() // waits: the waiting thread sleeps
	}
	after, err := Tasks(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if all, fifo := Wakes(before, after); all < 20 || fifo != 0 {
		t.Errorf("Wakes = %d, %d; want >= 20 and 0", all, fifo)
	}
	stat := "12 (a) b (c)) S" + strings.Repeat(" 0", 37) + " 1 0 0"
	if p := policy([]byte(stat)); p != 1 {
		t.Errorf("policy = %d; want 1", p)
	}
	if p := policy([]byte("12 (x) S 1")); p != -1 {
		t.Errorf("policy of a short line = %d; want -1", p)
	}
	if got, _ := Wakes([]Task{{TID: 1, Voluntary: 5}}, []Task{{TID: 1, Voluntary: 7, FIFO: true}, {TID: 2, Voluntary: 3}}); got != 5 {
		t.Errorf("Wakes with a new thread = %d; want 2 + 3", got)
	}
}
