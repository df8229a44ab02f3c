package daemon

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/ros"
)

// Every example starts clean on the sim, as `frcd run --sim` runs it
// (enabled) and disabled: after 5 s of sim time its status line says
// errors=0 and names no error, nothing is configuring any more, every
// device reads, and /diagnostics has no error. A SPARK still configuring
// in its first cycles is named on the status line as configuring, not
// counted as an error (hal.ErrConfiguring), and is a warning on
// /diagnostics.
func TestExamplesStartClean(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*")
	if len(dirs) < 5 {
		t.Fatalf("examples: %v", dirs)
	}
	for _, dir := range dirs {
		for _, enabled := range []bool{true, false} {
			name := filepath.Base(dir) + map[bool]string{true: "/enabled", false: "/disabled"}[enabled]
			t.Run(name, func(t *testing.T) {
				d, err := NewSim(exampleRobot(t, filepath.Base(dir), func(y string) string { return y }), SimOptions{Seed: 1, Enabled: enabled}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer d.Close()
				configuring := ""
				for d.Now() < 5*time.Second {
					d.Step()
					line := d.StatusLine()
					if i := strings.Index(line, " configuring: "); i >= 0 && configuring == "" {
						configuring = line[i:]
						warned := false
						for _, st := range d.diagnostics(nil) {
							if st.Level >= ros.LevelError {
								t.Errorf("at %v, configuring, /diagnostics: %+v", d.Now(), st)
							}
							warned = warned || st.Level == ros.LevelWarn && strings.HasPrefix(st.Message, "configuring: ")
						}
						if !warned {
							t.Errorf("at %v: %s; /diagnostics has no warning of it", d.Now(), line)
						}
					}
					if !strings.Contains(line, " errors=0 ") || strings.Contains(line, " errors: ") {
						t.Fatalf("at %v: %s", d.Now(), line)
					}
				}
				line := d.StatusLine()
				if strings.Contains(line, " configuring: ") || strings.Contains(line, " down: ") {
					t.Errorf("after 5 s: %s", line)
				}
				snap := d.Loop.NewSnapshot()
				d.Loop.ReadSnapshot(snap)
				for _, dv := range snap.Devices {
					if !dv.OK || dv.Configuring != nil || dv.Errors != 0 {
						t.Errorf("after 5 s, device %+v", dv)
					}
				}
				for _, st := range d.diagnostics(nil) {
					if st.Level >= ros.LevelError {
						t.Errorf("after 5 s, /diagnostics: %+v", st)
					}
				}
				if hasSpark(d) && configuring == "" {
					t.Errorf("its SPARKs never showed as configuring on the status line")
				}
				t.Logf("%s; at start-up%s", line, configuring)
			})
		}
	}
}

// hasSpark says whether the robot has a REV SPARK, whose start-up (the
// version request, its configuration) takes a few cycles.
func hasSpark(d *Daemon) bool {
	for _, dv := range d.Robot.Config.Devices {
		if strings.HasPrefix(dv.Type.Name, "spark_max") || strings.HasPrefix(dv.Type.Name, "spark_flex") {
			return true
		}
	}
	return false
}

// A SPARK that never answers (examples/2026's shooter, its cable cut
// from the start) is configuring for its 2 s, no error; then each cycle
// is an error, and the status line says which device and why without
// /diagnostics; it is never driven.
func TestSilentSparkBecomesAnError(t *testing.T) {
	d, err := NewSim(exampleRobot(t, "2026", func(y string) string { return y }), SimOptions{Seed: 1, Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Sim.SetCANSilent("shooter_joint", true); err != nil {
		t.Fatal(err)
	}
	for d.Now() < 1900*time.Millisecond {
		d.Step()
		if line := d.StatusLine(); !strings.Contains(line, " errors=0 ") || !strings.Contains(line, " configuring: ") || !strings.Contains(line, "shooter_joint") {
			t.Fatalf("at %v: %s; want shooter_joint configuring, no error", d.Now(), line)
		}
	}
	for d.Now() < 2500*time.Millisecond {
		d.Step()
		if j, _ := d.Sim.Joint("shooter_joint"); j.Voltage != 0 {
			t.Fatalf("at %v the silent SPARK's motor has %v V", d.Now(), j.Voltage)
		}
	}
	line := d.StatusLine()
	want := `errors: shooter_joint 50 (failing; last: spark_flex "shooter_joint": no answer to the firmware version request after 2s: timed out)`
	if strings.Contains(line, " configuring: ") || !strings.Contains(line, " errors=50 ") || !strings.HasSuffix(line, want) {
		t.Errorf("after 2.5 s: %s\nwant it to end %s", line, want)
	}
}
