//go:build roborio && cgo

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/roborio"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
)

// The roboRIO's 2026 HAL for clockFaultCases: HAL_GetFPGATime, which can
// fail with a status.
var clockYear = clockHAL{
	year:    "2026",
	fixed:   "fpga",
	enabled: "cw 1 0 0 0 0 1",
	faults: append([]clockFaultCase{
		{"cannot be read", "fail HAL_GetFPGATime -1098", "cannot be read: wpihal: HAL clock: HAL status -1098"},
	}, clockStallBack...),
	open: func(t *testing.T, _ *robot.Robot, lib string) hal.Backend {
		t.Helper()
		b, err := roborio.Open(roborio.Options{Library: lib})
		if err != nil {
			t.Fatal(err)
		}
		return b
	},
}

// TestClockFaultSIGTERM: `frcd run --hal roborio` (in this process) on the
// fake 2026 HAL, its FPGA clock following CLOCK_MONOTONIC; for each clock
// fault, once the status line says why, a real SIGTERM ends frcd: exit 0,
// every output neutral. The time from the signal to run's return is
// logged (real time: a figure, not asserted).
func TestClockFaultSIGTERM(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	for _, tc := range clockYear.faults {
		t.Run(tc.name, func(t *testing.T) {
			lib, f := fakehal.Setup(t, clockYear.year)
			t.Setenv("LD_LIBRARY_PATH", filepath.Dir(lib))
			if err := f.Set(clockYear.enabled); err != nil {
				t.Fatal(err)
			}
			up, yp := clockFiles(t)
			out := &syncLines{lines: make(chan string, 1024)}
			errOut := &tooltest.Buffer{}
			code := make(chan int, 1)
			go func() {
				code <- run([]string{"run", "--hal", "roborio", "--no-ros", "--nt", "off", "--rt-priority", "0", "--status", "20ms", up, yp}, out, errOut)
			}()
			wait := func(what string) string {
				t.Helper()
				for {
					select {
					case s := <-out.lines:
						if strings.Contains(s, what) {
							return s
						}
					case c := <-code:
						t.Fatalf("frcd run exited %d waiting for %q: %s", c, what, errOut.String())
					}
				}
			}
			wait(" enabled ")
			if err := f.Set(strings.ReplaceAll(tc.line, "BACK", strconv.FormatInt(monoMicros(t), 10))); err != nil {
				t.Fatal(err)
			}
			line := wait(" disabled (HAL clock fault: " + tc.why)
			sent := time.Now()
			if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			c := <-code
			took := time.Since(sent)
			if c != exitOK {
				t.Errorf("exit %d after SIGTERM, want 0: %s", c, errOut.String())
			}
			if o := outputs(t, f); !neutral(o) {
				t.Errorf("outputs after SIGTERM: %v, want every one neutral", o)
			}
			t.Logf("status: %s", line)
			t.Logf("FIGURES 2026 %s: frcd run returned %v after SIGTERM", tc.name, took.Round(time.Microsecond))
		})
	}
}
