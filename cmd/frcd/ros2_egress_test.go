package main

import "testing"

// TestParseEgress: --ros2-egress in bits a second, with its units, into
// bytes a second; what is not a rate is refused.
func TestParseEgress(t *testing.T) {
	for in, want := range map[string]int{"0": 0, "4mbit": 500_000, "4Mbit": 500_000, "500kbit": 62_500, "8000": 1000, "800 bit": 100, "1.5mbit": 187_500, "1bit": 1} {
		if got, err := parseEgress(in); err != nil || got != want {
			t.Errorf("parseEgress(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "fast", "4mb", "mbit", "1e300"} {
		if got, err := parseEgress(in); err == nil {
			t.Errorf("parseEgress(%q) = %d, want an error", in, got)
		}
	}
}
