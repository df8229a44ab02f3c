//go:build cgo && (roborio || systemcore)

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
)

// clockHAL is one year's fake HAL as the clock fault tests drive it
// (clock_roborio_test.go, clock_systemcore_test.go).
type clockHAL struct {
	year    string
	fixed   string // the input key that fixes the HAL clock, µs
	enabled string // the input line of a Driver Station enabled in teleop
	faults  []clockFaultCase
	open    func(t *testing.T, r *robot.Robot, lib string) hal.Backend
}

// clockStallBack are the faults both years' HAL clocks can have.
var clockStallBack = []clockFaultCase{
	{"stalls", "clockstall 1", "stalled at"},
	{"steps back", "clockback BACK", "stepped back"},
}

// clockFaultCase is a HAL clock fault: the fake's input line that makes
// it ("BACK" stands for the clock's time, µs: back to 0) and what the
// status line says of it.
type clockFaultCase struct {
	name, line, why string
}

// The robot of the clock fault tests: two PWM motor controllers and a
// digital output, each with its controller, valid on both controllers.
const (
	clockURDF = `<robot name="clock">
  <link name="base_link"/><link name="arm"/><link name="wrist"/>
  <joint name="arm_joint" type="revolute"><parent link="base_link"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="2"/></joint>
  <joint name="wrist_joint" type="revolute"><parent link="arm"/><child link="wrist"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="2"/></joint>
</robot>
`
	clockYAML = `joints:
  - {name: arm_joint, type: spark, id: 0}
  - {name: wrist_joint, type: victor_sp, id: 1}
  - {name: light, type: digital_output, dio_channel: 5}
controllers:
  arm_voltage: {type: voltage_controllers/JointVoltageController, joint: arm_joint}
  wrist_voltage: {type: voltage_controllers/JointVoltageController, joint: wrist_joint}
  light: {type: frcd_controllers/DigitalOutputController, joint: light}
loop: {rate_hz: 100, command_timeout: 0.5}
`
)

// clockFiles writes the robot of the clock fault tests; it returns the
// URDF's and the YAML's paths.
func clockFiles(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	up, yp := filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")
	for p, s := range map[string]string{up: clockURDF, yp: clockYAML} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return up, yp
}

// clockRobot loads the robot of the clock fault tests.
func clockRobot(t *testing.T) *robot.Robot {
	t.Helper()
	r, list, err := robot.Load(clockFiles(t))
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	return r
}

// commandAll commands the arm and wrist at +6 V and the light on.
func commandAll(d *daemon.Daemon, now time.Duration) error {
	for _, c := range []string{"arm_voltage", "wrist_voltage", "light"} {
		v := 6.0
		if c == "light" {
			v = 1
		}
		if err := d.Loop.Controller(c).Command(v, now); err != nil {
			return err
		}
	}
	return nil
}

var (
	pwmCallRE = regexp.MustCompile(`^(?:\d+ )?HAL_SetPWMPulseTimeMicroseconds h=(\S+) us=(\d+)$`)
	pwmOffRE  = regexp.MustCompile(`^(?:\d+ )?HAL_SetPWMDisabled h=(\S+)$`)
	dioCallRE = regexp.MustCompile(`^(?:\d+ )?HAL_SetDIO h=(\S+) value=(\d+)$`)
)

// outputs are the fake's outputs as the program last set them: each PWM
// handle's pulse, µs (0: disabled), and each DIO's level.
func outputs(t *testing.T, f fakehal.Files) map[string]int {
	t.Helper()
	return replay(t, f, false, nil)
}

// neutralAt is the stamp (µs since 1970: $FAKEHAL_STAMP) of the call
// that made every output neutral, the first at or after since; -1 when
// none did.
func neutralAt(t *testing.T, f fakehal.Files, since int64) int64 {
	t.Helper()
	at := int64(-1)
	replay(t, f, true, func(stamp int64, out map[string]int) bool {
		if stamp >= since && neutral(out) {
			at = stamp
		}
		return at >= 0
	})
	return at
}

// replay applies the fake's logged calls that set an output, in order,
// to the outputs it returns; with stamped, each call's stamp is read and
// stop, when set, called after each call until it says so.
func replay(t *testing.T, f fakehal.Files, stamped bool, stop func(stamp int64, out map[string]int) bool) map[string]int {
	t.Helper()
	calls, err := f.Calls()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, call := range calls {
		var stamp int64
		if stamped {
			s, rest, _ := strings.Cut(call, " ")
			if stamp, err = strconv.ParseInt(s, 10, 64); err != nil {
				t.Fatalf("call %q without a stamp", call)
			}
			call = rest
		}
		if m := pwmCallRE.FindStringSubmatch(call); m != nil {
			out["pwm "+m[1]], _ = strconv.Atoi(m[2])
		} else if m := pwmOffRE.FindStringSubmatch(call); m != nil {
			out["pwm "+m[1]] = 0
		} else if m := dioCallRE.FindStringSubmatch(call); m != nil {
			out["dio "+m[1]], _ = strconv.Atoi(m[2])
		}
		if stop != nil && stop(stamp, out) {
			break
		}
	}
	return out
}

// driven: both PWMs forward, the light on. neutral: every PWM off, the
// light off.
func driven(out map[string]int) bool {
	n := 0
	for k, v := range out {
		if strings.HasPrefix(k, "pwm") && v <= 1500 || strings.HasPrefix(k, "dio") && v != 1 {
			return false
		}
		n++
	}
	return n == 3
}

func neutral(out map[string]int) bool {
	for _, v := range out {
		if v != 0 {
			return false
		}
	}
	return len(out) == 3
}

// TestClockFaultOnFakeHAL: on the fake HAL of this build's year (make
// rio-test and systemcore-test run it under qemu-arm and qemu-aarch64
// with the fake built for them), the daemon stepped with the HAL's clock
// following the loop's time, every output driven; then the clock fails
// as each case says (2026's cannot be read; both years' stall and step
// back): every output is neutral within 100 ms of loop time, the status
// line says why, and the robot stays disabled while the commands keep
// coming.
func TestClockFaultOnFakeHAL(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	for _, tc := range clockYear.faults {
		t.Run(tc.name, func(t *testing.T) {
			lib, f := fakehal.Setup(t, clockYear.year)
			const base = 7 * time.Second // the HAL clock at the loop's 0
			at := func(now time.Duration) string {
				return fmt.Sprintf("%s %d", clockYear.fixed, (base+now)/time.Microsecond)
			}
			if err := f.Set(clockYear.enabled, at(0)); err != nil {
				t.Fatal(err)
			}
			r := clockRobot(t)
			var now time.Duration
			d, err := daemon.New(r, clockYear.open(t, r, lib), daemon.Options{Rate: 100, OSClock: func() time.Duration { return now }, Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			period := d.Loop.Period()
			step := func() {
				now += period
				if err := f.Set(at(now)); err != nil {
					t.Fatal(err)
				}
				if err := commandAll(d, now); err != nil {
					t.Fatal(err)
				}
				d.Step()
			}
			for i := 0; !driven(outputs(t, f)); i++ {
				if i == 20 {
					t.Fatalf("not driven: %v; %s", outputs(t, f), d.StatusLine())
				}
				step()
			}
			line := strings.ReplaceAll(tc.line, "BACK", strconv.FormatInt(int64((base+now)/time.Microsecond), 10))
			if err := f.Set(line); err != nil {
				t.Fatal(err)
			}
			n := 0
			for ; !neutral(outputs(t, f)); n++ {
				if n == 50 {
					t.Fatalf("not neutral 50 cycles after %q: %v; %s", line, outputs(t, f), d.StatusLine())
				}
				step()
			}
			t.Logf("%s (%s): every output neutral %d cycles (%v of loop time) after the fault; %s", tc.name, line, n, time.Duration(n)*period, d.StatusLine())
			if late := time.Duration(n) * period; late > 100*time.Millisecond {
				t.Errorf("neutral %v after the fault, want within 100 ms", late)
			}
			if s := d.StatusLine(); !strings.Contains(s, " disabled (HAL clock fault: "+tc.why) {
				t.Errorf("status line %q does not say %q", s, tc.why)
			}
			for range 20 {
				step()
				if !neutral(outputs(t, f)) {
					t.Fatalf("driven with the clock faulty: %v", outputs(t, f))
				}
			}
		})
	}
}

// syncLines collects a writer's lines for another goroutine.
type syncLines struct {
	mu    sync.Mutex
	buf   strings.Builder
	lines chan string
}

func (s *syncLines) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	for {
		text := s.buf.String()
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return len(p), nil
		}
		select {
		case s.lines <- text[:i]:
		default: // nobody reads: drop
		}
		s.buf.Reset()
		s.buf.WriteString(text[i+1:])
	}
}

// monoMicros is CLOCK_MONOTONIC in µs, as the fakes' clocks follow it.
func monoMicros(t *testing.T) int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		t.Fatal(err)
	}
	return ts.Nano() / 1000
}

// TestClockFaultRunOnFakeHAL: the daemon in real time (Run, as frcd run
// runs it) on the fake HAL whose clock follows CLOCK_MONOTONIC, every
// output driven by commands refreshed every 50 ms; then the clock fails
// as each case says. The status line says why, and the end of Run's
// context (what SIGTERM does in frcd run: signals.go) ends it with every
// output neutral. Figures logged, not asserted (real time): how long
// after the fault the outputs were seen neutral and how long Run took to
// return.
func TestClockFaultRunOnFakeHAL(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	for _, tc := range clockYear.faults {
		t.Run(tc.name, func(t *testing.T) {
			lib, f := fakehal.Setup(t, clockYear.year)
			t.Setenv("FAKEHAL_STAMP", "1")
			if err := f.Set(clockYear.enabled); err != nil {
				t.Fatal(err)
			}
			r := clockRobot(t)
			status := &syncLines{lines: make(chan string, 256)}
			d, err := daemon.New(r, clockYear.open(t, r, lib), daemon.Options{Rate: 100, Priority: -1, Status: status, StatusEvery: 20 * time.Millisecond, Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			tick := d.Loop.Notify()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- d.Run(ctx) }()
			stopCmd := make(chan struct{})
			cmdDone := make(chan struct{})
			go func() { // a publisher at 20 Hz
				defer close(cmdDone)
				tk := time.NewTicker(50 * time.Millisecond)
				defer tk.Stop()
				for {
					_ = commandAll(d, d.Now())
					select {
					case <-stopCmd:
						return
					case <-tk.C:
					}
				}
			}()
			// A guard against a hung daemon only: the test waits on events.
			guard := time.AfterFunc(60*time.Second, cancel)
			defer guard.Stop()
			until := func(what string, ok func() bool) {
				t.Helper()
				for !ok() {
					select {
					case <-tick:
					case err := <-done:
						t.Fatalf("Run ended (%v) waiting for %s", err, what)
					}
				}
			}
			until("every output driven", func() bool { return driven(outputs(t, f)) })
			line := strings.ReplaceAll(tc.line, "BACK", strconv.FormatInt(monoMicros(t), 10))
			snap := d.Loop.NewSnapshot()
			d.Loop.ReadSnapshot(snap)
			cycles := snap.Stats.Cycles
			faultAt := time.Now().UnixMicro()
			if err := f.Set(line); err != nil {
				t.Fatal(err)
			}
			until("every output neutral", func() bool { return neutral(outputs(t, f)) })
			seen := time.Duration(neutralAt(t, f, faultAt)-faultAt) * time.Microsecond
			d.Loop.ReadSnapshot(snap)
			cycles = snap.Stats.Cycles - cycles
		lines:
			for {
				select {
				case s := <-status.lines:
					if strings.Contains(s, " disabled (HAL clock fault: "+tc.why) {
						t.Logf("status: %s", s)
						break lines
					}
				case err := <-done:
					t.Fatalf("Run ended (%v) before a status line said %q", err, tc.why)
				}
			}
			close(stopCmd)
			<-cmdDone
			stopAt := time.Now()
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			took := time.Since(stopAt)
			if out := outputs(t, f); !neutral(out) {
				t.Errorf("after Run: %v, want every output neutral", out)
			}
			t.Logf("FIGURES %s %s: every output neutral %v after the fault (seen %d cycles after); Run returned %v after its context ended", clockYear.year, tc.name, seen.Round(time.Millisecond), cycles, took.Round(time.Microsecond))
		})
	}
}
