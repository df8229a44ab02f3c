//go:build linux

package master

import (
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
)

var debianPython = tooltest.Tool{Name: "/usr/bin/python3", Package: "python3"}

// TestMulticall: Python's own xmlrpc.client.MultiCall gets each call's
// result in order, and a fault for an unknown method, nested multicall or
// a call that is not a struct, without losing the others.
func TestMulticall(t *testing.T) {
	tooltest.Require(t, debianPython)
	m := startMaster(t, Options{})
	e := tooltest.NewROS(t, m.URI())
	out := e.MustRun(t, debianPython.Name, "-c", `
import sys, xmlrpc.client as x
s = x.ServerProxy(sys.argv[1])
mc = x.MultiCall(s)
mc.getPid("/py")
mc.setParam("/py", "/answer", 42)
mc.getParam("/py", "/answer")
mc.noSuchMethod("/py")
mc.registerSubscriber("/py", "/chatter", "std_msgs/String", "http://127.0.0.1:9/")
out = []
for r in mc().results:
    out.append(repr(r))
print("\n".join(out))
print(repr(s.system.multicall([{"methodName": "system.multicall", "params": []}, 5])))
`, m.URI())
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		"[[1, '", // getPid: its pid
		"[[1, 'parameter /answer set', 0]]",
		"[[1, 'Parameter [/answer]', 42]]",
		"{'faultCode': 1, 'faultString': 'method \"noSuchMethod\" is not supported'}",
		"[[1, 'Subscribed to [/chatter]', []]]",
		"[{'faultCode': 1, 'faultString': 'system.multicall cannot be nested'}, {'faultCode': 1, 'faultString': 'each call is a struct {methodName, params}'}]",
	}
	if len(lines) != len(want) {
		t.Fatalf("python printed:\n%s", out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("result %d: %s, want %s", i, lines[i], w)
		}
	}
	if apis := m.reg.subs.apis("/chatter"); len(apis) != 1 {
		t.Errorf("subscribers of /chatter after the multicall: %v", apis)
	}
}

// TestRospyLeavesNoRegistrations: a rospy node that publishes,
// subscribes and serves unregisters all of it in one multicall when it
// shuts down; the master then has none of it.
func TestRospyLeavesNoRegistrations(t *testing.T) {
	tooltest.Require(t, debianPython, tooltest.Rostopic)
	m := startMaster(t, Options{})
	e := tooltest.NewROS(t, m.URI())
	e.MustRun(t, debianPython.Name, "-c", `
import rospy
from std_msgs.msg import String
from std_srvs.srv import Trigger, TriggerResponse
rospy.init_node("leaver")
rospy.Publisher("/out", String, queue_size=1)
rospy.Subscriber("/in", String, lambda m: None)
rospy.Service("~ping", Trigger, lambda r: TriggerResponse())
rospy.signal_shutdown("done")
`)
	wantOK(t, m, "getSystemState", "/t")
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, topic := range []string{"/out", "/rosout"} {
		if apis := m.reg.pubs.apis(topic); len(apis) != 0 {
			t.Errorf("publishers of %s left behind: %v", topic, apis)
		}
	}
	if apis := m.reg.subs.apis("/in"); len(apis) != 0 {
		t.Errorf("subscribers of /in left behind: %v", apis)
	}
	if apis := m.reg.services.apis("/leaver/ping"); len(apis) != 0 {
		t.Errorf("service /leaver/ping left behind: %v", apis)
	}
}
