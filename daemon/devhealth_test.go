package daemon

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

// The Talon FX and SPARK Flex of the device-loop robot report on
// /diagnostics through the daemon, at OK with their temperature; a Talon
// fallen silent (a cut CAN cable) is an ERROR, and so is a silent SPARK.
func TestDeviceHealthOnDiagnostics(t *testing.T) {
	d := devloopDaemon(t)
	for i := 0; i < 20; i++ {
		d.Step()
	}
	status := func(name string) ros.Status {
		t.Helper()
		for _, st := range d.diagnostics(nil) {
			if st.Name == "frcd: "+name {
				return st
			}
		}
		t.Fatalf("no %q on /diagnostics", name)
		return ros.Status{}
	}
	value := func(st ros.Status, key string) string {
		for _, kv := range st.Values {
			if kv[0] == key {
				return kv[1]
			}
		}
		return ""
	}
	fx := status("turret_device (Talon FX 1)")
	if fx.Level != ros.LevelOK || value(fx, "temperature (°C)") != "25" || value(fx, "supply (V)") == "" {
		t.Errorf("Talon FX: %+v", fx)
	}
	sp := status("shooter_device (SparkFlex 6)")
	if sp.Level != ros.LevelOK || value(sp, "motor temperature (°C)") != "25" || value(sp, "firmware") != "26.1.6" || value(sp, "model") != "SPARK Flex" {
		t.Errorf("SPARK Flex: %+v", sp)
	}
	d.Sim.SetCANSilent("turret_device", true)
	d.Sim.SetCANSilent("shooter_device", true)
	for i := 0; i < 20; i++ {
		d.Step()
	}
	if fx := status("turret_device (Talon FX 1)"); fx.Level != ros.LevelError || !strings.Contains(fx.Message, "no health signals") {
		t.Errorf("silent Talon FX: %+v", fx)
	}
	if sp := status("shooter_device (SparkFlex 6)"); sp.Level != ros.LevelError || sp.Message != "no status frames" {
		t.Errorf("silent SPARK Flex: %+v", sp)
	}
}

// devloopDaemon is the device-loop robot (testdata/devloop) on the
// simulated HAL, enabled.
func devloopDaemon(t *testing.T) *Daemon {
	t.Helper()
	dir := filepath.Join("testdata", "devloop")
	r, list, err := robot.Load(filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml"))
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	d, err := NewSim(r, SimOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Sim.SetDS(hal.DSState{Enabled: true, Attached: true})
	return d
}
