package devices

import (
	"errors"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// sparkLimitsYAML: a duty-cycle SPARK MAX whose idle mode and current
// limit are not REV's factory values (coast, 80 A).
const sparkLimitsYAML = "joints:\n  - {name: arm_joint, type: spark_max, id: 3, position_factor: 0.5, neutral_mode: brake, smart_current_limit: 20}\n"

// A duty-cycle SPARK is driven only once its idle mode and current
// limits are in: before every configuration step is acknowledged, at
// start-up and again after a reset (REV keeps parameters in RAM, so a
// SPARK that browns out mid-match runs at its factory 80 A and coast),
// it gets no set point and no enabling heartbeat, and Read says it is
// configuring. (Review: a duty-cycle SPARK was driven through its
// configuration, so a NEO 550 held to 20 A ran at 80 A after a reset
// until the steps were in again, for ever if they never were.)
func TestSparkNotDrivenBeforeItsLimits(t *testing.T) {
	r := bind(t, sparkLimitsYAML)
	cmd := command[float64](r, "arm_joint", interfaces.Voltage)
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	// configure steps 10 ms at a time with fresh status, answering each
	// configuration frame; none of its cycles may drive the SPARK. It
	// returns the number of steps answered.
	configure := func(warn byte) int {
		t.Helper()
		acked := 0
		for range sparkBaseSteps + 4 {
			cmd.Put(6, r.hal.Now())
			sparkStatus(r, warn)
			r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
			err := r.step(10 * time.Millisecond)
			cfg := append(sentTo(r, sparkParam3), sentTo(r, sparkStatuses3)...)
			if len(cfg) == 0 {
				return acked
			}
			if !errors.Is(err, hal.ErrConfiguring) {
				t.Errorf("Read during step %d: %v, want it configuring", acked, err)
			}
			if d := sentTo(r, sparkDuty3); len(d) != 0 {
				t.Fatalf("set point before step %d of %d (idle mode, current limits) was acknowledged: %+v", acked, sparkBaseSteps, d)
			}
			for _, f := range sentTo(r, sparkHB) {
				if f.Data != [8]byte{} {
					t.Fatalf("heartbeat % x enabled it before step %d was acknowledged", f.Data, acked)
				}
			}
			sparkAckSent(r)
			acked++
		}
		t.Fatal("the configuration never ended")
		return acked
	}
	driven := func(warn byte) bool {
		cmd.Put(6, r.hal.Now())
		sparkStatus(r, warn)
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		r.step(10 * time.Millisecond)
		return len(sentTo(r, sparkDuty3)) == 1
	}
	if n := configure(0); n != sparkBaseSteps {
		t.Fatalf("%d steps acknowledged, want %d", n, sparkBaseSteps)
	}
	if !driven(0) {
		t.Fatal("not driven once configured")
	}
	// A reset: Status 1's "has reset" warning turns on.
	if n := configure(0x40); n != sparkBaseSteps {
		t.Fatalf("%d steps acknowledged after the reset, want %d", n, sparkBaseSteps)
	}
	if !driven(0x40) {
		t.Fatal("not driven once configured again")
	}
}
