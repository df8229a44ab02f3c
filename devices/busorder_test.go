package devices

import (
	"slices"
	"strings"
	"testing"
)

func TestCompareBuses(t *testing.T) {
	buses := []string{"can10", "vcan0", "can2", "", "can1", "can02", "can", "can1a", "slcan0"}
	slices.SortFunc(buses, compareBuses)
	want := []string{"", "can", "can1", "can1a", "can2", "can02", "can10", "slcan0", "vcan0"}
	if strings.Join(buses, ",") != strings.Join(want, ",") {
		t.Errorf("sorted %q, want %q", buses, want)
	}
	for _, b := range want {
		if compareBuses(b, b) != 0 {
			t.Errorf("compareBuses(%q, itself) != 0", b)
		}
	}
}

// TestOneBusLoad checks that devices on the default bus, named or not,
// count on one bus, and that buses come in natural order.
func TestOneBusLoad(t *testing.T) {
	f := parseYAML(t, "joints:\n"+
		"  - {name: a, type: talon_srx, id: 1}\n"+
		"  - {name: b, type: talon_srx, id: 2, can_bus: can0}\n"+
		"  - {name: c, type: talon_srx, id: 3, can_bus: can10}\n"+
		"  - {name: d, type: talon_srx, id: 4, can_bus: can2}\n")
	var got []string
	for _, b := range EstimateCANLoad(f) {
		got = append(got, b.Bus+":"+strings.Repeat("x", b.Devices))
	}
	if want := "can0:xx can2:x can10:x"; strings.Join(got, " ") != want {
		t.Errorf("buses %q, want %q", strings.Join(got, " "), want)
	}
	exp := ExpectedCAN(f)
	if len(exp) != 4 || exp[0].Bus != "" || exp[1].Bus != "" {
		t.Errorf("expected devices' buses: %q %q, want both the default", exp[0].Bus, exp[1].Bus)
	}
}
