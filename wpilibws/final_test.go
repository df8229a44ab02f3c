package wpilibws_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/wpilibws"
)

// TestFinalUpdate: when the daemon stops (outputs halted, then the server
// stopped), a client gets every output neutral and a close frame (1001),
// not its last non-zero values and an abnormal closure (1006).
func TestFinalUpdate(t *testing.T) {
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{Enabled: true, WPILibWS: "127.0.0.1:0"}, daemon.Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	d.Step()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- d.WS.Run(ctx) }()
	defer func() {
		cancel()
		<-served
	}()
	c := dial(t, d.WS, "/wpilibws")
	if err := d.Loop.Controller("elevator_voltage").Command(6, d.Now()); err != nil {
		t.Fatal(err)
	}
	d.Step()
	c.until("PWM 4 running", func() bool { return c.float("PWM 4", "<speed") > 0.3 })

	if err := d.Halt(); err != nil { // what daemon.Run does first
		t.Fatal(err)
	}
	cancel()
	// Read to the end: the state must end neutral, the close be proper.
	var closeErr error
	for closeErr == nil {
		rctx, rcancel := context.WithTimeout(context.Background(), waitLimit)
		typ, b, err := c.c.Read(rctx)
		rcancel()
		if closeErr = err; err == nil {
			c.apply(typ, b)
		}
	}
	if got := websocket.CloseStatus(closeErr); got != websocket.StatusGoingAway {
		t.Errorf("closed with %v (%v), want 1001 going away", got, closeErr)
	}
	if got := c.get("PWM 4", "<speed"); got != "0" {
		t.Errorf("PWM 4's last speed %s, want 0", got)
	}
	if got := c.get("DriverStation ", ">enabled"); got != "false" {
		t.Errorf("last >enabled %s, want false", got)
	}
	if err := <-served; err != nil {
		t.Errorf("Run: %v", err)
	}
	served <- nil // for the deferred stop
}

// TestHandlerPanic: a panic while handling a client's message is handed
// to OnPanic on that goroutine; the client is closed, the lock released,
// and the server goes on serving.
func TestHandlerPanic(t *testing.T) {
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{}, daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	panics := make(chan any, 4)
	s, err := wpilibws.New(wpilibws.Options{Addr: "127.0.0.1:0", Sim: d.Sim, Config: d.Robot.Config, Logf: t.Logf,
		SetEnabled: func(on bool) {
			if on {
				panic("enable failed")
			}
		},
		OnPanic: func(v any) { panics <- v }})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, s.Run)
	c := dial(t, s, "/wpilibws")
	c.send(`{"type":"DriverStation","device":"","data":{">enabled":true}}`)
	select {
	case v := <-panics:
		if v != "enable failed" {
			t.Errorf("OnPanic got %v", v)
		}
	case <-time.After(waitLimit):
		t.Fatal("OnPanic not called")
	}
	eventually(t, "the client gone", func() bool { return s.Stats().Clients == 0 })
	c2 := dial(t, s, "/wpilibws")
	c2.until("the state, to a new client", func() bool { return c2.state["DriverStation "] != nil })
}

// TestEStopHolds: a client cannot clear an e-stop: `>estop: false,
// >enabled: true` after it leaves the robot e-stopped and its outputs
// neutral, and the state it is sent back says so.
func TestEStopHolds(t *testing.T) {
	d := stepped(t, true)
	c := dial(t, d.WS, "/wpilibws")
	c.send(`{"type":"DriverStation","device":"","data":{">estop":true}}`)
	c.until("e-stop reported", func() bool { return c.get("DriverStation ", ">estop") == "true" })
	c.send(`{"type":"DriverStation","device":"","data":{">estop":false,">enabled":true}}`)
	if err := d.Loop.Controller("elevator_voltage").Command(6, d.Now()); err != nil {
		t.Fatal(err)
	}
	d.Step()
	d.Step()
	if ds := d.Sim.DS(); !ds.EStop || ds.Enabled {
		t.Errorf("the sim's Driver Station after a client cleared the e-stop: %+v", ds)
	}
	if j, _ := d.Sim.Joint("elevator_joint"); j.Voltage != 0 {
		t.Errorf("e-stopped elevator at %v V", j.Voltage)
	}
	if got := d.StatusLine(); !strings.Contains(got, " e-stopped ") {
		t.Errorf("status: %s", got)
	}
}
