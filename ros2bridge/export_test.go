package ros2bridge

import "time"

// Update is Run's answer to one of the loop's notifications (update):
// whether it published, and the loop time of the last cycle it published.
func (b *Bridge) Update() (time.Duration, bool) { ok := b.update(); return b.lastCycle, ok }

// NextWake is the loop time from which Run asks the loop to wake it next
// (nextWake): 0 for every cycle.
func (b *Bridge) NextWake() time.Duration { return b.nextWake() }

// UpdateAsk is Run's answer to a notification: update, then the loop time
// from which it asks to be signalled (answer).
func (b *Bridge) UpdateAsk() { b.answer() }

// Wanted is the loop time from which the loop signals Run (its last
// request, or a controller's start since: Manager.OnStart).
func (b *Bridge) Wanted() time.Duration { return b.updated.Wanted() }

// LastCycle is the loop time of the last cycle /joint_states published.
func (b *Bridge) LastCycle() time.Duration { return b.lastCycle }
