package master

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Node life: names reused, dead and hanging nodes, the notifier, Close.

func TestNameReuseShutsDownOldNode(t *testing.T) {
	m := startMaster(t, Options{})
	old, repl, sub := newFakeNode(t), newFakeNode(t), newFakeNode(t)
	wantOK(t, m, "registerSubscriber", "/sub", "/t", "std_msgs/Empty", sub.api())
	wantOK(t, m, "registerPublisher", "/n", "/t", "std_msgs/Empty", old.api())
	wantOK(t, m, "registerService", "/n", "/s", "rosrpc://h:1", old.api())
	if c := sub.next(t); !reflect.DeepEqual(c.params[2], []any{old.api()}) {
		t.Fatalf("got %#v", c)
	}
	// Same name, new API: the old node is told to shut down and its
	// registrations are gone; subscribers of its topics are updated.
	wantOK(t, m, "registerSubscriber", "/n", "/other", "std_msgs/Empty", repl.api())
	if c := old.next(t); c.method != "shutdown" || c.params[0] != "/master" {
		t.Errorf("old node got %#v", c)
	}
	if c := sub.next(t); !reflect.DeepEqual(c.params, []any{"/master", "/t", []any{}}) {
		t.Errorf("subscriber got %#v", c)
	}
	if v := wantOK(t, m, "lookupNode", "/x", "/n"); v != repl.api() {
		t.Errorf("lookupNode = %v", v)
	}
	if r := api(t, m, "lookupService", "/x", "/s"); r[0] != -1 {
		t.Errorf("old service still registered: %#v", r)
	}
	state := wantOK(t, m, "getSystemState", "/x").([]any)
	if !reflect.DeepEqual(state[0], []any{}) {
		t.Errorf("old publication still registered: %#v", state[0])
	}
}

// hangingNode accepts connections and never answers.
func hangingNode(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return "http://" + l.Addr().String() + "/"
}

func TestDeadNodeDoesNotStallMaster(t *testing.T) {
	m := New(Options{Logf: t.Logf, NotifyTimeout: time.Hour})
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	dead := hangingNode(t)
	live := newFakeNode(t)
	wantOK(t, m, "registerSubscriber", "/dead", "/t", "std_msgs/Empty", dead)
	wantOK(t, m, "registerSubscriber", "/live", "/t", "std_msgs/Empty", live.api())
	for i := 0; i < 3; i++ {
		api := live.api() + strings.Repeat("x", i)
		wantOK(t, m, "registerPublisher", "/pub"+strings.Repeat("x", i), "/t", "std_msgs/Empty", api)
	}
	// The live node gets its updates while the dead one hangs.
	for {
		c := live.next(t)
		if len(c.params[2].([]any)) == 3 {
			break
		}
	}
	// More updates for the hanging node coalesce into one per topic.
	m.notifier.mu.Lock()
	q := m.notifier.queues[dead]
	if q == nil || len(q.pending) > 1 {
		t.Errorf("dead node queue: %+v", q)
	}
	m.notifier.mu.Unlock()
	// Close aborts the hanging call and returns.
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if !m.notifier.idle() {
		t.Error("notifications still pending after Close")
	}
	if err := m.Start("127.0.0.1:0"); err == nil {
		t.Error("Start after Close succeeded")
	}
}

func TestNotifierOrderAndCoalescing(t *testing.T) {
	release := make(chan struct{})
	inFlight := make(chan struct{})
	var mu sync.Mutex
	var got []string
	first := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, params, err := DecodeCall(r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		wait := first
		first = false
		got = append(got, params[1].(string)+"="+params[2].(string))
		mu.Unlock()
		if wait {
			close(inFlight)
			<-release // hold the queue until everything is enqueued
		}
		var b bytes.Buffer
		_ = EncodeResponse(&b, []any{1, "", 0})
		_, _ = w.Write(b.Bytes())
	}))
	defer srv.Close()
	nt := newNotifier(&Client{}, testTimeout, t.Logf)
	done := make(chan struct{})
	send := func(key, val string, last bool) {
		n := notification{key: "paramUpdate\x00" + key, method: "paramUpdate", args: []any{"/master", key, val}}
		if last {
			n.done = func(any, error) { close(done) }
		}
		nt.enqueue(srv.URL, n)
	}
	send("/a", "1", false) // in flight, held
	select {
	case <-inFlight:
	case <-time.After(testTimeout):
		t.Fatal("first notification never sent")
	}
	send("/b", "1", false)
	send("/a", "2", false)
	send("/b", "2", false)
	send("/c", "1", false)
	send("/a", "3", true)
	close(release)
	select {
	case <-done:
	case <-time.After(testTimeout):
		t.Fatal("notifications not delivered")
	}
	nt.close()
	want := []string{"/a=1", "/b=2", "/c=1", "/a=3"}
	mu.Lock()
	defer mu.Unlock()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("delivered %v, want %v", got, want)
	}
}

func TestCloseIsPromptAndIdempotent(t *testing.T) {
	m := New(Options{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- m.Serve(l) }()
	// A connection left open by a client must not keep Close waiting.
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if _, err := Call(ctx, "http://"+l.Addr().String()+"/", "getPid", "/x"); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve returned %v", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("Serve did not return after Close")
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct{ name, caller, want string }{
		{"/a/b", "/x/y", "/a/b"},
		{"b", "/x/y", "/x/b"},
		{"~b", "/x/y", "/x/y/b"},
		{"b//c/", "/x/y", "/x/b/c"},
		{"", "/x/y", "/x/"},
		{"b", "/y", "/b"},
	} {
		if got := resolveName(tc.name, tc.caller); got != tc.want {
			t.Errorf("resolveName(%q, %q) = %q, want %q", tc.name, tc.caller, got, tc.want)
		}
	}
}

func containsValue(list []any, v any) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

func TestCloseLeavesNoGoroutines(t *testing.T) {
	node := newFakeNode(t)
	// A client without keep-alive, so that its own connections do not count.
	client := &Client{HTTP: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}

	m := New(Options{Logf: t.Logf, NotifyTimeout: time.Hour})
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	for _, c := range []struct {
		method string
		params []any
	}{
		{"registerSubscriber", []any{"/s", "/t", "std_msgs/Empty", node.api()}},
		{"registerSubscriber", []any{"/hung", "/t", "std_msgs/Empty", hangingNode(t)}}, // its update is in flight at Close
		{"registerPublisher", []any{"/p", "/t", "std_msgs/Empty", "http://127.0.0.1:1/"}},
		{"subscribeParam", []any{"/s", node.api(), "/k"}},
		{"setParam", []any{"/p", "/k", 1}},
	} {
		if _, err := client.Call(ctx, m.URI(), c.method, c.params...); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 2; i++ {
		node.next(t)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	// Close waits for every goroutine the master started, so none may
	// still run master code now (net/http's own connection goroutines end
	// on their own, after; they run none of ours). One that has called
	// its WaitGroup's Done may not have returned yet: on a loaded machine
	// it shows in the stacks for a moment (its deferred Done's line), so
	// the check is repeated for a while before it fails.
	buf := make([]byte, 1<<20)
	masterCode := func() string {
		all := string(buf[:runtime.Stack(buf, true)])
		for _, g := range strings.Split(all, "\n\n")[1:] { // [0] is this test's goroutine
			for _, line := range strings.Split(g, "\n") {
				if strings.Contains(line, "/ros/master/") && strings.Contains(line, ".go:") && !strings.Contains(line, "_test.go:") {
					return g
				}
			}
		}
		return ""
	}
	deadline := time.Now().Add(2 * time.Second)
	for g := masterCode(); g != ""; g = masterCode() {
		if time.Now().After(deadline) {
			t.Fatalf("a goroutine still runs master code 2 s after Close:\n%s", g)
		}
		runtime.Gosched()
	}
}
