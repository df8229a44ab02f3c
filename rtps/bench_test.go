package rtps

import (
	"context"
	"testing"
	"time"
)

func contextFor(testing.TB) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 20*time.Second)
}

// BenchmarkWrite is one 300-byte sample (about a 12-joint JointState)
// written to one matched reliable reader in another participant over
// 127.0.0.1: history (the evicted change's buffer reused), DATA,
// heartbeat, the datagram sent. The reading participant's copies of the
// samples it delivers are counted too (same process).
func BenchmarkWrite(b *testing.B) {
	a, err := Open(Config{Domain: testDomain()})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	r, err := Open(Config{Domain: testDomain()})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	q := QoS{Reliability: Reliable, History: KeepLast, Depth: 10}
	w, _ := a.NewWriter("rt/bench", "T", q)
	r.NewReader("rt/bench", "T", q, func(Sample) {})
	c, cancel := contextFor(b)
	defer cancel()
	if err := w.WaitMatched(c, 1); err != nil {
		b.Fatal(err)
	}
	p := payload(1, 300)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Write(p); err != nil {
			b.Fatal(err)
		}
	}
}
