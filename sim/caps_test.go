package sim

import (
	"testing"

	"github.com/frcd/frcd/hal"
)

// The sim emulates every device, so it provides everything a backend may
// (`frcd validate --hal sim` warns about nothing).
func TestSimProvidesEverything(t *testing.T) {
	if got := hal.CapsOf((*Sim)(nil)); got != hal.AllCaps() {
		t.Errorf("the sim provides %s, not everything (%s)", got, hal.AllCaps())
	}
	if backend.Caps != hal.CapsOf((*Sim)(nil)) {
		t.Errorf("the sim's registry entry says %s, the sim provides %s", backend.Caps, hal.CapsOf((*Sim)(nil)))
	}
}
