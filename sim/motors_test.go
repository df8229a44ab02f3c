package sim

import (
	"math"
	"sort"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
)

// shaftURDF is a free shaft, a shaft against hard stops at 0 and 0.5 rad,
// and an idler nothing drives.
const shaftURDF = `<?xml version="1.0"?>
<robot name="shaft">
  <link name="base_link"/>
  <link name="rotor"/>
  <joint name="shaft" type="continuous">
    <parent link="base_link"/><child link="rotor"/>
    <axis xyz="0 0 1"/>
  </joint>
  <link name="lever"/>
  <joint name="stop" type="revolute">
    <parent link="base_link"/><child link="lever"/>
    <axis xyz="0 0 1"/>
    <limit lower="0" upper="0.5" effort="1" velocity="1"/>
  </joint>
  <link name="wheel"/>
  <joint name="idler" type="continuous">
    <parent link="base_link"/><child link="wheel"/>
  </joint>
</robot>
`

const shaftYAML = `joints:
  - {name: shaft, type: spark, id: 0}
  - {name: stop, type: spark, id: 1}
`

// idealBattery holds 12 V whatever the current, as the datasheets' test
// supplies do.
var idealBattery = Battery{Voltage: 12, Resistance: 1e-9}

func TestMotorsList(t *testing.T) {
	want := []string{"775pro", "am9015", "bag", "cim", "falcon500", "mini_cim", "neo", "neo550", "neo_vortex", "rs775", "window"}
	got := Motors()
	if !sort.StringsAreSorted(got) || len(got) != len(want) {
		t.Fatalf("Motors() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Motors() = %v, want %v", got, want)
		}
	}
}

func TestMotorModel(t *testing.T) {
	// CIM: R = 12 / 133 = 0.09023 Ω, kt = 2.42 / 133 = 0.018195 N·m/A,
	// free speed 5310 rpm = 556.06 rad/s, kv = 556.06 / (12 - 2.7 × 0.09023)
	// = 47.29 rad/s/V.
	m := motorTable["cim"].model()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"R", m.r, 0.0902256}, {"kt", m.kt, 0.0181955}, {"free", m.free, 556.0619}, {"kv", m.kv, 47.2964},
	} {
		if !near(c.got, c.want, 1e-4*c.want) {
			t.Errorf("cim %s = %.6g, want %.6g", c.name, c.got, c.want)
		}
	}
}

// TestMotorFreeSpeedAndStall runs every motor of the table at 12 V: free,
// it turns at the datasheet's free speed drawing the free current; against
// a hard stop it draws the stall current.
func TestMotorFreeSpeedAndStall(t *testing.T) {
	r := loadRobot(t, shaftURDF, shaftYAML)
	full := frc.PWMSpark.Pulse(1)
	for _, name := range Motors() {
		spec := motorTable[name]
		s := newSim(t, r, Options{Battery: idealBattery, Joints: map[string]JointParams{
			"shaft": {Motor: name, Gearing: 1, Inertia: 1e-5},
			"stop":  {Motor: name, Motors: 2, Gearing: 1, Inertia: 1e-5},
		}})
		s.SetDS(enabled)
		for ch := 0; ch < 2; ch++ {
			p, err := s.OpenPWM(ch)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.SetPulse(full); err != nil {
				t.Fatal(err)
			}
		}
		s.AdvanceTo(time.Second)
		free := truth(t, s, "shaft")
		wantSpeed := spec.freeSpeedRPM * 2 * math.Pi / 60
		if !near(free.Velocity, wantSpeed, 0.01*wantSpeed) {
			t.Errorf("%s: free speed %.1f rad/s, want %.1f (%.0f rpm)", name, free.Velocity, wantSpeed, spec.freeSpeedRPM)
		}
		if !near(free.Current, spec.freeCurrent, 0.02*spec.freeCurrent) {
			t.Errorf("%s: free current %.3f A, want %.3f", name, free.Current, spec.freeCurrent)
		}
		if !near(free.Voltage, 12, 1e-3) {
			t.Errorf("%s: %.4f V applied, want 12", name, free.Voltage)
		}
		stall := truth(t, s, "stop")
		if stall.Position != 0.5 || stall.Velocity != 0 {
			t.Errorf("%s: against the stop at %.4f rad, %.4f rad/s; want 0.5 rad, 0", name, stall.Position, stall.Velocity)
		}
		if want := 2 * spec.stallCurrent; !near(stall.Current, want, 0.005*want) {
			t.Errorf("%s: two motors stalled draw %.2f A, want %.2f", name, stall.Current, want)
		}
	}
}
