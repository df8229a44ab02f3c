package ratelimit

import "time"

// Cadence paces a publisher at Period of the caller's clock (a topic's
// publish_rate) on a grid: each pass moves the next due time on by
// Period, not to the time it passed, as diff_drive_controller advances
// last_state_publish_time_ by publish_period_. Sampled on a coarser clock
// (the loop's cycles, a goroutine woken late) a pass comes up to a step
// late, and restarting from each pass would lose that step every period
// (odometry at 20 Hz on 50 Hz state publications read late: 14.6 Hz); on
// the grid the next pass comes that much sooner. A pass later than
// CatchUp moves the grid (the next is due a Period less CatchUp after
// it): a caller far behind neither bursts nor makes up for what it
// missed. The zero Cadence with Period set passes at its first call; not
// safe for concurrent use.
type Cadence struct {
	// Period between passes; 0 or less passes every call.
	Period time.Duration
	// Slack is how early a pass may come: half the step of the clock it
	// is sampled on (half a loop period), so that a tick due a hair
	// after the grid's time is not put off a whole step.
	Slack time.Duration
	// CatchUp is how late a pass may be and the grid stay; 0 or less:
	// half a Period.
	CatchUp time.Duration

	next    time.Duration
	started bool
}

// Due says whether a pass is due at now, and if so takes it.
func (c *Cadence) Due(now time.Duration) bool {
	if c.Period <= 0 {
		return true
	}
	if c.started && now < c.next-c.Slack {
		return false
	}
	catch := c.CatchUp
	if catch <= 0 {
		catch = c.Period / 2
	}
	if !c.started {
		c.next, c.started = now, true
	}
	c.next = max(c.next+c.Period, now+c.Period-min(catch, c.Period))
	return true
}

// Ready says whether Due would pass at now, without taking it.
func (c *Cadence) Ready(now time.Duration) bool {
	return c.Period <= 0 || !c.started || now >= c.next-c.Slack
}

// Next is when the next pass is due on the grid (it may pass Slack
// sooner); 0 before the first.
func (c *Cadence) Next() time.Duration {
	if !c.started {
		return 0
	}
	return c.next
}

// Restart forgets the grid: the next call passes.
func (c *Cadence) Restart() { c.started = false }

// Hz is a Cadence at rate a second (0 or less: every call) for a
// publisher that looks at calls every apart on a clock of step (a
// drive base's odometry, looked at with each state publication on the
// loop's cycles): Slack half a step, CatchUp every and a step.
func Hz(rate float64, step, every time.Duration) Cadence {
	c := Cadence{Slack: step / 2, CatchUp: every + step}
	if rate > 0 {
		c.Period = time.Duration(float64(time.Second) / rate)
	}
	return c
}

// Own is the Cadence of a publisher woken at its own times (the loop's
// notice set from its Next): rate a second, or every apart when rate is 0
// or less (a broadcaster's publish_rate defaulting to the state topics'),
// sampled on a clock of step (the loop's cycles): Slack half a step,
// CatchUp a step, as the joint states' grid.
func Own(rate float64, every, step time.Duration) Cadence {
	c := Cadence{Period: every, Slack: step / 2, CatchUp: step}
	if rate > 0 {
		c.Period = time.Duration(float64(time.Second) / rate)
	}
	return c
}
