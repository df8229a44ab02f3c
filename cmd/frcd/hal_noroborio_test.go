//go:build !(roborio && cgo)

package main

import (
	"errors"
	"testing"
)

func TestOpenRoboRIOWithoutBackend(t *testing.T) {
	b, err := openRoboRIO()
	if !errors.Is(err, errNoRoboRIO) || b != nil {
		t.Fatalf("openRoboRIO in a build without the backend: %v, %v", b, err)
	}
	if want := "this frcd was built without the roboRIO backend; build it with make rio"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}
