package daemon

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/sim"
)

// A navX the YAML puts on a coprocessor's Linux buses (SPI bus 0 chip
// select 1, I2C bus 1) runs on the sim unchanged: the driver opens it
// through hal.LinuxBuses and reads the sim's motion.
func TestCoprocessorNavXOnSim(t *testing.T) {
	dir := t.TempDir()
	u, y := filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")
	if err := errors.Join(
		os.WriteFile(u, []byte(`<robot name="c"><link name="base_link"><sensor name="spi_imu" type="imu"/><sensor name="i2c_imu" type="imu"/></link></robot>`), 0o644),
		os.WriteFile(y, []byte("joints:\n  - {name: spi_imu, type: navx, frame_id: base_link, interface: spi, bus: 0, chip_select: 1}\n"+
			"  - {name: i2c_imu, type: navx, frame_id: base_link, interface: i2c, bus: 1}\n"), 0o644)); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load(u, y)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	d, err := NewSim(r, SimOptions{Enabled: true}, Options{Rate: 100})
	if err != nil {
		t.Fatal(err)
	}
	const yaw = 0.5 // rad, about z
	for _, n := range []string{"spi_imu", "i2c_imu"} {
		if err := d.Sim.SetIMU(n, sim.IMU{Orientation: [4]float64{math.Cos(yaw / 2), 0, 0, math.Sin(yaw / 2)}}); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 {
		d.Step()
	}
	for _, imu := range readIMUs(t, d, 2) {
		q := imu.State.Orientation // x, y, z, w
		if got := 2 * math.Atan2(q[2], q[3]); !imu.OK || math.Abs(got-yaw) > 1e-3 {
			t.Errorf("%s: ok %v, yaw %.4f rad, want %.4f", imu.Name, imu.OK, got, yaw)
		}
	}
}

// readIMUs reads the loop's snapshot and returns its n IMUs.
func readIMUs(t *testing.T, d *Daemon, n int) []control.Sample[interfaces.IMUState] {
	t.Helper()
	s := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(s)
	if len(s.IMUs) != n {
		t.Fatalf("%d IMUs, want %d", len(s.IMUs), n)
	}
	return s.IMUs
}
