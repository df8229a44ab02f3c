package rtps

import (
	"bytes"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
)

// TestWithdrawRestore: a writer and a reader of participant a, matched
// with b's reader and writer, are withdrawn: b learns it by SEDP (its
// endpoints lose their match, its remote endpoints lose a's), nothing a
// writes reaches b and nothing b writes reaches a; restored, they match
// again under their GUIDs, with their USER_DATA, and samples flow both
// ways. Fifty withdraw/restore rounds leave a's SEDP history as it was
// (one change per endpoint), and the builtin endpoints cannot be
// withdrawn.
func TestWithdrawRestore(t *testing.T) {
	a, b := open(t, Config{}), open(t, Config{})
	q := QoS{Reliability: Reliable, History: KeepLast, Depth: 10}
	const typ = "std_msgs::msg::dds_::String_"
	w, err := a.NewWriterUserData("rt/out", typ, q, []byte("typehash=x;"))
	if err != nil {
		t.Fatal(err)
	}
	atA := newCollector()
	r, err := a.NewReader("rt/in", typ, q, atA.add)
	if err != nil {
		t.Fatal(err)
	}
	atB := newCollector()
	rb, err := b.NewReader("rt/out", typ, q, atB.add)
	if err != nil {
		t.Fatal(err)
	}
	wb, err := b.NewWriter("rt/in", typ, q)
	if err != nil {
		t.Fatal(err)
	}
	matched := func(n int) {
		t.Helper()
		if err := b.waitFor(ctx(t), func() bool { return len(rb.writers) == n && len(wb.readers) == n }); err != nil {
			t.Fatalf("b's endpoints never had %d matches: %v", n, err)
		}
	}
	matched(1)
	if err := w.WaitMatched(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(payload(0, 8)); err != nil {
		t.Fatal(err)
	}
	if err := wb.Write(payload(0, 8)); err != nil {
		t.Fatal(err)
	}
	atB.wait(t, 1)
	atA.wait(t, 1)

	sedp := func() (int, int) {
		a.mu.Lock()
		defer a.mu.Unlock()
		return len(a.sedpPub.history), len(a.sedpSub.history)
	}
	pubs, subs := sedp()
	for round := 0; round < 50; round++ {
		if err := w.Withdraw(); err != nil {
			t.Fatal(err)
		}
		if err := r.Withdraw(); err != nil {
			t.Fatal(err)
		}
		if err := w.Withdraw(); err != nil { // twice: nothing
			t.Fatal(err)
		}
		if !w.Withdrawn() || !r.Withdrawn() {
			t.Fatal("not withdrawn")
		}
		if round == 0 {
			matched(0)
			b.mu.Lock()
			_, wKnown := b.remoteWriters[w.GUID()]
			_, rKnown := b.remoteReaders[r.GUID()]
			b.mu.Unlock()
			if wKnown || rKnown {
				t.Fatalf("b still knows a's writer (%v) or reader (%v)", wKnown, rKnown)
			}
			if w.Matched() != 0 || r.Matched() != 0 {
				t.Fatalf("withdrawn endpoints matched: writer %d, reader %d", w.Matched(), r.Matched())
			}
			// Written meanwhile: reaches no one (the next samples b
			// gets are those after Restore).
			if err := w.Write(payload(100, 8)); err != nil {
				t.Fatal(err)
			}
			if err := wb.Write(payload(100, 8)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Restore(); err != nil {
			t.Fatal(err)
		}
		if err := r.Restore(); err != nil {
			t.Fatal(err)
		}
		if w.Withdrawn() || r.Withdrawn() {
			t.Fatal("withdrawn after Restore")
		}
	}
	// b takes the rounds' SEDP changes after a made them: its endpoints
	// show one match both before and after the last ones, so wait for
	// b's SEDP readers to have taken a's last change (else the checks
	// below saw b mid-way, and its last re-match of a's reader came
	// after wb's sample: volatile, never sent to it).
	a.mu.Lock()
	pubSeq, subSeq := a.sedpPub.seq, a.sedpSub.seq
	a.mu.Unlock()
	tooltest.Eventually(t, 20*time.Second, "b took a's last SEDP changes", func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		pw := b.readers[EntitySEDPPubReader].writers[GUID{a.guid.Prefix, EntitySEDPPubWriter}]
		sw := b.readers[EntitySEDPSubReader].writers[GUID{a.guid.Prefix, EntitySEDPSubWriter}]
		return pw != nil && sw != nil && pw.next > pubSeq && sw.next > subSeq
	})
	if p, s := sedp(); p != pubs || s != subs {
		t.Errorf("a's SEDP history: %d publications, %d subscriptions after 50 rounds; %d and %d before", p, s, pubs, subs)
	}
	matched(1)
	b.mu.Lock()
	e := b.remoteWriters[w.GUID()]
	b.mu.Unlock()
	if e == nil || !bytes.Equal(e.UserData, []byte("typehash=x;")) || e.Topic != "rt/out" {
		t.Errorf("b knows the restored writer as %+v", e)
	}
	if err := w.WaitMatched(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitMatched(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(payload(1, 8)); err != nil {
		t.Fatal(err)
	}
	if err := wb.Write(payload(1, 8)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*collector{atA, atB} {
		got := c.wait(t, 2)
		checkInOrder(t, got[1:], 1, 1, 8) // sample 100 never came
	}
	if err := a.sedpPub.Withdraw(); err == nil {
		t.Error("withdrew the SEDP publications writer")
	}
	a.mu.Lock()
	sedpReader := a.readers[EntitySEDPPubReader]
	a.mu.Unlock()
	if err := sedpReader.Withdraw(); err == nil {
		t.Error("withdrew the SEDP publications reader")
	}
}
