package systemcore

import (
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/internal/systemservertest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4"
)

const wait = 10 * time.Second

func emulated(t *testing.T) (*systemservertest.Server, *Backend) {
	t.Helper()
	srv, err := systemservertest.Start()
	if err != nil {
		t.Fatal(err)
	}
	b := New(Options{SystemServer: srv.Addr()}, linux.Parts{}, map[string]bool{})
	t.Cleanup(func() {
		tooltest.Within(t, 5*time.Second, func() { b.Close() })
		srv.Close()
	})
	tooltest.Eventually(t, wait, "connected to the emulated system server", b.link.connected)
	return srv, b
}

// setIs sets an output as the control loop does, every cycle, until frcd
// has published v on the topic (a reconnection in between starts the
// output at 0 until the loop sets it again).
func setIs(t *testing.T, srv *systemservertest.Server, topic string, v int64, set func()) {
	t.Helper()
	tooltest.Eventually(t, wait, topic+" = "+strconv.FormatInt(v, 10), func() bool {
		set()
		got, ok := srv.Int(topic)
		return ok && got == v
	})
}

// intIs waits for frcd to have published v on the topic.
func intIs(t *testing.T, srv *systemservertest.Server, topic string, v int64) {
	t.Helper()
	tooltest.Eventually(t, wait, topic+" = "+strconv.FormatInt(v, 10), func() bool { got, ok := srv.Int(topic); return ok && got == v })
}

// SmartIO through the emulated system server: each channel's mode as
// WPILib's SmartIo.cpp set it (/io/<ch>/type), outputs on valset (µs for
// PWM, 255 for a high DIO), inputs from valget (mV for analog), one use
// per channel, channels 0-5 only; the battery and the IMU with WPILib's
// units.
func TestSmartIOThroughSystemServer(t *testing.T) {
	srv, b := emulated(t)
	pwm, err := b.OpenPWM(0)
	if err != nil {
		t.Fatal(err)
	}
	din, err := b.OpenDigitalIn(1)
	if err != nil {
		t.Fatal(err)
	}
	dout, err := b.OpenDigitalOut(2)
	if err != nil {
		t.Fatal(err)
	}
	ain, err := b.OpenAnalogIn(3, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	duty, err := b.OpenDutyCycleOut(4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.OpenPWM(6); !errors.Is(err, hal.ErrNoDevice) || !strings.Contains(err.Error(), "SmartIO channels 0-5") {
		t.Errorf("PWM 6: %v", err)
	}
	if _, err := b.OpenDigitalIn(0); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("DIO 0 over PWM 0: %v", err)
	}
	for ch, mode := range []int64{modePWMOut, modeDigitalIn, modeDigitalOut, modeAnalogIn, modePWMOut} {
		intIs(t, srv, "/io/"+strconv.Itoa(ch)+"/type", mode)
	}
	intIs(t, srv, "/io/4/periodset", period2ms)
	intIs(t, srv, "/io/0/periodset", period20ms) // published, not left at what the channel last ran
	intIs(t, srv, "/io/0/valset", 0)
	intIs(t, srv, "/io/2/valset", 0)

	for _, c := range []struct {
		width time.Duration
		want  int64
	}{{1500 * time.Microsecond, 1500}, {hal.AlwaysHigh, pwmAlwaysHigh}, {5 * time.Millisecond, pwmMaxMicros}, {0, 0}, {2 * time.Millisecond, 2000}} {
		setIs(t, srv, "/io/0/valset", c.want, func() { pwm.SetPulse(c.width) })
	}
	setIs(t, srv, "/io/2/valset", digitalHigh, func() { dout.Set(true) })
	setIs(t, srv, "/io/2/valset", 0, func() { dout.Set(false) })
	setIs(t, srv, "/io/4/valset", 500, func() { duty.SetDutyCycle(0.25) })
	setIs(t, srv, "/io/4/valset", 0, func() { duty.SetDutyCycle(math.NaN()) })

	if err := srv.SetValget(1, 1); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, wait, "DIO 1 high", func() bool { v, err := din.Get(); return err == nil && v })
	if err := srv.SetValget(3, 2500); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, wait, "analog 3 at 2.5 V", func() bool { v, err := ain.Voltage(); return err == nil && v == 2.5 })
	if err := srv.SetBattery(11.75); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, wait, "the battery at 11.75 V", func() bool { v, err := b.Vin(); return err == nil && v == 11.75 })

	imu, err := b.OpenBuiltInIMU()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.OpenBuiltInIMU(); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("the IMU twice: %v", err)
	}
	if err := srv.SetIMU([4]float64{0.5, 0.5, 0.5, 0.5}, [3]float64{0, 0, 90}, [3]float64{0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, wait, "the IMU's reading", func() bool {
		q, g, a, err := imu.Read()
		return err == nil && q == [4]float64{0.5, 0.5, 0.5, 0.5} && math.Abs(g[2]-math.Pi/2) < 1e-12 && a[2] == hal.Gravity
	})
	srv.SetControl(&systemservertest.Control{DSConnected: true})
	tooltest.Eventually(t, wait, "the Driver Station attached", func() bool { return b.DS().Attached })
	var rep []string
	for _, r := range b.Report(nil) {
		rep = append(rep, r.Name+": "+r.Message)
		if r.Warn {
			t.Errorf("WARN with everything served: %+v", r)
		}
	}
	if s := strings.Join(rep, "\n"); !strings.Contains(s, "battery: 11.75 V; brownout and faults: not served") || !strings.Contains(s, "connected: ") {
		t.Errorf("report:\n%s", s)
	}
	// A battery under the brownout voltage warns.
	if err := srv.SetBattery(6.2); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, wait, "the battery at 6.2 V", func() bool { v, err := b.Vin(); return err == nil && v == 6.2 })
	lowWarned := false
	for _, r := range b.Report(nil) {
		if r.Name == "battery" {
			lowWarned = r.Warn && strings.Contains(r.Message, "6.20 V, under 6.75 V")
		}
	}
	if !lowWarned {
		t.Errorf("a 6.2 V battery: no WARN: %+v", b.Report(nil))
	}

	// What the control loop calls every cycle allocates nothing.
	var js hal.JoystickState
	if n := testing.AllocsPerRun(100, func() {
		b.DS()
		b.Joystick(0, &js)
		din.Get()
		ain.Voltage()
		pwm.SetPulse(1500 * time.Microsecond)
		dout.Set(true)
		duty.SetDutyCycle(0.5)
		imu.Read()
		b.Vin()
	}); n != 0 {
		t.Errorf("%v allocations a cycle", n)
	}
}

// The Driver Station from the emulated system server: enabled only while
// its control data says enabled, DS connected and watchdog active and is
// fresh; e-stop, a DS gone, stale data, and the server restarting all
// read disabled; joysticks, match time and match info as WPILib decoded
// them. After the server restarts, every output starts neutral.
func TestDriverStationThroughSystemServer(t *testing.T) {
	srv, b := emulated(t)
	if ds := b.DS(); ds.Enabled || ds.Attached {
		t.Errorf("no control data: %+v", ds)
	}
	tooltest.Eventually(t, wait, "robot code announced", func() bool {
		return srv.Bool(HasUserCodeTopic) && srv.Bool(HasUserCodeReadyTopic)
	})
	on := systemservertest.Control{Enabled: true, DSConnected: true, Watchdog: true, Mode: mrcAutonomous, MatchTime: 15, GameData: "LRLxxxxxxx",
		Sticks: []systemservertest.Stick{{Axes: []int16{-32768, 0, 32767}, Buttons: 0b101, NumButtons: 3, POVs: []uint8{0, 3, 12}}}}
	srv.SetControl(&on)
	tooltest.Eventually(t, wait, "enabled in autonomous", func() bool {
		ds := b.DS()
		return ds.Enabled && ds.Attached && ds.Mode == hal.Autonomous && !ds.EStop
	})
	var js hal.JoystickState
	if err := b.Joystick(0, &js); err != nil {
		t.Fatal(err)
	}
	if js.NumAxes != 3 || js.Axes[0] != -1 || js.Axes[1] != 0 || js.Axes[2] != 1 || js.NumButtons != 3 || !js.Button(1) || js.Button(2) || !js.Button(3) ||
		js.NumPOVs != 3 || js.POVs[0] != -1 || js.POVs[1] != 45 || js.POVs[2] != 225 {
		t.Errorf("joystick 0: %+v", js)
	}
	if err := b.Joystick(1, &js); err != nil || js.NumAxes != 0 || js.NumButtons != 0 {
		t.Errorf("joystick 1 (none): %+v %v", js, err)
	}
	if err := b.Joystick(6, &js); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("joystick 6: %v", err)
	}
	if mt, _ := b.MatchTime(); mt != 15 {
		t.Errorf("match time %v", mt)
	}
	if err := srv.SetMatch(systemservertest.Match{Event: "CAPH", Number: 12, Type: 2}); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, wait, "match Q12", func() bool {
		m, err := b.MatchInfo()
		return err == nil && m.Label() == "Q12" && m.Event == "CAPH" && m.GameMessage == "LRLxxxxx"
	})

	for _, c := range []struct {
		name string
		mod  func(c *systemservertest.Control)
		want hal.DSState
	}{
		{"e-stopped", func(c *systemservertest.Control) { c.EStop = true }, hal.DSState{EStop: true, Attached: true, Mode: hal.Autonomous}},
		{"watchdog not active", func(c *systemservertest.Control) { c.Watchdog = false }, hal.DSState{Attached: true, Mode: hal.Autonomous}},
		{"disabled in test", func(c *systemservertest.Control) { c.Enabled, c.Mode = false, mrcTest }, hal.DSState{Attached: true, Mode: hal.Test}},
		{"no DS", func(c *systemservertest.Control) { c.DSConnected = false }, hal.DSState{}},
		{"enabled in teleop", func(c *systemservertest.Control) { c.Mode = mrcTeleop }, hal.DSState{Enabled: true, Attached: true, Mode: hal.Teleop}},
	} {
		c2 := on
		c.mod(&c2)
		srv.SetControl(&c2)
		tooltest.Eventually(t, wait, c.name, func() bool { return b.DS() == c.want })
	}
	srv.SetControl(nil) // the Driver Station stops sending: stale
	tooltest.Eventually(t, wait, "disabled once the control data is stale", func() bool { return !b.DS().Enabled })

	pwm, err := b.OpenPWM(0)
	if err != nil {
		t.Fatal(err)
	}
	srv.SetControl(&on)
	tooltest.Eventually(t, wait, "enabled again", func() bool { return b.DS().Enabled })
	setIs(t, srv, "/io/0/valset", 1700, func() { pwm.SetPulse(1700 * time.Microsecond) })
	sent := srv.Sent()
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	// The control data keeps coming after the restart; the backend, with
	// no loop to set its outputs neutral, must start the new connection
	// at neutral itself.
	tooltest.Eventually(t, wait, "control data after the restart", func() bool { return srv.Sent() > sent+5 })
	intIs(t, srv, "/io/0/type", modePWMOut)
	tooltest.Eventually(t, wait, "the DS enabled after the restart", func() bool { return b.DS().Enabled })
	if h := srv.History("/io/0/valset"); len(h) == 0 || slices.ContainsFunc(h, func(v systemservertest.Value) bool { return v.Int != 0 }) {
		t.Errorf("the valsets on the new connection, before the loop set one: %+v, want only 0", h)
	}
	tooltest.Eventually(t, wait, "enabled after the restart", func() bool { return b.DS().Enabled })
	setIs(t, srv, "/io/0/valset", 1600, func() { pwm.SetPulse(1600 * time.Microsecond) })
	lost := false
	for _, r := range b.Report(nil) {
		lost = lost || r.Name == "system server "+srv.Addr() && strings.Contains(r.Message, "; 1 connections lost")
	}
	if !lost {
		t.Errorf("the report does not count the lost connection: %+v", b.Report(nil))
	}
	// Close publishes the loop's last outputs before it disconnects (the
	// daemon halts, every output neutral, then closes the backend).
	pwm.SetPulse(0)
	tooltest.Within(t, 5*time.Second, func() { b.Close() })
	if h := srv.History("/io/0/valset"); len(h) == 0 || h[len(h)-1].Int != 0 {
		t.Errorf("the last valset before Close: %+v", h)
	}

	// The Driver Station stops; a backend connecting now gets the server's
	// stored control data, the last the Driver Station sent (enabled): it
	// must not count as fresh.
	srv.SetControl(nil)
	late := New(Options{SystemServer: srv.Addr()}, linux.Parts{}, map[string]bool{})
	defer tooltest.Within(t, 5*time.Second, func() { late.Close() })
	primed := func() bool {
		late.link.ds.mu.Lock()
		defer late.link.ds.mu.Unlock()
		return late.link.ds.primed
	}
	tooltest.Eventually(t, wait, "the stored control data read by a new backend", func() bool {
		if ds := late.DS(); ds.Enabled {
			t.Fatalf("a new backend enabled on the stored control data of a Driver Station that stopped: %+v", ds)
		}
		return primed()
	})
	if ds := late.DS(); ds.Enabled || ds.Attached {
		t.Errorf("a new backend on stale stored control data: %+v", ds)
	}
	srv.SetControl(&on)
	tooltest.Eventually(t, wait, "the new backend enabled by fresh control data", func() bool { return late.DS().Enabled })
}

// A system server that announces none of the topics (what an image whose
// WPILib uses mrclib serves): every read says which topic is missing and
// why, and /diagnostics warns with the list.
func TestSystemServerWithoutTopics(t *testing.T) {
	start := time.Now()
	srv, err := nt4.New(nt4.Options{Addr: "127.0.0.1:0", Clock: func() time.Duration { return time.Since(start) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx) }()
	defer func() { stop(); <-served }()
	b := New(Options{SystemServer: srv.Addr().String()}, linux.Parts{}, map[string]bool{})
	defer tooltest.Within(t, 5*time.Second, func() { b.Close() })
	tooltest.Eventually(t, wait, "connected", b.link.connected)
	din, err := b.OpenDigitalIn(5)
	if err != nil {
		t.Fatal(err)
	}
	imu, err := b.OpenBuiltInIMU()
	if err != nil {
		t.Fatal(err)
	}
	var nse *notServedError
	if _, err := din.Get(); !errors.As(err, &nse) || !errors.Is(err, hal.ErrNoDevice) || !strings.Contains(err.Error(), "/io/5/valget") || !strings.Contains(err.Error(), "mrclib") {
		t.Errorf("DIO 5: %v", err)
	}
	if _, _, _, err := imu.Read(); !errors.As(err, &nse) || !strings.Contains(err.Error(), "/imu/quat") {
		t.Errorf("IMU: %v", err)
	}
	if _, err := b.Vin(); !errors.As(err, &nse) {
		t.Errorf("Vin: %v", err)
	}
	if ds := b.DS(); ds != (hal.DSState{}) {
		t.Errorf("DS %+v", ds)
	}
	found := false
	for _, r := range b.Report(nil) {
		if r.Name == "system server topics" {
			found = true
			if !r.Warn || !strings.Contains(r.Message, "/io/5/valget, /imu/quat, /imu/rawgyro, /imu/rawaccel, /Netcomm/Control/ControlData") {
				t.Errorf("report %+v", r)
			}
		}
	}
	if !found {
		t.Errorf("no report of the missing topics: %+v", b.Report(nil))
	}
	// The loop reads every cycle on such an image: failing reads
	// allocate nothing either.
	if n := testing.AllocsPerRun(100, func() {
		_, _ = din.Get()
		_, _, _, _ = imu.Read()
		_, _ = b.Vin()
		b.DS()
	}); n != 0 {
		t.Errorf("%v allocations per cycle of failing reads", n)
	}
}

// Nothing listening: every read times out, the Driver Station is
// disabled, and /diagnostics warns.
func TestSystemServerNotReachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	b := New(Options{SystemServer: addr}, linux.Parts{}, map[string]bool{})
	defer tooltest.Within(t, 5*time.Second, func() { b.Close() })
	ain, err := b.OpenAnalogIn(0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, wait, "not connected", func() bool {
		for _, r := range b.Report(nil) {
			if r.Name == "system server "+addr {
				return r.Warn && strings.HasPrefix(r.Message, "not connected (") && strings.Contains(r.Message, "every SmartIO output neutral")
			}
		}
		return false
	})
	if _, err := ain.Voltage(); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("analog in: %v", err)
	}
	if b.DS().Enabled {
		t.Error("enabled without a server")
	}
}

// A server that takes the connection and then never answers (wedged):
// stopping the link does not wait for the WebSocket close handshake it
// will never finish (Systemcore kills the program 1 s after SIGTERM).
func TestStopOnWedgedServer(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"v4.1.networktables.first.wpi.edu", "networktables.first.wpi.edu"}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		<-hold // reads nothing, answers nothing
	}))
	defer srv.Close()
	l := startLink(strings.TrimPrefix(srv.URL, "http://"))
	tooltest.Eventually(t, wait, "a connection made", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.gen > 0
	})
	tooltest.Within(t, 4*stopWithin, l.stop)
}
