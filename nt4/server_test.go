package nt4_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4"
	"github.com/frcd/frcd/nt4/wire"
	"github.com/frcd/frcd/robot"
)

// stepped is the example robot on the deterministic sim, enabled, with
// the NT4 server serving on a free port; step runs cycles and publishes.
func stepped(t *testing.T) (d *daemon.Daemon, step func(n int)) {
	t.Helper()
	return steppedRobot(t, exampleRobot(t), true)
}

func steppedRobot(t *testing.T, r *robot.Robot, enabled bool) (d *daemon.Daemon, step func(n int)) {
	t.Helper()
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: enabled}, daemon.Options{Logf: t.Logf, Telemetry: &daemon.TelemetryOptions{NT4: "127.0.0.1:0"}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.NT.Run)
	return d, func(n int) {
		for range n {
			d.Step()
			d.StepTelemetry()
		}
	}
}

// wsClient is a plain WebSocket NT4 client: it records what it hears.
type wsClient struct {
	t        *testing.T
	c        *websocket.Conn
	announce map[string]int // name -> id
	names    map[int]string
	values   map[string][]any
	gone     map[string]bool
	closed   error
	frames   chan frame
}

type frame struct {
	typ websocket.MessageType
	b   []byte
	err error
}

func dial(t *testing.T, d *daemon.Daemon, name string, protos ...string) *wsClient {
	t.Helper()
	if len(protos) == 0 {
		protos = []string{wire.ProtoV41, wire.ProtoV40}
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+d.NT.Addr().String()+"/nt/"+name, &websocket.DialOptions{Subprotocols: protos})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(8 << 20)
	w := &wsClient{t: t, c: c, announce: map[string]int{}, names: map[int]string{}, values: map[string][]any{}, gone: map[string]bool{},
		frames: make(chan frame, 1024)}
	done := make(chan struct{})
	go func() { // reads until the connection ends
		defer close(done)
		for {
			typ, b, err := c.Read(context.Background())
			w.frames <- frame{typ, b, err}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { c.CloseNow(); <-done })
	return w
}

func (w *wsClient) send(msgs ...string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte("["+strings.Join(msgs, ",")+"]")); err != nil {
		w.t.Fatal(err)
	}
}

func (w *wsClient) sendBinary(id int64, typ uint8, v float64) {
	w.t.Helper()
	b := msgp.AppendArrayHeader(nil, 4)
	b = msgp.AppendInt64(b, id)
	b = msgp.AppendInt64(b, 0)
	b = msgp.AppendUint8(b, typ)
	b = msgp.AppendFloat64(b, v)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageBinary, b); err != nil {
		w.t.Fatal(err)
	}
}

// until reads frames until cond holds (stepping the robot between reads
// when step is set); the deadline only guards a hung server.
func (w *wsClient) until(what string, step func(int), cond func() bool) {
	w.t.Helper()
	guard := time.NewTimer(waitLimit)
	defer guard.Stop()
	tick := time.NewTicker(5 * time.Millisecond) // steps the robot while waiting
	defer tick.Stop()
	for !cond() {
		select {
		case f := <-w.frames:
			if f.err != nil {
				w.closed = f.err
				continue
			}
			w.take(f.typ, f.b)
		case <-tick.C:
			if step != nil {
				step(1)
			}
		case <-guard.C:
			w.t.Fatalf("waiting for %s: nothing within %s", what, waitLimit)
		}
	}
}

func (w *wsClient) take(typ websocket.MessageType, b []byte) {
	w.t.Helper()
	if typ == websocket.MessageText {
		msgs, err := nt4.DecodeText(b)
		if err != nil {
			w.t.Fatalf("server sent a bad text frame %s: %v", b, err)
		}
		for _, m := range msgs {
			var p struct {
				Name string
				ID   int
			}
			json.Unmarshal(m.Params, &p)
			switch m.Method {
			case "announce":
				w.announce[p.Name], w.names[p.ID] = p.ID, p.Name
			case "unannounce":
				w.gone[p.Name] = true
			}
		}
		return
	}
	err := nt4.DecodeBinary(b, func(v nt4.Value) {
		name, ok := w.names[int(v.ID)]
		if !ok {
			w.t.Errorf("a value for topic id %d, never announced", v.ID)
			return
		}
		val, _, err := msgp.ReadIntfBytes(v.Raw)
		if err != nil {
			w.t.Errorf("%s: value: %v", name, err)
		}
		w.values[name] = append(w.values[name], val)
	})
	if err != nil {
		w.t.Fatalf("server sent a bad binary frame: %v", err)
	}
}

func TestProbeAndHandshake(t *testing.T) {
	d, _ := stepped(t)
	base := "http://" + d.NT.Addr().String()
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "NetworkTables 4") {
		t.Errorf("GET /: %d %q, want 200 and a page", res.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_, res, err = websocket.Dial(ctx, "ws://"+d.NT.Addr().String()+"/nt/x", &websocket.DialOptions{Subprotocols: []string{"chat"}})
	if err == nil || res == nil || res.StatusCode != http.StatusBadRequest {
		t.Errorf("a handshake without NT4's subprotocol: %v %v, want 400", res, err)
	}
	w := dial(t, d, "x", wire.ProtoV40)
	if w.c.Subprotocol() != wire.ProtoV40 {
		t.Errorf("subprotocol %q, want %q", w.c.Subprotocol(), wire.ProtoV40)
	}
}

// Announcements go to the clients whose subscriptions match; values only
// to those that asked for values, not topicsonly.
func TestSubscribe(t *testing.T) {
	d, step := stepped(t)
	step(1)
	w := dial(t, d, "a")
	w.send(`{"method":"subscribe","params":{"topics":["/frcd/ds/"],"subuid":1,"options":{"prefix":true,"periodic":0.02}}}`,
		`{"method":"subscribe","params":{"topics":["/frcd/loop/cycles"],"subuid":2,"options":{"topicsonly":true}}}`)
	w.until("the Driver Station's topics and values", step, func() bool {
		_, cycles := w.announce["/frcd/loop/cycles"]
		return len(w.values["/frcd/ds/enabled"]) > 0 && len(w.values["/frcd/ds/mode"]) > 0 && cycles
	})
	if v := w.values["/frcd/ds/enabled"]; v[len(v)-1] != true {
		t.Errorf("/frcd/ds/enabled %v, want true", v)
	}
	step(5)
	w.until("a few more cycles", step, func() bool { return len(w.values["/frcd/ds/mode"]) > 0 })
	for name := range w.announce {
		if !strings.HasPrefix(name, "/frcd/ds/") && name != "/frcd/loop/cycles" {
			t.Errorf("announced %s, which no subscription matches", name)
		}
	}
	if len(w.values["/frcd/loop/cycles"]) > 0 {
		t.Errorf("values of a topicsonly subscription: %v", w.values["/frcd/loop/cycles"])
	}
	if len(w.values["/frcd/ds/mode"]) != 1 {
		t.Errorf("/frcd/ds/mode %v: an unchanged value is sent once", w.values["/frcd/ds/mode"])
	}
}

// A client's topic reaches another client; frcd's own topics refuse
// clients' values; unpublishing the last publisher unannounces.
func TestClientTopics(t *testing.T) {
	d, step := stepped(t)
	step(1)
	pub, sub := dial(t, d, "pub"), dial(t, d, "sub")
	sub.send(`{"method":"subscribe","params":{"topics":["/dash/","/frcd/ds/estop"],"subuid":7,"options":{"prefix":true}}}`)
	pub.send(`{"method":"publish","params":{"name":"/dash/speed","pubuid":3,"type":"double","properties":{"unit":"m/s"}}}`,
		`{"method":"publish","params":{"name":"/frcd/ds/estop","pubuid":4,"type":"double","properties":{}}}`)
	pub.until("the announce answering the publish", nil, func() bool { _, ok := pub.announce["/dash/speed"]; return ok })
	pub.sendBinary(3, nt4.TypeDouble, 2.5)
	pub.sendBinary(4, nt4.TypeBoolean, 1)
	sub.until("the other client's value", step, func() bool { return len(sub.values["/dash/speed"]) > 0 })
	if v := sub.values["/dash/speed"]; v[0] != 2.5 {
		t.Errorf("/dash/speed %v, want 2.5", v)
	}
	tooltest.Eventually(t, waitLimit, "the refused publish counted", func() bool { return d.NT.Stats().PublishRefused == 1 })
	if s := d.NT.Stats(); s.Refused != 0 {
		t.Errorf("a value of the refused publisher was refused as a value too (%+v): it is an unknown publisher", s)
	}
	for _, v := range sub.values["/frcd/ds/estop"] {
		if v != false {
			t.Errorf("/frcd/ds/estop took a client's value: %v", v)
		}
	}
	pub.send(`{"method":"unpublish","params":{"pubuid":3}}`)
	sub.until("the unannounce", step, func() bool { return sub.gone["/dash/speed"] })
}

// A subscription with "all" gets every value, in order; one without, only
// the latest of each period. Both see the same last value.
func TestAllValues(t *testing.T) {
	d, step := stepped(t)
	step(1)
	all, latest := dial(t, d, "all"), dial(t, d, "latest")
	const cycles = "/frcd/loop/cycles"
	all.send(`{"method":"subscribe","params":{"topics":["/frcd/loop/"],"subuid":1,"options":{"prefix":true,"all":true,"periodic":0.5}}}`)
	latest.send(`{"method":"subscribe","params":{"topics":["/frcd/loop/"],"subuid":1,"options":{"prefix":true,"periodic":0.5}}}`)
	all.until("the announcement", nil, func() bool { _, ok := all.announce[cycles]; return ok })
	latest.until("the announcement", nil, func() bool { _, ok := latest.announce[cycles]; return ok })
	d.StepTelemetry() // no cycle: the topics now wanted, brought up to date
	all.until("the first value", nil, func() bool { return len(all.values[cycles]) > 0 })
	latest.until("the first value", nil, func() bool { return len(latest.values[cycles]) > 0 })
	const n = 200 // cycles run between two of the clients' periods, mostly
	step(n)
	want := int64(1 + n)
	last := func(w *wsClient) int64 {
		v := w.values[cycles]
		i, _ := v[len(v)-1].(int64)
		if u, ok := v[len(v)-1].(uint64); ok {
			i = int64(u)
		}
		return i
	}
	all.until("every cycle", nil, func() bool { return last(all) == want })
	latest.until("the last cycle", nil, func() bool { return last(latest) == want })
	got := all.values[cycles]
	for i, v := range got {
		if n, _ := v.(int64); n != int64(i+1) {
			if u, _ := v.(uint64); int64(u) != int64(i+1) {
				t.Fatalf("value %d of %s is %v, want %d: every value in order (%v)", i, cycles, v, i+1, got)
			}
		}
	}
	if len(latest.values[cycles]) >= len(got) {
		t.Errorf("without all: %d values, with all %d: want fewer, the latest of each period", len(latest.values[cycles]), len(got))
	}
	t.Logf("%d cycles: %d values with all, %d without", want, len(got), len(latest.values[cycles]))
	if s := d.NT.Stats(); s.ValuesLost != 0 {
		t.Errorf("values lost: %+v", s)
	}
}

// Refusals are counted and logged with their reason: a publish to frcd's
// own topic, a publish past a client's publishers, of a name too long or
// a meta topic's ($...), a subscription of too many topics or past a
// client's bytes of topic names, a command topic published as the wrong
// type.
func TestRefusals(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	logf := func(format string, args ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{Enabled: true}, daemon.Options{Logf: logf, Telemetry: &daemon.TelemetryOptions{NT4: "127.0.0.1:0"}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.NT.Run)
	d.Step()
	d.StepTelemetry()
	w := dial(t, d, "r")
	w.send(`{"method":"publish","params":{"name":"/frcd/loop/cycles","pubuid":1000,"type":"int","properties":{}}}`,
		`{"method":"publish","params":{"name":"/frcd/commands/elevator_voltage","pubuid":1001,"type":"boolean","properties":{}}}`,
		`{"method":"publish","params":{"name":"/`+strings.Repeat("n", 1024)+`","pubuid":1002,"type":"double","properties":{}}}`,
		`{"method":"publish","params":{"name":"$clientsub$later","pubuid":1003,"type":"msgpack","properties":{}}}`)
	var msgs []string
	for i := range 257 {
		msgs = append(msgs, `{"method":"publish","params":{"name":"/dash/p`+strconv.Itoa(i)+`","pubuid":`+strconv.Itoa(i)+`,"type":"double","properties":{}}}`)
	}
	w.send(msgs...)
	topics := make([]string, 257)
	for i := range topics {
		topics[i] = `"/t` + strconv.Itoa(i) + `"`
	}
	w.send(`{"method":"subscribe","params":{"topics":[` + strings.Join(topics, ",") + `],"subuid":1,"options":{}}}`)
	long := `"/` + strings.Repeat("x", 100<<10) + `"`
	w.send(`{"method":"subscribe","params":{"topics":[`+long+`],"subuid":2,"options":{}}}`,
		`{"method":"subscribe","params":{"topics":[`+long+`],"subuid":3,"options":{}}}`)
	tooltest.Eventually(t, waitLimit, "the refusals counted", func() bool {
		s := d.NT.Stats()
		return s.PublishRefused == 5 && s.SubscribeRefused == 2
	})
	w.until("the 256 publishes announced", nil, func() bool { return len(w.announce) == 256 })
	for _, name := range []string{"/dash/p256", "/frcd/loop/cycles", "/frcd/commands/elevator_voltage"} {
		if _, ok := w.announce[name]; ok {
			t.Errorf("%s announced: its publish was refused", name)
		}
	}
	mu.Lock()
	all := strings.Join(logged, "\n")
	mu.Unlock()
	for _, want := range []string{
		`nt4: r: publish "/frcd/loop/cycles" refused: the topic is frcd's own, read-only`,
		`nt4: r: publish "/frcd/commands/elevator_voltage" as boolean refused: the command takes double`,
		`nt4: r: publish "/dash/p256" refused: 256 publishers is a client's limit`,
		`nt4: r: subscribe 1 refused: 257 topics, 256 is the limit`,
		`nt4: r: a publish refused: a name of 1025 bytes, 1024 is the limit`,
		`nt4: r: publish "$clientsub$later" refused: names starting with $ are the server's meta topics`,
		`nt4: r: subscribe 3 refused: 204802 bytes of topic names in its subscriptions, 131072 is a client's limit`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("not logged: %s\nlog:\n%s", want, all)
		}
	}
}

// At shutdown every client gets a close frame: 1001, going away.
func TestCloseFrameOnStop(t *testing.T) {
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{Enabled: true}, daemon.Options{Logf: t.Logf, Telemetry: &daemon.TelemetryOptions{NT4: "127.0.0.1:0"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- d.NT.Run(ctx) }()
	w := dial(t, d, "bye")
	w.send(`{"method":"subscribe","params":{"topics":["/frcd/ds/"],"subuid":1,"options":{"prefix":true}}}`)
	d.Step()
	d.StepTelemetry()
	w.until("the announcement", nil, func() bool { _, ok := w.announce["/frcd/ds/enabled"]; return ok })
	d.StepTelemetry()
	w.until("a value", nil, func() bool { return len(w.values["/frcd/ds/enabled"]) > 0 })
	cancel()
	w.until("the close", nil, func() bool { return w.closed != nil })
	if got := websocket.CloseStatus(w.closed); got != websocket.StatusGoingAway {
		t.Errorf("closed with %v (%d), want 1001 going away", w.closed, got)
	}
	if err := <-served; err != nil {
		t.Error(err)
	}
}

// A message over the size limit ends the connection; a second client of
// a name in use is served as NAME@1 (networktables4.adoc: names need not
// be unique, the server makes them so), listed so in $clients.
func TestLimits(t *testing.T) {
	d, step := stepped(t)
	w := dial(t, d, "big")
	twin := dial(t, d, "big")
	twin.send(`{"method":"subscribe","params":{"topics":["$clients"],"subuid":1,"options":{}}}`)
	twin.until("both in $clients", step, func() bool {
		v := twin.values["$clients"]
		if len(v) == 0 {
			return false
		}
		raw, _ := v[len(v)-1].([]byte)
		return strings.Contains(string(raw), "big@1") && strings.Count(string(raw), "big") == 2
	})
	if s := d.NT.Stats(); s.Duplicates != 1 || s.Clients != 2 {
		t.Errorf("stats %+v, want 2 clients, 1 renamed", s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	go w.c.Write(ctx, websocket.MessageText, []byte(`["`+strings.Repeat("x", 2<<20)+`"]`))
	w.until("the server closing the connection", nil, func() bool { return w.closed != nil })
	tooltest.Eventually(t, waitLimit, "the first gone", func() bool { return d.NT.Stats().Clients == 1 })
	dial(t, d, "big") // the name free again: no rename
	if s := d.NT.Stats(); s.Duplicates != 1 {
		t.Errorf("stats %+v, want still 1 renamed", s)
	}
}

// robotWith is the example robot with its YAML extended.
func robotWith(t *testing.T, extra string) *robot.Robot {
	t.Helper()
	y, err := os.ReadFile("../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(path, append(y, extra...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../examples/competition/robot.urdf", path)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("robot: %v %v", err, list)
	}
	return r
}

// Commands from a dashboard reach a controller only when the YAML allows
// them and the robot is enabled; otherwise they are refused and counted
// with the controller's refused commands.
func TestCommands(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		enabled    bool
		accepted   bool
	}{
		{"allowed and enabled", "\nnt4: {commands: true, prefix: /robot}\n", true, true},
		{"allowed but disabled", "\nnt4: {commands: true, prefix: /robot}\n", false, false},
		{"not allowed", "\nnt4: {prefix: /robot}\n", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, step := steppedRobot(t, robotWith(t, c.yaml), c.enabled)
			step(1)
			w := dial(t, d, "dashboard")
			w.send(`{"method":"subscribe","params":{"topics":["/robot/joints/elevator_joint/"],"subuid":1,"options":{"prefix":true}}}`,
				`{"method":"publish","params":{"name":"/robot/commands/elevator_voltage","pubuid":1,"type":"double","properties":{}}}`)
			w.until("the joint's topics under the YAML's prefix", step, func() bool {
				return len(w.values["/robot/joints/elevator_joint/velocity"]) > 0
			})
			w.sendBinary(1, nt4.TypeDouble, 6)
			ctl := d.Loop.Controller("elevator_voltage")
			if c.accepted {
				w.until("the command on the joint", step, func() bool {
					v := w.values["/robot/joints/elevator_joint/command"]
					return len(v) > 0 && v[len(v)-1] == 6.0
				})
				if ctl.Refused() != 0 || d.NT.Stats().Refused != 0 {
					t.Errorf("refused %d (server %d), want none", ctl.Refused(), d.NT.Stats().Refused)
				}
				return
			}
			tooltest.Eventually(t, waitLimit, "the command refused", func() bool { return d.NT.Stats().Refused == 1 })
			if ctl.Refused() != 1 {
				t.Errorf("the controller counted %d refused commands, want 1", ctl.Refused())
			}
			step(10)
			if v := w.values["/robot/joints/elevator_joint/command"]; len(v) > 0 {
				t.Errorf("a refused command reached the joint: %v", v)
			}
		})
	}
}

// A dashboard tunes a PID's gains when the YAML allows it and the robot
// is enabled; negative gains, or tuning not allowed, are refused.
func TestTuning(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		gains      []float64
		accepted   bool
	}{
		{"allowed", "\nnt4: {tuning: true}\n", []float64{12, 0.5, 0.25, 0}, true},
		{"negative", "\nnt4: {tuning: true}\n", []float64{-1, 0, 0, 0}, false},
		{"not allowed", "\nnt4: {commands: true}\n", []float64{12, 0.5, 0.25, 0}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, step := steppedRobot(t, robotWith(t, c.yaml), true)
			step(1)
			ctl := d.Loop.Controller("hood_position")
			before := ctl.Gains()
			w := dial(t, d, "tuner")
			w.send(`{"method":"subscribe","params":{"topics":["/frcd/controllers/hood_position/gains"],"subuid":1,"options":{}}}`,
				`{"method":"publish","params":{"name":"/frcd/tuning/hood_position","pubuid":1,"type":"double[]","properties":{}}}`)
			w.until("the gains topic", step, func() bool { return len(w.values["/frcd/controllers/hood_position/gains"]) > 0 })
			b := msgp.AppendArrayHeader(nil, 4)
			b = msgp.AppendInt64(b, 1)
			b = msgp.AppendInt64(b, 0)
			b = msgp.AppendUint8(b, nt4.TypeDoubleArr)
			b = msgp.AppendArrayHeader(b, uint32(len(c.gains)))
			for _, g := range c.gains {
				b = msgp.AppendFloat64(b, g)
			}
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			if err := w.c.Write(ctx, websocket.MessageBinary, b); err != nil {
				t.Fatal(err)
			}
			if c.accepted {
				w.until("the new gains published", step, func() bool {
					v := w.values["/frcd/controllers/hood_position/gains"]
					last, _ := v[len(v)-1].([]any)
					return len(last) == 4 && last[0] == 12.0 && last[2] == 0.25
				})
				if g := ctl.Gains(); g.P != 12 || g.I != 0.5 || g.D != 0.25 {
					t.Errorf("gains %+v", g)
				}
				return
			}
			tooltest.Eventually(t, waitLimit, "the gains refused", func() bool { return d.NT.Stats().Refused == 1 })
			if ctl.Refused() != 1 || ctl.Gains() != before {
				t.Errorf("refused %d, gains %+v (were %+v)", ctl.Refused(), ctl.Gains(), before)
			}
		})
	}
}

// With no client (and no log) the telemetry costs nothing: nothing is
// sampled or published while the robot runs; a client connecting starts
// it, and gets the topics.
func TestIdleWithoutClients(t *testing.T) {
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{Logf: t.Logf, Telemetry: &daemon.TelemetryOptions{NT4: "127.0.0.1:0"}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.Run)
	var snap = d.Loop.NewSnapshot()
	tooltest.Eventually(t, waitLimit, "50 cycles", func() bool {
		d.Loop.ReadSnapshot(snap)
		return snap.Stats.Cycles >= 50
	})
	if s := d.NT.Stats(); s.Published != 0 {
		t.Errorf("published %d times with no client", s.Published)
	}
	w := dial(t, d, "late")
	w.send(`{"method":"subscribe","params":{"topics":["/frcd/loop/cycles"],"subuid":1,"options":{}}}`)
	w.until("the cycles", nil, func() bool { return len(w.values["/frcd/loop/cycles"]) > 0 })
}

// The meta topics (networktables4.adoc, "Server-Published Meta Topics"):
// $clients lists the clients (name, host:port, protocol version),
// $clientsub$NAME a client's subscriptions with the options it gave,
// $clientpub$NAME its publishers, $serverpub frcd's topics, $serversub
// nothing. They are hidden from a subscription to the prefix "", shown to
// one to "$", and a client's go with it.
func TestMetaTopics(t *testing.T) {
	d, step := stepped(t)
	step(1)
	plain, meta := dial(t, d, "plain"), dial(t, d, "meta")
	plain.send(`{"method":"subscribe","params":{"topics":[""],"subuid":1,"options":{"prefix":true,"topicsonly":true}}}`)
	meta.send(`{"method":"subscribe","params":{"topics":["$"],"subuid":5,"options":{"prefix":true,"periodic":0.05}}}`,
		`{"method":"publish","params":{"name":"/dash/x","pubuid":7,"type":"double","properties":{}}}`)
	last := func(name string) []any {
		v := meta.values[name]
		if len(v) == 0 {
			return nil
		}
		raw, _ := v[len(v)-1].([]byte)
		out, _, err := msgp.ReadIntfBytes(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		list, _ := out.([]any)
		return list
	}
	str := func(v any) string { return fmt.Sprint(v) }
	clients := func() string {
		var names []string
		for _, c := range last("$clients") {
			m, _ := c.(map[string]any)
			names = append(names, str(m["id"])+" "+str(m["ver"])+" "+fmt.Sprint(strings.HasPrefix(str(m["conn"]), "127.0.0.1:")))
		}
		return strings.Join(names, ",")
	}
	meta.until("the meta topics", step, func() bool {
		return clients() == "meta 1025 true,plain 1025 true" && len(last("$clientsub$meta")) == 1 &&
			len(last("$clientpub$meta")) == 1 && len(last("$serverpub")) > 100 && meta.values["$serversub"] != nil
	})
	plain.until("the topics", step, func() bool { _, ok := plain.announce["/frcd/loop/cycles"]; return ok })
	for name := range plain.announce {
		if strings.HasPrefix(name, "$") {
			t.Errorf("%s announced to a subscription to the prefix \"\"", name)
		}
	}
	for name, id := range meta.announce {
		if !strings.HasPrefix(name, "$") && name != "/dash/x" { // its own publish is announced to it
			t.Errorf("%s (%d) announced to a subscription to \"$\"", name, id)
		}
	}
	if got := fmt.Sprint(last("$clientsub$meta")); got != "[map[options:map[periodic:0.05 prefix:true] topics:[$] uid:5]]" {
		t.Errorf("$clientsub$meta %s", got)
	}
	if got := fmt.Sprint(last("$clientpub$meta")); got != "[map[topic:/dash/x uid:7]]" {
		t.Errorf("$clientpub$meta %s", got)
	}
	if got := fmt.Sprint(last("$clientsub$plain")); got != "[map[options:map[prefix:true topicsonly:true] topics:[] uid:1]]" {
		t.Errorf("$clientsub$plain %s", got)
	}
	found := false
	for _, p := range last("$serverpub") {
		m, _ := p.(map[string]any)
		found = found || m["topic"] == "/frcd/loop/cycles"
	}
	if !found || len(last("$serversub")) != 0 {
		t.Errorf("$serverpub %v without /frcd/loop/cycles, or $serversub %v not empty", last("$serverpub"), last("$serversub"))
	}
	plain.c.CloseNow()
	meta.until("plain gone", step, func() bool { return clients() == "meta 1025 true" && meta.gone["$clientsub$plain"] })
}
