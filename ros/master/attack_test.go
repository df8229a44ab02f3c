package master

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestEncodedLen: the count every limit uses is the length encodeValue
// writes, escapes, invalid UTF-8, large integers and odd floats included,
// and a count stopped at a limit is over it exactly when the value is.
func TestEncodedLen(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	strs := []string{"", "plain", "a&b<c>d", "\x00\x01\t\n\r", "\xff\xfe", "\uFFFE\uFFFF\uFFFD", "é😀", strings.Repeat("&", 100)}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch k := rng.Intn(9); {
		case k == 0:
			return nil
		case k == 1:
			return rng.Intn(2) == 0
		case k == 2:
			return []int{0, -1, math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt64}[rng.Intn(6)]
		case k == 3:
			return []float64{0, -1.5, 1e300, math.NaN(), math.Inf(1), math.Inf(-1), 1.0 / 3}[rng.Intn(7)]
		case k == 4:
			return strs[rng.Intn(len(strs))] + strs[rng.Intn(len(strs))]
		case k == 5:
			return []byte(strs[rng.Intn(len(strs))])
		case k == 6 && depth < 4:
			a := []any{}
			for range rng.Intn(4) {
				a = append(a, gen(depth+1))
			}
			return a
		case depth < 4:
			m := map[string]any{}
			for range rng.Intn(4) {
				m[strs[rng.Intn(len(strs))]+fmt.Sprint(rng.Intn(3))] = gen(depth + 1)
			}
			return m
		}
		return int64(7)
	}
	for i := 0; i < 3000; i++ {
		v := gen(0)
		var b bytes.Buffer
		if err := encodeValue(&b, v, 0); err != nil {
			t.Fatal(err)
		}
		if got := encodedLen(v, math.MaxInt); got != b.Len() {
			t.Fatalf("encodedLen(%#v) = %d, encodeValue wrote %d: %q", v, got, b.Len(), b.String())
		}
		limit := rng.Intn(b.Len() + 10)
		if over := encodedLen(v, limit) > limit; over != (b.Len() > limit) {
			t.Fatalf("encodedLen(%#v, %d) over: %v, but the encoding is %d", v, limit, over, b.Len())
		}
	}
}

// TestMasterAttacks reruns the attacks of issue 32 on a master with a
// state file, each bounded in count: 17 parameters of 3.9 MB, then 8
// concurrent getParam("/"); a registration flood through
// system.multicall (40 calls of 1,000 registerPublisher, distinct nodes
// and topics). At most maxHandling requests are decoded and answered at
// once. Each refusal is answered with the limit it passes; the
// memory allocated by the 8 getParams and the process's memory stay
// bounded; the state file stays within what its reader takes; and a new
// master on that file has every parameter that was accepted.
func TestMasterAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("moves about 100 MB over loopback: skipped with -short")
	}
	state := filepath.Join(t.TempDir(), "master.state")
	var logged atomic.Int64
	logf := func(string, ...any) { logged.Add(1) }
	m := startMaster(t, Options{StateFile: state, Logf: logf})
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	big := strings.Repeat("x", 3_900_000)
	var accepted []string
	for i := range 17 {
		key := fmt.Sprintf("/attack/p%d", i)
		r := api(t, m, "setParam", "/attacker", key, big)
		switch {
		case r[0] == 1:
			accepted = append(accepted, key)
		case !strings.Contains(fmt.Sprint(r[1]), "over its limit of 8 MiB"):
			t.Errorf("setParam %s refused without the limit: %v", key, r)
		}
	}
	if len(accepted) != 2 {
		t.Errorf("%d parameters of 3.9 MB accepted, want 2 (8 MiB)", len(accepted))
	}
	wantOK(t, m, "setParam", "/attacker", "/small/gain", 7.5)

	// The getParams on a master of the same parameters without a state
	// file, whose writer would allocate meanwhile.
	bare := startMaster(t, Options{Logf: logf})
	for _, key := range accepted {
		if err := bare.SetParam(key, big); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	var mid runtime.MemStats
	runtime.ReadMemStats(&mid)
	var wg sync.WaitGroup
	replies := make([][]any, 8)
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := Call(context.Background(), bare.URI(), "getParam", "/attacker", "/")
			if err != nil {
				t.Errorf("getParam /: %v", err)
				return
			}
			replies[i], _ = v.([]any)
		}()
	}
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	for _, r := range replies {
		if len(r) != 3 || r[0] != -1 || !strings.Contains(fmt.Sprint(r[1]), "the master's limit on a reply") {
			t.Errorf("getParam / over the reply limit answered %.200v", r)
		}
	}
	// Before: each getParam("/") encoded the whole tree (66 MB) twice, about
	// 1 GB for the eight. TotalAlloc is the whole process's: the first
	// master's state file written meanwhile counts too (15 MiB was seen on
	// a loaded machine), so the bound is far above that and far below 1 GB.
	if alloc := after.TotalAlloc - mid.TotalAlloc; alloc > 64<<20 {
		t.Errorf("8 getParam(/) allocated %d MiB, want under 64", alloc>>20)
	}
	// The subtrees that fit are still served.
	if v := wantOK(t, m, "getParam", "/attacker", accepted[0]); v != big {
		t.Errorf("getParam %s: not the value set", accepted[0])
	}

	// The registration flood: 40,000 names on one dead API. MaxNodesPerAPI
	// of them are taken (and a few more when a sweep drops them
	// meanwhile: a run under -race on a loaded machine lasts minutes).
	refused, taken := 0, 0
	for c := range 40 {
		calls := make([]any, 1000)
		for i := range calls {
			n := c*1000 + i
			calls[i] = map[string]any{"methodName": "registerPublisher", "params": []any{
				fmt.Sprintf("/flood%d", n), fmt.Sprintf("/flood/topic%d", n), "std_msgs/String", fmt.Sprintf("http://127.0.0.1:1/%d", n)}}
		}
		v, err := Call(context.Background(), m.URI(), "system.multicall", calls)
		if err != nil {
			t.Fatalf("multicall %d: %v", c, err)
		}
		for _, r := range v.([]any) {
			if w, ok := r.([]any); ok && len(w) == 1 {
				if res, _ := w[0].([]any); len(res) == 3 && res[0] != 1 {
					refused++
				} else if len(res) == 3 {
					taken++
				}
			}
		}
	}
	m.mu.Lock()
	regs, graph := m.registrations(), m.graphBytes()
	m.mu.Unlock()
	if regs > MaxNodesPerAPI || graph > MaxGraphBytes || refused != 40000-taken || taken < regs {
		t.Errorf("after the flood: %d registrations (limit %d names on one API), %d graph bytes (limit %d), %d accepted, %d refused", regs, MaxNodesPerAPI, graph, MaxGraphBytes, taken, refused)
	}
	if int(m.Refused()) < refused+len(replies) {
		t.Errorf("Refused() = %d, want at least %d", m.Refused(), refused+len(replies))
	}
	// The reply that grows with the graph is bounded too.
	if r := api(t, m, "getTopicTypes", "/frcd"); r[0] != 1 && !strings.Contains(fmt.Sprint(r[1]), "limit on a reply") {
		t.Errorf("getTopicTypes: %.200v", r)
	}
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	t.Logf("memory: heap in use %d MiB before, %d MiB after; obtained from the OS %d MiB; %d registrations, %d refused; %d log lines",
		before.HeapInuse>>20, end.HeapInuse>>20, end.Sys>>20, regs, m.Refused(), logged.Load())
	if end.Sys > 300<<20 {
		t.Errorf("the process obtained %d MiB from the OS, want under 300", end.Sys>>20)
	}

	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(state)
	if err != nil || fi.Size() > MaxStateBytes {
		t.Fatalf("state file: %v, %v bytes (limit %d)", err, fi, MaxStateBytes)
	}
	m2 := New(Options{StateFile: state, Logf: logf})
	defer m2.Close()
	for _, key := range accepted {
		if v, ok := m2.GetParam(key); !ok || v != big {
			t.Errorf("after the restart %s is lost", key)
		}
	}
	if v, ok := m2.GetParam("/small/gain"); !ok || v != 7.5 {
		t.Errorf("after the restart /small/gain = %v, %v", v, ok)
	}
	m2.mu.Lock()
	restored := m2.registrations()
	m2.mu.Unlock()
	t.Logf("state file %d bytes (limit %d); %d registrations restored", fi.Size(), MaxStateBytes, restored)
}

// TestHandlingSlots: with maxHandling requests being handled, one more
// waits (its body read) until a slot frees, then is answered.
func TestHandlingSlots(t *testing.T) {
	m := startMaster(t, Options{})
	for range maxHandling {
		m.handling <- struct{}{} // as if maxHandling requests were being handled
	}
	answered := make(chan []any, 1)
	go func() {
		v, err := Call(context.Background(), m.URI(), "getPid", "/t")
		if err != nil {
			t.Error(err)
		}
		r, _ := v.([]any)
		answered <- r
	}()
	for m.waiting.Load() == 0 { // read, waiting for a slot
		runtime.Gosched()
	}
	if len(answered) > 0 {
		t.Fatal("answered while every slot was held")
	}
	<-m.handling
	if r := <-answered; len(r) != 3 || r[0] != 1 {
		t.Errorf("getPid after a slot freed: %v", r)
	}
	for range maxHandling - 1 {
		<-m.handling
	}
}
