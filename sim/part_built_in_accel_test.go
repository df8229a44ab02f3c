package sim

import (
	"errors"
	"testing"

	"github.com/frcd/frcd/hal"
)

// The simulated roboRIO's accelerometer feels 1 g along z at rest; it
// opens once, at 2, 4 or 8 g.
func TestAccelerometer(t *testing.T) {
	s := newSim(t, example(t, "minimal"), Options{})
	if _, err := s.OpenAccelerometer(5); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("range 5 g: %v", err)
	}
	a, err := s.OpenAccelerometer(2)
	if err != nil {
		t.Fatal(err)
	}
	if x, y, z, err := a.Read(); err != nil || x != 0 || y != 0 || z != 1 {
		t.Errorf("at rest: %v %v %v %v, want 0 0 1 g", x, y, z, err)
	}
	if _, err := s.OpenAccelerometer(8); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("second open: %v, want ErrInUse", err)
	}
}
