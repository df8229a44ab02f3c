package ratelimit

import (
	"math/rand"
	"testing"
	"time"
)

// A publisher sampled on a loop's ticks, and woken late at random (a
// third of the ticks never read, never two in a row), keeps its rate on
// the Cadence's grid: the state topics at 50 Hz on a 100 Hz loop, and
// odometry at 50 Hz and 20 Hz checked at each state publication (as the
// bridges nest them), counted over 100 s of loop time, arrive at 50 ± 1
// Hz and 20 ± 1 Hz. (Restarting from each pass instead, as the bridges
// did, gives 45.2 Hz and 17.3 Hz on the first two.)
func TestCadenceKeepsRate(t *testing.T) {
	for _, tc := range []struct {
		loop, state time.Duration
		odom        float64 // Hz
	}{
		{10 * time.Millisecond, 20 * time.Millisecond, 50},
		{10 * time.Millisecond, 20 * time.Millisecond, 20},
		{20 * time.Millisecond, 40 * time.Millisecond, 20},
		{5 * time.Millisecond, 20 * time.Millisecond, 50},
		{5 * time.Millisecond, 20 * time.Millisecond, 20},
		{time.Millisecond, 10 * time.Millisecond, 50},
	} {
		rnd := rand.New(rand.NewSource(1))
		// as the bridges pace them: the state topics catch up a cycle, the
		// odometry (sampled at the state's publications) a state period
		// and a cycle
		state := Cadence{Period: tc.state, Slack: tc.loop / 2, CatchUp: tc.loop}
		odom := Cadence{Period: time.Duration(float64(time.Second) / tc.odom), Slack: tc.loop / 2, CatchUp: tc.state + tc.loop}
		const span = 100 * time.Second
		var states, odoms int
		skipped := false
		for now := time.Duration(0); now < span; now += tc.loop {
			if skipped = !skipped && rnd.Intn(3) == 0; skipped {
				continue // woken late: this tick's snapshot is never read
			}
			if !state.Due(now) {
				continue
			}
			states++
			if odom.Due(now) {
				odoms++
			}
		}
		got := float64(odoms) / span.Seconds()
		t.Logf("loop %v, state every %v, odometry %v Hz: state %.2f Hz, odometry %.2f Hz", tc.loop, tc.state, tc.odom,
			float64(states)/span.Seconds(), got)
		if got < tc.odom-1 || got > tc.odom+1 {
			t.Errorf("loop %v, odometry at %v Hz arrives at %.2f Hz", tc.loop, tc.odom, got)
		}
	}
}

// A pass within CatchUp of its grid time keeps the grid (the next comes
// sooner); a later one moves it, without a burst; Ready and Next say
// what Due will do without taking it; Restart passes at once; a zero
// Period passes every call.
func TestCadenceGrid(t *testing.T) {
	c := Cadence{Period: 100, Slack: 5, CatchUp: 20}
	if !c.Ready(0) || !c.Due(0) || c.Next() != 100 {
		t.Fatalf("first: next %v", c.Next())
	}
	if c.Ready(94) || c.Due(94) || !c.Ready(95) || !c.Due(95) || c.Next() != 200 {
		t.Fatalf("on the grid: next %v", c.Next())
	}
	if !c.Due(215) || c.Next() != 300 {
		t.Fatalf("15 late: next %v, want the grid kept", c.Next())
	}
	if !c.Due(350) || c.Next() != 430 || c.Due(420) {
		t.Fatalf("50 late: next %v, want 100 less CatchUp after the pass", c.Next())
	}
	if !c.Due(5000) || c.Next() != 5080 || c.Due(5010) {
		t.Fatalf("far behind: next %v, want no burst", c.Next())
	}
	c.Restart()
	if c.Next() != 0 || !c.Due(5011) {
		t.Fatal("after Restart: not due")
	}
	h := Cadence{Period: 100}
	h.Due(0)
	if h.Due(160); h.Next() != 210 {
		t.Fatalf("CatchUp 0 (half a period): next %v, want 210", h.Next())
	}
	z := Cadence{}
	if !z.Due(0) || !z.Due(0) {
		t.Fatal("zero period: not due")
	}
}

// TestOwn: a publisher woken at its own times is on its rate's grid,
// the state topics' period without a rate, with half a step of slack and
// a step of catch-up; woken a cycle late it keeps the grid.
func TestOwn(t *testing.T) {
	const step, every = 10 * time.Millisecond, 100 * time.Millisecond
	if c := Own(0, every, step); c.Period != every || c.Slack != step/2 || c.CatchUp != step {
		t.Errorf("Own(0) %+v, want period %v, slack %v, catch-up %v", c, every, step/2, step)
	}
	c := Own(50, every, step)
	if c.Period != 20*time.Millisecond {
		t.Fatalf("Own(50).Period %v, want 20ms", c.Period)
	}
	if !c.Due(0) || c.Due(10*time.Millisecond) || !c.Due(30*time.Millisecond) || c.Next() != 40*time.Millisecond {
		t.Errorf("woken a cycle late (30 ms for 20), next due at %v, want the grid's 40ms", c.Next())
	}
}
