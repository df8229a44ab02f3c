//go:build systemcore && cgo && !roborio

package systemcore

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/heartbeat"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
)

// onFakeHAL is a backend on the fake 2027 HAL with fake CAN buses and a
// heartbeat always sent on can_s0.
func onFakeHAL(t *testing.T, o Options) (*Backend, fakehal.Files, *haltest.CAN) {
	t.Helper()
	tooltest.Require(t, tooltest.CC)
	lib, f := fakehal.Setup(t, "2027")
	p := linux.Parts{Buses: map[string]hal.CANBus{}}
	for _, n := range Buses {
		p.Buses[n] = haltest.NewCAN()
	}
	can0 := p.Buses["can_s0"].(*haltest.CAN)
	on, _ := heartbeat.ParseMode("on")
	p.Heartbeats, p.HeartbeatBuses = []linux.Heartbeat{heartbeat.New(can0, on)}, []string{"can_s0"}
	o.HALLibrary = lib
	b, err := New(o, p, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, f, can0
}

// The HAL's Driver Station is the backend's and its heartbeats'; the
// final halt holds it disabled and tells the Driver Station; Close sets
// the outputs neutral.
func TestDriverStationOnFakeHAL(t *testing.T) {
	b, f, can0 := onFakeHAL(t, Options{})
	if got := hal.CapsOf(b); got != Caps&^ctre.Caps {
		t.Errorf("CapsOf %s, Caps %s", got, Caps)
	}
	hbEnabled := func() bool {
		h, err := hal.ParseHeartbeat(can0.Last[hal.HeartbeatID])
		return err == nil && h.Enabled
	}
	tick := time.Duration(0)
	step := func() { tick += 20 * time.Millisecond; b.AdvanceTo(tick) }
	step()
	if b.DS().Enabled || hbEnabled() {
		t.Fatal("enabled without a Driver Station")
	}
	f.Set("cw 1 2 0 0 1")
	step()
	if !b.DS().Enabled || !hbEnabled() {
		t.Fatalf("the Driver Station's enable: DS %+v, heartbeat enabled %v", b.DS(), hbEnabled())
	}
	p, err := b.OpenPWM(1)
	if err != nil {
		t.Fatal(err)
	}
	p.SetPulse(1700 * time.Microsecond)
	// The daemon's final halt.
	b.SetEnabled(false)
	step()
	if b.DS().Enabled || hbEnabled() {
		t.Errorf("after the final halt: DS %+v, heartbeat enabled %v", b.DS(), hbEnabled())
	}
	calls, _ := f.Calls()
	if last := calls[len(calls)-1]; last != "HAL_ObserveUserProgram mode=2 enabled=0" {
		t.Errorf("the Driver Station told %q after the halt", last)
	}
	r := b.Report(nil)
	if got := r[len(r)-1]; got.Name != "WPILib HAL" || !strings.Contains(got.Message, "the 2027 HAL (main caf0fb2dcc) from "+b.io.Library()) || got.Warn {
		t.Errorf("report %+v", got)
	}
	f.Set("brownout 1")
	if r := b.Report(nil); !strings.Contains(r[len(r)-1].Message, "BROWNED OUT") || !r[len(r)-1].Warn {
		t.Errorf("report in brownout %+v", r[len(r)-1])
	}
	b.Close()
	calls, _ = f.Calls()
	if got := fakehal.LastPulses(calls)[1]; got != 0 {
		t.Errorf("PWM 1 after Close: %d µs, want 0", got)
	}
	if _, err := os.Stat(b.io.Library()); err != nil {
		t.Error(err)
	}
}

// With ros_enable the Driver Station is frcd's own, over ROS, and the
// HAL still drives SmartIO.
func TestROSEnableOnFakeHAL(t *testing.T) {
	b, f, _ := onFakeHAL(t, Options{ROSEnable: true})
	f.Set("cw 1 2 0 0 1")
	if b.DS().Enabled {
		t.Error("the HAL's Driver Station enables a ros_enable robot")
	}
	b.SetEnabled(true)
	if !b.DS().Enabled {
		t.Error("ROS's enable does not")
	}
	b.SetEnabled(false)
	b.SetEnabled(true)
	if !b.DS().Enabled {
		t.Error("a disable over ROS held the robot disabled")
	}
	if _, err := b.OpenDigitalOut(5); err != nil {
		t.Error(err)
	}
}

// A duty-cycle input (an absolute encoder's PWM output) on a SmartIO
// channel, through the HAL: its output and frequency, and the channel
// taken for nothing else.
func TestDutyCycleOnFakeHAL(t *testing.T) {
	b, f, _ := onFakeHAL(t, Options{})
	f.Set("pwmin 3 512 1024")
	d, err := hal.OpenDutyCycleIn(b, 3)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := d.Output(); err != nil || v != 0.5 {
		t.Errorf("output %v, %v", v, err)
	}
	if hz, err := d.Frequency(); err != nil || hz != 1e6/1024 {
		t.Errorf("frequency %v, %v", hz, err)
	}
	if _, err := b.OpenAnalogIn(3, 0, 0); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("SmartIO 3 opened again as an analog input: %v", err)
	}
}

// The backend `frcd run --hal systemcore` opens, on fake 2027 HALs built
// from v2027.0.0-alpha-6's headers and from main's: each is used in its
// own layout, so the match (the longest event name both hold, then type,
// number and replay) and the FMS-attached bit read right, and
// /diagnostics names the layout. A HAL of neither layout (main between
// allwpilib #8858 and #9238) is refused with one line.
func TestHALLayouts(t *testing.T) {
	for _, c := range []struct{ layout, want string }{
		{"main", "main caf0fb2dcc"},
		{"alpha-6", "v2027.0.0-alpha-6"},
	} {
		t.Run(c.layout, func(t *testing.T) {
			t.Setenv("FAKEHAL_LAYOUT", c.layout)
			b, f, _ := onFakeHAL(t, Options{})
			event := strings.Repeat("e", 59) + "2027"
			f.Set("cw 1 1 0 1 1", "matchinfo "+event+" 3 7 1", "gamedata L")
			b.AdvanceTo(20 * time.Millisecond)
			if ds := b.DS(); !ds.FMS || !ds.Enabled || ds.Mode != hal.Autonomous {
				t.Errorf("DS %+v, want enabled in autonomous with the FMS attached", ds)
			}
			want := hal.MatchInfo{Event: event, Type: hal.MatchElimination, Number: 7, Replay: 1, GameMessage: "L"}
			if m, err := b.MatchInfo(); err != nil || m != want {
				t.Errorf("MatchInfo %+v, %v; want %+v", m, err, want)
			}
			r := b.Report(nil)
			if got := r[len(r)-1]; !strings.Contains(got.Message, "the 2027 HAL ("+c.want+") from ") {
				t.Errorf("report %+v", got)
			}
		})
	}
	tooltest.Require(t, tooltest.CC)
	lib, err := fakehal.BuildLayout(t.TempDir(), "", "2027", "between")
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(Options{HALLibrary: lib}, linux.Parts{Buses: map[string]hal.CANBus{}}, map[string]bool{})
	if err == nil || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "it is a WPILib HAL of a layout frcd does not call (it has HAL_GetMonotonicTime, HAL_GetBrownoutVoltage, HAL_SendProgramCrash; it lacks HAL_GetFPGATime, HAL_SetBrownoutVoltages)") {
		t.Errorf("New on a HAL of neither layout: %v", err)
	}
	t.Logf("refused: %v", err)
}
