//go:build roborio && cgo

package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
)

// The robot of TestRoboRIOPoseOnNT4: a differential drive of two PWM
// SPARKs (channels 0 and 1, the right one inverted) with a quadrature
// encoder in each wheel joint (DIO 0-1 and 2-3, 1° a pulse, 4X), wheels
// 0.6 m apart (the URDF's joint origins) of radius 0.0762 m.
const (
	poseURDF = `<robot name="pose">
  <link name="base_link"/><link name="left_wheel"/><link name="right_wheel"/>
  <joint name="left_wheel_joint" type="continuous"><parent link="base_link"/><child link="left_wheel"/>
    <origin xyz="0 0.3 0.0762"/><axis xyz="0 1 0"/><sensor name="left_encoder" type="encoder"/></joint>
  <joint name="right_wheel_joint" type="continuous"><parent link="base_link"/><child link="right_wheel"/>
    <origin xyz="0 -0.3 0.0762"/><axis xyz="0 1 0"/><sensor name="right_encoder" type="encoder"/></joint>
</robot>
`
	poseYAML = `joints:
  - {name: left_wheel_joint,  type: spark, id: 0}
  - {name: right_wheel_joint, type: spark, id: 1, inverted: true}
  - {name: left_encoder,  type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.0174533}
  - {name: right_encoder, type: encoder, ch_a: 2, ch_b: 3, dist_per_pulse: 0.0174533, inverted: true}
controllers:
  drive: {type: diff_drive_controller/DiffDriveController, left_wheel: [left_wheel_joint], right_wheel: [right_wheel_joint], wheel_radius: 0.0762, wheel_pid: {p: 0.5, i: 4, f: 0.23}}
loop: {rate_hz: 100}
`
	poseRadius, poseSeparation = 0.0762, 0.6
	posePerCount               = 0.0174533 / 4 // rad per count at 4X
)

// ntEvent is one line test/nt4/client.js prints.
type ntEvent struct {
	Event, Name, Type, Error string
	Value                    json.RawMessage
}

// TestRoboRIOPoseOnNT4 (make test runs it; not make rio-test, whose ARM
// binary cannot load a fake HAL built for this machine): `frcd run --hal
// roborio` on the fake 2026 HAL
// (internal/fakehal: the FPGA clock following the wall clock, the Driver
// Station enabled), a diff_drive_controller commanded over ROS (rostopic
// pub on /drive/cmd_vel, embedded master): its wheels' commands reach NT4
// and the PWM pulses. Then the test turns the wheels' encoders, as the
// fake HAL's inputs: 1 m straight, then a turn in place, step by step,
// each step waiting for NT4 to show the joints where the counts put them.
// ntcore-ts-client (npm) reads the pose from the WPILib Field2d table
// (/SmartDashboard/Field/Robot: x m, y m, degrees) and AdvantageScope's
// wire (client.js log) the drive base's struct:Pose2d: both follow the
// encoders as differential kinematics say.
func TestRoboRIOPoseOnNT4(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd, node and the ROS tools for about 10 s: skipped with -short")
	}
	tooltest.Require(t, tooltest.CC, tooltest.Node, tooltest.Rostopic)
	tooltest.RequireFile(t, "../../test/nt4/node_modules/ntcore-ts-client/package.json", "npm ci in test/nt4")
	dir := t.TempDir()
	if _, err := fakehal.Build(dir, "", "2026"); err != nil {
		t.Fatal(err)
	}
	f, err := fakehal.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("cw 1 0 0 0 0 1", "fpgawall 1", "vin 12.5", "encoder 0 0", "encoder 2 0"); err != nil {
		t.Fatal(err)
	}
	urdfPath, yamlPath := filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")
	for p, s := range map[string]string{urdfPath: poseURDF, yamlPath: poseYAML} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", tooltest.FreePort(t)))
	cmd := frcdProcess("run", "--hal", "roborio", "--wpilibws", "off", "--nt", "127.0.0.1:0", "--rt-priority", "0", "--status", "1h", urdfPath, yamlPath)
	cmd.Env = append(append(cmd.Env, f.Env()...), "LD_LIBRARY_PATH="+dir, "ROS_MASTER_URI="+e.MasterURI, "ROS_IP=127.0.0.1")
	stdout, stderr := startChild(t, cmd)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("frcd's stderr:\n%s", stderr.String())
		}
	})
	// A guard against a hung child only: the test waits on events.
	guard := time.AfterFunc(90*time.Second, func() { _ = cmd.Process.Kill() })
	defer guard.Stop()
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	ntRE := regexp.MustCompile(`NetworkTables 4 on ws://127\.0\.0\.1:(\d+)/`)
	port, ros := "", false
	for port == "" || !ros {
		line, ok := <-lines
		if !ok {
			t.Fatalf("frcd ended before NT4 and ROS were up (port %q, ROS %v)", port, ros)
		}
		t.Log(line)
		if m := ntRE.FindStringSubmatch(line); m != nil {
			port = m[1]
		}
		ros = ros || strings.Contains(line, "frcd: ROS node /frcd")
	}
	go func() { // keep frcd's stdout drained
		for range lines {
		}
	}()

	const (
		clientJS = "../../test/nt4/client.js"
		left     = "/frcd/joints/left_wheel_joint/"
		right    = "/frcd/joints/right_wheel_joint/"
		field    = "/SmartDashboard/Field/Robot"
		pose     = "/frcd/drive/drive/pose"
	)
	watch := tooltest.StartJSON[ntEvent](t, e, "node", clientJS, "watch", port, left, right, "/SmartDashboard/Field/")
	logc := tooltest.StartJSON[ntEvent](t, e, "node", clientJS, "log", port, pose)
	latest := map[string]json.RawMessage{}
	// wait reads a client's events until ok holds after a value (with
	// ok nil: until it says it connected).
	wait := func(c *tooltest.JSONLines[ntEvent], what string, ok func() bool) {
		t.Helper()
		c.Wait(what, func(ev ntEvent) bool {
			switch ev.Event {
			case "error":
				t.Fatalf("waiting for %s: client.js: %+v", what, ev)
			case "connected":
				return ok == nil
			case "value":
				latest[ev.Name] = ev.Value
				return ok != nil && ok()
			}
			return false
		})
	}
	num := func(name string) float64 {
		var v float64
		if json.Unmarshal(latest[name], &v) != nil {
			return math.NaN()
		}
		return v
	}
	wait(watch, "ntcore-ts-client connected", nil)
	wait(logc, "the logging client connected", nil)

	// Commanded: cmd_vel forward drives both wheels forward, as the PWM
	// pulses the fake HAL logs show (the left above 1500 µs, the right,
	// inverted, below), read as they come.
	stop := e.Start(t, tooltest.Rostopic.Name, "pub", "-r", "20", "/drive/cmd_vel", "geometry_msgs/Twist", "{linear: {x: 0.5}}")
	halLog, err := os.Open(f.Log)
	if err != nil {
		t.Fatal(err)
	}
	defer halLog.Close()
	pwmRE := regexp.MustCompile(`(?m)^HAL_SetPWMPulseTimeMicroseconds h=0x2000([01]) us=(\d+)$`)
	var forward [2]bool
	var pending []byte
	buf := make([]byte, 64<<10)
	tooltest.Eventually(t, 30*time.Second, "both wheels driven forward", func() bool {
		n, _ := halLog.Read(buf)
		pending = append(pending, buf[:n]...)
		end := strings.LastIndexByte(string(pending), '\n') + 1
		for _, m := range pwmRE.FindAllStringSubmatch(string(pending[:end]), -1) {
			us, _ := strconv.Atoi(m[2])
			forward[0] = forward[0] || m[1] == "0" && us > 1510
			forward[1] = forward[1] || m[1] == "1" && us < 1490
		}
		pending = pending[end:]
		return forward[0] && forward[1]
	})
	stop()

	// The encoders, step by step: each step waits for NT4 to show both
	// joints where the counts put them.
	var lc, rc int64 // counts; the right encoder is inverted
	step := func(dl, dr int64) {
		t.Helper()
		lc, rc = lc+dl, rc-dr
		if err := f.Set(fmt.Sprintf("encoder 0 %d\nencoder 2 %d", lc, rc)); err != nil {
			t.Fatal(err)
		}
		wl, wr := float64(lc)*posePerCount, float64(-rc)*posePerCount
		wait(watch, fmt.Sprintf("the wheels at %.4f and %.4f rad", wl, wr), func() bool {
			return math.Abs(num(left+"position")-wl) < 1e-9 && math.Abs(num(right+"position")-wr) < 1e-9
		})
	}
	fieldPose := func() [3]float64 {
		var v [3]float64
		if err := json.Unmarshal(latest[field], &v); err != nil {
			return [3]float64{math.NaN(), math.NaN(), math.NaN()}
		}
		return v
	}
	near := func(got, want [3]float64) bool {
		return math.Abs(got[0]-want[0]) < 0.01 && math.Abs(got[1]-want[1]) < 0.01 && math.Abs(got[2]-want[2]) < 0.5
	}
	for range 20 { // 150 counts: 0.654 rad, 0.0499 m a step
		step(150, 150)
	}
	x := float64(20*150) * posePerCount * poseRadius
	want := [3]float64{x, 0, 0}
	wait(watch, fmt.Sprintf("Field2d at %v", want), func() bool { return near(fieldPose(), want) })
	t.Logf("straight: Field2d %v, want %v", fieldPose(), want)
	for range 10 { // in place: each wheel 0.0249 m the other way a step
		step(-75, 75)
	}
	turn := 2 * float64(10*75) * posePerCount * poseRadius / poseSeparation
	want = [3]float64{x, 0, turn * 180 / math.Pi}
	wait(watch, fmt.Sprintf("Field2d at %v", want), func() bool { return near(fieldPose(), want) })
	t.Logf("turned: Field2d %v, want %v", fieldPose(), want)

	// The struct:Pose2d (x, y, rotation in rad: three little-endian
	// doubles) as AdvantageScope reads it, at the same pose.
	var p [3]float64
	wait(logc, "struct:Pose2d at the turned pose", func() bool {
		b, ok := rawBytes(latest[pose])
		if !ok || len(b) != 24 {
			return false
		}
		for i := range p {
			p[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
		return near([3]float64{p[0], p[1], p[2] * 180 / math.Pi}, want)
	})
	t.Logf("struct:Pose2d x %.4f m, y %.4f m, %.4f rad", p[0], p[1], p[2])
}

// rawBytes decodes a raw NT4 value as client.js prints it: MessagePack's
// bin as JSON.stringify writes a Uint8Array ({"0": b0, "1": b1...}) or a
// Buffer ({"type": "Buffer", "data": [...]}).
func rawBytes(v json.RawMessage) ([]byte, bool) {
	var buf struct{ Data []int }
	if json.Unmarshal(v, &buf) == nil && len(buf.Data) > 0 {
		out := make([]byte, len(buf.Data))
		for i, b := range buf.Data {
			out[i] = byte(b)
		}
		return out, true
	}
	var m map[string]int
	if json.Unmarshal(v, &m) != nil || len(m) == 0 {
		return nil, false
	}
	out := make([]byte, len(m))
	for k, b := range m {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(out) {
			return nil, false
		}
		out[i] = byte(b)
	}
	return out, true
}
