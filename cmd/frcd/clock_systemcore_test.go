//go:build systemcore && cgo && !roborio

package main

import (
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/hal/systemcore"
	"github.com/frcd/frcd/robot"
)

// Systemcore's 2027 HAL for clockFaultCases: HAL_GetMonotonicTime, which
// has no status: it stalls or steps back, never fails.
var clockYear = clockHAL{
	year:    "2027",
	fixed:   "clock",
	enabled: "cw 1 2 0 1 1",
	faults:  clockStallBack,
	open: func(t *testing.T, r *robot.Robot, lib string) hal.Backend {
		t.Helper()
		o := systemcore.OptionsFrom(r.Config)
		o.HALLibrary = lib
		o.CAN = []string{"can_s0"}
		b, err := systemcore.New(o, linux.Parts{Buses: map[string]hal.CANBus{"can_s0": haltest.NewCAN()}}, map[string]bool{"can_s0": false})
		if err != nil {
			t.Fatal(err)
		}
		return b
	},
}
