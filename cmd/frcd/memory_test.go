package main

import (
	"runtime/debug"
	"testing"
)

func TestMemoryLimit(t *testing.T) {
	saved := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(saved)

	// Unset: frcd's default.
	limit, from := applyMemoryLimit(func(string) string { return "" })
	if limit != defaultMemoryLimit || debug.SetMemoryLimit(-1) != defaultMemoryLimit {
		t.Errorf("unset GOMEMLIMIT: limit %d (%s), runtime %d; want %d", limit, from, debug.SetMemoryLimit(-1), defaultMemoryLimit)
	}

	// Set: the runtime applied it at start (as here by hand), and it stays.
	const user = 100 << 20
	debug.SetMemoryLimit(user)
	limit, from = applyMemoryLimit(func(k string) string {
		if k == "GOMEMLIMIT" {
			return "100MiB"
		}
		return ""
	})
	if limit != user || debug.SetMemoryLimit(-1) != user || from != "GOMEMLIMIT=100MiB" {
		t.Errorf("GOMEMLIMIT=100MiB: limit %d (%s), runtime %d", limit, from, debug.SetMemoryLimit(-1))
	}
}
