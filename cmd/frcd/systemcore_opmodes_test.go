//go:build systemcore && cgo && !roborio

package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/systemcore"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4/wire"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
	"github.com/frcd/frcd/wpilog"
)

// opModesYAML are the op modes the test declares, added to
// examples/systemcore_io's YAML.
const opModesYAML = "\nop_modes:\n  autonomous: [Two Piece, Taxi]\n  teleop: [Drive]\n"

// TestSystemcoreOpModesEndToEnd runs the whole daemon as `frcd run --hal
// systemcore --ros 1 --ros 2 --log DIR` does (daemon.Run in real time) on
// examples/systemcore_io with op modes declared in its YAML, over the fake
// 2027 HAL (internal/fakehal, dlopened through hal/wpihal). Checked: the
// op modes are registered with the HAL (HAL_SetOpModeOptions, in the
// YAML's order, each in its robot mode); the op mode the fake Driver
// Station selects ("Two Piece", autonomous) reaches Debian's rostopic on
// /driver_station/op_mode (std_msgs/String, latched), a Cyclone DDS
// reader on rt/driver_station/op_mode (ros2bridge/testdata/cyclone/topics.c),
// an NT4 client on /DriverStation/OpMode and /frcd/ds/op_mode with the
// ControlWord's opModeHash its id's, and the WPILOG file as DS:opMode and
// NT:/DriverStation/OpMode; another selection ("Taxi") follows on NT4.
func TestSystemcoreOpModesEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon in real time with rostopic and a Cyclone DDS peer: skipped with -short")
	}
	tooltest.Require(t, tooltest.CC, tooltest.Rostopic)
	peerBin := ddstest.Cyclone.Program(t, "../../ros2bridge/testdata/cyclone/topics.c", "../../ros2bridge/testdata/Topics.idl")
	lib, f := fakehal.Setup(t, "2027")
	if err := f.Set("cw 1 1 0 0 1"); err != nil { // attached, enabled, autonomous
		t.Fatal(err)
	}
	yaml, err := os.ReadFile("../../examples/systemcore_io/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	yamlPath := filepath.Join(dir, "robot.yaml")
	if err := os.WriteFile(yamlPath, append(yaml, opModesYAML...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../../examples/systemcore_io/robot.urdf", yamlPath)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	_, o, p, fd := systemcoreIO(t, lib)
	b, err := systemcore.New(o, p, fd)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("../../examples/systemcore_io/robot.urdf")
	if err != nil {
		t.Fatal(err)
	}
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", tooltest.FreePort(t)))
	logDir := t.TempDir()
	ntAddr := fmt.Sprintf("127.0.0.1:%d", tooltest.FreePort(t))
	domain := ddstest.Domain() + 3
	d, err := daemon.New(r, b, daemon.Options{Priority: -1, Rate: 100, Logf: t.Logf,
		ROS: &daemon.ROSOptions{Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, URDF: string(text), Logf: t.Logf},
		ROS2: &daemon.ROS2Options{Node: ros2node.Config{Name: "frcd", RTPS: rtps.Config{Domain: domain, MaxPeerID: ddstest.MaxPeerID}},
			URDF: string(text), Logf: t.Logf},
		Telemetry: &daemon.TelemetryOptions{NT4: ntAddr, LogDir: logDir}})
	if err != nil {
		t.Fatal(err)
	}
	// Registered when the daemon was made, before it runs.
	calls, err := f.Calls()
	if err != nil {
		t.Fatal(err)
	}
	const registered = "HAL_SetOpModeOptions count=3 [mode=1 Two Piece group=0 desc=0 colours=-1,-1]" +
		" [mode=1 Taxi group=0 desc=0 colours=-1,-1] [mode=2 Drive group=0 desc=0 colours=-1,-1]"
	if !strings.Contains(strings.Join(calls, "\n"), registered) {
		t.Errorf("the HAL's calls lack %q", registered)
	}
	if err := f.Set("opmode Two Piece"); err != nil { // the Driver Station selects it
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			if err := d.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}
	}
	defer stop()

	// ROS 1: rostopic echo (rospy) hears it.
	var got string
	tooltest.Eventually(t, 60*time.Second, "rostopic echo -n 1 /driver_station/op_mode", func() bool {
		got, err = e.Run("rostopic", "echo", "-n", "1", "/driver_station/op_mode")
		return err == nil && strings.Contains(got, "Two Piece")
	})
	if !strings.Contains(got, `data: "Two Piece"`) {
		t.Errorf("/driver_station/op_mode: %q", got)
	}
	// ROS 2: a Cyclone DDS reader.
	peer := tooltest.StartJSON[struct {
		Topic string  `json:"topic"`
		S     *string `json:"s"`
	}](t, ddstest.Env(domain), peerBin, "string=rt/driver_station/op_mode")
	ev := peer.WaitWithin("rt/driver_station/op_mode", 2*tooltest.Timeout, func(e struct {
		Topic string  `json:"topic"`
		S     *string `json:"s"`
	}) bool {
		return e.Topic == "rt/driver_station/op_mode"
	})
	if ev.S == nil || *ev.S != "Two Piece" {
		t.Errorf("Cyclone DDS read rt/driver_station/op_mode as %v", ev.S)
	}

	// NT4: WPILib 2027's /DriverStation/OpMode and ControlWord, and frcd's
	// ds/op_mode.
	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer dcancel()
	c, err := wire.Dial(dctx, ntAddr, "opmodes")
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Subscribe([]string{"/DriverStation/", "/frcd/ds/"}, true, false, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	str := func(name string) string {
		tp, ok := c.Topic(name)
		if !ok {
			return ""
		}
		s, _, err := msgp.ReadStringBytes(tp.Value.Raw)
		if err != nil {
			return ""
		}
		return s
	}
	ops := d.OpModes()
	two, _ := ops.Find(hal.Autonomous, "Two Piece")
	hash := func() int64 {
		tp, ok := c.Topic("/DriverStation/ControlWord")
		if !ok {
			return -1
		}
		raw, ok := tp.Value.Bytes()
		if !ok || len(raw) != 8 {
			return -1
		}
		return int64(binary.LittleEndian.Uint64(raw)) & 0x03FFFFFFFFFFFFFF // the hash and the robot mode
	}
	tooltest.Eventually(t, 30*time.Second, "Two Piece on NT4", func() bool {
		return str("/DriverStation/OpMode") == "Two Piece" && str("/frcd/ds/op_mode") == "Two Piece" && hash() == two.ID
	})
	if err := f.Set("opmode Taxi"); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, 30*time.Second, "Taxi on NT4", func() bool { return str("/DriverStation/OpMode") == "Taxi" })
	stop()

	// The log: DS:opMode as WPILib 2027's DataLogManager writes it, and the
	// NT mirror.
	logs, _ := filepath.Glob(filepath.Join(logDir, "*.wpilog"))
	if len(logs) != 1 {
		t.Fatalf("log files %v", logs)
	}
	file, err := os.Open(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	rd, err := wpilog.NewReader(file)
	if err != nil {
		t.Fatal(err)
	}
	names, types := map[uint32]string{}, map[string]string{}
	values := map[string][]string{}
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		if rec.Entry == 0 {
			if kind, st, err := wpilog.ParseControl(rec.Payload); err == nil && kind == 0 {
				names[st.Entry], types[st.Name] = st.Name, st.Type
			}
			continue
		}
		n := names[rec.Entry]
		if v := values[n]; len(v) == 0 || v[len(v)-1] != string(rec.Payload) {
			values[n] = append(v, string(rec.Payload))
		}
	}
	if types["DS:opMode"] != "string" || !strings.Contains(strings.Join(values["DS:opMode"], "|"), "Two Piece|Taxi") {
		t.Errorf("the log's DS:opMode (%s): %q", types["DS:opMode"], values["DS:opMode"])
	}
	if !strings.Contains(strings.Join(values["NT:/DriverStation/OpMode"], "|"), "Two Piece|Taxi") {
		t.Errorf("the log's NT:/DriverStation/OpMode: %q", values["NT:/DriverStation/OpMode"])
	}
}
