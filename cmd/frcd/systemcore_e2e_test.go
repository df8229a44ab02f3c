//go:build systemcore && cgo && !roborio

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/systemcore"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4/wire"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/wpilog"
)

// TestSystemcoreDriverStationEndToEnd runs the whole daemon as `frcd run
// --hal systemcore --log DIR` does (daemon.Run in real time: the loop,
// the ROS bridge with its embedded master, the NT4 server and the WPILOG
// log) on examples/systemcore_io over the fake 2027 HAL (internal/fakehal,
// dlopened through hal/wpihal as libwpiHal.so would be), whose Driver
// Station reports joystick 0 (two axes, a POV pressed right, buttons 1
// and 3 of 4) and qualification match 12 of event 2027test. Only the CAN
// buses are fakes, as this machine's kernel has no AF_CAN (the CAN side
// runs on a real kernel in TestSystemcoreIOOnKernel). Checked, each by a
// reader outside frcd's code where one exists: Debian's rostopic (rospy)
// receives the joystick on /driver_station/joy0 as sensor_msgs/Joy; an
// NT4 client receives it under /frcd/ds/joystick0/ and the
// match in WPILib 2027's /DriverStation table; the WPILOG file is named
// frcd_<date>_2027test_Q12.wpilog, as WPILib's DataLogManager names its
// files by the match, and holds the match and the joystick.
func TestSystemcoreDriverStationEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon in real time with rostopic for several seconds: skipped with -short")
	}
	tooltest.Require(t, tooltest.CC, tooltest.Rostopic)
	lib, f := fakehal.Setup(t, "2027")
	// The Driver Station attached and enabled in teleop, at an event.
	if err := f.Set("cw 1 2 0 1 1", "joyaxes 0 0.5 -0.25", "joypovs 0 2", "joybuttons 0 0x5 0xf",
		"matchinfo 2027test 2 12 0", "gamedata R"); err != nil {
		t.Fatal(err)
	}
	r, o, p, fd := systemcoreIO(t, lib)
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
	d, err := daemon.New(r, b, daemon.Options{Priority: -1, Rate: 100, Logf: t.Logf,
		ROS:       &daemon.ROSOptions{Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, URDF: string(text), Logf: t.Logf},
		Telemetry: &daemon.TelemetryOptions{NT4: ntAddr, LogDir: logDir}})
	if err != nil {
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

	// ROS: rostopic echo, a rospy subscriber, gets joystick 0: its two
	// axes, then the POV as joy_node's two hat axes (right: x 1, y 0),
	// then its four buttons.
	var joy string
	tooltest.Eventually(t, 60*time.Second, "rostopic echo -n 1 /driver_station/joy0", func() bool {
		joy, err = e.Run("rostopic", "echo", "-n", "1", "/driver_station/joy0")
		return err == nil
	})
	for _, want := range []string{"axes: [0.5, -0.25, 1.0, 0.0]", "buttons: [1, 0, 1, 0]"} {
		if !strings.Contains(joy, want) {
			t.Errorf("/driver_station/joy0 lacks %q:\n%s", want, joy)
		}
	}

	// NT4: the match in WPILib 2027's /DriverStation table and the
	// joystick under frcd's prefix, as a dashboard reads them.
	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer dcancel()
	c, err := wire.Dial(dctx, ntAddr, "e2e")
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
	num := func(name string) float64 {
		tp, _ := c.Topic(name)
		v, ok := tp.Value.Double()
		if !ok {
			return -1
		}
		return v
	}
	nums := func(name string) []float64 {
		tp, _ := c.Topic(name)
		v, _ := tp.Value.Doubles(nil, 64)
		return v
	}
	tooltest.Eventually(t, 30*time.Second, "the match on NT4 /DriverStation", func() bool {
		return str("/DriverStation/EventName") == "2027test" && num("/DriverStation/MatchNumber") == 12 &&
			num("/DriverStation/MatchType") == float64(hal.MatchQualification) && str("/DriverStation/GameData") == "R"
	})
	tooltest.Eventually(t, 30*time.Second, "joystick 0 on NT4 /frcd/ds/joystick0/", func() bool {
		return fmt.Sprint(nums("/frcd/ds/joystick0/axes")) == "[0.5 -0.25]" &&
			fmt.Sprint(nums("/frcd/ds/joystick0/povs")) == "[90]" &&
			fmt.Sprint(nums("/frcd/ds/joystick0/buttons")) == "[1 0 1 0]"
	})

	// The WPILOG file: renamed by the match once the backend reports it
	// (frcd asks about once a second of cycles).
	named := regexp.MustCompile(`^frcd_\d{8}_\d{6}_2027test_Q12\.wpilog$`)
	var logs []string
	tooltest.Eventually(t, 30*time.Second, "the WPILOG file named by the match", func() bool {
		logs, _ = filepath.Glob(filepath.Join(logDir, "*.wpilog"))
		return len(logs) == 1 && named.MatchString(filepath.Base(logs[0]))
	})
	stop()
	logs, _ = filepath.Glob(filepath.Join(logDir, "*.wpilog"))
	if len(logs) != 1 || !named.MatchString(filepath.Base(logs[0])) {
		t.Fatalf("after the run, the log files are %v", logs)
	}
	// What the file holds: the match and the joystick, as NT4 had them.
	file, err := os.Open(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	rd, err := wpilog.NewReader(file)
	if err != nil {
		t.Fatal(err)
	}
	names := map[uint32]string{}
	last := map[string]string{}
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		if rec.Entry == 0 {
			if kind, st, err := wpilog.ParseControl(rec.Payload); err == nil && kind == 0 {
				names[st.Entry] = st.Name
			}
			continue
		}
		last[names[rec.Entry]] = string(rec.Payload)
	}
	if last["NT:/DriverStation/EventName"] != "2027test" {
		t.Errorf("the log's NT:/DriverStation/EventName is %q", last["NT:/DriverStation/EventName"])
	}
	if _, ok := last["DS:joystick0/axes"]; !ok {
		t.Errorf("the log has no joystick 0 axes")
	}
}
