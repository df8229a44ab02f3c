package daemon

import (
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
)

// TestInhibitIsNeutralAtOnce: the cycle an inhibit takes effect leaves
// every output neutral, the solenoids included (they once dropped a cycle
// late, when the sim's PCM next stepped).
func TestInhibitIsNeutralAtOnce(t *testing.T) {
	d := competition(t, 100, false)
	for i := 0; i < 50; i++ {
		command(d)
		d.Step()
	}
	if bad := notNeutral(d); !strings.Contains(strings.Join(bad, ";"), "solenoid") {
		t.Fatalf("no solenoid on before the inhibit: %v", bad)
	}
	d.Loop.Inhibit("a required CAN device is missing")
	command(d)
	d.Step()
	if bad := notNeutral(d); len(bad) > 0 {
		t.Errorf("the inhibited cycle: %s", strings.Join(bad, "; "))
	}
}

// TestROSEnableOnlyWhereAllowed: /frcd/enable is offered on the sim; on
// hardware frcd enables itself, only when `linux: {ros_enable: true}`
// allows it; never on hardware only the Driver Station enables.
func TestROSEnableOnlyWhereAllowed(t *testing.T) {
	if d := competition(t, 100, false); d.rosEnable() == nil {
		t.Error("no /frcd/enable on the sim")
	}
	for _, c := range []struct {
		yaml    string
		enabler bool
		want    bool
	}{
		{"", true, false},
		{"linux: {heartbeat: auto}\n", true, false},
		{"linux: {ros_enable: false}\n", true, false},
		{"linux: {ros_enable: true}\n", true, true},
		{"linux: {ros_enable: true}\n", false, false}, // a roboRIO: the Driver Station enables
	} {
		var b hal.Backend = haltest.New()
		if c.enabler {
			b = &stepped{Backend: haltest.New()}
		}
		r := exampleRobot(t, "minimal", func(y string) string { return y + c.yaml })
		d, err := New(r, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.rosEnable() != nil; got != c.want {
			t.Errorf("%q, software enable %v: /frcd/enable offered %v, want %v", c.yaml, c.enabler, got, c.want)
		}
	}
}
