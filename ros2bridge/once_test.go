package ros2bridge_test

import (
	"math/rand"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frcd/frcd/ros2bridge"
)

// TestEverySampleOnce drives the bridge as Run does, one notification at
// a time, on the stepped sim with the bridge's clock a cycle ahead at
// times: a leftover notification (sent while the bridge was reading the
// cycle it announces) publishes nothing, and over 3,000 notifications
// mixed at random (a new cycle, two or three cycles before the bridge
// woke, a leftover) every cycle goes out once, in order: the joint states
// published equal the cycles stepped, and each update's last publication
// is the newest cycle, later than the one before.
func TestEverySampleOnce(t *testing.T) {
	var ahead atomic.Int64 // how far the bridge's clock is past the loop's last cycle
	d, b, _ := newBridge(t, nil, func(o *ros2bridge.Options) {
		loop := o.Clock
		o.Clock = func() time.Duration { return loop() + time.Duration(ahead.Load()) }
	})
	period := d.Loop.Period()
	if b.Every() != period {
		t.Fatalf("state topics every %v, loop period %v: the test wants them equal", b.Every(), period)
	}

	// The case the issue saw: a publication, then the loop's next cycle
	// notifies while the bridge still reads the last, then its clock
	// moves on a cycle before the bridge looks at the leftover.
	d.Step()
	first, ok := b.Update()
	if !ok || first != d.Now() {
		t.Fatalf("a new cycle on time was not published (%v, %v at %v)", ok, first, d.Now())
	}
	ahead.Store(int64(period))
	if now, ok := b.Update(); ok {
		t.Fatalf("a leftover notification published the cycle at %v again (first at %v)", now, first)
	}
	if n := b.Stats().JointStates; n != 1 {
		t.Fatalf("%d joint states published, want 1", n)
	}

	rnd := rand.New(rand.NewSource(1))
	last, cycles, late, leftovers := first, uint64(1), 0, 0
	for range 3000 {
		ahead.Store(0)
		stepped := 0
		switch k := rnd.Intn(5); k {
		case 0: // a new cycle
			stepped = 1
		case 1, 2: // two or three cycles before the bridge woke
			stepped = k + 1
			late++
		case 3: // a leftover, the clock a cycle on
			ahead.Store(int64(period))
			leftovers++
		case 4: // a leftover, the clock where it was
			leftovers++
		}
		for range stepped {
			d.Step()
		}
		cycles += uint64(stepped)
		now, ok := b.Update()
		if ok != (stepped > 0) {
			t.Fatalf("%d new cycles: published %v", stepped, ok)
		}
		if n := b.Stats().JointStates; n != cycles {
			t.Fatalf("%d joint states for %d cycles", n, cycles)
		}
		if !ok {
			continue
		}
		if now <= last || now != d.Now() {
			t.Fatalf("published up to the cycle at %v after the one at %v (the loop at %v)", now, last, d.Now())
		}
		last = now
	}
	if late < 1000 || leftovers < 1000 {
		t.Fatalf("%d late wake-ups, %d leftovers: the mix did not cover both", late, leftovers)
	}
	t.Logf("%d cycles, each published once (%d wake-ups after two or three cycles, %d leftover notifications)", cycles, late, leftovers)
}
