package daemon

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestDeviceErrorsAreImmutable: a silenced CAN motor fails every cycle;
// another goroutine (as the ROS bridge does) formats its last error from
// the snapshot meanwhile. Devices once refilled one error value per
// operation that the snapshot shared: go test -race caught the loop
// rewriting it while it was formatted.
func TestDeviceErrorsAreImmutable(t *testing.T) {
	d := exampleDaemon(t, "competition", "")
	for i := 0; i < 30; i++ {
		d.Step()
	}
	if err := d.Sim.SetCANSilent("left_rear_wheel_joint", true); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	seen := make(chan string, 1) // the reader's first sight of the error
	wg.Add(1)
	go func() {
		defer wg.Done()
		snap := d.Loop.NewSnapshot()
		for {
			select {
			case <-stop:
				return
			default:
			}
			d.Loop.ReadSnapshot(snap)
			for _, dv := range snap.Devices {
				if dv.LastErr != nil && dv.Name == "left_rear_wheel_joint" {
					select {
					case seen <- dv.LastErr.Error():
					default:
					}
				}
			}
		}
	}()
	// The loop steps while the reader formats: at least 200 cycles, and on
	// until the reader has seen the error (however the goroutines are
	// scheduled), at most 100,000.
	var msg string
	for i := 0; msg == ""; i++ {
		d.Step()
		if i < 200 {
			continue
		}
		if i > 100_000 {
			break
		}
		select {
		case msg = <-seen:
		default:
			runtime.Gosched()
		}
	}
	close(stop)
	wg.Wait()
	if !strings.Contains(msg, "left_rear_wheel_joint") {
		t.Errorf("the silenced motor's last error: %q", msg)
	}
}

// The status line names what errors= counts: the device with the most
// errors, its count, whether it is failing still, and its last error; a
// robot without errors has no such part.
func TestStatusLineNamesErrors(t *testing.T) {
	d := exampleDaemon(t, "competition", "")
	for i := 0; i < 30; i++ {
		d.Step()
	}
	if line := d.StatusLine(); !strings.Contains(line, " errors=0 ") || strings.Contains(line, " errors: ") {
		t.Fatalf("before: %s", line)
	}
	if err := d.Sim.SetCANSilent("left_rear_wheel_joint", true); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		d.Step()
	}
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	var last string
	var n uint64
	for _, dv := range snap.Devices {
		if dv.Name == "left_rear_wheel_joint" && dv.LastErr != nil {
			last, n = dv.LastErr.Error(), dv.Errors
		}
	}
	if n == 0 {
		t.Fatal("the silenced motor has no errors")
	}
	want := fmt.Sprintf(" errors: left_rear_wheel_joint %d (failing; last: %s)", n, last)
	if line := d.StatusLine(); !strings.Contains(line, want) {
		t.Errorf("status line lacks %q:\n%s", want, line)
	}
}
