package ros2bridge

import "time"

// Update is Run's answer to one of the loop's notifications (update):
// whether it published, and the loop time of the snapshot it holds.
func (b *Bridge) Update() (time.Duration, bool) { ok := b.update(); return b.snap.Now, ok }
