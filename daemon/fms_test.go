package daemon

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/telemetry"
)

// FMS attached and the game data a WPILib WebSocket Driver Station sends
// reach /FMSInfo, /DriverStation and the ControlWord the cycle after
// they arrive, though the match is otherwise read once a second; and
// the log has them under NT:.
func TestWSFMSAndGameData(t *testing.T) {
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	dir := t.TempDir()
	d, err := NewSim(r, SimOptions{Enabled: true, WPILibWS: "127.0.0.1:0"}, Options{Rate: 100, Telemetry: &TelemetryOptions{LogDir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- d.WS.Run(ctx) }()
	defer func() { cancel(); <-served }()
	topics := map[string]*telemetry.Topic{}
	for _, tp := range d.tel.src.Topics {
		topics[tp.Name] = tp
	}
	step := func() {
		d.Step()
		d.StepTelemetry()
	}
	for range 10 { // the match read once: the next in a second
		step()
	}
	fms, word := topics["/FMSInfo/FMSControlData"], topics["/DriverStation/ControlWord"]
	game, game27 := topics["/FMSInfo/GameSpecificMessage"], topics["/DriverStation/GameData"]
	if fms.Int&16 != 0 || game.Str != "" {
		t.Fatalf("before: FMSControlData %#x, game data %q", fms.Int, game.Str)
	}

	dctx, dcancel := context.WithTimeout(context.Background(), runLimit)
	defer dcancel()
	c, _, err := websocket.Dial(dctx, "ws://"+d.WS.Addr().String()+"/wpilibws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	msg := `{"type":"DriverStation","device":"","data":{">ds":true,">fms":true,">game_data":"LRL"}}`
	if err := c.Write(dctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, runLimit, "the server taking the message", func() bool {
		return d.Sim.DS().FMS && d.WS.GameData() == "LRL"
	})
	step() // one cycle
	if fms.Int&16 == 0 || binary.LittleEndian.Uint64(word.Raw)>>60&1 != 1 {
		t.Errorf("after one cycle: FMSControlData %#x, ControlWord %#x: no fmsAttached", fms.Int, binary.LittleEndian.Uint64(word.Raw))
	}
	if game.Str != "LRL" || game27.Str != "LRL" {
		t.Errorf("after one cycle: GameSpecificMessage %q, GameData %q, want LRL", game.Str, game27.Str)
	}

	// off the field again
	msg = `{"type":"DriverStation","device":"","data":{">fms":false,">game_data":""}}`
	if err := c.Write(dctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, runLimit, "the server taking the message", func() bool {
		return !d.Sim.DS().FMS && d.WS.GameData() == ""
	})
	step()
	if fms.Int&16 != 0 || game.Str != "" {
		t.Errorf("off the field: FMSControlData %#x, game data %q", fms.Int, game.Str)
	}
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	starts, records := logRecords(t, dir)
	st, ok := starts["NT:/FMSInfo/GameSpecificMessage"]
	if !ok || st.Type != "string" {
		t.Fatalf("NT:/FMSInfo/GameSpecificMessage in the log: %+v", st)
	}
	var logged []string
	for _, rec := range records {
		if rec.Entry == st.Entry {
			logged = append(logged, string(rec.Payload))
		}
	}
	if len(logged) != 3 || logged[1] != "LRL" {
		t.Errorf("the log's game data %q, want \"\", LRL, \"\"", logged)
	}
}

// On hardware the ROS bridges' game data is the backend's match info
// (hal.MatchInfos), read again when a second of loop time old.
func TestBackendGameMessage(t *testing.T) {
	b := &matched{Backend: haltest.New()}
	b.DSState = hal.DSState{Attached: true}
	d, err := New(minimal(t), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b.match = hal.MatchInfo{GameMessage: "LRL"}
	var info hal.DSInfo
	d.driverStation(&info)
	if info.GameMessage != "LRL" {
		t.Fatalf("game data %q, want LRL", info.GameMessage)
	}
	b.match.GameMessage = "RLR"
	d.Step()
	d.driverStation(&info)
	if info.GameMessage != "LRL" {
		t.Errorf("read again within a second: %q", info.GameMessage)
	}
	b.Advance(time.Second) // the backend's clock, d.Now's
	d.driverStation(&info)
	if info.GameMessage != "RLR" {
		t.Errorf("a second later: %q, want RLR", info.GameMessage)
	}
}
