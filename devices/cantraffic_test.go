package devices

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func parseYAML(t *testing.T, yaml string) *config.File {
	t.Helper()
	f, list := config.Parse("robot.yaml", []byte(yaml))
	if list.Errors() > 0 {
		t.Fatalf("config: %v", list)
	}
	return f
}

// The table's ids are the documented ones (PROTOCOLS.md; CTRE's
// StatusFrameEnhanced and PigeonIMU_StatusFrame values under their base
// ids), with the device number in the low six bits.
func TestCANFrameIDs(t *testing.T) {
	id := func(k *CANKind, name string, n int) uint32 {
		for _, f := range k.Frames {
			if f.Name == name {
				return k.ID(f, n)
			}
		}
		t.Fatalf("%s has no frame %s", k.Name, name)
		return 0
	}
	for _, c := range []struct {
		got, want uint32
	}{
		{id(canPDP, "Status1", 0), 0x08041400},
		{id(canPDP, "Status2", 0), 0x08041440},
		{id(canPDP, "Status3", 1), 0x08041481},
		{id(canPDP, "Energy", 0), 0x08041740},
		{id(canPCM, "Status1", 0), 0x09041400},
		{id(canPCM, "Control1", 3), 0x09041C03},
		{id(canTalonSRX, "Status_1_General", 5), 0x02041405},          // STATUS_1 0x02041400
		{id(canTalonSRX, "Status_2_Feedback0", 5), 0x02041445},        // 0x1440
		{id(canTalonSRX, "Status_14_Turn_PIDF1", 0), 0x02041740},      // 0x1740
		{id(canTalonSRX, "Control_3_General", 1), 0x02040081},         // ControlFrame 0x040080
		{id(canVictorSPX, "Status_4_AinTempVbat", 2), 0x020414C2},     // 0x14C0
		{id(canPigeon, "CondStatus_1_General", 0), 0x15042000},        // base 0x15000000 | 0x042000
		{id(canPigeon, "CondStatus_9_SixDeg_YPR", 7), 0x15042207},     // 0x042200
		{id(canPigeon, "BiasedStatus_6_Accel", 0), 0x15041D40},        // 0x041D40
		{id(canPigeonOnTalon, "CondStatus_1_General", 3), 0x02042003}, // through Talon 3: base 0x02000000
		{id(canREVPDH, "Status0", 1), 0x08051801},                     // the ids rev_pdh reads and sends
		{id(canREVPDH, "Status4", 1), 0x08051901},
		{id(canREVPH, "Status0", 1), 0x09051801}, // and rev_ph's
		{id(canREVPH, "Status1", 1), 0x09051841},
		{id(canREVPH, "SetAll", 1), 0x09050C01},
	} {
		if c.got != c.want {
			t.Errorf("id %08X, want %08X", c.got, c.want)
		}
	}
	// The heartbeat frame is the universal heartbeat's id.
	if got := frc.FRCID(frc.DevRobotController, frc.MfrNI, heartbeatFrame.API, 0); got != hal.HeartbeatID {
		t.Errorf("heartbeat %08X, want %08X", got, uint32(hal.HeartbeatID))
	}
}

// kindLoad is one device's share of the bus, by the table.
func kindLoad(k *CANKind) float64 {
	var b BusLoad
	for _, f := range k.Frames {
		addFrame(&b, f)
	}
	return b.BitsPerSecond / hal.CANBitRate
}

// Per device, at worst-case frame lengths (160 bits for 8 bytes):
//   - Talon SRX: control every 10 ms, Status 1 every 10 ms, 2 every 20 ms
//     and seven slow groups every 160 ms: 293.75 frames/s, 47.0 kbit/s,
//     4.70 %. CTRE publishes 4.6 % for a Talon FX at Phoenix 5 defaults
//     (v5.docs.ctr-electronics.com, Common Device API, "Typical Device
//     Utilization", CAN 2.0).
//   - Pigeon IMU: 297.5 frames/s, 4.76 %; CTRE publishes 5.5 % for the
//     Pigeon 2.0 (a different device: no figure is published for the
//     Pigeon IMU).
//   - PDP: four frames every 25 ms, 2.56 %; PCM: three every 25 ms and its
//     control every 20 ms, 2.72 %.
func TestCANLoadPerDevice(t *testing.T) {
	for _, c := range []struct {
		k    *CANKind
		want float64
	}{
		{canTalonSRX, 293.75 * 160 / 1e6},
		{canVictorSPX, (100 + 100 + 50 + 5*6.25) * 160 / 1e6},
		{canPigeon, 297.5 * 160 / 1e6},
		{canPDP, 160 * 160 / 1e6},
		{canPCM, 170 * 160 / 1e6},
		{canREVPDH, 250 * 160 / 1e6},                                    // Status0-4 every 20 ms
		{canREVPH, 100*160/1e6 + 50*float64(hal.WorstFrameBits(4))/1e6}, // Status0-1 and the 4-byte SetAll every 20 ms
	} {
		if got := kindLoad(c.k); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %.4f %%, want %.4f %%", c.k.Name, 100*got, 100*c.want)
		}
	}
	if got := kindLoad(canTalonSRX); math.Abs(got-0.046) > 0.005 {
		t.Errorf("Talon SRX %.2f %%, not within 0.5 %% of CTRE's 4.6 %% for a Talon FX", 100*got)
	}
}

const swerveYAML = `joints:
  - {name: pdp, type: pdp, id: 0}
  - {name: compressor, type: compressor, pcm_id: 0}
  - {name: intake, type: double_solenoid, forward_id: 0, reverse_id: 1}
  - {name: pigeon, type: pigeon_imu, frame_id: base_link, id: 0}
  - {name: fl_steer, type: talon_srx, id: 1}
  - {name: fl_drive, type: talon_srx, id: 2}
  - {name: fr_steer, type: talon_srx, id: 3}
  - {name: fr_drive, type: talon_srx, id: 4}
  - {name: rl_steer, type: talon_srx, id: 5}
  - {name: rl_drive, type: talon_srx, id: 6}
  - {name: rr_steer, type: talon_srx, id: 7}
  - {name: rr_drive, type: talon_srx, id: 8}
`

// The sample swerve robot (as examples/swerve): 8 Talon SRX, a Pigeon IMU,
// a PDP and a PCM, with the heartbeat: 50 + 8 × 293.75 + 297.5 + 160 +
// 170 = 3027.5 frames/s, 484.4 kbit/s, 48.44 %. CTRE publishes 49.7 % for
// a swerve of 8 Talon FX, 4 CANcoders and a Pigeon 2.0 at Phoenix 5
// defaults (same page); our robot has no CANcoders (CTRE: 1.8 % each) but
// a PDP and a PCM (5.3 % together), and our figure is a worst-case bound.
func TestCANLoadSwerve(t *testing.T) {
	f := parseYAML(t, swerveYAML)
	var list diag.List
	loads := CheckCANLoad(f, &list)
	if len(list) != 0 {
		t.Errorf("findings at 48 %%: %v", list)
	}
	if len(loads) != 1 {
		t.Fatalf("loads %+v, want one bus", loads)
	}
	b := loads[0]
	if b.Bus != "can0" || b.Devices != 11 || math.Abs(b.FramesPerSecond-3027.5) > 1e-9 || math.Abs(b.BitsPerSecond-484400) > 1e-6 || math.Abs(b.Load-0.4844) > 1e-9 {
		t.Errorf("load %+v, want can0 (the default bus), 11 devices, 3027.5 frames/s, 484400 bit/s, 0.4844", b)
	}
	if math.Abs(b.Load-0.497) > 0.03 {
		t.Errorf("%.1f %% is not within 3 %% of CTRE's published 49.7 %%", 100*b.Load)
	}
	if want := "CAN bus can0: 11 devices, 48.4 % estimated load (3028 frames/s, 484 kbit/s of 1000)"; b.String() != want {
		t.Errorf("line %q, want %q", b.String(), want)
	}
	if b.First != f.Devices[0] {
		t.Errorf("first device %v, want the pdp", b.First)
	}
}

// sameLines compares lines with the wanted ones, showing both when they
// differ.
func sameLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("%s:\n%s\nwant:\n%s", what, g, w)
	}
}

func talons(n int, bus string) string {
	var s strings.Builder
	s.WriteString("joints:\n")
	for i := range n {
		fmt.Fprintf(&s, "  - {name: m%d, type: talon_srx, id: %d, can_bus: %q}\n", i, i%63, bus)
	}
	return s.String()
}

// 40 Talons overload a bus: an error with the figure at the first one; 15
// fill it past 70 %: a warning.
func TestCANLoadThresholds(t *testing.T) {
	f := parseYAML(t, talons(40, "can0"))
	var list diag.List
	loads := CheckCANLoad(f, &list)
	want := (50 + 40*293.75) * 160 / 1e6 // 188.8 %
	if len(loads) != 1 || math.Abs(loads[0].Load-want) > 1e-9 || loads[0].Bus != "can0" {
		t.Fatalf("loads %+v, want the default bus (can0) at %.1f %%", loads, 100*want)
	}
	if len(list) != 1 || list.Errors() != 1 || list[0].Pos != f.Devices[0].Pos ||
		!strings.Contains(list[0].Message, "CAN bus can0: 188.8 % estimated load with 40 devices, over 90 %") ||
		!strings.HasSuffix(list[0].Message, "move devices to another bus (can_bus, on a Linux coprocessor with more than one) or remove some") {
		t.Errorf("findings %v, want one error at m0 with 188.8 %%", list)
	}

	f = parseYAML(t, talons(15, ""))
	list = nil
	loads = CheckCANLoad(f, &list)
	want = (50 + 15*293.75) * 160 / 1e6 // 71.3 %
	if math.Abs(loads[0].Load-want) > 1e-9 || len(list) != 1 || list.Warnings() != 1 ||
		!strings.Contains(list[0].Message, "CAN bus can0: 71.3 % estimated load with 15 devices, over 70 %") {
		t.Errorf("15 Talons: %+v %v, want a warning at 71.3 %%", loads, list)
	}
	// 14 are below the warning.
	list = nil
	if CheckCANLoad(parseYAML(t, talons(14, "")), &list); len(list) != 0 {
		t.Errorf("14 Talons: %v, want no finding", list)
	}
}

// Devices go to their can_bus; a PCM counts once however many entries
// name it; a Pigeon on a Talon adds its frames under the Talon's number;
// devices without CAN frames count nothing.
func TestExpectedCAN(t *testing.T) {
	f := parseYAML(t, `joints:
  - {name: pdp, type: pdp, id: 0, can_bus: can1, required: true}
  - {name: c, type: compressor, pcm_id: 2}
  - {name: s1, type: solenoid, id: 0, pcm_id: 2, required: true}
  - {name: s2, type: double_solenoid, forward_id: 1, reverse_id: 2, pcm_id: 2}
  - {name: arm, type: talon_srx, id: 4}
  - {name: pigeon, type: pigeon_imu, frame_id: base_link, talon: arm}
  - {name: lift, type: can_victor_spx, id: 5, can_bus: can1}
  - {name: claw, type: spark, id: 0}
`)
	devs := ExpectedCAN(f)
	var got []string
	for _, d := range devs {
		got = append(got, fmt.Sprintf("%s/%s/%d/%s/%v", d.Name(), d.Kind.Name, d.Number, BusName(d.Bus), d.Required))
	}
	sameLines(t, "expected devices", got,
		"pdp/CTRE PDP/0/can1/true",
		"c, s1, s2/CTRE PCM/2/default/true",
		"arm/CTRE Talon SRX/4/default/false",
		"pigeon/CTRE Pigeon IMU on a Talon SRX/4/default/false",
		"lift/CTRE Victor SPX/5/can1/false")
	loads := EstimateCANLoad(f)
	if len(loads) != 2 || loads[0].Bus != "can0" || loads[1].Bus != "can1" || loads[0].Devices != 3 || loads[1].Devices != 2 {
		t.Fatalf("loads %+v, want can0, the default (3 devices), then can1 (2)", loads)
	}
	wantDefault := (50 + 170 + 293.75 + 297.5) * 160 / 1e6
	wantCan1 := (50 + 160 + 281.25) * 160 / 1e6
	if math.Abs(loads[0].Load-wantDefault) > 1e-9 || math.Abs(loads[1].Load-wantCan1) > 1e-9 {
		t.Errorf("loads %.4f, %.4f; want %.4f, %.4f", loads[0].Load, loads[1].Load, wantDefault, wantCan1)
	}
	if loads[0].First.Name != "c" || loads[1].First.Name != "pdp" {
		t.Errorf("first devices %s, %s; want c, pdp", loads[0].First.Name, loads[1].First.Name)
	}
	// No CAN device: no bus.
	if l := EstimateCANLoad(parseYAML(t, "joints:\n  - {name: claw, type: spark, id: 0}\n")); len(l) != 0 {
		t.Errorf("loads %+v for a robot without CAN devices", l)
	}
}

// Every registered type on the CAN bus (config's CAN fact) says what it
// puts there, and only those do, so none is left out of the load and the
// inventory; every kind's frames are sane.
func TestCANTrafficCoversCANTypes(t *testing.T) {
	for _, name := range Types() {
		drv := registry[name]
		if drv.Type.CAN != (drv.CAN != nil) {
			t.Errorf("%s: config's CAN fact is %v but its driver's CAN traffic is %v", name, drv.Type.CAN, drv.CAN)
		}
		if drv.CAN == nil {
			continue
		}
		if drv.CAN.Of == nil && (drv.CAN.Kind == nil || drv.CAN.NumberKey == "" || drv.Type.Key(drv.CAN.NumberKey) == nil) {
			t.Errorf("%s: CAN traffic %+v needs a kind and a number key of the type, or Of", name, drv.CAN)
		}
		if drv.Type.Key("can_bus") == nil {
			t.Errorf("%s is on the CAN bus but has no can_bus key", name)
		}
	}
	for _, k := range []*CANKind{canPDP, canPCM, canTalonSRX, canVictorSPX, canREVPDH, canREVPH, canPigeon, canPigeonOnTalon} {
		if len(k.Frames) == 0 {
			t.Errorf("%s has no frames", k.Name)
		}
		for _, f := range k.Frames {
			if f.Period <= 0 || f.Len < 0 || f.Len > 8 {
				t.Errorf("%s %s: period %v, %d bytes", k.Name, f.Name, f.Period, f.Len)
			}
		}
	}
}

// TestExpectedREV: a rev_pdh and a PH that solenoids and a compressor
// name by module_type (pcm_id defaulting to 1 for a PH) are one device
// each, beside a PCM; the PH's SetAll goes in its bus's load.
func TestExpectedREV(t *testing.T) {
	f, list := config.Parse("r.yaml", []byte(`joints:
  - {name: pdh, type: rev_pdh, id: 1}
  - {name: a, type: solenoid, id: 3, module_type: rev_ph}
  - {name: c, type: compressor, module_type: rev_ph}
  - {name: b, type: solenoid, id: 3}
  - {name: ph2, type: rev_ph, id: 2, can_bus: can1, required: true}
`))
	if list.Errors() > 0 {
		t.Fatal(list)
	}
	var got []string
	for _, d := range ExpectedCAN(f) {
		got = append(got, fmt.Sprintf("%s %d %q %s req=%v", d.Kind.Name, d.Number, d.Bus, d.Name(), d.Required))
	}
	want := []string{`REV PDH 1 "" pdh req=false`, `REV PH 1 "" a, c req=false`, `CTRE PCM 0 "" b req=false`, `REV PH 2 "can1" ph2 req=true`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("expected:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, b := range EstimateCANLoad(f) {
		if b.Bus == "can1" && math.Abs(b.FramesPerSecond-(50+150)) > 1e-9 {
			t.Errorf("can1: %v frames/s, want the heartbeat and one PH, 200", b.FramesPerSecond)
		}
	}
}
