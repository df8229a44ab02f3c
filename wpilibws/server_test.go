package wpilibws_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/wpilibws"
)

// waitLimit bounds every wait on the server (they end on events).
const waitLimit = 20 * time.Second

func exampleRobot(t testing.TB) *robot.Robot {
	t.Helper()
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("example robot: %v %v", err, list)
	}
	return r
}

// stepped is the example robot on the deterministic sim, with the
// WebSocket server on a free port, serving.
func stepped(t *testing.T, enabled bool) *daemon.Daemon {
	t.Helper()
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{Enabled: enabled, WPILibWS: "127.0.0.1:0"}, daemon.Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	d.Step() // the drivers have written once
	tooltest.Serve(t, d.WS.Run)
	return d
}

// wsClient is a test client that keeps the latest value of every key it
// was sent.
type wsClient struct {
	t     *testing.T
	c     *websocket.Conn
	state map[string]map[string]json.RawMessage // "TYPE DEVICE" -> key -> value
	n     int                                   // messages read
}

func dial(t *testing.T, s *wpilibws.Server, path string) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+s.Addr().String()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return &wsClient{t: t, c: c, state: map[string]map[string]json.RawMessage{}}
}

func (w *wsClient) send(msg string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		w.t.Fatal(err)
	}
}

// until reads messages until cond holds of the state.
func (w *wsClient) until(what string, cond func() bool) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for !cond() {
		typ, b, err := w.c.Read(ctx)
		if err != nil {
			w.t.Fatalf("waiting for %s: %v (after %d messages)", what, err, w.n)
		}
		w.apply(typ, b)
	}
}

// apply keeps the values of one message from the server.
func (w *wsClient) apply(typ websocket.MessageType, b []byte) {
	w.t.Helper()
	w.n++
	var m struct {
		Type, Device string
		Data         map[string]json.RawMessage
	}
	if typ != websocket.MessageText || json.Unmarshal(b, &m) != nil || m.Data == nil {
		w.t.Fatalf("bad message from the server: %s", b)
	}
	dev := m.Type + " " + m.Device
	if w.state[dev] == nil {
		w.state[dev] = map[string]json.RawMessage{}
	}
	for k, v := range m.Data {
		w.state[dev][k] = v
	}
}

func (w *wsClient) get(dev, key string) string { return string(w.state[dev][key]) }

func (w *wsClient) float(dev, key string) float64 {
	var f float64
	if json.Unmarshal(w.state[dev][key], &f) != nil {
		return math.NaN()
	}
	return f
}

// eventually re-checks cond until it holds, failing at the deadline: for
// a client's leaving, which the server's handler notes when its read
// ends, with nothing to wait on.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tooltest.Eventually(t, waitLimit, what, cond)
}

func binary(t *testing.T, d *daemon.Daemon, name string) bool {
	t.Helper()
	h, err := interfaces.State[interfaces.BinaryState](d.Handles, name, interfaces.Binary)
	if err != nil {
		t.Fatal(err)
	}
	return h.Value
}

// TestServer: a Go client gets the robot's initial state, enables it,
// sees a PWM follow a command, overrides the beam break the loop reads,
// and when it leaves, its override ends and the robot is disabled.
func TestServer(t *testing.T) {
	d := stepped(t, false)
	c := dial(t, d.WS, "/wpilibws")
	initial := []string{"DriverStation ", "Joystick 0", "Joystick 5", "PWM 0", "PWM 3", "PWM 6", "PWM 10", "DIO 6", "DIO 12", "DIO 13",
		"dPWM 0", "AI 0", "AI 2", "Encoder 0", "Encoder 3", "Relay 0", "Solenoid 0,0", "Solenoid 0,2", "CANMotor TalonSRX[1]",
		"CANMotor VictorSPX[2]", "Gyro navx", "Gyro pigeon", "Accel navx", "Accel pigeon"}
	c.until("the initial state", func() bool {
		for _, dev := range initial {
			if len(c.state[dev]) == 0 {
				return false
			}
		}
		return true
	})
	if c.get("DriverStation ", ">enabled") != "false" || c.get("DIO 12", "<input") != "true" || c.get("DIO 13", "<input") != "false" ||
		c.get("PWM 0", "<speed") != "0" || c.get("dPWM 0", "<dio_pin") != "11" || c.get("Relay 0", "<init_rev") != "true" {
		t.Errorf("initial state: %v", c.state)
	}
	if got := c.float("AI 0", ">voltage"); !(got > 0 && got < 5) {
		t.Errorf("shoulder pot %v V", got)
	}

	c.send(`{"type":"DriverStation","device":"","data":{">enabled":true,">new_data":true}}`)
	c.until(">enabled true sent back", func() bool { return c.get("DriverStation ", ">enabled") == "true" })
	if !d.Sim.DS().Enabled {
		t.Fatal("the sim is not enabled")
	}

	// shoulder_voltage drives the PWM Talon SRX on PWM 2 (one cycle: the
	// drive base's controller would ramp its wheels up over many, more
	// messages than the client reads between them).
	if err := d.Loop.Controller("shoulder_voltage").Command(6, d.Now()); err != nil {
		t.Fatal(err)
	}
	d.Step()
	c.until("PWM 2 speed following the command", func() bool { return c.float("PWM 2", "<speed") > 0.3 })

	// Override the beam break (a link sensor on DIO 12): the loop reads it.
	if binary(t, d, "ball_beam_break") {
		t.Fatal("beam broken before the override")
	}
	c.send(`{"type":"DIO","device":"12","data":{"<>value":true}}`)
	c.until("DIO 12 reported high", func() bool { return c.get("DIO 12", "<>value") == "true" })
	d.Step()
	if !binary(t, d, "ball_beam_break") {
		t.Error("the loop does not read the overridden beam break")
	}

	// Override an encoder (the elevator's, opened third), then clear it
	// with null.
	c.send(`{"type":"Encoder","device":"2","data":{">count":1234}}`)
	c.until("Encoder 2 count 1234", func() bool { return c.get("Encoder 2", ">count") == "1234" })
	c.send(`{"type":"Encoder","device":"2","data":{">count":null}}`)
	c.until("Encoder 2 count back", func() bool { return c.get("Encoder 2", ">count") != "1234" })

	// The navX's heading, as a Gyro.
	c.send(`{"type":"Gyro","device":"navx","data":{">angle_z":90,">rate_z":-45}}`)
	c.until("navx angle_z 90", func() bool {
		return math.Abs(c.float("Gyro navx", ">angle_z")-90) < 1e-9 && c.float("Gyro navx", ">rate_z") == -45
	})
	c.send(`{"type":"Accel","device":"pigeon","data":{">x":0.5}}`)
	c.until("pigeon x 0.5 g", func() bool { return c.float("Accel pigeon", ">x") == 0.5 })
	c.send(`{"type":"Joystick","device":"2","data":{">axes":[0.5,-0.25],">buttons":[true],">povs":[180]}}`)
	c.until("joystick 2", func() bool { return c.get("Joystick 2", ">axes") == "[0.5,-0.25]" })
	if j := d.Sim.Joystick(2); len(j.Buttons) != 1 || !j.Buttons[0] || j.POVs[0] != 180 {
		t.Errorf("joystick 2 in the sim: %+v", j)
	}

	// Leaving ends the overrides and disables the robot.
	c.c.Close(websocket.StatusNormalClosure, "")
	eventually(t, "the client gone", func() bool { return d.WS.Stats().Clients == 0 })
	if d.Sim.DS().Enabled {
		t.Error("still enabled after the client that enabled it left")
	}
	d.Step()
	if binary(t, d, "ball_beam_break") {
		t.Error("the beam override outlived its client")
	}
	var io sim.IO
	d.Sim.ReadIO(&io)
	// The navX is back on the drive base: its heading is the base's, not
	// the override's 90°.
	q := io.IMUs[0].Motion.Orientation // w, x, y, z
	pose, _ := d.Sim.Pose()
	if yaw := 2 * math.Atan2(q[3], q[0]); math.Abs(math.Remainder(yaw-pose.Yaw, 2*math.Pi)) > 1e-6 {
		t.Errorf("navx override outlived its client: yaw %v, the base's %v (%+v)", yaw, pose.Yaw, io.IMUs[0].Motion)
	}
	if s := d.WS.Stats(); s.Connects != 1 || s.Ignored != 0 || s.BadValues != 0 || s.Dropped != 0 || s.Received != 7 {
		t.Errorf("stats %+v", s)
	}
}

// TestDisabledIsNeutral: a DriverStation >enabled false from the client
// disables the robot and the loop makes the PWM neutral.
func TestDisabledIsNeutral(t *testing.T) {
	d := stepped(t, true)
	c := dial(t, d.WS, "/wpilibws")
	if err := d.Loop.Controller("elevator_voltage").Command(6, d.Now()); err != nil {
		t.Fatal(err)
	}
	d.Step()
	c.until("PWM 4 running", func() bool { return c.float("PWM 4", "<speed") > 0.3 })
	c.send(`{"type":"DriverStation","device":"","data":{">enabled":false}}`)
	c.until(">enabled false sent back", func() bool { return c.get("DriverStation ", ">enabled") == "false" })
	d.Step()
	c.until("PWM 4 neutral", func() bool { return c.get("PWM 4", "<speed") == "0" })
	c.send(`{"type":"DriverStation","device":"","data":{">enabled":true,">estop":true,">autonomous":true,">station":"blue2",">match_time":135}}`)
	c.until("e-stop, autonomous, blue2 reported", func() bool {
		return c.get("DriverStation ", ">estop") == "true" && c.get("DriverStation ", ">autonomous") == "true" &&
			c.get("DriverStation ", ">station") == `"blue2"` && c.get("DriverStation ", ">match_time") == "135"
	})
	if err := d.Loop.Controller("elevator_voltage").Command(6, d.Now()); err != nil {
		t.Fatal(err)
	}
	d.Step()
	if j, _ := d.Sim.Joint("elevator_joint"); j.Voltage != 0 {
		t.Errorf("e-stopped elevator at %v V", j.Voltage)
	}
}

// TestResources: one client per resource, refused with 409 on one in use;
// /wpilibws/NAME gives another; other paths are not found.
func TestResources(t *testing.T) {
	d := stepped(t, false)
	c := dial(t, d.WS, "/wpilibws")
	c.until("DS", func() bool { return c.state["DriverStation "] != nil })
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws://"+d.WS.Addr().String()+"/wpilibws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusConflict {
		t.Errorf("second client: %v %v, want 409", err, resp)
	}
	other := dial(t, d.WS, "/wpilibws/gui")
	other.until("DS on the second resource", func() bool { return other.state["DriverStation "] != nil })
	for _, p := range []string{"/", "/wpilibws/", "/other"} {
		_, resp, err := websocket.Dial(ctx, "ws://"+d.WS.Addr().String()+p, nil)
		if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %v %v, want 404", p, err, resp)
		}
	}
	if s := d.WS.Stats(); s.Clients != 2 || s.Rejected != 1 || s.Connects != 2 {
		t.Errorf("stats %+v", s)
	}
}

// TestBadMessages: what the spec says to ignore is ignored and counted,
// and the server goes on.
func TestBadMessages(t *testing.T) {
	d := stepped(t, false)
	c := dial(t, d.WS, "/wpilibws")
	ignored := []string{`not json`, `[1]`, `{"type":1,"device":"1","data":{}}`, `{"type":"DIO","device":"1"}`,
		`{"type":"Teleporter","device":"1","data":{">x":1}}`}
	bad := []string{
		`{"type":"DIO","device":"12","data":{"<>value":"yes"}}`,   // wrong type
		`{"type":"DIO","device":"13","data":{"<>value":true}}`,    // an output
		`{"type":"DIO","device":"40","data":{"<>value":true}}`,    // no such channel
		`{"type":"AI","device":"1","data":{">voltage":[1]}}`,      // wrong type
		`{"type":"Encoder","device":"9","data":{">count":3}}`,     // never opened
		`{"type":"Gyro","device":"nope","data":{">angle_z":1}}`,   // no such IMU
		`{"type":"Joystick","device":"0","data":{">povs":[1.5]}}`, // not an integer
	}
	for _, m := range append(ignored, bad...) {
		c.send(m)
	}
	if err := c.c.Write(context.Background(), websocket.MessageBinary, []byte{1, 2}); err != nil {
		t.Fatal(err)
	}
	c.send(`{"type":"PWM","device":"0","data":{"<speed":1}}`) // an output: nothing to take
	// Messages are handled in order: once this one's effect comes back,
	// every one before it was handled.
	c.send(`{"type":"DriverStation","device":"","data":{">game_data":"done"}}`)
	c.until("the last message handled", func() bool { return c.get("DriverStation ", ">game_data") == `"done"` })
	if s := d.WS.Stats(); s.Received != uint64(len(ignored)+len(bad)+3) || s.Ignored != uint64(len(ignored)+1) || s.BadValues != uint64(len(bad)) {
		t.Errorf("stats %+v, want %d ignored, %d bad values", s, len(ignored)+1, len(bad))
	}
	if d.Sim.DS().Enabled {
		t.Error("enabled by garbage")
	}
}

// TestSlowClientDropped: a client whose queue overflows is closed; the
// others go on.
func TestSlowClientDropped(t *testing.T) {
	r := exampleRobot(t)
	s, err := sim.New(r, sim.ConfigOptions(r.Config, 1, false))
	if err != nil {
		t.Fatal(err)
	}
	// Seven messages make the initial state (DS and six joysticks): a
	// queue of three overflows at once.
	srv, err := wpilibws.New(wpilibws.Options{Addr: "127.0.0.1:0", Sim: s, Config: r.Config, Queue: 3})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, srv.Run)
	c := dial(t, srv, "/wpilibws")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	var err2 error
	for err2 == nil {
		_, _, err2 = c.c.Read(ctx)
	}
	if errors.Is(err2, context.DeadlineExceeded) {
		t.Fatal("the slow client was not closed")
	}
	eventually(t, "the client forgotten", func() bool { return srv.Stats().Clients == 0 })
	if st := srv.Stats(); st.Dropped != 1 {
		t.Errorf("stats %+v", st)
	}
	// The resource is free again.
	c2 := dial(t, srv, "/wpilibws/other")
	c2.c.CloseNow()
}

func TestNewErrors(t *testing.T) {
	r := exampleRobot(t)
	s, err := sim.New(r, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wpilibws.New(wpilibws.Options{Config: r.Config}); err == nil {
		t.Error("no sim accepted")
	}
	a, err := wpilibws.New(wpilibws.Options{Addr: "127.0.0.1:0", Sim: s, Config: r.Config})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, a.Run)
	if _, err := wpilibws.New(wpilibws.Options{Addr: a.Addr().String(), Sim: s, Config: r.Config}); err == nil || !strings.Contains(err.Error(), "wpilibws") {
		t.Errorf("address in use: %v", err)
	}
	if _, err := wpilibws.New(wpilibws.Options{Addr: "no-such-host-name.invalid:99999", Sim: s, Config: r.Config}); err == nil {
		t.Error("bad address accepted")
	}
}
