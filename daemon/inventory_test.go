package daemon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

// requiredPDP is the minimal robot with its PDP required and a voltage
// controller on its arm.
func requiredPDP(t *testing.T) *robot.Robot {
	return exampleRobot(t, "minimal", func(y string) string {
		return withArmVoltage(strings.Replace(y, "{name: pdp, type: pdp, id: 0}", "{name: pdp, type: pdp, id: 0, required: true}", 1))
	})
}

// TestInventoryGatesEnabling: with a required PDP the robot does not
// enable until its frames are heard, enables once they are, and is
// inhibited again when they stop for longer than 100 ms; the inventory
// is logged after start and reported on /diagnostics.
func TestInventoryGatesEnabling(t *testing.T) {
	hb := haltest.New()
	hb.DSState = hal.DSState{Attached: true, Enabled: true}
	b := &monitored{Backend: hb, bus: &monitorBus{CAN: &hb.Bus}}
	var logs []string
	d, err := New(requiredPDP(t), b, Options{Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	if why := d.Loop.Inhibited(); !strings.Contains(why, `"pdp"`) {
		t.Fatalf("inhibit at start: %q", why)
	}
	center := frc.PWMTalon.Center
	moving := func() bool {
		_ = d.Loop.Controller("arm_voltage").Command(6, d.now)
		d.Step()
		return b.PWM[0].Pulse > center
	}
	for i := 0; i < 30; i++ { // 300 ms: the PDP is never heard
		if moving() {
			t.Fatalf("cycle %d: the arm moves with the required PDP missing", i)
		}
	}
	if why := d.Loop.Inhibited(); !strings.Contains(why, `required CAN device missing: pdp "pdp"`) {
		t.Errorf("inhibit while missing: %q", why)
	}
	sts := d.diagnostics(nil)
	if st := sts[len(sts)-1]; st.Name != "frcd: CAN inventory" || st.Level != ros.LevelError || !strings.Contains(st.Message, "not enabling") {
		t.Errorf("inventory status %+v", st)
	}

	// The PDP speaks: within one inventory period the arm moves.
	pdpStatus := frc.FRCID(frc.DevPowerDistribution, frc.MfrCTRE, 0x50, 0)
	var moved bool
	for i := 0; i < 20 && !moved; i++ {
		b.bus.heard = []hal.Heard{{ID: pdpStatus, Last: d.now, Count: uint64(i + 1)}}
		moved = moving()
	}
	if !moved || d.Loop.Inhibited() != "" {
		t.Fatalf("the PDP is heard: moved %v, inhibit %q", moved, d.Loop.Inhibited())
	}

	// It falls silent: stale after 100 ms, and the loop is inhibited.
	last := d.now
	var stopped bool
	for i := 0; i < 30 && !stopped; i++ {
		stopped = !moving()
	}
	if !stopped || !strings.Contains(d.Loop.Inhibited(), "stale") {
		t.Fatalf("the PDP silent since %v: stopped %v at %v, inhibit %q", last, stopped, d.now, d.Loop.Inhibited())
	}
	if d.now-last < 100e6 {
		t.Errorf("inhibited %v after the last frame, before the 100 ms stale time", d.now-last)
	}
	for i := 0; i < 40; i++ {
		d.Step()
	}
	joined := strings.Join(logs, "\n")
	if !strings.Contains(joined, "frcd: CAN inventory: ") || !strings.Contains(joined, "every required CAN device is heard") {
		t.Errorf("logs:\n%s", joined)
	}
}

// TestInventoryUnmonitored: a required device on a bus the HAL cannot
// monitor does not keep the robot from enabling; a warning says so.
func TestInventoryUnmonitored(t *testing.T) {
	b := haltest.New()
	var logs []string
	d, err := New(requiredPDP(t), b, Options{Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	if why := d.Loop.Inhibited(); why != "" {
		t.Errorf("inhibited: %q", why)
	}
	if len(logs) != 1 || !strings.Contains(logs[0], "cannot hear every frame") {
		t.Errorf("logs %q", logs)
	}
}

// TestInventoryOnSim: the swerve example marks every CAN device required;
// on the sim all are heard and the robot enables; the PDP falling silent
// inhibits it within the stale time plus an inventory period, and its
// return lifts the inhibit.
func TestInventoryOnSim(t *testing.T) {
	r, list, err := robot.Load("../examples/swerve/robot.urdf", "../examples/swerve/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	d, err := NewSim(r, SimOptions{Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Loop.Inhibited() == "" {
		t.Error("not inhibited before any device was heard")
	}
	for d.Now() < 300e6 {
		d.Step()
	}
	if why := d.Loop.Inhibited(); why != "" {
		t.Fatalf("every device is emulated, yet inhibited: %q", why)
	}
	if inv := d.Inventory(); inv.Counts()["present"] != 11 {
		t.Errorf("inventory %v, want 11 present", inv.Counts())
	}
	if err := d.Sim.SetCANSilent("pdp", true); err != nil {
		t.Fatal(err)
	}
	silent := d.Now()
	for d.Loop.Inhibited() == "" && d.Now() < silent+500e6 {
		d.Step()
	}
	if why := d.Loop.Inhibited(); !strings.Contains(why, `pdp "pdp"`) || d.Now()-silent > 100e6+inventoryEvery+50e6 {
		t.Fatalf("after %v silent: inhibit %q", d.Now()-silent, why)
	}
	if err := d.Sim.SetCANSilent("pdp", false); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		d.Step()
	}
	if why := d.Loop.Inhibited(); why != "" {
		t.Errorf("the PDP is back, still inhibited: %q", why)
	}
}

// The inventory is taken every 100 ms while a required device gates
// enabling, and every 500 ms when it only feeds /diagnostics and the log.
func TestInventoryEvery(t *testing.T) {
	inv := &inventory{required: true}
	if got := inv.every(); got != inventoryEvery || got > 100*time.Millisecond {
		t.Errorf("gating: every %v, want %v (at most 100 ms)", got, inventoryEvery)
	}
	inv.required = false
	if got := inv.every(); got != inventoryIdle {
		t.Errorf("gating nothing: every %v, want %v", got, inventoryIdle)
	}
}
