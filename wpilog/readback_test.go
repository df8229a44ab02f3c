package wpilog_test

// A WPILOG written by a sim run, read back record by record by a reader
// written here from wpiutil's datalog.adoc (and struct.adoc for the
// structs), not with the package's own reader.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/wpilog"
)

func exampleRobot(t testing.TB) *robot.Robot {
	t.Helper()
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("example robot: %v %v", err, list)
	}
	return r
}

// specEntry is one entry as the spec reader saw it.
type specEntry struct {
	name, typ, meta string
	values          [][]byte // each data record's payload
	stamps          []uint64
	finished        bool
}

// specLog is a whole file as the spec reader saw it.
type specLog struct {
	extra   string
	entries map[string]*specEntry
	records int
}

// readSpec reads a WPILOG file by datalog.adoc, failing on anything the
// spec does not allow.
func readSpec(t *testing.T, b []byte) *specLog {
	t.Helper()
	if len(b) < 12 || string(b[:6]) != "WPILOG" {
		t.Fatalf("no WPILOG header: % x", b[:min(len(b), 12)])
	}
	if v := binary.LittleEndian.Uint16(b[6:8]); v != 0x0100 {
		t.Fatalf("version %#x, want 0x0100", v)
	}
	n := int(binary.LittleEndian.Uint32(b[8:12]))
	l := &specLog{extra: string(b[12 : 12+n]), entries: map[string]*specEntry{}}
	b = b[12+n:]
	byID := map[uint32]*specEntry{}
	le := func(p []byte) uint64 { // little-endian, 1 to 8 bytes
		var v uint64
		for i := len(p) - 1; i >= 0; i-- {
			v = v<<8 | uint64(p[i])
		}
		return v
	}
	for len(b) > 0 {
		bits := b[0]
		if bits&0x80 != 0 {
			t.Fatalf("record %d: the spare bit is set", l.records)
		}
		idLen, sizeLen, tsLen := int(bits&3)+1, int(bits>>2&3)+1, int(bits>>4&7)+1
		h := 1 + idLen + sizeLen + tsLen
		if len(b) < h {
			t.Fatalf("record %d: truncated header", l.records)
		}
		id := uint32(le(b[1 : 1+idLen]))
		size := int(le(b[1+idLen : 1+idLen+sizeLen]))
		ts := le(b[1+idLen+sizeLen : h])
		if len(b) < h+size {
			t.Fatalf("record %d: payload of %d bytes, %d left", l.records, size, len(b)-h)
		}
		p := b[h : h+size]
		b = b[h+size:]
		l.records++
		if id != 0 {
			e := byID[id]
			if e == nil {
				t.Fatalf("record %d: entry %d was not started", l.records, id)
			}
			e.values, e.stamps = append(e.values, append([]byte(nil), p...)), append(e.stamps, ts)
			continue
		}
		str := func() string {
			k := int(binary.LittleEndian.Uint32(p))
			s := string(p[4 : 4+k])
			p = p[4+k:]
			return s
		}
		kind, eid := p[0], binary.LittleEndian.Uint32(p[1:5])
		p = p[5:]
		switch kind {
		case 0: // Start
			if byID[eid] != nil {
				t.Fatalf("entry %d started twice without a Finish", eid)
			}
			e := &specEntry{name: str(), typ: str(), meta: str()}
			if len(p) != 0 {
				t.Fatalf("Start of %s: %d bytes after the metadata", e.name, len(p))
			}
			if l.entries[e.name] != nil {
				t.Errorf("entry name %s used twice", e.name)
			}
			byID[eid], l.entries[e.name] = e, e
		case 1: // Finish
			byID[eid].finished = true
			delete(byID, eid)
		case 2: // Set Metadata
			byID[eid].meta = str()
		default:
			t.Fatalf("control record type %d", kind)
		}
	}
	return l
}

func f64(p []byte, i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:])) }

func (l *specLog) entry(t *testing.T, name, typ string) *specEntry {
	t.Helper()
	e := l.entries[name]
	if e == nil {
		t.Fatalf("no entry %s", name)
	}
	if e.typ != typ {
		t.Errorf("%s: type %q, want %q", name, e.typ, typ)
	}
	return e
}

func (e *specEntry) last(t *testing.T) []byte {
	t.Helper()
	if len(e.values) == 0 {
		t.Fatalf("%s: no records", e.name)
	}
	return e.values[len(e.values)-1]
}

// TestLogReadBack: the competition robot drives for 3 s of sim time with
// a refused command among its commands; the file holds every topic with
// its type and metadata, the struct schemas, the true pose as the sim
// has it, the links' poses, and every command received and refused.
func TestLogReadBack(t *testing.T) {
	dir := t.TempDir()
	wall := time.Date(2026, 3, 14, 15, 30, 0, 0, time.UTC)
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{Enabled: true}, daemon.Options{Rate: 100,
		Telemetry: &daemon.TelemetryOptions{LogDir: dir, Wall: func() time.Time { return wall }}})
	if err != nil {
		t.Fatal(err)
	}
	// a gamepad: 2 axes, 3 buttons (the second pressed), a POV at 90°
	if err := d.Sim.SetJoystick(1, sim.Joystick{Axes: []float64{0.5, -1}, Buttons: []bool{false, true, false}, POVs: []int{90}}); err != nil {
		t.Fatal(err)
	}
	twist := []float64{1, 0, 0.5} // an arc to the left, through the drive controller's cmd_vel
	const cycles = 301            // odd: the sim's topics go out every other cycle from the first, so on the last
	for i := range cycles {
		d.Loop.Controller("drive").CommandGroup(twist, d.Now())
		if i == 100 {
			d.Loop.Controller("elevator_voltage").Command(math.Inf(1), d.Now())
		}
		d.Step()
		d.StepTelemetry()
	}
	path := d.LogPath()
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(path) != dir || !strings.HasPrefix(filepath.Base(path), "frcd_") || filepath.Ext(path) != ".wpilog" {
		t.Errorf("log file %s, want %s/frcd_DATE_TIME.wpilog", path, dir)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := readSpec(t, b)
	if l.extra != "frcd" {
		t.Errorf("extra header %q", l.extra)
	}

	// types and metadata as on NT4 (int as int64)
	vel := l.entry(t, "NT:/frcd/joints/left_front_wheel_joint/velocity", "double")
	if vel.meta != `{"properties":{"unit":"rad/s"},"source":"NT"}` { // as ntcore's LocalDataLoggerEntry
		t.Errorf("velocity metadata %q", vel.meta)
	}
	if v := f64(vel.last(t), 0); v < 1 {
		t.Errorf("left front wheel at 1 m/s: %v rad/s", v)
	}
	for i := 1; i < len(vel.stamps); i++ {
		if vel.stamps[i] <= vel.stamps[i-1] {
			t.Fatalf("velocity stamps not increasing: %v then %v", vel.stamps[i-1], vel.stamps[i])
		}
	}
	if n := int64(binary.LittleEndian.Uint64(l.entry(t, "NT:/frcd/loop/cycles", "int64").last(t))); n != cycles {
		t.Errorf("loop/cycles last %d, want %d", n, cycles)
	}
	if e := l.entry(t, "NT:/SmartDashboard/Alerts/.type", "string"); string(e.last(t)) != "Alerts" {
		t.Errorf("Alerts/.type %q", e.last(t))
	}
	errs := l.entry(t, "NT:/SmartDashboard/Alerts/errors", "string[]").last(t)
	if binary.LittleEndian.Uint32(errs) != 0 {
		t.Errorf("Alerts/errors not empty: %q", errs)
	}
	l.entry(t, "NT:/frcd/ds/enabled", "boolean")
	if e := l.entry(t, "NT:/frcd/ds/mode", "string"); string(e.last(t)) != "teleop" {
		t.Errorf("ds/mode %q", e.last(t))
	}
	ch := l.entry(t, "NT:/frcd/power/pdp/channels", "double[]")
	if len(ch.last(t)) != 16*8 {
		t.Errorf("PDP channels: %d bytes, want 16 doubles", len(ch.last(t)))
	}

	// struct schemas (struct.adoc), and the structs
	for name, decl := range map[string]string{
		"Pose2d": "Translation2d translation;Rotation2d rotation", "Translation2d": "double x;double y", "Rotation2d": "double value",
		"Pose3d": "Translation3d translation;Rotation3d rotation", "Translation3d": "double x;double y;double z",
		"Rotation3d": "Quaternion q", "Quaternion": "double w;double x;double y;double z",
	} {
		if e := l.entry(t, "NT:/.schema/struct:"+name, "structschema"); string(e.last(t)) != decl {
			t.Errorf("schema of %s: %q, want %q", name, e.last(t), decl)
		}
	}
	pose := l.entry(t, "NT:/frcd/sim/pose", "struct:Pose2d").last(t)
	truth, _ := d.Sim.Pose()
	if len(pose) != 24 || math.Abs(f64(pose, 0)-truth.X) > 1e-9 || math.Abs(f64(pose, 1)-truth.Y) > 1e-9 || math.Abs(f64(pose, 2)-truth.Yaw) > 1e-9 {
		t.Errorf("sim/pose %v %v %v, the sim's %+v", f64(pose, 0), f64(pose, 1), f64(pose, 2), truth)
	}
	if math.Hypot(truth.X, truth.Y) < 0.5 || math.Abs(truth.Yaw) < 0.05 {
		t.Errorf("the robot did not drive an arc: %+v", truth)
	}
	p3 := l.entry(t, "NT:/frcd/sim/pose3d", "struct:Pose3d").last(t)
	dyaw := math.Remainder(2*math.Atan2(f64(p3, 6), f64(p3, 3))-truth.Yaw, 2*math.Pi)
	if len(p3) != 56 || math.Abs(f64(p3, 0)-truth.X) > 1e-9 || math.Abs(dyaw) > 1e-9 {
		t.Errorf("sim/pose3d %v", p3)
	}
	comp := l.entry(t, "NT:/frcd/sim/components", "struct:Pose3d[]")
	var links struct{ Properties struct{ Links string } }
	json.Unmarshal([]byte(comp.meta), &links)
	names := strings.Split(links.Properties.Links, ",")
	c := comp.last(t)
	if len(c) != 56*len(names) || len(names) < 10 {
		t.Fatalf("sim/components: %d bytes for links %v", len(c), names)
	}
	for k, name := range names {
		w, x, y, z := f64(c, 7*k+3), f64(c, 7*k+4), f64(c, 7*k+5), f64(c, 7*k+6)
		if n := w*w + x*x + y*y + z*z; math.Abs(n-1) > 1e-9 {
			t.Errorf("link %s: quaternion of norm² %v", name, n)
		}
	}

	// the Driver Station as WPILib's DataLogSender logs it (v2026.2.2),
	// what AdvantageScope's LogUtil.ts looks up: enabled in teleop
	for name, want := range map[string]byte{"DS:enabled": 1, "DS:autonomous": 0, "DS:test": 0, "DS:estop": 0} {
		if e := l.entry(t, name, "boolean"); len(e.last(t)) != 1 || e.last(t)[0] != want {
			t.Errorf("%s: %v, want %d", name, e.values, want)
		}
	}
	for _, name := range []string{"NT:/FMSInfo/FMSControlData", "NT:/FMSInfo/StationNumber"} {
		l.entry(t, name, "int64")
	}
	l.entry(t, "NT:/FMSInfo/IsRedAlliance", "boolean")
	st := l.entry(t, "systemTime", "int64")
	if st.meta != `{"source":"DataLogManager","format":"time_t_us"}` || int64(binary.LittleEndian.Uint64(st.last(t))) != wall.UnixMicro() {
		t.Errorf("systemTime %q %v, want %d", st.meta, st.values, wall.UnixMicro())
	}
	if len(st.values) != 1 { // every 5 s: at the first cycle only
		t.Errorf("systemTime %d times in 3 s", len(st.values))
	}
	// joystick 1 as WPILib types it: boolean[] buttons, float[] axes,
	// int64[] POVs; and no NT: mirror of frcd's double[] topics
	if b := l.entry(t, "DS:joystick1/buttons", "boolean[]").last(t); string(b) != "\x00\x01\x00" {
		t.Errorf("DS:joystick1/buttons % x", b)
	}
	if b := l.entry(t, "DS:joystick1/axes", "float[]").last(t); len(b) != 8 ||
		math.Float32frombits(binary.LittleEndian.Uint32(b)) != 0.5 || math.Float32frombits(binary.LittleEndian.Uint32(b[4:])) != -1 {
		t.Errorf("DS:joystick1/axes % x", b)
	}
	if b := l.entry(t, "DS:joystick1/povs", "int64[]").last(t); len(b) != 8 || binary.LittleEndian.Uint64(b) != 90 {
		t.Errorf("DS:joystick1/povs % x", b)
	}
	if e := l.entries["NT:/frcd/ds/joystick1/axes"]; e != nil {
		t.Errorf("joystick mirrored under NT: too")
	}
	for name := range l.entries { // WPILib's layout: every entry but frcd's own commands
		if !strings.HasPrefix(name, "NT:/") && !strings.HasPrefix(name, "DS:") && name != "systemTime" && name != "messages" && !strings.HasPrefix(name, "/frcd/commands/") {
			t.Errorf("entry %q outside WPILib's layout", name)
		}
	}

	// every command, accepted and refused
	tw := l.entry(t, "/frcd/commands/drive", "double[]") // as on NT4
	if len(tw.values) != cycles || len(tw.values[0]) != 24 || f64(tw.values[0], 0) != 1 || f64(tw.values[0], 2) != 0.5 {
		t.Errorf("drive commands: %d records, first % x; want %d of {1, 0, 0.5}", len(tw.values), tw.values[0], cycles)
	}
	ref := l.entry(t, "/frcd/commands/elevator_voltage/refused", "double[]")
	if len(ref.values) != 1 || !math.IsInf(f64(ref.values[0], 0), 1) {
		t.Errorf("refused elevator commands %v, want one +Inf", ref.values)
	}

	// the package's own reader agrees
	s, err := wpilog.Summarize(bytes.NewReader(b))
	if err != nil || len(s.Problems) > 0 || s.Records != l.records || len(s.Entries) != len(l.entries) {
		t.Errorf("Summarize: %v %v: %d records, %d entries; the spec reader %d, %d", err, s.Problems, s.Records, len(s.Entries), l.records, len(l.entries))
	}
	t.Logf("%d bytes, %d records, %d entries for 3 s", len(b), l.records, len(l.entries))
}

// TestRotation: past MaxBytes a new file starts, whole by itself (its
// own header, every entry started again with its latest value), and only
// MaxFiles files are kept.
func TestRotation(t *testing.T) {
	dir := t.TempDir()
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{Enabled: true}, daemon.Options{Rate: 100,
		Telemetry: &daemon.TelemetryOptions{LogDir: dir, LogMaxBytes: 16 << 10, LogMaxFiles: 3}})
	if err != nil {
		t.Fatal(err)
	}
	for range 300 {
		d.Loop.Controller("drive").CommandGroup([]float64{1, 0, 0}, d.Now())
		d.Step()
		d.StepTelemetry()
	}
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.wpilog"))
	if len(files) != 3 {
		t.Fatalf("%d files kept, want 3: %v", len(files), files)
	}
	// A preamble past the cap started a new file at every record: 5,632
	// files for 300 cycles before, and past part 9999 the names no
	// longer sorted in order.
	part, _ := strconv.Atoi(strings.TrimSuffix(files[len(files)-1][strings.LastIndex(files[len(files)-1], "_")+1:], ".wpilog"))
	if part < 3 || part > 300 {
		t.Errorf("the newest file is part %d of 300 cycles' log: want a few files, not one a record", part)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// A file may pass the cap by its preamble: every entry started
		// again with its latest value (about 200 entries with WPILib's
		// metadata and their values: 30 KB, past this test's small cap;
		// at most 32 KiB here).
		if len(b) > 16<<10+32<<10 {
			t.Errorf("%s: %d bytes, over the cap and its preamble", f, len(b))
		}
		l := readSpec(t, b)
		if e := l.entry(t, "NT:/.schema/struct:Pose3d", "structschema"); len(e.values) != 1 {
			t.Errorf("%s: the Pose3d schema %d times", f, len(e.values))
		}
		if e := l.entry(t, "NT:/frcd/ds/mode", "string"); len(e.values) == 0 {
			t.Errorf("%s: no ds/mode", f)
		}
	}
}
