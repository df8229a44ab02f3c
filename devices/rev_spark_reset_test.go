package devices

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// sparkStatus injects Status 0-2 of the SPARK at CAN id 3, fresh now:
// 12.0 V (0x666 in bytes 2-3), Status 1's active warnings byte (byte 2)
// warn, Status 2 at rest.
func sparkStatus(r *rig, warn byte) {
	now := r.hal.Now()
	r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0, 0, 0x66, 0x16}}, now)
	r.hal.Bus.Inject(hal.Frame{ID: sparkS1_3, Len: 8, Data: [8]byte{0, 0, warn}}, now)
	r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8}, now)
}

// sparkStep puts the position command (1 rad) and fresh status
// (warnings warn), forgets what was sent and steps 10 ms.
func sparkStep(r *rig, pos *interfaces.JointCommand, warn byte) error {
	pos.Put(1, r.hal.Now())
	sparkStatus(r, warn)
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	return r.step(10 * time.Millisecond)
}

// sparkAckGains steps 10 ms at a time with fresh status (warnings warn),
// answering each configuration frame as it is sent (sparkAckSent), until
// all are in; it returns how many it answered.
func sparkAckGains(t *testing.T, r *rig, pos *interfaces.JointCommand, warn byte) int {
	t.Helper()
	acked := 0
	for range sparkBaseSteps + 8 {
		err := sparkStep(r, pos, warn)
		w := append(sentTo(r, sparkParam3), sentTo(r, sparkStatuses3)...)
		if len(w) == 0 {
			if err != nil {
				t.Fatalf("no gain written, yet: %v", err)
			}
			return acked
		}
		if !errors.Is(err, hal.ErrConfiguring) || !strings.Contains(err.Error(), "gains not yet acknowledged") {
			t.Fatalf("Read while writing the gains: %v", err)
		}
		if p := append(sentTo(r, sparkPos3), sentTo(r, sparkDuty3)...); len(p) != 0 {
			t.Fatalf("set point while writing the gains: %+v", p)
		}
		for _, f := range sentTo(r, sparkHB) {
			if f.Data != [8]byte{} {
				t.Fatalf("heartbeat enabled it while writing the gains: % x", f.Data)
			}
		}
		sparkAckSent(r)
		acked++
	}
	t.Fatal("gains never all in")
	return acked
}

// sparkDriven steps 10 ms with fresh status and reports whether the
// position set point (2 rotations, negated: float32 -2 = 00 00 00 c0) and
// an enabling heartbeat (bit 3) went out, and nothing else to the SPARK.
func sparkDriven(t *testing.T, r *rig, pos *interfaces.JointCommand, warn byte) bool {
	t.Helper()
	err := sparkStep(r, pos, warn)
	p := sentTo(r, sparkPos3)
	if len(p) == 0 {
		return false
	}
	if err != nil || len(p) != 1 || p[0].Data != [8]byte{0, 0, 0, 0xC0} || len(sentTo(r, sparkParam3)) != 0 {
		t.Fatalf("driven: %v, %+v", err, r.hal.Bus.Sent)
	}
	for _, f := range sentTo(r, sparkHB) {
		if f.Data != [8]byte{0x08} {
			t.Fatalf("heartbeat % x while driven", f.Data)
		}
	}
	return true
}

// A SPARK that resets loses what frcd configured (REV keeps status
// enables and parameter writes in RAM): Status 1's "has reset" warning
// turning on (bit 6 of byte 2, 0x40), or every status frame going stale
// and coming back, makes the driver configure it again from the first
// step (Set Statuses Enabled, the three periods, the idle mode and current
// limits, then the four gains from kP_0), each acknowledged, with no set point and no enabling heartbeat
// meanwhile; then the set points flow again. The warning staying on is
// no new reset.
func TestSparkRewritesGainsAfterReset(t *testing.T) {
	for _, sign := range []string{"has reset", "status lost"} {
		t.Run(sign, func(t *testing.T) {
			r := bind(t, sparkLoopYAML)
			pos := command[float64](r, "arm_joint", interfaces.Position)
			r.step(10 * time.Millisecond)
			answerVersion(r, 25)
			if n := sparkAckGains(t, r, pos, 0); n != sparkBaseSteps+4 {
				t.Fatalf("%d configuration steps acknowledged, want %d", n, sparkBaseSteps+4)
			}
			for range 3 {
				if !sparkDriven(t, r, pos, 0) {
					t.Fatal("not driven once the gains were in")
				}
			}
			warn := byte(0)
			switch sign {
			case "has reset":
				warn = 0x40
			case "status lost": // 350 ms without status: all stale, Status 1 too (driven on meanwhile, as before)
				for range 35 {
					pos.Put(1, r.hal.Now())
					r.step(10 * time.Millisecond)
				}
			}
			err := sparkStep(r, pos, warn)
			var hb0 []hal.Frame // the sign's step's heartbeat, when it is not the step checked
			if sign == "status lost" {
				// Set Statuses Enabled waits for the SPARK to show whether
				// it kept its statuses (carryHold): the next Status 2 does.
				if p := append(sentTo(r, sparkStatuses3), sentTo(r, sparkPos3)...); len(p) != 0 {
					t.Fatalf("at the sign: %+v, want neither Set Statuses Enabled nor a set point yet", p)
				}
				hb0 = append(hb0, sentTo(r, sparkHB)...)
				err = sparkStep(r, pos, warn)
			}
			if s := sentTo(r, sparkStatuses3); len(s) != 1 || s[0].Data != [8]byte{7, 0, 7, 0} {
				t.Fatalf("after the reset: %+v, want Set Statuses Enabled again", r.hal.Bus.Sent)
			}
			if !errors.Is(err, hal.ErrConfiguring) || !strings.Contains(err.Error(), "gains not yet acknowledged") {
				t.Errorf("Read after the reset: %v", err)
			}
			if p := sentTo(r, sparkPos3); len(p) != 0 {
				t.Fatalf("set point after the reset: %+v", p)
			}
			if hb := append(hb0, sentTo(r, sparkHB)...); len(hb) != 1 || hb[0].Data != [8]byte{} {
				t.Fatalf("heartbeat after the reset %+v, want it disabled", hb)
			}
			// The first step again: answer it, then the rest (kP_0 among them).
			sparkAckSent(r)
			if n := sparkAckGains(t, r, pos, warn); n != sparkBaseSteps+3 {
				t.Fatalf("%d more steps acknowledged, want %d", n, sparkBaseSteps+3)
			}
			for range 5 { // the warning still on: no new reset
				if !sparkDriven(t, r, pos, warn) {
					t.Fatal("not driven once the gains were in again")
				}
			}
		})
	}
}

// Disabled, the driver asks for the firmware and writes the gains from
// Halt (neither enables the SPARK), so a refused gain is an error before
// the first enable; Halt sends no set point meanwhile.
func TestSparkGainsWhileDisabled(t *testing.T) {
	r := bind(t, sparkLoopYAML)
	disabled := func() error {
		r.hal.Advance(10 * time.Millisecond)
		r.now = r.hal.Now()
		var errs []error
		for _, d := range r.devs {
			errs = append(errs, d.Read(r.now, 10*time.Millisecond))
		}
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		r.halt()
		return errors.Join(errs...)
	}
	disabled()
	if v := sentTo(r, sparkVer3); len(v) != 1 || !v[0].RTR {
		t.Fatalf("version request while disabled: %+v", v)
	}
	answerVersion(r, 25)
	for range sparkBaseSteps { // Status 0-2 enabled, their periods, idle mode and current limits, from Halt too
		disabled()
		if !sparkAckSent(r) {
			t.Fatalf("no configuration step while disabled: %+v", r.hal.Bus.Sent)
		}
	}
	disabled()
	if w := sentTo(r, sparkParam3); len(w) != 1 || w[0].Data != [8]byte{0x0D, 0, 0, 0, 0x3F} {
		t.Fatalf("kP_0 while disabled: %+v", r.hal.Bus.Sent)
	}
	if d := append(sentTo(r, sparkDuty3), sentTo(r, sparkPos3)...); len(d) != 0 {
		t.Fatalf("set point while the gains are written: %+v", d)
	}
	// Refused: result 4.
	r.hal.Bus.Inject(hal.Frame{ID: sparkAck3, Len: 7, Data: [8]byte{0x0D, 3, 0, 0, 0, 0, 4}}, r.hal.Now()+time.Millisecond)
	if err := disabled(); err == nil || !strings.Contains(err.Error(), "refused kp = 0.5 (parameter 13): result 4") {
		t.Errorf("refused gain while disabled: %v", err)
	}
	if len(sentTo(r, sparkParam3)) != 0 {
		t.Error("gains written on after a refusal")
	}
}
