package daemon

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/nt4/wire"
)

// TestTelemetryEveryCycleOfTwo reproduces, deterministically, what
// nt4's TestLoggingModeEveryCycle met under load (498 samples of a
// moving wheel over 502 cycles): the loop runs two cycles before the
// telemetry goroutine samples once, the second a catch-up cycle right
// after a late one (Run does not wait when behind), in which the wheel's
// encoder has not moved a count. Both cycles reach an NT4 client
// subscribed to every value (AdvantageScope's logging mode) and the
// WPILOG, each stamped with its own cycle's time; the loop's cycle count
// comes from the newest snapshot, once.
func TestTelemetryEveryCycleOfTwo(t *testing.T) {
	dir := t.TempDir()
	d := telemetryDaemon(t, 100, dir)
	p := d.tel.src.Prefix()
	pos, cycles := p+"/joints/right_front_wheel_joint/position", p+"/loop/cycles"
	command(d)
	d.Step()
	d.StepTelemetry()
	c := ntReader(t, d, true, 20*time.Millisecond, pos, cycles)
	for range 50 { // the wheel up to speed
		command(d)
		d.Step()
		d.StepTelemetry()
	}
	us := func(at time.Duration) int64 { return int64(at / time.Microsecond) }
	// latest waits for the client's value of name stamped at (its time on
	// the wire), stepping nothing, and returns its update count and raw
	// value.
	latest := func(name string, at time.Duration) (uint64, []byte) {
		t.Helper()
		guard := time.NewTimer(10 * time.Second)
		defer guard.Stop()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var n uint64
			var raw []byte
			var when int64
			c.Read(name, func(ct *wire.ClientTopic) { n, raw, when = ct.Updates, append(raw, ct.Value.Raw...), ct.Value.Time })
			if when == us(at) {
				return n, raw
			}
			select {
			case <-tick.C:
			case <-guard.C:
				t.Fatalf("%s: no value stamped %v µs within 10 s (the latest at %v µs, %d values)", name, us(at), when, n)
			}
		}
	}
	before, _ := latest(pos, d.now)
	cyclesBefore, _ := latest(cycles, d.now)

	snap := d.Loop.NewSnapshot()
	joint := -1
	d.Loop.ReadSnapshot(snap)
	for i, j := range snap.Joints {
		if p+"/joints/"+j.Name+"/position" == pos {
			joint = i
		}
	}
	if joint < 0 {
		t.Fatal("no right_front_wheel_joint in the snapshot")
	}
	d.Step() // late: the runner catches up at once
	t1 := d.now
	d.Loop.ReadSnapshot(snap)
	p1 := snap.Joints[joint].State.Position
	d.now += 50 * time.Microsecond
	d.advance(d.now)
	d.Loop.Cycle(d.now)
	t2 := d.now
	d.Loop.ReadSnapshot(snap)
	p2 := snap.Joints[joint].State.Position
	if v := snap.Joints[joint].State.Velocity; math.Abs(v) < 1 {
		t.Fatalf("the wheel at %v rad/s: want it moving", v)
	}
	if p1 != p2 { // the case reproduced: a moving wheel, the same count
		t.Fatalf("positions %v then %v 50 µs later: want the encoder not to have moved a count", p1, p2)
	}
	d.StepTelemetry() // one sample for both cycles

	after, raw := latest(pos, t2)
	if got := after - before; got != 2 {
		t.Errorf("%d values of %s for 2 cycles, want 2", got, pos)
	}
	if v, _, err := msgp.ReadFloat64Bytes(raw); err != nil || v != p2 {
		t.Errorf("%s: %v (%v), want %v", pos, v, err, p2)
	}
	if n, _ := latest(cycles, t2); n-cyclesBefore != 1 {
		t.Errorf("%d values of %s for one sample, want 1", n-cyclesBefore, cycles)
	}

	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	starts, records := logRecords(t, dir)
	st, ok := starts["NT:"+pos]
	if !ok {
		t.Fatalf("no entry NT:%s in the log", pos)
	}
	var stamps []int64
	var values []float64
	for _, r := range records {
		if r.Entry == st.Entry && len(r.Payload) == 8 {
			stamps = append(stamps, r.Time)
			values = append(values, math.Float64frombits(binary.LittleEndian.Uint64(r.Payload)))
		}
	}
	if n := len(stamps); n < 2 {
		t.Fatalf("%d records of %s, want the two cycles' at least", n, pos)
	}
	for i := 1; i < len(stamps); i++ {
		if stamps[i] <= stamps[i-1] {
			t.Errorf("log stamps of %s not increasing: %d then %d", pos, stamps[i-1], stamps[i])
		}
	}
	n := len(stamps)
	if stamps[n-2] != us(t1) || stamps[n-1] != us(t2) || values[n-2] != p1 || values[n-1] != p2 {
		t.Errorf("the log's last two records of %s: %v at %v µs, %v at %v µs; want %v at %v, %v at %v",
			pos, values[n-2], stamps[n-2], values[n-1], stamps[n-1], p1, us(t1), p2, us(t2))
	}
}
