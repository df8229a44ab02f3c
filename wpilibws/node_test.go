package wpilibws_test

// The integration test with WPILib's own client library,
// @wpilib/node-wpilib-ws (npm, installed into test/wpilibws by
// scripts/install-deps.sh), driven by test/wpilibws/client.js, against
// frcd running in real time with the ROS bridge on an embedded master.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
)

const (
	clientJS   = "../test/wpilibws/client.js"
	clientNode = "../test/wpilibws/node_modules/@wpilib/node-wpilib-ws/package.json"
)

// event is one line client.js printed.
type event struct {
	Event   string
	Channel int
	Data    map[string]any
	Reason  string
}

// nodeClient is client.js running: its events arrive on events, its
// commands go to stdin.
type nodeClient struct {
	t      *testing.T
	events chan event
	stdin  interface{ Write([]byte) (int, error) }
	mu     sync.Mutex
	seen   []string // every line, for the failure log
}

func startClient(t *testing.T, e *tooltest.ROS, port int) *nodeClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := e.Command(ctx, "node", clientJS, strconv.Itoa(port))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &nodeClient{t: t, events: make(chan event, 1024), stdin: stdin}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(c.events)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			c.mu.Lock()
			c.seen = append(c.seen, line)
			c.mu.Unlock()
			var ev event
			if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &ev) != nil {
				continue // the library's own log lines
			}
			c.events <- ev
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		cancel()
		<-done
		_ = cmd.Wait()
		if t.Failed() {
			c.mu.Lock()
			t.Logf("client.js output:\n%s\nstderr:\n%s", strings.Join(c.seen, "\n"), stderr.String())
			c.mu.Unlock()
		}
	})
	return c
}

func (c *nodeClient) send(cmd string) {
	c.t.Helper()
	if _, err := c.stdin.Write([]byte(cmd + "\n")); err != nil {
		c.t.Fatal(err)
	}
}

// wait reads the client's events until one satisfies ok. The timer only
// guards against a hung client: the wait ends on the event.
func (c *nodeClient) wait(what string, ok func(event) bool) event {
	c.t.Helper()
	guard := time.NewTimer(waitLimit)
	defer guard.Stop()
	for {
		select {
		case ev, open := <-c.events:
			if !open {
				c.t.Fatalf("waiting for %s: client.js exited", what)
			}
			if ev.Event == "error" || ev.Event == "closed" {
				c.t.Fatalf("waiting for %s: client.js: %+v", what, ev)
			}
			if ok(ev) {
				return ev
			}
		case <-guard.C:
			c.t.Fatalf("waiting for %s: nothing within %s", what, waitLimit)
		}
	}
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// TestWPILibClient: WPILib's client library enables the robot, sees the
// spark on PWM 0 follow a ROS command, and overrides the beam break on
// DIO 12, which frcd then reports on the WebSocket and on ROS.
func TestWPILibClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node and the ROS tools for about 10 s: skipped with -short")
	}
	tooltest.Require(t, tooltest.Node, tooltest.Rostopic)
	tooltest.RequireFile(t, clientNode, "npm ci in test/wpilibws")
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", tooltest.FreePort(t)))
	text, err := os.ReadFile("../examples/competition/robot.urdf")
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.NewSim(exampleRobot(t), daemon.Options{RealTime: true, Enabled: false, WPILibWS: "127.0.0.1:0", Logf: t.Logf,
		ROS: &daemon.ROSOptions{Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, URDF: string(text), Logf: t.Logf}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.Run).Await(t, "frcd's registration with its master", d.Bridge.Registered(1))

	c := startClient(t, e, d.WS.Addr().(*net.TCPAddr).Port)
	c.wait("the connection", func(ev event) bool { return ev.Event == "ready" })
	c.wait("the initial DriverStation state, disabled", func(ev event) bool {
		v, ok := ev.Data[">enabled"]
		return ev.Event == "ds" && ok && v == false
	})
	c.wait("PWM 0 initialized", func(ev event) bool { return ev.Event == "pwm" && ev.Channel == 0 && ev.Data["<init"] == true })
	// The beam break (a digital_input in a URDF link) on DIO 12; the
	// initial state lists the devices in order, DIO after PWM.
	c.wait("DIO 12, an input reading low", func(ev event) bool {
		return ev.Event == "dio" && ev.Channel == 12 && ev.Data["<input"] == true && ev.Data["<>value"] == false
	})

	c.send(`{"cmd":"enable","value":true}`)
	c.wait("enabled, reported back", func(ev event) bool { return ev.Event == "ds" && ev.Data[">enabled"] == true })
	if !d.Sim.DS().Enabled {
		t.Fatal("the client enabled the robot, the sim is not enabled")
	}

	// right_front_voltage drives the spark on PWM 0; the joint is
	// inverted, so +6 V shows as a negative speed.
	e.Start(t, "rostopic", "pub", "-r", "20", "/right_front_voltage/command", "std_msgs/Float64", "data: 6.0")
	ev := c.wait("PWM 0 following the ROS command", func(ev event) bool {
		s, ok := ev.Data["<speed"]
		return ev.Event == "pwm" && ev.Channel == 0 && ok && num(s) < -0.3
	})
	t.Logf("PWM 0 speed %v at +6 V", ev.Data["<speed"])

	c.send(`{"cmd":"dio","channel":12,"value":true}`)
	c.wait("DIO 12 reported high", func(ev event) bool {
		return ev.Event == "dio" && ev.Channel == 12 && ev.Data["<>value"] == true
	})
	out := e.MustRun(t, "rostopic", "echo", "-n", "1", "/ball_beam_break")
	if !strings.Contains(out, "data: True") {
		t.Errorf("/ball_beam_break after the override: %s", out)
	}

	c.send(`{"cmd":"enable","value":false}`)
	c.wait("PWM 0 neutral once disabled", func(ev event) bool {
		s, ok := ev.Data["<speed"]
		return ev.Event == "pwm" && ev.Channel == 0 && ok && num(s) == 0
	})
	if s := d.WS.Stats(); s.Ignored != 0 || s.BadValues != 0 || s.Dropped != 0 || s.Received != 3 {
		t.Errorf("server stats %+v", s)
	}
}
