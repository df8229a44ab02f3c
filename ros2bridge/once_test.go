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
// snapshot it announces) with the clock already past the next due time
// publishes nothing, and over 3,000 notifications mixed at random (a
// new snapshot, two, a leftover) no snapshot goes out twice: every
// published loop time is later than the one before, and each publication
// counts one /joint_states.
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
	if !ok {
		t.Fatal("a new snapshot on time was not published")
	}
	ahead.Store(int64(period))
	if now, ok := b.Update(); ok {
		t.Fatalf("a leftover notification published the snapshot at %v again (first at %v)", now, first)
	}
	if n := b.Stats().JointStates; n != 1 {
		t.Fatalf("%d joint states published, want 1", n)
	}

	rnd := rand.New(rand.NewSource(1))
	last, published, leftovers := first, uint64(1), 0
	for range 3000 {
		ahead.Store(0)
		switch rnd.Intn(4) {
		case 0: // a new snapshot
			d.Step()
		case 1: // two cycles before the bridge woke
			d.Step()
			d.Step()
		case 2: // a leftover, the clock a cycle on
			ahead.Store(int64(period))
			leftovers++
		case 3: // a leftover, the clock where it was
			leftovers++
		}
		now, ok := b.Update()
		if !ok {
			continue
		}
		published++
		if now <= last {
			t.Fatalf("published the snapshot at %v after the one at %v", now, last)
		}
		last = now
		if n := b.Stats().JointStates; n != published {
			t.Fatalf("%d joint states for %d publications", n, published)
		}
	}
	if published < 1000 || leftovers < 1000 {
		t.Fatalf("%d publications, %d leftovers: the mix did not cover both", published, leftovers)
	}
	t.Logf("%d publications, %d leftover notifications, none repeated", published, leftovers)
}
