package master

import (
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// deadAPI is a slave API nothing listens on: connections are refused.
func deadAPI(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	api := "http://" + l.Addr().String() + "/"
	l.Close()
	return api
}

// TestStateSurvivesRestart: a master on a state file starts from what the
// last one left there: parameters with their types, topic types and
// registrations; the restored nodes that refuse connections are dropped,
// those that answer kept.
func TestStateSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "master.state")
	alive := newFakeNode(t)
	dead := deadAPI(t)
	a := New(Options{Logf: t.Logf, StateFile: path})
	if err := a.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	wantOK(t, a, "setParam", "/x", "/gains", map[string]any{"p": 2, "d": 0.5, "name": "arm", "on": true})
	wantOK(t, a, "registerSubscriber", "/echo", "/joint_states", "sensor_msgs/JointState", alive.api())
	wantOK(t, a, "registerPublisher", "/gone", "/joint_states", "sensor_msgs/JointState", dead)
	wantOK(t, a, "registerService", "/gone", "/gone/enable", "rosrpc://127.0.0.1:1", dead)
	runID, _ := a.GetParam("/run_id")
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	b := startMaster(t, Options{StateFile: path})
	if v, ok := b.GetParam("/gains"); !ok || !reflect.DeepEqual(v, map[string]any{"p": 2, "d": 0.5, "name": "arm", "on": true}) {
		t.Errorf("/gains after the restart: %#v", v)
	}
	if v, _ := b.GetParam("/run_id"); v != runID {
		t.Errorf("/run_id %v, was %v", v, runID)
	}
	deadline := time.Now().Add(testTimeout)
	for {
		b.mu.Lock()
		subs, pubs, svc := b.reg.subs.apis("/joint_states"), b.reg.pubs.apis("/joint_states"), b.reg.services.apis("/gone/enable")
		typ := b.topicTypes["/joint_states"]
		b.mu.Unlock()
		if len(pubs) == 0 && len(svc) == 0 {
			if !reflect.DeepEqual(subs, []any{alive.api()}) || typ != "sensor_msgs/JointState" {
				t.Errorf("kept subscribers %v, type %q", subs, typ)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dead node's registrations still there: publishers %v, service %v", pubs, svc)
		}
		runtime.Gosched() // the pruning runs in the master's goroutine; bounded by the deadline
	}
	// The answering node was asked for its pid, and its topic's
	// subscribers were told the dead publisher is gone.
	var methods []string
	for len(methods) < 2 {
		methods = append(methods, alive.next(t).method)
	}
	if !strings.Contains(strings.Join(methods, " "), "getPid") || !strings.Contains(strings.Join(methods, " "), "publisherUpdate") {
		t.Errorf("calls to the live node: %v", methods)
	}
}

// TestBadStateFile: a state file that is not one is reported and the
// master starts empty, as without one.
func TestBadStateFile(t *testing.T) {
	for _, body := range []string{"", "not xml", "<?xml version=\"1.0\"?><methodResponse><params><param><value><int>3</int></value></param></params></methodResponse>"} {
		path := filepath.Join(t.TempDir(), "m.state")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		var logs []string
		m := New(Options{StateFile: path, Logf: func(f string, a ...any) { logs = append(logs, f) }})
		if _, ok := m.GetParam("/run_id"); !ok {
			t.Errorf("%q: no /run_id", body)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		if len(logs) == 0 || !strings.Contains(logs[0], "starting empty") {
			t.Errorf("%q: logs %v", body, logs)
		}
	}
}
