package main

import (
	"testing"

	"github.com/frcd/frcd/hal/backends"
)

// Every backend frcd links declares what its help texts and validate
// need: a Help and a Hint, vendor providers among its own, an Open unless
// it is the one simulated backend --sim names.
func TestBackendsDeclared(t *testing.T) {
	simulated := 0
	for _, b := range backends.All() {
		if b.Help == "" || b.Hint == "" {
			t.Errorf("backend %q: Help %q, Hint %q: want both", b.Name, b.Help, b.Hint)
		}
		if b.Vendored&^b.Caps != 0 {
			t.Errorf("backend %q: vendored providers %v beyond its Caps", b.Name, b.Vendored&^b.Caps)
		}
		if b.Simulated {
			simulated++
		} else if b.Open == nil {
			t.Errorf("backend %q has no Open", b.Name)
		}
	}
	if simulated != 1 {
		t.Errorf("%d simulated backends, want 1 (--sim names it)", simulated)
	}
}
