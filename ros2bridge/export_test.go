package ros2bridge

import "time"

// Update is Run's answer to one of the loop's notifications (update):
// whether it published, and the loop time of the last cycle it published.
func (b *Bridge) Update() (time.Duration, bool) { ok := b.update(); return b.lastCycle, ok }

// NextWake is the loop time from which Run asks the loop to wake it next
// (nextWake): 0 for every cycle.
func (b *Bridge) NextWake() time.Duration { return b.nextWake() }
