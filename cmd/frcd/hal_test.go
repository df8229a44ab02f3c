package main

import (
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/backends"
)

// Every backend frcd links declares what its help texts and validate
// need: a Help and a Hint, vendor providers among its own and among those
// registered, an Open unless it is the one simulated backend --sim names,
// which provides every provider frcd links (hal.AllCaps once every
// package has registered its own: validate --hal sim warns of nothing).
func TestBackendsDeclared(t *testing.T) {
	simulated := 0
	for _, b := range backends.All() {
		if b.Help == "" || b.Hint == "" {
			t.Errorf("backend %q: Help %q, Hint %q: want both", b.Name, b.Help, b.Hint)
		}
		if b.Vendored&^b.Caps != 0 {
			t.Errorf("backend %q: vendored providers %v beyond its Caps", b.Name, b.Vendored&^b.Caps)
		}
		if b.Caps&^hal.AllCaps() != 0 {
			t.Errorf("backend %q: providers %#x that no package registered", b.Name, b.Caps&^hal.AllCaps())
		}
		if b.Simulated {
			simulated++
			if b.Caps != hal.AllCaps() {
				t.Errorf("backend %q provides %s, not every provider frcd links (%s)", b.Name, b.Caps, hal.AllCaps())
			}
		} else if b.Open == nil {
			t.Errorf("backend %q has no Open", b.Name)
		}
	}
	if simulated != 1 {
		t.Errorf("%d simulated backends, want 1 (--sim names it)", simulated)
	}
}
