package interfaces

import (
	"strings"
	"testing"
	"time"
)

func TestStateHandles(t *testing.T) {
	r := NewRegistry()
	enc := &RateState{}
	if err := RegisterState(r, "arm_encoder", Rate, enc); err != nil {
		t.Fatal(err)
	}
	if err := RegisterState(r, "arm_encoder", Rate, &RateState{}); err == nil || !strings.Contains(err.Error(), `"arm_encoder/rate" is already registered`) {
		t.Errorf("second registration: %v", err)
	}
	got, err := State[RateState](r, "arm_encoder", Rate)
	if err != nil || got != enc {
		t.Fatalf("State = %p, %v; want %p", got, err, enc)
	}
	// Readers see the writer's value through the same pointer.
	enc.State, enc.Rate = 1.25, -0.5
	if got.State != 1.25 || got.Rate != -0.5 {
		t.Errorf("reader sees %+v", *got)
	}
	if _, err := State[AnalogState](r, "arm_encoder", Rate); err == nil || !strings.Contains(err.Error(), "is a *interfaces.RateState, not a *interfaces.AnalogState") {
		t.Errorf("wrong type: %v", err)
	}
	if _, err := State[RateState](r, "nope", Rate); err == nil || !strings.Contains(err.Error(), `no state handle "nope/rate"`) {
		t.Errorf("missing: %v", err)
	}
	if k := r.StateKeys(); len(k) != 1 || k[0] != "arm_encoder/rate" {
		t.Errorf("StateKeys = %v", k)
	}
}

func TestCommandClaims(t *testing.T) {
	r := NewRegistry()
	volt := &JointCommand{}
	if err := RegisterCommand(r, "talon arm_joint", "arm_joint", Voltage, volt); err != nil {
		t.Fatal(err)
	}
	if err := RegisterCommand(r, "spark arm_joint", "arm_joint", Voltage, &JointCommand{}); err == nil || !strings.Contains(err.Error(), "already registered by talon arm_joint") {
		t.Errorf("second registration: %v", err)
	}
	h, err := Claim[float64](r, "arm_voltage_controller", "arm_joint", Voltage)
	if err != nil || h != volt {
		t.Fatalf("Claim = %p, %v", h, err)
	}
	_, err = Claim[float64](r, "arm_position_controller", "arm_joint", Voltage)
	if err == nil || err.Error() != `arm_position_controller: command handle "arm_joint/voltage" is already claimed by arm_voltage_controller` {
		t.Errorf("second claim: %v", err)
	}
	if c := r.Claimer("arm_joint", Voltage); c != "arm_voltage_controller" {
		t.Errorf("Claimer = %q", c)
	}
	if err := r.Release("arm_position_controller", "arm_joint", Voltage); err == nil {
		t.Errorf("release by a non-holder succeeded")
	}
	if err := r.Release("arm_voltage_controller", "arm_joint", Voltage); err != nil {
		t.Fatal(err)
	}
	if _, err := Claim[float64](r, "arm_position_controller", "arm_joint", Voltage); err != nil {
		t.Errorf("claim after release: %v", err)
	}
	if _, err := Claim[bool](r, "x", "arm_joint", Voltage); err == nil {
		t.Errorf("claim of the wrong type succeeded")
	}
	if _, err := Claim[float64](r, "x", "arm_joint", Position); err == nil || !strings.Contains(err.Error(), `no command handle "arm_joint/position"`) {
		t.Errorf("claim of a missing handle: %v", err)
	}
	if k := r.CommandKeys(); len(k) != 1 || k[0] != "arm_joint/voltage" {
		t.Errorf("CommandKeys = %v", k)
	}
}

func TestCommandFreshness(t *testing.T) {
	var c JointCommand
	if c.Fresh(0, time.Second) {
		t.Errorf("an unset command is fresh")
	}
	c.Put(6.0, 2*time.Second)
	for _, tc := range []struct {
		now, timeout time.Duration
		fresh        bool
	}{
		{2 * time.Second, 500 * time.Millisecond, true},
		{2500 * time.Millisecond, 500 * time.Millisecond, true},
		{2501 * time.Millisecond, 500 * time.Millisecond, false},
		{time.Hour, 0, true}, // no timeout
	} {
		if got := c.Fresh(tc.now, tc.timeout); got != tc.fresh {
			t.Errorf("Fresh(%v, %v) = %v", tc.now, tc.timeout, got)
		}
	}
	c.Reset()
	if c.Set || c.Value != 0 || c.Fresh(2*time.Second, 0) {
		t.Errorf("after Reset: %+v", c)
	}
	var tri TernaryCommand
	tri.Put(Reverse, 0)
	if tri.Value != Reverse || tri.Value.String() != "reverse" || !tri.Value.Valid() || Tri(3).Valid() {
		t.Errorf("tri: %+v", tri)
	}
}

func TestJointStateFields(t *testing.T) {
	var j JointState
	j.SetPosition(0.5)
	j.SetEffort(12)
	if j.Has != HasPosition|HasEffort || j.Position != 0.5 || j.Effort != 12 || j.Has&HasVelocity != 0 {
		t.Errorf("%+v", j)
	}
	j.Clear()
	if j != (JointState{}) {
		t.Errorf("after Clear: %+v", j)
	}
}

func TestFinite(t *testing.T) {
	nan, inf := 0.0, 1.0
	nan = nan / nan
	inf = inf / 0
	for v, want := range map[float64]bool{0: true, -12: true, 1e300: true, inf: false, -inf: false} {
		if Finite(v) != want {
			t.Errorf("Finite(%g) = %v", v, !want)
		}
	}
	if Finite(nan) {
		t.Errorf("Finite(NaN)")
	}
}

// Reading and writing handles in the loop must not allocate.
func TestHandlesDoNotAllocate(t *testing.T) {
	r := NewRegistry()
	js := &JointState{}
	cmd := &JointCommand{}
	_ = RegisterState(r, "j", Joint, js)
	_ = RegisterCommand(r, "dev", "j", Voltage, cmd)
	h, _ := Claim[float64](r, "ctl", "j", Voltage)
	now := time.Duration(0)
	allocs := testing.AllocsPerRun(1000, func() {
		now += time.Millisecond
		js.Clear()
		js.SetPosition(float64(now))
		h.Put(js.Position, now)
		if !cmd.Fresh(now, time.Second) || !Finite(cmd.Value) {
			t.Fatal("not fresh")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per cycle", allocs)
	}
}

func TestCommandsOf(t *testing.T) {
	r := NewRegistry()
	var a, b JointCommand
	var s BinaryCommand
	for _, err := range []error{
		RegisterCommand(r, "dev", "b", Voltage, &b),
		RegisterCommand(r, "dev", "a", Voltage, &a),
		RegisterCommand(r, "dev", "s", Binary, &s),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := CommandsOf[float64](r)
	if len(got) != 2 || got[0] != &a || got[1] != &b {
		t.Errorf("CommandsOf[float64] = %v, want a/voltage then b/voltage", got)
	}
	if got := CommandsOf[bool](r); len(got) != 1 || got[0] != &s {
		t.Errorf("CommandsOf[bool] = %v, want s/binary", got)
	}
}
