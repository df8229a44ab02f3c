package master

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// pidNode is a node's API that answers getPid, and nothing else it
// records; closing it makes the node dead (its port refuses).
func pidNode(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		_ = EncodeResponse(&b, []any{1, "", 42})
		_, _ = w.Write(b.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv
}

// fill registers node id at api on n topics from address from, in
// multicalls as a flood would, and returns how many were accepted.
func fill(m *Master, from, id, api string, n int) int {
	ok := 0
	for start := 0; start < n; start += 1000 {
		calls := make([]any, 0, 1000)
		for i := start; i < min(n, start+1000); i++ {
			calls = append(calls, map[string]any{"methodName": "registerPublisher", "params": []any{id, fmt.Sprintf("/fill%s/t%d", id, i), "std_msgs/String", api}})
		}
		v, _ := m.dispatch("system.multicall", []any{calls}, from)
		for _, r := range v.([]any) {
			if w, _ := r.([]any); len(w) == 1 {
				if res, _ := w[0].([]any); len(res) == 3 && res[0] == 1 {
					ok++
				}
			}
		}
	}
	return ok
}

func lookup(m *Master, id string) string {
	r := m.call(apiMethods["lookupNode"], []any{"/t", id}, "")
	s, _ := r[2].(string)
	return s
}

// TestSweepDropsDead: a sweep drops a node whose API refuses at once, one
// that does not answer at its second miss, and keeps the living; the
// state file then holds the living only.
func TestSweepDropsDead(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	m := New(Options{Logf: t.Logf, StateFile: state, SweepEvery: -1})
	live, gone, hung := pidNode(t), deadAPI(t), hangingNode(t)
	for id, api := range map[string]string{"/live": live.URL + "/", "/gone": gone, "/hung": hung} {
		if fill(m, "", id, api, 2) != 2 {
			t.Fatalf("%s not registered", id)
		}
	}
	ctx := context.Background()
	if n := m.sweep(ctx); n != 1 || lookup(m, "/gone") != "" || lookup(m, "/hung") == "" || lookup(m, "/live") == "" {
		t.Fatalf("first sweep dropped %d; /gone %q /hung %q /live %q", n, lookup(m, "/gone"), lookup(m, "/hung"), lookup(m, "/live"))
	}
	if n := m.sweep(ctx); n != 1 || lookup(m, "/hung") != "" || lookup(m, "/live") == "" {
		t.Fatalf("second sweep dropped %d; /hung %q /live %q", n, lookup(m, "/hung"), lookup(m, "/live"))
	}
	if m.Dropped() != 2 {
		t.Errorf("Dropped() = %d, want 2", m.Dropped())
	}
	m.Close()
	m2 := New(Options{StateFile: state, SweepEvery: -1})
	defer m2.Close()
	m2.mu.Lock()
	ids := len(m2.reg.nodes)
	_, ok := m2.reg.nodes["/live"]
	m2.mu.Unlock()
	if ids != 1 || !ok {
		t.Errorf("restored %d nodes (has /live: %v), want /live alone", ids, ok)
	}
}

// TestFullTableEvictsDead: a table full of dead nodes' registrations
// takes a living node's (the dead evicted); full of living ones, it
// refuses.
func TestFullTableEvictsDead(t *testing.T) {
	m := New(Options{Logf: t.Logf, SweepEvery: -1})
	defer m.Close()
	for i := range MaxRegistrations / MaxNodeRegistrations {
		if n := fill(m, "", fmt.Sprintf("/dead%d", i), deadAPI(t), MaxNodeRegistrations); n != MaxNodeRegistrations {
			t.Fatalf("dead node %d: %d registrations accepted", i, n)
		}
	}
	newcomer := pidNode(t)
	if fill(m, "", "/newcomer", newcomer.URL+"/", 1) != 1 {
		t.Fatal("a living node refused while the table held the dead")
	}
	if m.Dropped() != MaxRegistrations/MaxNodeRegistrations {
		t.Errorf("Dropped() = %d, want every dead node", m.Dropped())
	}
	// Now full of the living: refused.
	for i := 0; m.registrations() < MaxRegistrations; i++ {
		fill(m, "", fmt.Sprintf("/alive%d", i), pidNode(t).URL+"/", MaxNodeRegistrations)
	}
	m.skew.Add(int64(2 * evictEvery)) // past the rate limit of the checks
	if fill(m, "", "/late", pidNode(t).URL+"/", 1) != 0 {
		t.Error("a node admitted past a table full of living nodes")
	}
	if lookup(m, "/newcomer") == "" {
		t.Error("a living node evicted")
	}
}

// TestAddressQuotas: one remote address gets MaxAddrRegistrations, all
// of them MaxRemoteRegistrations; this computer's nodes still register
// past both; one API takes MaxNodesPerAPI names.
func TestAddressQuotas(t *testing.T) {
	m := New(Options{Logf: t.Logf, SweepEvery: -1})
	defer m.Close()
	accepted := func(from string) int {
		n := 0
		for i := range MaxAddrRegistrations/MaxNodeRegistrations + 1 {
			n += fill(m, from, fmt.Sprintf("/%s/n%d", strings.ReplaceAll(from, ".", "_"), i), pidNode(t).URL+"/", MaxNodeRegistrations)
		}
		return n
	}
	if n := accepted("192.0.2.1"); n != MaxAddrRegistrations {
		t.Errorf("one remote address: %d accepted, want %d", n, MaxAddrRegistrations)
	}
	total := MaxAddrRegistrations
	for i := 2; total < MaxRemoteRegistrations+MaxAddrRegistrations; i++ {
		total += accepted(fmt.Sprintf("192.0.2.%d", i))
		if total > MaxRemoteRegistrations {
			t.Fatalf("remote addresses hold %d registrations, over %d", total, MaxRemoteRegistrations)
		}
		if i > 10 {
			break
		}
	}
	if total != MaxRemoteRegistrations {
		t.Errorf("remote addresses got %d, want %d", total, MaxRemoteRegistrations)
	}
	if fill(m, "", "/local", pidNode(t).URL+"/", 100) != 100 {
		t.Error("a local node refused while remote addresses hold their quota")
	}
	api := pidNode(t).URL + "/"
	n := 0
	for i := range MaxNodesPerAPI + 2 {
		n += fill(m, "", fmt.Sprintf("/same%d", i), api, 1)
	}
	if n != MaxNodesPerAPI {
		t.Errorf("%d names registered with one API, want %d", n, MaxNodesPerAPI)
	}
}

// TestProtectedName: a stranger cannot take a protected name from its
// running node (the node is not told to shut down); once the node is
// gone, the name is free.
func TestProtectedName(t *testing.T) {
	m := startMaster(t, Options{Protect: []string{"/frcd"}, SweepEvery: -1})
	node := newFakeNode(t)
	wantOK(t, m, "registerPublisher", "/frcd", "/joint_states", "sensor_msgs/JointState", node.api())
	for _, method := range []string{"registerPublisher", "registerSubscriber"} {
		r := api(t, m, method, "/frcd", "/x", "std_msgs/String", "http://127.0.0.1:9/")
		if r[0] != -1 || !strings.Contains(fmt.Sprint(r[1]), "held by the running node") {
			t.Errorf("%s of /frcd by a stranger: %v", method, r)
		}
	}
	if r := api(t, m, "registerService", "/frcd", "/frcd/x", "rosrpc://127.0.0.1:9", "http://127.0.0.1:9/"); r[0] != -1 {
		t.Errorf("registerService of /frcd by a stranger: %v", r)
	}
	if got := wantOK(t, m, "lookupNode", "/t", "/frcd"); got != node.api() {
		t.Errorf("/frcd is at %v, want %s", got, node.api())
	}
	// The node answered getPid and nothing else: no shutdown.
	for len(node.calls) > 0 {
		if c := <-node.calls; c.method != "getPid" {
			t.Errorf("the protected node got %s %v", c.method, c.params)
		}
	}
	// Another name is rosmaster's as ever: the newest wins.
	other := newFakeNode(t)
	wantOK(t, m, "registerPublisher", "/other", "/x", "std_msgs/String", other.api())
	wantOK(t, m, "registerPublisher", "/other", "/x", "std_msgs/String", "http://127.0.0.1:9/")
	if c := other.next(t); c.method != "shutdown" {
		t.Errorf("the displaced /other got %s", c.method)
	}
	// The node exits: the name is free.
	node.srv.Close()
	m.skew.Add(int64(2 * guardFresh))
	wantOK(t, m, "registerPublisher", "/frcd", "/x", "std_msgs/String", "http://127.0.0.1:9/")
}
