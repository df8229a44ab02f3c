//go:build !(roborio && cgo)

package roborio

import (
	"errors"
	"testing"

	"github.com/frcd/frcd/hal/backends"
)

// In a build without the backend the registry still knows the roboRIO
// (validate checks against its Caps), says it is not built, and opening
// it fails saying how to build a frcd that has it.
func TestOpenWithoutBackend(t *testing.T) {
	be, ok := backends.Lookup("roborio")
	if !ok || be.Built || be.Caps != Caps {
		t.Fatalf("registered %v: %+v, want roborio, not built, Caps %v", ok, be, Caps)
	}
	b, _, err := be.Open(nil, nil)
	if !errors.Is(err, ErrNotBuilt) || b != nil {
		t.Fatalf("Open in a build without the backend: %v, %v", b, err)
	}
	if want := "this frcd was built without the roboRIO backend; build it with make rio"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}
