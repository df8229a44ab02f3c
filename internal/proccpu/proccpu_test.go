package proccpu

import (
	"os"
	"os/exec"
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
