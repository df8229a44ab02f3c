package ros2bridge_test

import (
	"context"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
)

// TestDriverStationTopics: with what the Driver Station says (joystick 0
// with two axes, a POV at 90° and buttons 1 and 3; red 2; 95 s left; no
// brownout), a ros2node peer reads driver_station/joy0 as sensor_msgs/Joy
// (axes, then the POV as x 1, y 0; buttons 1 0 1), enabled (the example
// runs enabled), mode, alliance, station, match_time, fms (the sim's
// Driver Station on the field) and game_data ("LRL"); joystick 1,
// unplugged, is not published.
func TestDriverStationTopics(t *testing.T) {
	fill := func(dst *hal.DSInfo) {
		j := &dst.Joysticks[0]
		j.NumAxes, j.NumPOVs, j.NumButtons = 2, 1, 3
		j.Axes[0], j.Axes[1], j.POVs[0], j.Buttons = 0.5, -0.25, 90, 0b101
		dst.Alliance, dst.Station, dst.MatchTime, dst.HasBrownout = "red", 2, 95, true
		dst.GameMessage = "LRL"
	}
	d, b, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) { o.State.DriverStation = fill })
	d.Sim.UpdateDS(func(ds *hal.DSState) { ds.FMS = true }) // on the field
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	peer := newPeer(t)
	joy := sub(t, peer, "/driver_station/joy0", ros2node.Default, func() *ros2msg.Joy { return &ros2msg.Joy{} })
	joy1 := sub(t, peer, "/driver_station/joy1", ros2node.Default, func() *ros2msg.Joy { return &ros2msg.Joy{} })
	enabled := sub(t, peer, "/driver_station/enabled", ros2node.Default, func() *ros2msg.Bool { return &ros2msg.Bool{} })
	brownout := sub(t, peer, "/driver_station/brownout", ros2node.Default, func() *ros2msg.Bool { return &ros2msg.Bool{} })
	mode := sub(t, peer, "/driver_station/mode", ros2node.Default, func() *ros2msg.String { return &ros2msg.String{} })
	alliance := sub(t, peer, "/driver_station/alliance", ros2node.Default, func() *ros2msg.String { return &ros2msg.String{} })
	station := sub(t, peer, "/driver_station/station", ros2node.Default, func() *ros2msg.Int8 { return &ros2msg.Int8{} })
	left := sub(t, peer, "/driver_station/match_time", ros2node.Default, func() *ros2msg.Float64 { return &ros2msg.Float64{} })
	fms := sub(t, peer, "/driver_station/fms", ros2node.Default, func() *ros2msg.Bool { return &ros2msg.Bool{} })
	game := sub(t, peer, "/driver_station/game_data", ros2node.Default, func() *ros2msg.String { return &ros2msg.String{} })
	var (
		j      *ros2msg.Joy
		en, bo *ros2msg.Bool
		fm     *ros2msg.Bool
		md, al *ros2msg.String
		gd     *ros2msg.String
		st     *ros2msg.Int8
		mt     *ros2msg.Float64
		got    = map[string]bool{}
	)
	for len(got) < 9 && ctx.Err() == nil {
		d.Step()
		b.Publish()
		select {
		case j = <-joy:
			got["joy0"] = true
		case en = <-enabled:
			got["enabled"] = true
		case bo = <-brownout:
			got["brownout"] = true
		case md = <-mode:
			got["mode"] = true
		case al = <-alliance:
			got["alliance"] = true
		case st = <-station:
			got["station"] = true
		case mt = <-left:
			got["match_time"] = true
		case fm = <-fms:
			got["fms"] = true
		case gd = <-game:
			got["game_data"] = true
		case <-time.After(time.Millisecond):
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("got only %v", got)
	}
	if len(j.Axes) != 4 || j.Axes[0] != 0.5 || j.Axes[1] != -0.25 || j.Axes[2] != 1 || j.Axes[3] != 0 ||
		len(j.Buttons) != 3 || j.Buttons[0] != 1 || j.Buttons[1] != 0 || j.Buttons[2] != 1 || j.Header.Stamp.Sec < int32(time.Now().Unix()-60) {
		t.Errorf("joy0 %+v", j)
	}
	if !en.Data || bo.Data || md.Data == "" || al.Data != "red" || st.Data != 2 || mt.Data != 95 {
		t.Errorf("enabled %v, brownout %v, mode %q, alliance %q, station %d, match time %v", en.Data, bo.Data, md.Data, al.Data, st.Data, mt.Data)
	}
	if !fm.Data || gd.Data != "LRL" {
		t.Errorf("fms %v, game_data %q; want true, LRL", fm.Data, gd.Data)
	}
	select {
	case m := <-joy1:
		t.Errorf("joystick 1 is not plugged in, yet published: %+v", m)
	default:
	}
}
