package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/heartbeat"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/robot"
)

// TestOnLinuxBackend runs a REV robot on the Linux coprocessor's backend,
// assembled from a fake CAN bus and the real heartbeat sender: disabled,
// the heartbeat goes out (after auto's listening) with the enable bits
// clear and the pneumatics hub's solenoids off; enabled, the heartbeat
// enables the devices and the commanded solenoid opens; disabled again,
// both go neutral at once; the heartbeat's state is on /diagnostics.
func TestOnLinuxBackend(t *testing.T) {
	yaml := `joints:
  - {name: pdh, type: rev_pdh, id: 1}
  - {name: hub, type: rev_ph, id: 1}
  - {name: latch_joint, type: solenoid, id: 15, module_type: rev_ph}
controllers:
  latch: {type: frcd_controllers/SolenoidController, joint: latch_joint}
linux: {can: [can0], heartbeat: auto}
`
	yp := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(yp, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../examples/rev/robot.urdf", yp)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	bus := haltest.NewCAN()
	o := linux.OptionsFrom(r.Config)
	var logs []string
	b := linux.New(o, linux.Parts{Buses: map[string]hal.CANBus{"can0": bus},
		Heartbeats: []linux.Heartbeat{heartbeat.New(bus, heartbeat.Auto)}, HeartbeatBuses: []string{"can0"}})
	b.Logf = func(f string, a ...any) { logs = append(logs, f) }
	d, err := New(r, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// Step keeps the loop's clock (d.now) in this test; Run would follow
	// the backend's.

	const setAll = 0x09050C01 // the PH with id 1
	latchOn := func() bool { return bus.Last[setAll].Data[3]>>6&3 == 1 }
	steps := func(n int) {
		for range n {
			d.Step()
		}
	}
	steps(20) // 200 ms: past auto's 100 ms of listening
	hb, err := hal.ParseHeartbeat(bus.Last[hal.HeartbeatID])
	if err != nil || hb.Enabled || hb.Watchdog {
		t.Fatalf("disabled: heartbeat %+v %v, want sent with the enable bits clear", hb, err)
	}
	if err := d.Loop.Controller("latch").Command(1, d.now); err != nil {
		t.Fatal(err)
	}
	steps(2)
	if bus.Count[setAll] == 0 || latchOn() {
		t.Errorf("disabled: SetAll %x sent %d times, want sent with the latch off", bus.Last[setAll].Data, bus.Count[setAll])
	}

	d.SetEnabled(true)
	if err := d.Loop.Controller("latch").Command(1, d.now); err != nil {
		t.Fatal(err)
	}
	steps(2)
	if hb, _ := hal.ParseHeartbeat(bus.Last[hal.HeartbeatID]); !hb.Enabled || !hb.Watchdog {
		t.Errorf("enabled: heartbeat %+v, want the enable and watchdog bits", hb)
	}
	if !latchOn() {
		t.Errorf("enabled: SetAll %x, want the latch (channel 15) on", bus.Last[setAll].Data)
	}

	d.SetEnabled(false)
	steps(1)
	if hb, _ := hal.ParseHeartbeat(bus.Last[hal.HeartbeatID]); hb.Enabled || hb.Watchdog {
		t.Errorf("disabled again: heartbeat %+v", hb)
	}
	if latchOn() {
		t.Errorf("disabled again: SetAll %x, want the latch off", bus.Last[setAll].Data)
	}

	if len(logs) != 2 {
		t.Errorf("heartbeat logs %q, want listening then sending", logs)
	}
	var found bool
	for _, st := range d.diagnostics(nil) {
		if st.Name == "frcd: heartbeat can0" {
			found = strings.Contains(st.Message, "sending every 20 ms")
		}
	}
	if !found {
		t.Errorf("no heartbeat status on /diagnostics: %+v", d.diagnostics(nil))
	}
}
