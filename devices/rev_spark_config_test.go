package devices

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// Ids for the SPARK at CAN id 3, by hand: Set Statuses Enabled is API
// class 1 index 0 (0x010 << 6 = 0x400), its response index 1 (0x440).
const (
	sparkStatuses3   = 0x02050403
	sparkStatusesAn3 = 0x02050443
)

// sparkAckSent answers the configuration frame the last step sent as a
// SPARK does: Set Statuses Enabled with its response (result 0, the mask,
// the statuses in it enabled), a parameter write with its
// acknowledgement (type 2, unsigned, for the status periods 158-160, 3,
// float, for the gains; the value written; result 0). It reports
// whether there was one.
func sparkAckSent(r *rig) bool {
	at := r.hal.Now() + time.Millisecond
	if s := sentTo(r, sparkStatuses3); len(s) > 0 {
		d := s[len(s)-1].Data
		r.hal.Bus.Inject(hal.Frame{ID: sparkStatusesAn3, Len: 5, Data: [8]byte{0, d[0], d[1], d[0], d[1]}}, at)
		return true
	}
	if w := sentTo(r, sparkParam3); len(w) > 0 {
		d := w[len(w)-1].Data
		typ := byte(3)
		switch d[0] {
		case 158, 159, 160, 6, 12, 59, 60, 61: // the unsigned ones
			typ = 2
		}
		r.hal.Bus.Inject(hal.Frame{ID: sparkAck3, Len: 7, Data: [8]byte{d[0], typ, d[1], d[2], d[3], d[4]}}, at)
		return true
	}
	return false
}

// sparkBaseSteps are the steps every SPARK takes: Status 0-2 enabled,
// their three periods, its idle mode and five current limit parameters.
const sparkBaseSteps = 10

// sparkConfigure steps 10 ms at a time from the version's answer,
// answering each configuration frame, until the steps every SPARK takes
// are acknowledged.
func sparkConfigure(t *testing.T, r *rig) {
	t.Helper()
	for range sparkBaseSteps {
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		r.step(10 * time.Millisecond)
		if !sparkAckSent(r) {
			t.Fatalf("no configuration frame: %+v", r.hal.Bus.Sent)
		}
	}
}

// Once the firmware is known the driver turns on Status 0-2 (REV's
// Status 2, the encoder, is off by default) and sets their periods, each
// acknowledged before the next, and drives a duty-cycle SPARK only once
// all are in (its idle mode and current limits among them:
// TestSparkNotDrivenBeforeItsLimits).
func TestSparkEnablesStatusesAndSetsPeriods(t *testing.T) {
	r := bind(t, sparkYAML)
	cmd := command[float64](r, "arm_joint", interfaces.Voltage)
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	cmd.Put(6, r.hal.Now())
	r.step(10 * time.Millisecond)
	// Mask 0x0007 and enable bits 0x0007, each a little-endian uint16.
	if s := sentTo(r, sparkStatuses3); len(s) != 1 || s[0].Len != 4 || s[0].Data != [8]byte{0x07, 0x00, 0x07, 0x00} {
		t.Fatalf("Set Statuses Enabled %+v, want 07 00 07 00", s)
	}
	if d := sentTo(r, sparkDuty3); len(d) != 0 {
		t.Errorf("a duty-cycle SPARK driven while it is configured: %+v", d)
	}
	// Unanswered: not sent again before 250 ms.
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	r.step(100 * time.Millisecond)
	if n := len(sentTo(r, sparkStatuses3)); n != 0 {
		t.Errorf("%d more Set Statuses Enabled within 110 ms", n)
	}
	sparkAckSent(r) // nothing sent this step: answers the first from the frames kept
	r.hal.Bus.Inject(hal.Frame{ID: sparkStatusesAn3, Len: 5, Data: [8]byte{0, 0x07, 0x00, 0x07, 0x00}}, r.hal.Now()+time.Millisecond)
	// Then the periods: 158 = 10, 159 = 100, 160 = 20 ms, uint32 little endian.
	for _, want := range [][8]byte{{158, 10}, {159, 100}, {160, 20}} {
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		r.step(10 * time.Millisecond)
		if w := sentTo(r, sparkParam3); len(w) != 1 || w[0].Len != 5 || w[0].Data != want {
			t.Fatalf("period write %+v, want % x", w, want[:5])
		}
		sparkAckSent(r)
	}
	// Then the idle mode (6: 0, coast) and the current limits at REV's
	// factory values: 59 = 80 A, 60 = 20 A, 61 = 10000 RPM, 11 = 115 A
	// (float32 0x42E60000), 12 = 0 cycles.
	for _, want := range [][8]byte{{6, 0}, {59, 80}, {60, 20}, {61, 0x10, 0x27}, {11, 0, 0, 0xE6, 0x42}, {12, 0}} {
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		r.step(10 * time.Millisecond)
		if w := sentTo(r, sparkParam3); len(w) != 1 || w[0].Len != 5 || w[0].Data != want {
			t.Fatalf("drive parameter write %+v, want % x", w, want[:5])
		}
		sparkAckSent(r)
	}
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	r.step(10 * time.Millisecond)
	if n := len(sentTo(r, sparkParam3)) + len(sentTo(r, sparkStatuses3)); n != 0 {
		t.Errorf("configuration frames once all are in: %+v", r.hal.Bus.Sent)
	}
}

// A SPARK that will not enable Status 0-2 (result 1: a status it does not
// have) is stopped for good, named.
func TestSparkRefusedStatuses(t *testing.T) {
	r := bind(t, sparkYAML)
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	r.step(10 * time.Millisecond)
	r.hal.Bus.Inject(hal.Frame{ID: sparkStatusesAn3, Len: 5, Data: [8]byte{1, 0x07, 0x00, 0x03, 0x00}}, r.hal.Now()+time.Millisecond)
	err := r.step(10 * time.Millisecond)
	if err == nil || errors.Is(err, hal.ErrTimeout) || !strings.Contains(err.Error(), "refused to enable Status 0-2: result 1, statuses enabled 0x0003") {
		t.Fatalf("refused: %v", err)
	}
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	r.step(10 * time.Millisecond)
	if d := sentTo(r, sparkDuty3); len(d) != 0 {
		t.Errorf("driven after a refusal: %+v", d)
	}
}

// Status 1 comes every 100 ms once configured (REV's default is 250):
// 200 ms old it is not stale; Status 0 and 2 are stale after 100 ms.
func TestSparkStatusTimeouts(t *testing.T) {
	r := bind(t, sparkYAML)
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	sparkConfigure(t, r)
	sparkStatus(r, 0)
	at := r.hal.Now()
	r.step(10 * time.Millisecond)
	for r.hal.Now()-at < 200*time.Millisecond {
		now := r.hal.Now()
		r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0, 0, 0x66, 0x16}}, now)
		r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8}, now)
		if err := r.step(10 * time.Millisecond); err != nil {
			t.Fatalf("Status 1 %v old: %v", r.hal.Now()-at, err)
		}
	}
	r.step(110 * time.Millisecond) // Status 0 and 2 110 ms old
	if err := r.step(0); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("Status 0 and 2 stale: %v", err)
	}
}
