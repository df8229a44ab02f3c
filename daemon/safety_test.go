package daemon

import (
	"context"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

// TestInhibitIsNeutralAtOnce: the cycle an inhibit takes effect leaves
// every output neutral, the solenoids included (they once dropped a cycle
// late, when the sim's PCM next stepped).
func TestInhibitIsNeutralAtOnce(t *testing.T) {
	d := competition(t, 100, false)
	for i := 0; i < 50; i++ {
		command(d)
		d.Step()
	}
	if bad := notNeutral(d); !strings.Contains(strings.Join(bad, ";"), "solenoid") {
		t.Fatalf("no solenoid on before the inhibit: %v", bad)
	}
	d.Loop.Inhibit("a required CAN device is missing")
	command(d)
	d.Step()
	if bad := notNeutral(d); len(bad) > 0 {
		t.Errorf("the inhibited cycle: %s", strings.Join(bad, "; "))
	}
}

// TestDeactivateIsNeutralAtOnce: so does a deactivation (the hardware
// set inactive through ROS 2's controller manager), and the outputs stay
// neutral until it is lifted, whatever the commands.
func TestDeactivateIsNeutralAtOnce(t *testing.T) {
	d := competition(t, 100, false)
	for i := 0; i < 50; i++ {
		command(d)
		d.Step()
	}
	if bad := notNeutral(d); len(bad) == 0 {
		t.Fatal("nothing on before the deactivation")
	}
	d.Loop.Deactivate("hardware component frcd set inactive")
	for i := 0; i < 10; i++ {
		command(d)
		d.Step()
		if bad := notNeutral(d); len(bad) > 0 {
			t.Fatalf("deactivated cycle %d: %s", i, strings.Join(bad, "; "))
		}
	}
	d.Loop.Activate()
	for i := 0; i < 10; i++ {
		command(d)
		d.Step()
	}
	if bad := notNeutral(d); len(bad) == 0 {
		t.Error("nothing on after the activation and new commands")
	}
}

// TestROSEnableOnlyWhereAllowed: /frcd/enable is offered on the sim; on
// hardware frcd enables itself, only when `linux: {ros_enable: true}`
// allows it; never on hardware only the Driver Station enables.
func TestROSEnableOnlyWhereAllowed(t *testing.T) {
	if d := competition(t, 100, false); d.rosEnable() == nil {
		t.Error("no /frcd/enable on the sim")
	}
	for _, c := range []struct {
		yaml    string
		enabler bool
		want    bool
	}{
		{"", true, false},
		{"linux: {heartbeat: auto}\n", true, false},
		{"linux: {ros_enable: false}\n", true, false},
		{"linux: {ros_enable: true}\n", true, true},
		{"linux: {ros_enable: true}\n", false, false}, // a roboRIO: the Driver Station enables
	} {
		var b hal.Backend = haltest.New()
		if c.enabler {
			b = &stepped{Backend: haltest.New()}
		}
		r := exampleRobot(t, "minimal", func(y string) string { return y + c.yaml })
		d, err := New(r, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.rosEnable() != nil; got != c.want {
			t.Errorf("%q, software enable %v: /frcd/enable offered %v, want %v", c.yaml, c.enabler, got, c.want)
		}
	}
}

// TestWSCountersOnDiagnostics: bad WebSocket messages raise the server's
// /diagnostics status to WARN with their count, then it is OK again.
func TestWSCountersOnDiagnostics(t *testing.T) {
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	d, err := NewSim(r, SimOptions{WPILibWS: "127.0.0.1:0"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- d.WS.Run(ctx) }()
	defer func() { cancel(); <-served }()
	dctx, dcancel := context.WithTimeout(context.Background(), runLimit)
	defer dcancel()
	c, _, err := websocket.Dial(dctx, "ws://"+d.WS.Addr().String()+"/wpilibws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	for _, m := range []string{`not json`, `{"type":"DIO","device":"12","data":{"<>value":"high"}}`} {
		if err := c.Write(dctx, websocket.MessageText, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	ws := func() ros.Status {
		for _, st := range d.diagnostics(nil) {
			if st.HardwareID == "wpilibws" {
				return st
			}
		}
		t.Fatal("no WebSocket status")
		return ros.Status{}
	}
	tooltest.Eventually(t, runLimit, "the server counting the messages", func() bool {
		s := d.WS.Stats()
		return s.Ignored+s.BadValues >= 2
	})
	if st := ws(); st.Level != ros.LevelWarn || st.Message != "2 bad messages since the last report" {
		t.Errorf("first report %+v, want WARN with the count", st)
	}
	if st := ws(); st.Level != ros.LevelOK {
		t.Errorf("second report %+v, want OK", st)
	}
}
