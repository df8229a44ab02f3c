package daemon

import (
	"fmt"
	"testing"

	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/telemetry"
)

// The Driver Station's joysticks reach PREFIX/ds/joystickN/ (axes, POVs,
// buttons as double[]): a sim joystick set as the WPILib WebSocket sets
// it, changed, and a joystick never plugged in publishes nothing; reading
// them does not allocate.
func TestJoystickTopics(t *testing.T) {
	d := telemetryDaemon(t, 1000, t.TempDir()) // the log: every topic kept
	topic := func(name string) *telemetry.Topic {
		for _, tp := range d.tel.src.Topics {
			if tp.Name == name {
				return tp
			}
		}
		t.Fatalf("no topic %s", name)
		return nil
	}
	if err := d.Sim.SetJoystick(1, sim.Joystick{Axes: []float64{0.25, -1}, Buttons: []bool{false, true, true}, POVs: []int{270}}); err != nil {
		t.Fatal(err)
	}
	d.Step()
	d.StepTelemetry()
	for name, want := range map[string]string{"axes": "[0.25 -1]", "povs": "[270]", "buttons": "[0 1 1]"} {
		if tp := topic("/frcd/ds/joystick1/" + name); tp.Seq == 0 || tp.Type != "double[]" || fmt.Sprint(tp.Doubles) != want {
			t.Errorf("joystick1/%s: %s %v (seq %d), want %s", name, tp.Type, tp.Doubles, tp.Seq, want)
		}
	}
	if tp := topic("/frcd/ds/joystick0/axes"); tp.Seq != 0 {
		t.Errorf("joystick 0, never plugged in, published %v", tp.Doubles)
	}
	seq := topic("/frcd/ds/joystick1/povs").Seq
	if err := d.Sim.SetJoystick(1, sim.Joystick{Axes: []float64{0.5, -1}, Buttons: []bool{false, true, true}, POVs: []int{270}}); err != nil {
		t.Fatal(err)
	}
	d.Step()
	d.StepTelemetry()
	if tp := topic("/frcd/ds/joystick1/axes"); fmt.Sprint(tp.Doubles) != "[0.5 -1]" {
		t.Errorf("after the change, axes %v", tp.Doubles)
	}
	if tp := topic("/frcd/ds/joystick1/povs"); tp.Seq != seq {
		t.Errorf("the POVs, unchanged, were published again")
	}
	if a := testing.AllocsPerRun(100, func() { d.Step(); d.StepTelemetry() }); a != 0 {
		t.Errorf("a cycle with a joystick plugged in allocates %v times", a)
	}
}
