package wpilibws_test

// The integration test with WPILib's own client library,
// @wpilib/node-wpilib-ws (npm, installed into test/wpilibws by
// scripts/install-deps.sh), driven by test/wpilibws/client.js, against
// frcd running in real time with the ROS bridge on an embedded master.

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"

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

// nodeClient is client.js running: its events come to wait, its
// commands go to send.
type nodeClient struct {
	t *testing.T
	*tooltest.JSONLines[event]
}

func startClient(t *testing.T, e *tooltest.ROS, port int) nodeClient {
	t.Helper()
	return nodeClient{t, tooltest.StartJSON[event](t, e, "node", clientJS, strconv.Itoa(port))}
}

func (c nodeClient) send(cmd string) { c.t.Helper(); c.Send(cmd) }

// wait waits for an event ok accepts; an error or a closed connection
// fails the test.
func (c nodeClient) wait(what string, ok func(event) bool) event {
	c.t.Helper()
	return c.Wait(what, func(ev event) bool {
		if ev.Event == "error" || ev.Event == "closed" {
			c.t.Fatalf("waiting for %s: client.js: %+v", what, ev)
		}
		return ok(ev)
	})
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
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{RealTime: true, Enabled: false, WPILibWS: "127.0.0.1:0"}, daemon.Options{Logf: t.Logf,
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

	// The drive controller drives the right front wheel through the
	// spark on PWM 0; the joint is inverted, so driving forward shows as
	// a negative speed.
	e.Start(t, "rostopic", "pub", "-r", "20", "/drive/cmd_vel", "geometry_msgs/Twist", "{linear: {x: 1.0}}")
	ev := c.wait("PWM 0 following the ROS command", func(ev event) bool {
		s, ok := ev.Data["<speed"]
		return ev.Event == "pwm" && ev.Channel == 0 && ok && num(s) < -0.3
	})
	t.Logf("PWM 0 speed %v at 1 m/s", ev.Data["<speed"])

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
