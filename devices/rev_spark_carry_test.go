package devices

import (
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// A SPARK's position across a sign of a reboot (sparkCarry), on a SPARK
// MAX closing its own position loop (sparkLoopYAML: inverted, 0.5 rad a
// rotation), the joint at 1 rad (-2 rotations): after a "has reset" whose
// Status 2 counts from 0 again, the joint still reads 1 rad and a 1 rad
// command is the SPARK's set point 0 (its own frame shifted alike), 1.5
// rad is -1 rotation; /diagnostics warns. After a status loss whose
// Status 2 goes on counting (a cut and restored cable), nothing is
// carried: 1 rad is still -2 rotations.
func TestSparkPositionCarriedOver(t *testing.T) {
	for _, c := range []struct {
		sign       string
		warn       byte
		rotAfter   float64 // Status 2's position after the sign
		carried    bool
		setpointAt float64 // the set point of a 1 rad command after
	}{
		{"has reset", 0x40, 0, true, 0},
		{"status lost", 0, -2, false, -2},
	} {
		t.Run(c.sign, func(t *testing.T) {
			r := bind(t, sparkLoopYAML)
			pos := command[float64](r, "arm_joint", interfaces.Position)
			rate, err := interfaces.State[interfaces.RateState](r.reg, "arm_joint", interfaces.Rate)
			if err != nil {
				t.Fatal(err)
			}
			rot := -2.0
			status := func(warn byte) {
				now := r.hal.Now()
				r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0, 0, 0x66, 0x16}}, now)
				r.hal.Bus.Inject(hal.Frame{ID: sparkS1_3, Len: 8, Data: [8]byte{0, 0, warn}}, now)
				r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8, Data: frc.EncodeSparkStatus2(0, rot)}, now)
			}
			// step commands cmd rad with fresh status, answers what is
			// sent, and returns Read's error and the position set point
			// sent (ok false when none).
			step := func(cmd float64, warn byte) (err error, sp float64, ok bool) {
				pos.Put(cmd, r.hal.Now())
				status(warn)
				r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
				err = r.step(10 * time.Millisecond)
				sparkAckSent(r)
				if p := sentTo(r, sparkPos3); len(p) == 1 {
					v, _ := frc.DecodeSparkSetpoint(p[0].Data)
					return err, v, true
				}
				return err, 0, false
			}
			r.step(10 * time.Millisecond)
			answerVersion(r, 25)
			for range sparkBaseSteps + 6 {
				step(1, 0)
			}
			if err, sp, ok := step(1, 0); err != nil || !ok || sp != -2 || rate.State != 1 {
				t.Fatalf("before: Read %v, set point %v (%v), joint at %v", err, sp, ok, rate.State)
			}
			if c.sign == "status lost" {
				for range 35 { // no status for 350 ms
					pos.Put(1, r.hal.Now())
					r.step(10 * time.Millisecond)
				}
			}
			rot = c.rotAfter
			var last float64
			driven := false
			for range sparkBaseSteps + 8 {
				err, sp, ok := step(1, c.warn)
				if err == nil {
					if math.Abs(rate.State-1) > 1e-6 {
						t.Fatalf("after the %s: joint at %v, want 1", c.sign, rate.State)
					}
				}
				if ok {
					driven, last = true, sp
				}
			}
			if !driven || last != c.setpointAt {
				t.Fatalf("after the %s: driven %v, set point %v for 1 rad, want %v", c.sign, driven, last, c.setpointAt)
			}
			if c.carried {
				if _, sp, _ := step(1.5, c.warn); sp != -1 {
					t.Errorf("1.5 rad after the carry: set point %v, want -1", sp)
				}
			}
			var sp *spark
			for _, d := range r.devs {
				if s, ok := d.(*spark); ok {
					sp = s
				}
			}
			rep := sp.Report(nil)[0]
			events := sp.Events(nil)
			if got := len(events) == 1; got != c.carried {
				t.Errorf("events %q, carried %v", events, c.carried)
			}
			hasNote := false
			for _, v := range rep.Values {
				hasNote = hasNote || v[0] == "position carried over"
			}
			if hasNote != c.carried || (c.carried && !rep.Warn) {
				t.Errorf("report %+v, carried %v", rep, c.carried)
			}
		})
	}
}

// Statuses lost and back (no "has reset"), the arm having gone from 1 rad
// to near 0 meanwhile. A CAN cable cut and restored, the SPARK powered,
// its encoder counting on (the arm fell to 0.05 rad): its Status 2 goes
// on at its period, coming back a cycle after Status 0 and 1 (their
// periods differ), and nothing may be carried: the joint reads 0.05 rad,
// not 1.05 (an arm 1 rad from where frcd thinks, its limits and set
// points off by as much). A reboot (the arm held where it was): no Status
// 2 until frcd enables it again (REV's default, frc.SparkEnabledByDefault),
// its encoder from 0: carried, the joint still at 1 rad.
func TestSparkCutCableNotCarried(t *testing.T) {
	for _, c := range []struct {
		name     string
		rebooted bool
		rotAfter float64 // Status 2's position after the sign
		want     float64 // the joint's position after
	}{
		{"cut cable", false, -0.1, 0.05},
		{"rebooted", true, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := bind(t, sparkLoopYAML)
			pos := command[float64](r, "arm_joint", interfaces.Position)
			rate, err := interfaces.State[interfaces.RateState](r.reg, "arm_joint", interfaces.Rate)
			if err != nil {
				t.Fatal(err)
			}
			rot := -2.0 // 1 rad
			// with2: Status 2 sent; off is a rebooted SPARK's until
			// enabled again.
			with2, off := true, false
			step := func() error {
				now := r.hal.Now()
				pos.Put(1, now)
				r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0, 0, 0x66, 0x16}}, now)
				r.hal.Bus.Inject(hal.Frame{ID: sparkS1_3, Len: 8}, now)
				if with2 {
					r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8, Data: frc.EncodeSparkStatus2(0, rot)}, now)
				}
				r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
				err := r.step(10 * time.Millisecond)
				if off && len(sentTo(r, sparkStatuses3)) > 0 {
					with2, off = true, false // enabled again: sent from now
				}
				sparkAckSent(r)
				return err
			}
			r.step(10 * time.Millisecond)
			answerVersion(r, 25)
			for range sparkBaseSteps + 6 {
				step()
			}
			if err := step(); err != nil || rate.State != 1 {
				t.Fatalf("before: Read %v, joint at %v", err, rate.State)
			}
			for range 35 { // nothing heard for 350 ms
				pos.Put(1, r.hal.Now())
				r.step(10 * time.Millisecond)
			}
			rot = c.rotAfter
			with2, off = false, c.rebooted // Status 0 and 1 come back first
			step()
			with2 = with2 || !c.rebooted
			for range sparkBaseSteps + 12 {
				if err := step(); err == nil && math.Abs(rate.State-c.want) > 1e-6 {
					t.Fatalf("after: joint at %v, want %v", rate.State, c.want)
				}
			}
			if err := step(); err != nil || math.Abs(rate.State-c.want) > 1e-6 {
				t.Fatalf("after: Read %v, joint at %v, want %v", err, rate.State, c.want)
			}
			for _, d := range r.devs {
				if s, ok := d.(*spark); ok {
					if ev := s.Events(nil); len(ev) != map[bool]int{false: 0, true: 1}[c.rebooted] {
						t.Errorf("events %q, rebooted %v", ev, c.rebooted)
					}
				}
			}
		})
	}
}
