package daemon

import (
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
	var seen string
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
					seen = dv.LastErr.Error()
				}
			}
		}
	}()
	for i := 0; i < 200; i++ {
		d.Step()
	}
	close(stop)
	wg.Wait()
	if !strings.Contains(seen, "left_rear_wheel_joint") {
		t.Errorf("the silenced motor's last error: %q", seen)
	}
}
