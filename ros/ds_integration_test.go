package ros_test

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/sim"
)

// TestDriverStationTopics: a joystick and the match set by a WPILib
// WebSocket client reach ROS as driver_station/joy0 (sensor_msgs/Joy) and
// driver_station/alliance, station, match_time, fms, game_data; the robot state as
// driver_station/enabled, estop, mode, attached; the sim's battery, at
// 6.5 V below the roboRIO 2's 6.75 V brownout threshold, as
// driver_station/brownout true.
func TestDriverStationTopics(t *testing.T) {
	integration(t, tooltest.Rostopic)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	text, err := os.ReadFile(exampleURDF)
	if err != nil {
		t.Fatal(err)
	}
	r := exampleRobot(t)
	flat := sim.ScenarioOf(r, sim.Options{Battery: sim.Battery{Voltage: 6.5}}, true)
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true, Scenario: flat, WPILibWS: "127.0.0.1:0"}, daemon.Options{Logf: t.Logf,
		ROS: &daemon.ROSOptions{Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, URDF: string(text), Logf: t.Logf, Namespace: "bot"}})
	if err != nil {
		t.Fatal(err)
	}
	f := &frcd{d: d, Service: tooltest.Serve(t, d.Run)}
	f.registered(t, 1)

	ctx, cancel := context.WithTimeout(context.Background(), tooltest.Timeout)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+d.WS.Addr().String()+"/wpilibws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	for _, m := range []string{
		`{"type":"Joystick","device":"0","data":{">axes":[0.5,-0.25],">buttons":[true,false,true],">povs":[90]}}`,
		`{"type":"DriverStation","device":"","data":{">station":"blue2",">match_time":42.5,">autonomous":true,">fms":true,">game_data":"LRL"}}`,
	} {
		if err := c.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	type joy struct {
		Axes    []float64
		Buttons []int
	}
	var j joy
	eventually(t, "/bot/driver_station/joy0 from the WebSocket joystick", func() bool {
		j = echo[joy](t, e, "/bot/driver_station/joy0")
		return len(j.Axes) == 4
	})
	if want := (joy{Axes: []float64{0.5, -0.25, 1, 0}, Buttons: []int{1, 0, 1}}); !reflect.DeepEqual(j, want) {
		t.Errorf("joy0 %+v, want %+v (axes, then the POV's x and y)", j, want)
	}
	type str struct{ Data string }
	type num struct{ Data float64 }
	type flag struct{ Data bool }
	eventually(t, "the alliance from the WebSocket", func() bool { return echo[str](t, e, "/bot/driver_station/alliance").Data == "blue" })
	if s := echo[num](t, e, "/bot/driver_station/station").Data; s != 2 {
		t.Errorf("station %v", s)
	}
	if m := echo[num](t, e, "/bot/driver_station/match_time").Data; m != 42.5 {
		t.Errorf("match_time %v", m)
	}
	if m := echo[str](t, e, "/bot/driver_station/mode").Data; m != "autonomous" {
		t.Errorf("mode %q", m)
	}
	if !echo[flag](t, e, "/bot/driver_station/enabled").Data || echo[flag](t, e, "/bot/driver_station/estop").Data || !echo[flag](t, e, "/bot/driver_station/attached").Data {
		t.Error("enabled, estop, attached: want true, false, true")
	}
	if !echo[flag](t, e, "/bot/driver_station/fms").Data {
		t.Error("fms false after the WebSocket's >fms true")
	}
	if g := echo[str](t, e, "/bot/driver_station/game_data").Data; g != "LRL" {
		t.Errorf("game_data %q, want LRL", g)
	}
	if !echo[flag](t, e, "/bot/driver_station/brownout").Data {
		t.Error("brownout false on a 6.5 V battery")
	}
	d.SetEnabled(false)
	eventually(t, "driver_station/enabled false after a disable", func() bool { return !echo[flag](t, e, "/bot/driver_station/enabled").Data })
}
