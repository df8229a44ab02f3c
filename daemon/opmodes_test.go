package daemon

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/telemetry"
)

// opModeRobot is the competition example with op modes declared.
func opModeRobot(t *testing.T) *robot.Robot {
	t.Helper()
	yaml, err := os.ReadFile("../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(path, append(yaml, "\nop_modes:\n  autonomous: [Two Piece, Taxi]\n  teleop: [Drive]\n  test: [Drive]\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../examples/competition/robot.urdf", path)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	return r
}

// The sim's WebSocket Driver Station lists the op modes (<opmodes) and
// selects one by name (>opmode, reported back): the op mode and its robot
// mode reach /DriverStation/OpMode, the ControlWord (its id's hash and
// mode), PREFIX/ds/op_mode and the log's DS:opMode the cycle after; a
// name the robot lacks is refused and counted; another robot mode drops
// the op mode (then the chooser's default of that mode is the one
// selected, as on a backend without the 2027 Driver Station's).
func TestWSOpModes(t *testing.T) {
	dir := t.TempDir()
	d, err := NewSim(opModeRobot(t), SimOptions{Enabled: true, WPILibWS: "127.0.0.1:0"}, Options{Rate: 100, Telemetry: &TelemetryOptions{LogDir: dir}})
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
	step()
	opMode, ours, word := topics["/DriverStation/OpMode"], topics["/frcd/ds/op_mode"], topics["/DriverStation/ControlWord"]
	if opMode.Str != "Drive" || ours.Str != "Drive" { // teleop, nothing selected: the teleop chooser's default
		t.Fatalf("before: OpMode %q, ds/op_mode %q", opMode.Str, ours.Str)
	}

	dctx, dcancel := context.WithTimeout(context.Background(), runLimit)
	defer dcancel()
	c, _, err := websocket.Dial(dctx, "ws://"+d.WS.Addr().String()+"/wpilibws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	// The first state lists the op modes.
	_, first, err := c.Read(dctx)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Type string
		Data map[string]json.RawMessage
	}
	if err := json.Unmarshal(first, &m); err != nil || m.Type != "DriverStation" {
		t.Fatalf("first message %s: %v", first, err)
	}
	if got := string(m.Data["<opmodes"]); got != `[{"name":"Two Piece","mode":"autonomous"},{"name":"Taxi","mode":"autonomous"},`+
		`{"name":"Drive","mode":"teleop"},{"name":"Drive","mode":"test"}]` {
		t.Errorf("<opmodes %s", got)
	}
	send := func(data string) {
		t.Helper()
		if err := c.Write(dctx, websocket.MessageText, []byte(`{"type":"DriverStation","device":"","data":`+data+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	ops := d.OpModes()
	taxi, _ := ops.Find(hal.Autonomous, "Taxi")
	send(`{">opmode":"Taxi"}`)
	tooltest.Eventually(t, runLimit, "the server taking >opmode", func() bool { return d.Sim.DS().OpMode == taxi.ID })
	if ds := d.Sim.DS(); ds.Mode != hal.Autonomous {
		t.Errorf("Taxi selected in %v, want autonomous", ds.Mode)
	}
	step()
	if cw := int64(binary.LittleEndian.Uint64(word.Raw)) & 0x03FFFFFFFFFFFFFF; opMode.Str != "Taxi" || ours.Str != "Taxi" || cw != taxi.ID {
		t.Errorf("after one cycle: OpMode %q, ds/op_mode %q, ControlWord id %#x (want %#x)", opMode.Str, ours.Str, cw, taxi.ID)
	}
	bad := d.WS.Stats().BadValues
	send(`{">opmode":"Nope"}`)
	tooltest.Eventually(t, runLimit, "the refusal counted", func() bool { return d.WS.Stats().BadValues > bad })
	step()
	if opMode.Str != "Taxi" {
		t.Errorf("after an unknown op mode: %q", opMode.Str)
	}
	// "Drive" in test mode: the test op mode of that name.
	send(`{">test":true}`)
	tooltest.Eventually(t, runLimit, "the server taking >test", func() bool { return d.Sim.DS().Mode == hal.Test })
	if d.Sim.DS().OpMode != 0 {
		t.Errorf("the autonomous op mode kept in test mode")
	}
	send(`{">opmode":"Drive"}`)
	drive, _ := ops.Find(hal.Test, "Drive")
	tooltest.Eventually(t, runLimit, "the test Drive", func() bool { return d.Sim.DS().OpMode == drive.ID })
	step()
	if opMode.Str != "Drive" {
		t.Errorf("test Drive: %q", opMode.Str)
	}
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	starts, records := logRecords(t, dir)
	st, ok := starts["DS:opMode"]
	if !ok || st.Type != "string" {
		t.Fatalf("DS:opMode in the log: %+v", st)
	}
	var logged []string
	for _, rec := range records {
		if rec.Entry == st.Entry {
			logged = append(logged, string(rec.Payload))
		}
	}
	if strings.Join(logged, "|") != "Drive|Taxi|Drive" {
		t.Errorf("the log's DS:opMode %q, want Drive, Taxi, Drive", logged)
	}
}

// With op modes and the choosers (no WebSocket selection), a cycle and
// its telemetry (the op mode's name, the choosers' active) allocate
// nothing.
func TestOpModesNoAllocs(t *testing.T) {
	d, err := NewSim(opModeRobot(t), SimOptions{Enabled: true}, Options{Rate: 100, Telemetry: &TelemetryOptions{LogDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for range 10 {
		d.Step()
		d.StepTelemetry()
	}
	var op *telemetry.Topic
	for _, tp := range d.tel.src.Topics {
		if tp.Name == "/DriverStation/OpMode" {
			op = tp
		}
	}
	if !d.opModes.chooser || op == nil || op.Str != "Drive" {
		t.Fatalf("the choosers: %v, /DriverStation/OpMode %+v", d.opModes.chooser, op)
	}
	if a := testing.AllocsPerRun(100, func() { d.Step(); d.StepTelemetry() }); a != 0 {
		t.Errorf("a cycle and its telemetry: %v allocations", a)
	}
}
