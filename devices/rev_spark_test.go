package devices

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

// Ids and bytes worked out by hand from docs/rev-spark.md for a SPARK at
// CAN id 3: (2 << 24) | (5 << 16) | API << 6 | 3.
const (
	sparkVer3  = 0x02052603 // version, API 0x098
	sparkDuty3 = 0x02050083 // duty cycle, API 0x002
	sparkS0_3  = 0x0205B803 // Status 0, API 0x2E0
	sparkS1_3  = 0x0205B843
	sparkS2_3  = 0x0205B883
	sparkHB    = 0x02052C80 // heartbeat, API 0x0B2, device 0
)

const sparkYAML = "joints:\n  - {name: arm_joint, type: spark_max, id: 3, position_factor: 0.5}\n"

// answer makes the fake SPARK answer the version request with 25.0.1.
func answerVersion(r *rig, major byte) {
	r.hal.Bus.Inject(hal.Frame{ID: sparkVer3, Len: 5, Data: [8]byte{major, 0, 0x00, 0x01, 0}}, r.hal.Now())
}

// sentTo returns the frames sent to an id, oldest first.
func sentTo(r *rig, id uint32) []hal.Frame {
	var out []hal.Frame
	for _, f := range r.hal.Bus.Sent {
		if f.ID == id {
			out = append(out, f)
		}
	}
	return out
}

func TestSparkAsksFirmwareFirst(t *testing.T) {
	r := bind(t, sparkYAML)
	cmd := command[float64](r, "arm_joint", interfaces.Voltage)
	cmd.Put(6, r.now)
	err := r.step(10 * time.Millisecond)
	if !errors.Is(err, hal.ErrConfiguring) || errors.Is(err, hal.ErrTimeout) || !strings.Contains(err.Error(), "firmware version") {
		t.Fatalf("before the version: %v, want it configuring", err)
	}
	// A remote frame asking for 8 bytes (REV's GET_FIRMWARE_VERSION is
	// rtr), and nothing that drives the motor.
	if req := sentTo(r, sparkVer3); len(req) != 1 || !req[0].RTR || req[0].Len != 8 {
		t.Fatalf("version requests %+v", req)
	}
	if d := sentTo(r, sparkDuty3); len(d) != 0 {
		t.Fatalf("set points before the firmware is known: %+v", d)
	}
	// Not asked again before 250 ms.
	r.step(100 * time.Millisecond)
	if n := len(sentTo(r, sparkVer3)); n != 1 {
		t.Errorf("%d requests after 110 ms", n)
	}
	r.step(150 * time.Millisecond)
	if n := len(sentTo(r, sparkVer3)); n != 2 {
		t.Errorf("%d requests after 260 ms, want 2", n)
	}
}

// A SPARK's start-up (sparkStartup) is configuring, a warning on
// /diagnostics, for sparkConfigTimeout of each phase: no answer to the
// version request for 2 s is then a timeout, an error; once it answers,
// its configuration has 2 s of its own, and a SPARK with its own loop
// whose gains are still not acknowledged after them fails with a timeout
// too (still neutral).
func TestSparkStartupBound(t *testing.T) {
	r := bind(t, sparkLoopYAML)
	rep := r.device("arm_joint").(hal.Reporter)
	pos := command[float64](r, "arm_joint", interfaces.Position)
	read := func() error { // 10 ms with a position command, nothing answered
		pos.Put(1, r.hal.Now())
		return r.step(10 * time.Millisecond)
	}
	var err error
	for r.hal.Now() < 1990*time.Millisecond {
		if err = read(); !errors.Is(err, hal.ErrConfiguring) {
			t.Fatalf("at %v without the version: %v, want it configuring", r.hal.Now(), err)
		}
	}
	if got := rep.Report(nil)[0]; !got.Warn || got.Error || got.Message != "configuring: no answer to the firmware version request" {
		t.Errorf("configuring: %+v", got)
	}
	read()
	if err = read(); !errors.Is(err, hal.ErrTimeout) || errors.Is(err, hal.ErrConfiguring) || !strings.Contains(err.Error(), "firmware version request after 2s") {
		t.Fatalf("2 s without the version: %v, want a timeout", err)
	}
	if got := rep.Report(nil)[0]; !got.Error || got.Message != "no answer to the firmware version request" {
		t.Errorf("timed out: %+v", got)
	}
	answerVersion(r, 25)
	at := r.hal.Now()
	for r.hal.Now() < at+1990*time.Millisecond {
		if err = read(); !errors.Is(err, hal.ErrConfiguring) || !strings.Contains(err.Error(), "gains not yet acknowledged") {
			t.Fatalf("%v after the version, nothing acknowledged: %v, want it configuring", r.hal.Now()-at, err)
		}
	}
	read()
	if err = read(); !errors.Is(err, hal.ErrTimeout) || !strings.Contains(err.Error(), "gains not yet acknowledged after 2s") {
		t.Fatalf("2 s without an acknowledgement: %v, want a timeout", err)
	}
	if p := append(sentTo(r, sparkPos3), sentTo(r, sparkDuty3)...); len(p) != 0 {
		t.Errorf("set points while not configured: %+v", p)
	}
	for _, f := range sentTo(r, sparkHB) {
		if f.Data != [8]byte{} {
			t.Fatalf("heartbeat enabled it while not configured: % x", f.Data)
		}
	}
}

// Firmware 24 (the layout before 25) and an unknown major (27) are
// refused, each with its reason: the firmware found and what frcd drives.
func TestSparkRefusesUnknownFirmware(t *testing.T) {
	for _, tc := range []struct {
		major  byte
		reason []string
	}{
		{24, []string{"firmware 24.", "uses the frame layout before firmware 25", "update it to 26.x"}},
		{27, []string{"firmware 27.", "is newer than the firmware frcd's frames were checked against (25.x and 26.x"}},
	} {
		major := tc.major
		r := bind(t, sparkYAML)
		command[float64](r, "arm_joint", interfaces.Voltage).Put(6, r.now)
		r.step(10 * time.Millisecond)
		answerVersion(r, major)
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		for i := 0; i < 3; i++ {
			err := r.step(10 * time.Millisecond)
			if err == nil || errors.Is(err, hal.ErrTimeout) {
				t.Fatalf("firmware %d: %v", major, err)
			}
			for _, w := range tc.reason {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("firmware %d: %q lacks %q", major, err, w)
				}
			}
			if i == 0 {
				t.Logf("firmware %d: %v", major, err)
			}
		}
		if d := sentTo(r, sparkDuty3); len(d) != 0 {
			t.Errorf("firmware %d: set points sent: %+v", major, d)
		}
		for _, f := range sentTo(r, sparkHB) {
			if f.Data != [8]byte{} {
				t.Errorf("firmware %d: heartbeat enables it: % x", major, f.Data)
			}
		}
	}
}

func TestSparkDrives(t *testing.T) {
	r := bind(t, sparkYAML)
	cmd := command[float64](r, "arm_joint", interfaces.Voltage)
	volts := state[interfaces.AnalogState](r, "arm_joint", interfaces.Voltage)
	rate := state[interfaces.RateState](r, "arm_joint", interfaces.Rate)
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	sparkConfigure(t, r)
	now := r.hal.Now() + 10*time.Millisecond
	// Status 0: applied 0x3F5D (0.5), 0x666 (12.0 V), 0x111 (10 A), 40 °C.
	r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0x5D, 0x3F, 0x66, 0x16, 0x11, 0x28}}, now)
	r.hal.Bus.Inject(hal.Frame{ID: sparkS1_3, Len: 8}, now)
	// Status 2: 1000 RPM (0x447A0000), -2.5 rotations (0xC0200000).
	r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8, Data: [8]byte{0x00, 0x00, 0x7A, 0x44, 0x00, 0x00, 0x20, 0xC0}}, now)
	cmd.Put(6, now)
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	if err := r.step(10 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	// 6 V of the SPARK's 12.0 V: duty 0.5 = float32 0x3F000000.
	if d := sentTo(r, sparkDuty3); len(d) != 1 || d[0].Len != 8 || d[0].Data != [8]byte{0, 0, 0, 0x3F} {
		t.Errorf("set point %+v, want 00 00 00 3f 00 00 00 00", d)
	}
	// Bit 3 of the heartbeat.
	if hb := sentTo(r, sparkHB); len(hb) != 1 || hb[0].Len != 8 || hb[0].Data != [8]byte{0x08} {
		t.Errorf("heartbeat %+v, want 08 00...", hb)
	}
	// Position -2.5 rot × 0.5, velocity 1000 / 60 × 0.5; voltage 0.5 × 12.
	if math.Abs(rate.State+1.25) > 1e-9 || math.Abs(rate.Rate-1000.0/60*0.5) > 1e-9 {
		t.Errorf("rate %+v, want -1.25, 8.333", *rate)
	}
	if math.Abs(volts.Value-6) > 0.01 {
		t.Errorf("voltage %v, want about 6", volts.Value)
	}
	// Effort: 273 units × 0.03663 A (10.0 A) × k_eff 1, positive with the output.
	if eff := state[interfaces.AnalogState](r, "arm_joint", interfaces.Effort); math.Abs(eff.Value-273*0.0366300366300366) > 1e-9 {
		t.Errorf("effort %v, want 10.0", eff.Value)
	}
	// The heartbeat goes out again after 20 ms, not before.
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	r.step(10 * time.Millisecond)
	if n := len(sentTo(r, sparkHB)); n != 0 {
		t.Errorf("%d heartbeats 10 ms after one", n)
	}
	// Stale after 100 ms without status.
	r.step(100 * time.Millisecond)
	if err := r.step(10 * time.Millisecond); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("stale status: %v", err)
	}
	if n := len(sentTo(r, sparkHB)); n == 0 {
		t.Error("no heartbeat for 120 ms")
	}
	// Halt: duty 0 and an empty heartbeat.
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	r.halt()
	if d := sentTo(r, sparkDuty3); len(d) != 1 || d[0].Data != [8]byte{} {
		t.Errorf("halt set point %+v", d)
	}
	if hb := sentTo(r, sparkHB); len(hb) != 1 || hb[0].Data != [8]byte{} {
		t.Errorf("halt heartbeat %+v", hb)
	}
}

// REV's current releases, SPARK MAX 26.1.5 and SPARK Flex 26.1.6, answer
// in firmware 26's layout (REV's specification 2.1.0: build big endian
// at bytes 2-3) and are driven; a SPARK whose Status 0 names the other
// model is a warning on /diagnostics, and is still driven.
func TestSparkFirmware26(t *testing.T) {
	for _, tc := range []struct {
		typ, fw string
		answer  [8]byte
		model   byte // Status 0 byte 6: the model at bits 54-57
		warn    string
	}{
		{"spark_max", "26.1.5", [8]byte{0x1a, 0x01, 0x00, 0x05, 0x00, 0x02}, 2 << 6, ""},
		{"spark_flex", "26.1.6", [8]byte{0x1a, 0x01, 0x00, 0x06, 0x00, 0x01}, 1 << 6, ""},
		{"spark_max", "26.1.5", [8]byte{0x1a, 0x01, 0x00, 0x05, 0x00, 0x02}, 1 << 6, "reports it is a SPARK Flex, configured as a SPARK MAX"},
	} {
		r := bind(t, "joints:\n  - {name: arm_joint, type: "+tc.typ+", id: 3}\n")
		cmd := command[float64](r, "arm_joint", interfaces.Voltage)
		r.step(10 * time.Millisecond)
		r.hal.Bus.Inject(hal.Frame{ID: sparkVer3, Len: 8, Data: tc.answer}, r.hal.Now())
		sparkConfigure(t, r)
		now := r.hal.Now() + 10*time.Millisecond
		r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0x00, 0x00, 0x66, 0x06, 0x00, 0x19, tc.model}}, now) // 12 V, 25 °C
		r.hal.Bus.Inject(hal.Frame{ID: sparkS1_3, Len: 8}, now)
		r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8}, now)
		cmd.Put(6, now)
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		if err := r.step(10 * time.Millisecond); err != nil {
			t.Fatalf("%s %s: %v", tc.typ, tc.fw, err)
		}
		if d := sentTo(r, sparkDuty3); len(d) != 1 || d[0].Data != [8]byte{0, 0, 0, 0x3F} {
			t.Errorf("%s %s: set point %+v, want duty 0.5", tc.typ, tc.fw, d)
		}
		rep := r.device("arm_joint").(hal.Reporter).Report(nil)[0]
		var fw string
		for _, v := range rep.Values {
			if v[0] == "firmware" {
				fw = v[1]
			}
		}
		if fw != tc.fw {
			t.Errorf("%s: firmware shown %q, want %q", tc.typ, fw, tc.fw)
		}
		if tc.warn == "" && (rep.Warn || rep.Error) || tc.warn != "" && (!rep.Warn || !strings.Contains(rep.Message, tc.warn)) {
			t.Errorf("%s %s: report %+v, want warning %q", tc.typ, tc.fw, rep, tc.warn)
		}
	}
}

func TestSparkInvertedAndFaults(t *testing.T) {
	r := bind(t, "joints:\n  - {name: arm_joint, type: spark_flex, id: 3, inverted: true}\n")
	cmd := command[float64](r, "arm_joint", interfaces.Voltage)
	rate := state[interfaces.RateState](r, "arm_joint", interfaces.Rate)
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	sparkConfigure(t, r)
	now := r.hal.Now() + 10*time.Millisecond
	r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0x00, 0x00, 0x66, 0x06, 0x00, 0x5A}}, now) // 12 V, 90 °C
	r.hal.Bus.Inject(hal.Frame{ID: sparkS1_3, Len: 8, Data: [8]byte{0x10, 0, 0x02}}, now)                      // temperature fault, overcurrent warning
	r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8, Data: [8]byte{0, 0, 0, 0, 0x00, 0x00, 0x80, 0x3F}}, now) // 1 rotation
	cmd.Put(-3, now)
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	// A temperature fault stops the motor, not the measurement: Read
	// goes on; /diagnostics has it, as an error.
	if err := r.step(10 * time.Millisecond); err != nil {
		t.Errorf("a temperature fault: %v", err)
	}
	rep := r.device("arm_joint").(hal.Reporter).Report(nil)
	if len(rep) != 1 || !rep[0].Error || rep[0].Message != "fault: temperature" || rep[0].Name != "arm_joint (SparkFlex 3)" {
		t.Errorf("report %+v", rep)
	}
	// -3 V of 12 inverted: +0.25 = 0x3E800000.
	if d := sentTo(r, sparkDuty3); len(d) != 1 || d[0].Data != [8]byte{0, 0, 0x80, 0x3E} {
		t.Errorf("set point %+v, want 00 00 80 3e", d)
	}
	if math.Abs(rate.State+2*math.Pi) > 1e-9 {
		t.Errorf("inverted position %v, want -2π (default position_factor)", rate.State)
	}
}

// The driver's Read and Write allocate nothing in steady state.
// With closed_loop: device too, once the gains are in.
func TestSparkNoAllocs(t *testing.T) {
	for _, yaml := range []string{sparkYAML, sparkLoopYAML} {
		sparkNoAllocs(t, yaml)
	}
}

func sparkNoAllocs(t *testing.T, yaml string) {
	r := bind(t, yaml)
	command[float64](r, "arm_joint", interfaces.Voltage).Put(3, r.now)
	if yaml == sparkLoopYAML {
		command[float64](r, "arm_joint", interfaces.Velocity).Put(3, r.now)
	}
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	r.step(10 * time.Millisecond)
	for range sparkBaseSteps + 4 { // acknowledge each configuration step as it is sent
		if !sparkAckSent(r) {
			break
		}
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		r.step(10 * time.Millisecond)
	}
	if yaml == sparkLoopYAML && len(sentTo(r, sparkVel3)) != 1 {
		t.Fatalf("no velocity set point once the gains are in: %+v", r.hal.Bus.Sent)
	}
	r.hal.Bus.Sent = make([]hal.Frame, 0, 4096)
	dev := r.device("arm_joint")
	hb := r.devs[0]
	n := testing.AllocsPerRun(100, func() {
		now := r.hal.Now()
		r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0, 0, 0x66, 0x06}}, now)
		r.hal.Bus.Inject(hal.Frame{ID: sparkS1_3, Len: 8}, now)
		r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8}, now)
		dev.Read(now, 0)
		dev.Write(now, 0)
		hb.Write(now, 0)
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	})
	if n != 0 {
		t.Errorf("%v allocations per cycle", n)
	}
}

const sparkBusYAML = `joints:
  - {name: a, type: spark_max, id: 1}
  - {name: b, type: spark_max, id: 2}
  - {name: c, type: spark_flex, id: 3, required: true}
  - {name: d, type: spark_max, id: 1, can_bus: c2}
`

// Each SPARK at the periods frcd sets: Status0 every 10 ms, Status1 every
// 100 ms, Status2 every 20 ms, its set point every 10 ms: 260 frames/s;
// the SPARK heartbeat once per bus (50/s), with the universal heartbeat
// (50/s); 160 bits each at worst.
func TestSparkCANLoad(t *testing.T) {
	loads := EstimateCANLoad(parseYAML(t, sparkBusYAML))
	if len(loads) != 2 {
		t.Fatalf("%d buses", len(loads))
	}
	// The default bus is named by its name, can0 (one name per bus).
	want := map[string]float64{"can0": (50 + 3*260 + 50) * 160 / 1e6, "c2": (50 + 260 + 50) * 160 / 1e6}
	for _, l := range loads {
		if w, ok := want[l.Bus]; !ok || math.Abs(l.Load-w) > 1e-9 {
			t.Errorf("bus %q: %.4f %%, want %.4f %%", l.Bus, 100*l.Load, 100*w)
		}
	}
}

func TestSparkInventory(t *testing.T) {
	ms := time.Millisecond
	now := time.Second
	heard := map[string][]hal.Heard{"": {
		{ID: 0x0205B801, Last: now - 5*ms, Count: 100}, // a's Status 0: present
		{ID: 0x02052C80, Last: now, Count: 50},         // our heartbeat: not a device
		{ID: 0x02050081, Last: now, Count: 100},        // our set point to a: not its
		{ID: 0x02052602, Last: now - 300*ms, Count: 1}, // b's version answer: b's, stale
		{ID: 0x02053803, Last: now, Count: 4},          // our parameter write to c: not its
		{ID: 0x02050003, Last: now, Count: 100},        // our velocity set point to c: not its
		{ID: 0x02050103, Last: now, Count: 100},        // our position set point to c: not its
	}}
	inv := TakeInventory(ExpectedCAN(parseYAML(t, sparkBusYAML)), heard, now)
	var got []string
	for _, r := range inv.Rows {
		got = append(got, r.Status+" "+r.Name+" "+r.DeviceName+" "+BusName(r.Bus)+" "+strconv.Itoa(r.Number)+" "+strconv.Itoa(int(r.Frames)))
	}
	sameLines(t, "rows", got,
		"present a REV SPARK MAX can0 1 100",
		"stale b REV SPARK MAX can0 2 1",
		"missing c REV SPARK Flex can0 3 0",
		"unmonitored d REV SPARK MAX c2 1 0")
	if miss := inv.RequiredMissing(); len(miss) != 1 || miss[0].Name != "c" {
		t.Errorf("required missing %+v, want c", miss)
	}
}

// A SPARK's parameter write response is its own frame: it is heard.
func TestSparkInventoryHearsAcks(t *testing.T) {
	now := time.Second
	heard := map[string][]hal.Heard{"": {{ID: 0x02053843, Last: now, Count: 4}}} // c's acknowledgements
	inv := TakeInventory(ExpectedCAN(parseYAML(t, sparkBusYAML)), heard, now)
	for _, r := range inv.Rows {
		if r.Name == "c" && (r.Status != "present" || r.Frames != 4) {
			t.Errorf("c: %+v", r)
		}
	}
}

// A SPARK MAX and a SPARK Flex are one id space on a bus: the same FRC
// device type and manufacturer.
func TestSparkIDSpace(t *testing.T) {
	_, list := config.Parse("r.yaml", []byte("joints:\n  - {name: a, type: spark_max, id: 4}\n  - {name: b, type: spark_flex, id: 4}\n  - {name: c, type: talon_srx, id: 4}\n  - {name: d, type: spark_flex, id: 4, can_bus: c2}\n"))
	var b strings.Builder
	_ = list.WriteText(&b)
	if list.Errors() != 1 || !strings.Contains(b.String(), "CAN id 4 of a REV SPARK") {
		t.Errorf("findings:\n%s", b.String())
	}
}

// BenchmarkSparkCycle is eight SPARKs (a swerve's worth) through one loop
// cycle: each takes its three fresh status frames and sends its set
// point, and the bus's heartbeat goes out. frames/s counts the frames
// decoded and sent; allocs/op is per cycle of all eight (0: the loop's
// rule). Compare with BenchmarkDecodeCAN in the same run.
func BenchmarkSparkCycle(b *testing.B) {
	yaml := "joints:\n"
	for n := 1; n <= 8; n++ {
		yaml += "  - {name: m" + strconv.Itoa(n) + ", type: spark_max, id: " + strconv.Itoa(n) + "}\n"
	}
	f, list := config.Parse("bench.yaml", []byte(yaml))
	if list.Errors() > 0 {
		b.Fatal(list)
	}
	hb := haltest.New()
	hb.Bus.Sent = make([]hal.Frame, 0, 64)
	reg := interfaces.NewRegistry()
	devs, err := Build(f, NewEnv(hb, reg))
	if err != nil {
		b.Fatal(err)
	}
	for n := 1; n <= 8; n++ {
		hb.Bus.Inject(hal.Frame{ID: 0x02052600 + uint32(n), Len: 5, Data: [8]byte{25}}, 0)
		c, err := interfaces.Claim[float64](reg, "bench", "m"+strconv.Itoa(n), interfaces.Voltage)
		if err != nil {
			b.Fatal(err)
		}
		c.Put(3, 0)
	}
	const dt = 10 * time.Millisecond
	cycle := func() {
		hb.Advance(dt)
		now := hb.Now()
		for n := 1; n <= 8; n++ {
			hb.Bus.Inject(hal.Frame{ID: 0x0205B800 + uint32(n), Len: 8, Data: [8]byte{0x5D, 0x3F, 0x66, 0x16, 0x11, 0x28}}, now)
			hb.Bus.Inject(hal.Frame{ID: 0x0205B840 + uint32(n), Len: 8}, now)
			hb.Bus.Inject(hal.Frame{ID: 0x0205B880 + uint32(n), Len: 8, Data: [8]byte{0, 0, 0x7A, 0x44, 0, 0, 0x20, 0xC0}}, now)
		}
		for _, d := range devs {
			d.Read(now, dt)
		}
		for i := len(devs) - 1; i >= 0; i-- {
			devs[i].Write(now, dt)
		}
		hb.Bus.Sent = hb.Bus.Sent[:0]
	}
	cycle()
	cycle()
	if err := devs[1].Read(hb.Now(), dt); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		cycle()
	}
	b.StopTimer()
	b.ReportMetric(float64(8*4*b.N)/b.Elapsed().Seconds(), "frames/s")
}

// Ids worked out by hand for CAN id 3: the parameter write API 0x0E0
// (class 14, index 0), its acknowledgement 0x0E1, the position and
// velocity set points 0x004 and 0x000.
const (
	sparkParam3 = 0x02053803
	sparkAck3   = 0x02053843
	sparkPos3   = 0x02050103
	sparkVel3   = 0x02050003
)

const sparkLoopYAML = "joints:\n  - {name: arm_joint, type: spark_max, id: 3, position_factor: 0.5, inverted: true, closed_loop: device, kp: 0.5, kv: 0.00017}\n"

// closed_loop: device writes slot 0's gains one at a time, each
// acknowledged before the next, sends neither a set point nor an enabling
// heartbeat before they are all in, then sends position and velocity set
// points in motor rotations and RPM.
func TestSparkOwnClosedLoop(t *testing.T) {
	r := bind(t, sparkLoopYAML)
	pos := command[float64](r, "arm_joint", interfaces.Position)
	vel := command[float64](r, "arm_joint", interfaces.Velocity)
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	sparkConfigure(t, r)
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	pos.Put(1, r.hal.Now())
	// kP_0 (13) = 0.5: 0D, then float32 0x3F000000 little endian.
	err := r.step(10 * time.Millisecond)
	if w := sentTo(r, sparkParam3); len(w) != 1 || w[0].Len != 5 || w[0].Data != [8]byte{0x0D, 0, 0, 0, 0x3F} {
		t.Fatalf("first parameter write %+v", w)
	}
	if !errors.Is(err, hal.ErrConfiguring) || !strings.Contains(err.Error(), "gains not yet acknowledged") {
		t.Errorf("Read before the gains are in: %v", err)
	}
	// No answer: not sent again before 250 ms; nothing drives meanwhile.
	r.step(100 * time.Millisecond)
	if n := len(sentTo(r, sparkParam3)); n != 1 {
		t.Errorf("%d writes after 110 ms", n)
	}
	// The acknowledgement: 0D, type 3 (float32), the value, result 0.
	ack := func(param byte, bits uint32, result byte) {
		d := [8]byte{param, 3, byte(bits), byte(bits >> 8), byte(bits >> 16), byte(bits >> 24), result}
		r.hal.Bus.Inject(hal.Frame{ID: sparkAck3, Len: 7, Data: d}, r.hal.Now()+time.Millisecond)
	}
	ack(0x0D, 0x3F000000, 0)
	r.step(10 * time.Millisecond)
	// kI_0 (14) = 0 next, then kD_0 (15) = 0, then kF_0 (16) = 0.00017.
	for _, g := range []struct {
		param byte
		value float32
	}{{0x0E, 0}, {0x0F, 0}, {0x10, 0.00017}} {
		w := sentTo(r, sparkParam3)
		last := w[len(w)-1]
		bits := math.Float32bits(g.value)
		if want := [8]byte{g.param, byte(bits), byte(bits >> 8), byte(bits >> 16), byte(bits >> 24)}; last.Data != want {
			t.Fatalf("write % x, want % x", last.Data, want)
		}
		ack(g.param, bits, 0)
		if g.param != 0x10 {
			r.step(10 * time.Millisecond)
		}
	}
	for _, f := range sentTo(r, sparkHB) {
		if f.Data != [8]byte{} {
			t.Fatalf("heartbeat enabled it before the gains were in: % x", f.Data)
		}
	}
	if d := append(sentTo(r, sparkPos3), sentTo(r, sparkDuty3)...); len(d) != 0 {
		t.Fatalf("set points before the gains were in: %+v", d)
	}
	// All in: 1 rad / 0.5 rad per rotation = 2 rotations, negated
	// (inverted): float32 -2 = 0xC0000000, slot 0.
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	pos.Put(1, r.hal.Now())
	r.step(10 * time.Millisecond)
	if p := sentTo(r, sparkPos3); len(p) != 1 || p[0].Data != [8]byte{0, 0, 0, 0xC0} {
		t.Errorf("position set point %+v, want 00 00 00 c0", p)
	}
	if hb := sentTo(r, sparkHB); len(hb) != 1 || hb[0].Data != [8]byte{0x08} {
		t.Errorf("heartbeat %+v", hb)
	}
	// 3 rad/s = 6 motor rotations/s = 360 RPM, negated: float32 -360 =
	// 0xC3B40000.
	pos.Reset()
	vel.Put(3, r.hal.Now())
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	r.step(10 * time.Millisecond)
	if v := sentTo(r, sparkVel3); len(v) != 1 || v[0].Data != [8]byte{0, 0, 0xB4, 0xC3} {
		t.Errorf("velocity set point %+v, want 00 00 b4 c3", v)
	}
	// 1e38 rad/s is finite, but 1.2e40 RPM is +Inf as a float32: the
	// frame carries float32's largest (negated: inverted), never Inf.
	vel.Put(1e38, r.hal.Now())
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	r.step(10 * time.Millisecond)
	if v := sentTo(r, sparkVel3); len(v) != 1 {
		t.Errorf("velocity set points %+v", v)
	} else if got, _ := frc.DecodeSparkSetpoint(v[0].Data); got != -math.MaxFloat32 {
		t.Errorf("a velocity past float32's range went out as %v, want %v", got, -math.MaxFloat32)
	}
}

// A gain the SPARK refuses (a result other than 0) stops it for good,
// named.
func TestSparkRefusedGain(t *testing.T) {
	r := bind(t, sparkLoopYAML)
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	sparkConfigure(t, r)
	r.step(10 * time.Millisecond)
	r.hal.Bus.Inject(hal.Frame{ID: sparkAck3, Len: 7, Data: [8]byte{0x0D, 3, 0, 0, 0, 0, 4}}, r.hal.Now()+time.Millisecond)
	for i := 0; i < 3; i++ {
		err := r.step(10 * time.Millisecond)
		if err == nil || errors.Is(err, hal.ErrTimeout) || !strings.Contains(err.Error(), "refused kp = 0.5 (parameter 13): result 4") {
			t.Fatalf("after a refusal: %v", err)
		}
	}
	r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
	r.step(300 * time.Millisecond)
	if n := len(r.hal.Bus.Sent); n != 1 { // the heartbeat (empty) only
		t.Errorf("sent after a refusal: %+v", r.hal.Bus.Sent)
	}
}

// Gains without closed_loop: device are errors at their place.
func TestSparkGainsNeedDeviceLoop(t *testing.T) {
	_, list := config.Parse("robot.yaml", []byte("joints:\n  - {name: fly, type: spark_flex, id: 4, kv: 0.0002}\n"))
	if list.Errors() != 1 || !strings.Contains(fmt.Sprint(list), `robot.yaml:2:42: error: spark_flex "fly": kv is a gain of the device's own closed loop`) {
		t.Errorf("findings: %v", list)
	}
}

// /diagnostics: the SPARK's temperature, voltage, current and Status 1
// (bytes worked out by hand) as values; an error for an active fault or
// no status, a warning for an active warning or a sticky fault; an active
// sensor fault also fails Read.
func TestSparkReport(t *testing.T) {
	r := bind(t, sparkYAML)
	rep := r.device("arm_joint").(hal.Reporter)
	if got := rep.Report(nil); len(got) != 1 || !got[0].Error || got[0].Message != "no answer to the firmware version request" {
		t.Errorf("before the first Read: %+v", got)
	}
	r.step(10 * time.Millisecond)
	answerVersion(r, 25)
	sparkConfigure(t, r)
	status := func(s1 [8]byte) error {
		now := r.hal.Now() + 10*time.Millisecond
		// 0x666 × 30/4095 = 12.0 V, 0x111 × 150/4095 = 10.0 A, 0x2D = 45 °C.
		r.hal.Bus.Inject(hal.Frame{ID: sparkS0_3, Len: 8, Data: [8]byte{0x5D, 0x3F, 0x66, 0x16, 0x11, 0x2D}}, now)
		r.hal.Bus.Inject(hal.Frame{ID: sparkS1_3, Len: 8, Data: s1}, now)
		r.hal.Bus.Inject(hal.Frame{ID: sparkS2_3, Len: 8}, now)
		return r.step(10 * time.Millisecond)
	}
	for _, c := range []struct {
		s1          [8]byte
		warn, error bool
		msg         string
	}{
		{[8]byte{}, false, false, "ok"},
		{[8]byte{0x20}, false, true, "fault: gate driver"},                                                               // bit 5
		{[8]byte{0, 0, 0x01}, true, false, "warning: brownout"},                                                          // bit 16
		{[8]byte{0, 0, 0x22}, true, false, "warning: overcurrent, stall"},                                                // bits 17, 21
		{[8]byte{0, 0, 0, 0x08}, true, false, "sticky fault: CAN (cleared by the REV Hardware Client or a power cycle)"}, // bit 27
		{[8]byte{0, 0, 0, 0, 0, 0x40}, false, false, "ok"},                                                               // a sticky "has reset" warning: a value only
	} {
		if err := status(c.s1); err != nil {
			t.Fatalf("% x: %v", c.s1, err)
		}
		got := rep.Report(nil)[0]
		if got.Warn != c.warn || got.Error != c.error || got.Message != c.msg {
			t.Errorf("status 1 % x: %+v; want warn %v error %v %q", c.s1, got, c.warn, c.error, c.msg)
		}
	}
	got := rep.Report(nil)[0]
	want := [][2]string{{"firmware", "25.0.1"}, {"motor temperature (°C)", "45"}, {"input voltage (V)", "12.00"}, {"output current (A)", "10.0"},
		{"applied output", "0.500"}, {"faults", "none"}, {"warnings", "none"}, {"sticky faults", "none"}, {"sticky warnings", "has reset"}}
	if !reflect.DeepEqual(got.Values, want) {
		t.Errorf("values %v, want %v", got.Values, want)
	}
	// A sensor fault (bit 2): Read fails, the encoder is not used.
	if err := status([8]byte{0x04}); err == nil || !strings.Contains(err.Error(), "active fault: sensor: its encoder is not used") {
		t.Errorf("sensor fault: %v", err)
	}
	// Stale: an error.
	r.step(200 * time.Millisecond)
	if got := rep.Report(nil)[0]; !got.Error || got.Message != "no status frames" {
		t.Errorf("stale: %+v", got)
	}
}
