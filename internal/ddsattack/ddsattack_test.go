package ddsattack

import (
	"context"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/frcd/frcd/rtps"
)

// waitFor polls cond (the target's counters: UDP gives no other signal)
// until it holds, or fails the test after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	limit := time.After(20 * time.Second)
	for !cond() {
		select {
		case <-tick.C:
		case <-limit:
			t.Fatalf("%s: not within 20 s", what)
		}
	}
}

// TestAttacksOnLoopback runs the attacks from 127.0.0.2 at a participant
// on 127.0.0.1 with a reliable writer: 1,000 fake participants take at
// most its per-address share (and do not evict the fake reader that
// acknowledged before them); that reader's ACKNACK storm is answered
// within its repair budget (refusals counted) and the attacker counts
// what came back; a real participant that joins afterwards gets the
// writer's new samples; a leave the attacker sends in its name (from
// loopback, so taken as its own) makes the target drop it.
func TestAttacksOnLoopback(t *testing.T) {
	domain := 150 + os.Getpid()%50
	target, err := rtps.Open(rtps.Config{Domain: domain, RepairLimit: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	q := rtps.QoS{Reliability: rtps.Reliable, History: rtps.KeepLast, Depth: 10}
	w, err := target.NewWriter("rt/t", "T", q)
	if err != nil {
		t.Fatal(err)
	}
	sample := append([]byte{0, 1, 0, 0}, make([]byte, 1000)...)
	for range 10 {
		w.Write(sample)
	}
	to := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(target.Ports().MetaUnicast()))
	a, err := New(netip.MustParseAddr("127.0.0.2"), to)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// The storming reader first, while the address has room.
	p, err := a.NewParticipant()
	if err != nil {
		t.Fatal(err)
	}
	writer, err := a.Writer(ctx, "rt/t")
	if err != nil {
		t.Fatal(err)
	}
	reader, err := p.Reader(1, "rt/t", "T")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the fake reader matched", func() bool { return w.Matched() == 1 })
	// One ACKNACK answered makes it a reader that acknowledges, which the
	// flood from its own address cannot evict.
	before := a.Received.Load()
	if err := p.AckNack(reader, writer, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first ACKNACK answered", func() bool { return a.Received.Load() > before })

	if _, err := a.Participants(ctx, 1000, 50, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "1,000 fake participants taken or refused", func() bool {
		s := target.Stats()
		return s.IgnoredPeers+s.Evicted >= 1000-32
	})
	if s := target.Stats(); s.Participants > 32 {
		t.Fatalf("%d participants from one address, want at most 32", s.Participants)
	}

	for range 2000 {
		if err := p.AckNack(reader, writer, 1); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "repairs refused over the budget", func() bool { return target.Stats().RepairsDropped > 0 })
	if a.Received.Load() == 0 {
		t.Fatal("nothing came back to the attacker")
	}

	real, err := rtps.Open(rtps.Config{Domain: domain})
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	got := make(chan struct{}, 100)
	r, _ := real.NewReader("rt/t", "T", q, func(rtps.Sample) { got <- struct{}{} })
	if err := r.WaitMatched(ctx, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the writer matched the real reader", func() bool { return w.Matched() == 2 })
	for range 5 {
		w.Write(sample)
	}
	for i := range 5 {
		select {
		case <-got:
		case <-ctx.Done():
			t.Fatalf("the real reader got %d samples of 5; target stats %+v", i, target.Stats())
		}
	}
	// A leave in the real participant's name. On loopback frcd takes it
	// as the participant's own (any address of this host may speak for a
	// participant on it), which shows that Leave's message is a leave; from
	// another host it is ignored (rtps TestLeaveOnlyFromItsAddress, and
	// make attack in its network namespace).
	if err := a.Leave(real.GUID().Prefix); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the real reader dropped on its leave", func() bool { return w.Matched() == 1 })
	t.Logf("attacker received %d bytes in %d datagrams; target %+v", a.Received.Load(), a.Datagrams.Load(), target.Stats())
}
