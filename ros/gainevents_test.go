package ros_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros/master"
)

// callCounter serves frcd's master (ros/master, the embedded one's code)
// and keeps every XML-RPC call's method and body.
type callCounter struct {
	m     *master.Master
	mu    sync.Mutex
	calls []call
}

type call struct{ method, body string }

var methodName = regexp.MustCompile(`<methodName>([^<]*)</methodName>`)

func (c *callCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if m := methodName.FindSubmatch(body); m != nil {
		c.mu.Lock()
		c.calls = append(c.calls, call{string(m[1]), string(body)})
		c.mu.Unlock()
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	c.m.ServeHTTP(w, r)
}

// count counts the calls of method with a string parameter starting with
// prefix.
func (c *callCounter) count(method, prefix string) (n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range c.calls {
		if k.method == method && (strings.Contains(k.body, "<string>"+prefix) || strings.Contains(k.body, "<value>"+prefix)) {
			n++
		}
	}
	return n
}

// exactly is count for a parameter that is prefix exactly.
func (c *callCounter) exactly(method, key string) int {
	return c.count(method, key+"<")
}

// TestGainsByParamUpdate: frcd subscribes to each gain's key
// (subscribeParam) and takes a change from the master's paramUpdate: it
// never reads the gains back (the 200 ms getParam poll is gone), and it
// unsubscribes from every key when it stops. Against frcd's own master
// code, served here so that it outlives frcd and counts the calls.
func TestGainsByParamUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sim in real time for a few seconds")
	}
	m := master.New(master.Options{Logf: t.Logf})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cc := &callCounter{m: m}
	hs := &http.Server{Handler: cc}
	go hs.Serve(l)
	defer m.Close()
	defer hs.Close()
	uri := "http://" + l.Addr().String() + "/"

	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: uri, IP: "127.0.0.1"}, Master: ros.MasterExternal, Logf: t.Logf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { stop(); <-done }()
	select {
	case <-d.Bridge.Registered(1):
	case <-time.After(tooltest.Timeout):
		t.Fatal("frcd did not register")
	}
	hood := d.Loop.Controller("hood_position")
	var keys []string
	for _, c := range d.Loop.Controllers() {
		for _, id := range c.GainIDs() {
			if id.Joint == "" {
				keys = append(keys, "/"+c.Name+"/pid/"+id.Term)
			}
		}
	}
	if len(keys) == 0 {
		t.Fatal("the example robot has no gains")
	}
	tooltest.Eventually(t, 10*time.Second, "every gain subscribed to", func() bool {
		for _, k := range keys {
			if cc.exactly("subscribeParam", k) != 1 {
				return false
			}
		}
		return true
	})
	set := func(key string, v any) {
		t.Helper()
		if _, err := master.Call(context.Background(), uri, "setParam", "/tuner", key, v); err != nil {
			t.Fatal(err)
		}
	}
	set("/hood_position/pid/p", 21.5)
	tooltest.Eventually(t, 10*time.Second, "hood p 21.5", func() bool {
		g, _ := hood.Gain(control.GainID{Term: control.GainP})
		return g == 21.5
	})
	refused := hood.Refused()
	set("/hood_position/pid", map[string]any{"p": -3.0, "i": 2.0, "d": 0.0, "i_clamp": 12.0})
	tooltest.Eventually(t, 10*time.Second, "a namespace's negative p refused, set back", func() bool {
		v, _ := m.GetParam("/hood_position/pid/p")
		return hood.Refused()-refused == 1 && v == 21.5
	})
	for _, k := range append(keys, "/hood_position/pid", "/hood_position/gains") {
		if n := cc.count("getParam", k); n != 0 {
			t.Errorf("%d getParam %s: the gains are still read back", n, k)
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Error(err)
	}
	done <- nil
	for _, k := range keys {
		if n := cc.exactly("unsubscribeParam", k); n != 1 {
			t.Errorf("%d unsubscribeParam %s at the end, want 1", n, k)
		}
	}
}
