//go:build linux

package master

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
	"gopkg.in/yaml.v3"

	"github.com/frcd/frcd/internal/tooltest"
)

// Integration tests against Debian's ROS 1 tools (scripts/install-deps.sh
// installs them). Without a tool the test is skipped, unless
// FRCD_REQUIRE_TOOLS=1, as `make test` sets.

// newNode starts a goroslib node on m, closed at the end of the test.
func newNode(t *testing.T, m *Master, name string) *goroslib.Node {
	t.Helper()
	u, err := url.Parse(m.URI())
	if err != nil {
		t.Fatal(err)
	}
	n, err := goroslib.NewNode(goroslib.NodeConf{
		Name:          name,
		MasterAddress: u.Host,
		Host:          "127.0.0.1",
	})
	if err != nil {
		t.Fatalf("goroslib node %s: %v", name, err)
	}
	t.Cleanup(n.Close)
	return n
}

func TestToolsRosparam(t *testing.T) {
	tooltest.Require(t, tooltest.Rosparam)
	m := startMaster(t, Options{})
	e := tooltest.NewROS(t, m.URI())
	e.MustRun(t, "rosparam", "set", "/foo", "{a: 1, b: [1, 2], c: {d: hello}}")
	if v, ok := m.GetParam("/foo"); !ok || fmt.Sprint(v) != "map[a:1 b:[1 2] c:map[d:hello]]" {
		t.Fatalf("after rosparam set: %#v", v)
	}

	var wg sync.WaitGroup
	check := func(f func()) {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	check(func() {
		out, err := e.Run("rosparam", "get", "/foo")
		if err != nil {
			t.Error(err)
			return
		}
		var got struct {
			A int               `yaml:"a"`
			B []int             `yaml:"b"`
			C map[string]string `yaml:"c"`
		}
		if err := yaml.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("rosparam get /foo printed %q: %v", out, err)
		}
		if got.A != 1 || fmt.Sprint(got.B) != "[1 2]" || got.C["d"] != "hello" {
			t.Errorf("rosparam get /foo printed %q", out)
		}
	})
	check(func() {
		out, err := e.Run("rosparam", "get", "/foo/c/d")
		if err != nil {
			t.Error(err)
		} else if strings.TrimSpace(out) != "hello" {
			t.Errorf("rosparam get /foo/c/d printed %q", out)
		}
	})
	check(func() {
		out, err := e.Run("rosparam", "list")
		if err != nil {
			t.Error(err)
			return
		}
		lines := strings.Fields(out)
		for _, want := range []string{"/foo/a", "/foo/b", "/foo/c/d", "/run_id", "/rosdistro", "/rosversion"} {
			if !containsString(lines, want) {
				t.Errorf("rosparam list lacks %s:\n%s", want, out)
			}
		}
	})
	wg.Wait()
	if t.Failed() {
		return
	}

	e.MustRun(t, "rosparam", "delete", "/foo/c")
	if v, ok := m.GetParam("/foo"); !ok || fmt.Sprint(v) != "map[a:1 b:[1 2]]" {
		t.Errorf("after rosparam delete /foo/c: %#v", v)
	}
	e.MustRun(t, "rosparam", "delete", "/foo")
	if _, ok := m.GetParam("/foo"); ok {
		t.Error("/foo still set after rosparam delete")
	}
	if out, err := e.Run("rosparam", "get", "/foo"); err == nil {
		t.Errorf("rosparam get of a deleted parameter succeeded: %q", out)
	}
}

func TestToolsTopicsAndNodes(t *testing.T) {
	tooltest.Require(t, tooltest.Rostopic, tooltest.Rosnode)
	m := startMaster(t, Options{})
	e := tooltest.NewROS(t, m.URI())
	node := newNode(t, m, "talker")
	pub, err := goroslib.NewPublisher(goroslib.PublisherConf{
		Node:  node,
		Topic: "/chatter",
		Msg:   &std_msgs.String{},
		Latch: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	pub.Write(&std_msgs.String{Data: "hello from go"})

	var wg sync.WaitGroup
	check := func(name string, f func(out string) error, args ...string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := e.Run(name, args...)
			if err == nil {
				err = f(out)
			}
			if err != nil {
				t.Errorf("%s %v: %v\noutput:\n%s", name, args, err, out)
			}
		}()
	}
	contains := func(want ...string) func(string) error {
		return func(out string) error {
			for _, w := range want {
				if !strings.Contains(out, w) {
					return fmt.Errorf("output lacks %q", w)
				}
			}
			return nil
		}
	}
	check("rostopic", contains("/chatter\n"), "list")
	check("rostopic", contains(`data: "hello from go"`), "echo", "-n", "1", "/chatter")
	check("rostopic", contains("Type: std_msgs/String", "Publishers:", "/talker (http://127.0.0.1:"), "info", "/chatter")
	check("rosnode", contains("/talker\n"), "list")
	check("rosnode", contains("xmlrpc reply from http://127.0.0.1:"), "ping", "-c", "1", "/talker")
	check("rosnode", contains("Node [/talker]", "Publications:", "/chatter [std_msgs/String]", "Pid:"), "info", "/talker")
	wg.Wait()
}

func TestToolsRostopicPubToGoSubscriber(t *testing.T) {
	tooltest.Require(t, tooltest.Rostopic)
	m := startMaster(t, Options{})
	e := tooltest.NewROS(t, m.URI())
	node := newNode(t, m, "listener")
	got := make(chan float64, 16)
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{
		Node:  node,
		Topic: "/cmd",
		Callback: func(msg *std_msgs.Float64) {
			select {
			case got <- msg.Data:
			default:
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	// The subscriber registered before the publisher: it can only hear of
	// rostopic through the master's publisherUpdate.
	e.Start(t, "rostopic", "pub", "-r", "10", "/cmd", "std_msgs/Float64", "data: 2.5")
	select {
	case v := <-got:
		if v != 2.5 {
			t.Errorf("received %v, want 2.5", v)
		}
	case <-time.After(tooltest.Timeout):
		t.Fatal("goroslib subscriber received nothing from rostopic pub")
	}
}

const twoLinkURDF = `<?xml version="1.0"?>
<robot name="arm">
  <link name="base_link"/>
  <link name="forearm"/>
  <joint name="elbow" type="revolute">
    <parent link="base_link"/>
    <child link="forearm"/>
    <origin xyz="0 0 0.5" rpy="0 0 0"/>
    <axis xyz="0 0 1"/>
    <limit lower="-3.14" upper="3.14" effort="10" velocity="1"/>
  </joint>
</robot>
`

func TestToolsRobotStatePublisher(t *testing.T) {
	tooltest.Require(t, tooltest.Rostopic, tooltest.RobotStatePublisher)
	m := startMaster(t, Options{})
	e := tooltest.NewROS(t, m.URI())
	if err := m.SetParam("/robot_description", twoLinkURDF); err != nil {
		t.Fatal(err)
	}
	node := newNode(t, m, "joints")
	pub, err := goroslib.NewPublisher(goroslib.PublisherConf{
		Node:  node,
		Topic: "/joint_states",
		Msg:   &sensor_msgs.JointState{},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	// robot_state_publisher sends /tf for each joint state it receives:
	// keep publishing until the test ends.
	stop := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				pub.Write(&sensor_msgs.JointState{
					Header:   std_msgs.Header{Stamp: time.Now()},
					Name:     []string{"elbow"},
					Position: []float64{0.5},
				})
			}
		}
	}()
	defer func() { close(stop); <-stopped }()

	e.Start(t, tooltest.RobotStatePublisher.Name)
	out := e.MustRun(t, "rostopic", "echo", "-n", "1", "/tf")
	for _, want := range []string{`frame_id: "base_link"`, `child_frame_id: "forearm"`, "z: 0.5"} {
		if !strings.Contains(out, want) {
			t.Errorf("rostopic echo /tf lacks %q:\n%s", want, out)
		}
	}
	// rotation of 0.5 rad about z: quaternion z = sin(0.25) ≈ 0.2474
	if !strings.Contains(out, "z: 0.247") {
		t.Errorf("rostopic echo /tf lacks the elbow rotation:\n%s", out)
	}
}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
