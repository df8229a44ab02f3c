//go:build roborio && cgo

package main

import (
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/roborio"
	"github.com/frcd/frcd/robot"
)

// The roboRIO's 2026 HAL for clockFaultCases: HAL_GetFPGATime, which can
// fail with a status.
var clockYear = clockHAL{
	year:    "2026",
	fixed:   "fpga",
	enabled: "cw 1 0 0 0 0 1",
	faults: []clockFaultCase{
		{"cannot be read", "fail HAL_GetFPGATime -1098", "cannot be read: wpihal: HAL clock: HAL status -1098"},
		{"stalls", "clockstall 1", "stalled at"},
		{"steps back", "clockback BACK", "stepped back"},
	},
	open: func(t *testing.T, _ *robot.Robot, lib string) hal.Backend {
		t.Helper()
		b, err := roborio.Open(roborio.Options{Library: lib})
		if err != nil {
			t.Fatal(err)
		}
		return b
	},
}
