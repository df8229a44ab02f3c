package sim

import (
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/sparkspec"
)

const sparkURDF = `<robot name="s">
  <link name="base_link"/><link name="arm"><inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.2"/></inertial></link>
  <joint name="arm_joint" type="revolute"><parent link="base_link"/><child link="arm"/><axis xyz="0 1 0"/>
    <limit lower="-0.5" upper="2.0" effort="60" velocity="3"/></joint>
</robot>`

const sparkSimYAML = "joints:\n  - {name: arm_joint, type: spark_max, id: 5, can_bus: rio}\n"

// The emulated SPARK's frames, read back from the sim's bus with ids and
// bytes worked out by hand from docs/rev-spark.md for CAN id 5.
func TestSparkFrames(t *testing.T) {
	s := newSim(t, loadRobot(t, sparkURDF, sparkSimYAML), Options{Joints: map[string]JointParams{"arm_joint": {Gearing: 60}}})
	bus, _ := s.CANBus("rio")
	// The version answer to a remote frame at 0x02052605: REV's current
	// SPARK MAX release, 26.1.5 on hardware revision 2 (major, minor,
	// build big endian, debug build, hardware revision: REV's 2.1.0). A
	// data frame there is no request.
	bus.Send(hal.Frame{ID: 0x02052605})
	if _, _, ok := bus.Latest(0x02052605); ok {
		t.Fatal("a version answer to a data frame")
	}
	bus.Send(hal.Frame{ID: 0x02052605, Len: 8, RTR: true})
	if f := latest(t, bus, 0x02052605); f.Len != 8 || f.Data != [8]byte{0x1a, 1, 0, 5, 0, 2} {
		t.Errorf("version % x (%d bytes), want 1a 01 00 05 00 02 00 00", f.Data, f.Len)
	}
	// Status 2 (the encoder) only once enabled: mask and enable bit 2 at
	// 0x02050405, answered at 0x02050445 with result 0, the mask, and
	// Status 0-2 enabled.
	bus.Send(hal.Frame{ID: 0x02050405, Len: 4, Data: [8]byte{0x04, 0x00, 0x04, 0x00}})
	if f := latest(t, bus, 0x02050445); f.Len != 5 || f.Data != [8]byte{0, 0x04, 0x00, 0x07, 0x00} {
		t.Errorf("Set Statuses Enabled response % x (%d bytes), want 00 04 00 07 00", f.Data, f.Len)
	}
	duty := hal.Frame{ID: 0x02050085, Len: 8, Data: [8]byte{0, 0, 0, 0x3F}} // 0.5
	heartbeat := hal.Frame{ID: 0x02052C80, Len: 8, Data: [8]byte{0x20}}     // bit 5
	// Enabled, a set point, no heartbeat: neutral.
	s.SetDS(enabled)
	bus.Send(duty)
	s.AdvanceTo(20 * time.Millisecond)
	if j := truth(t, s, "arm_joint"); j.Voltage != 0 {
		t.Errorf("without a heartbeat: %v V", j.Voltage)
	}
	// With its bit in the heartbeat it drives at 0.5.
	bus.Send(heartbeat)
	bus.Send(duty)
	s.AdvanceTo(200 * time.Millisecond)
	bus.Send(heartbeat)
	bus.Send(duty)
	s.AdvanceTo(290 * time.Millisecond)
	v, _ := s.Battery()
	j := truth(t, s, "arm_joint")
	if math.Abs(j.Voltage-0.5*v) > 0.05 || j.Velocity <= 0 {
		t.Fatalf("at 0.5: %+v, want %v V", j, 0.5*v)
	}
	// Status 0 at 0x0205B805: applied 0.5 is 16221 = 0x3F5D in b0-1.
	if f := latest(t, bus, 0x0205B805); f.Data[0] != 0x5D || f.Data[1] != 0x3F || f.Data[5] != 25 {
		t.Errorf("status 0 % x, want 5d 3f .. .. .. 19", f.Data)
	}
	// Status 2 at 0x0205B885: the NEO's rotations = joint rad × 60 / 2π.
	f := latest(t, bus, 0x0205B885)
	rpm := float64(math.Float32frombits(uint32(f.Data[0]) | uint32(f.Data[1])<<8 | uint32(f.Data[2])<<16 | uint32(f.Data[3])<<24))
	rot := float64(math.Float32frombits(uint32(f.Data[4]) | uint32(f.Data[5])<<8 | uint32(f.Data[6])<<16 | uint32(f.Data[7])<<24))
	// The frame is up to 20 ms old: the joint moves j.Velocity × 0.02 rad
	// in that time.
	if lag := j.Velocity * 0.02 * 60 / (2 * math.Pi); math.Abs(rot-j.Position*60/(2*math.Pi)) > lag+0.01 || math.Abs(rpm-j.Velocity*60*60/(2*math.Pi)) > 60 {
		t.Errorf("status 2: %v rot %v rpm; joint at %v rad, %v rad/s", rot, rpm, j.Position, j.Velocity)
	}
	// A heartbeat without its bit disables it at once.
	bus.Send(hal.Frame{ID: 0x02052C80, Len: 8, Data: [8]byte{0x10}})
	bus.Send(duty)
	s.AdvanceTo(300 * time.Millisecond)
	if j := truth(t, s, "arm_joint"); j.Voltage != 0 {
		t.Errorf("heartbeat without bit 5: %v V", j.Voltage)
	}
	// The set point and heartbeat stopping: neutral after 100 ms.
	bus.Send(heartbeat)
	bus.Send(duty)
	s.AdvanceTo(400 * time.Millisecond)
	if j := truth(t, s, "arm_joint"); j.Voltage == 0 {
		t.Error("neutral 100 ms after the set point")
	}
	s.AdvanceTo(402 * time.Millisecond)
	if j := truth(t, s, "arm_joint"); j.Voltage != 0 {
		t.Errorf("102 ms after the set point: %v V", j.Voltage)
	}
}

// A SPARK nothing configured follows REV's defaults as REV's
// specification's table has them (../frc/testdata/spark-frames-2.0.5.txt:
// Status 0 every 10 ms, Status 1 every 250 ms, Status 2 not enabled; ids
// 0x0205B805 + k<<6 for CAN id 5); Set Statuses Enabled turns Status 2
// on at its default period; a period parameter (159, Status 1's, type 2)
// changes a rate; a reboot brings the defaults back. Its version answer
// has the table's length.
// The emulated SPARK reports the firmware it is set to: 25 (25.0.4, in
// firmware 25's layout), 26 (a SPARK MAX's 26.1.5, a SPARK Flex's
// 26.1.6) or any other version given whole; its Status 0 names its model.
func TestSparkEmulatedFirmware(t *testing.T) {
	for _, tc := range []struct {
		typ   string
		fw    frc.SparkFirmware
		want  [8]byte
		model uint8
	}{
		{"spark_max", frc.SparkFirmware{Major: 25}, [8]byte{25, 0, 0, 4, 0, 2}, frc.SparkModelMax},
		{"spark_max", frc.SparkFirmware{}, [8]byte{26, 1, 0, 5, 0, 2}, frc.SparkModelMax},
		{"spark_flex", frc.SparkFirmware{Major: 26}, [8]byte{26, 1, 0, 6, 0, 1}, frc.SparkModelFlex},
		{"spark_flex", frc.SparkFirmware{Major: 24, Minor: 1, Fix: 3}, [8]byte{24, 1, 0, 3}, frc.SparkModelFlex},
	} {
		y := "joints:\n  - {name: arm_joint, type: " + tc.typ + ", id: 5, can_bus: rio}\n"
		s := newSim(t, loadRobot(t, sparkURDF, y), Options{SparkFirmware: tc.fw})
		bus, _ := s.CANBus("rio")
		bus.Send(hal.Frame{ID: 0x02052605, Len: 8, RTR: true})
		if f := latest(t, bus, 0x02052605); f.Data != tc.want {
			t.Errorf("%s %+v: answer % x, want % x", tc.typ, tc.fw, f.Data, tc.want)
		}
		s.AdvanceTo(20 * time.Millisecond)
		if st := frc.DecodeSparkStatus0(latest(t, bus, 0x0205B805).Data); st.Model != tc.model {
			t.Errorf("%s: model %d, want %d", tc.typ, st.Model, tc.model)
		}
	}
}

func TestSparkStatusDefaults(t *testing.T) {
	spec, err := sparkspec.Load("../frc/testdata/spark-frames-2.0.5.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(t, loadRobot(t, sparkURDF, sparkSimYAML), Options{Joints: map[string]JointParams{"arm_joint": {Gearing: 60}}})
	bus, _ := s.CANBus("rio")
	// count counts each status frame's new arrivals for one second.
	count := func() (n [3]int) {
		var last [3]time.Duration
		for k := range n {
			_, last[k], _ = bus.Latest(spec.Frames["STATUS_0"].ArbID + uint32(k)<<6 + 5)
		}
		for end := s.Now() + time.Second; s.Now() < end; {
			s.AdvanceTo(s.Now() + time.Millisecond)
			for k := range n {
				if _, at, ok := bus.Latest(spec.Frames["STATUS_0"].ArbID + uint32(k)<<6 + 5); ok && at != last[k] {
					n[k]++
					last[k] = at
				}
			}
		}
		return n
	}
	// per is what a second of frame k holds at REV's default, or with
	// Status 2 enabled and Status 1 every 100 ms.
	per := func(k int, status2On bool, status1Ms int) int {
		f := spec.Frames[[]string{"STATUS_0", "STATUS_1", "STATUS_2"}[k]]
		switch {
		case k == 1 && status1Ms > 0:
			return 1000 / status1Ms
		case !f.Enabled && !(k == 2 && status2On):
			return 0
		}
		return 1000 / f.PeriodMs
	}
	near := func(what string, got [3]int, on bool, s1 int) {
		for k, n := range got {
			if w := per(k, on, s1); n < w-1 || n > w+1 {
				t.Errorf("%s: %d Status %d frames in 1 s, want %d", what, n, k, w)
			}
		}
	}
	near("by default", count(), false, 0)
	bus.Send(hal.Frame{ID: spec.Frames["SET_STATUSES_ENABLED"].ArbID + 5, Len: 4, Data: [8]byte{0x04, 0x00, 0x04, 0x00}})
	near("Status 2 enabled", count(), true, 0)
	bus.Send(hal.Frame{ID: spec.Frames["WRITE_PARAMETER"].ArbID + 5, Len: 5, Data: [8]byte{159, 100}})
	if f := latest(t, bus, spec.Frames["PARAMETER_WRITE_RESPONSE"].ArbID+5); f.Data != [8]byte{159, 2, 100, 0, 0, 0, 0} {
		t.Errorf("period ack % x, want 9f 02 64 00 00 00 00", f.Data)
	}
	near("Status 1 every 100 ms", count(), true, 100)
	if err := s.RebootCAN("arm_joint"); err != nil {
		t.Fatal(err)
	}
	near("after a reboot", count(), false, 0)
	bus.Send(hal.Frame{ID: spec.Frames["GET_FIRMWARE_VERSION"].ArbID + 5, Len: 8, RTR: true})
	if f := latest(t, bus, spec.Frames["GET_FIRMWARE_VERSION"].ArbID+5); int(f.Len) != spec.Frames["GET_FIRMWARE_VERSION"].Len {
		t.Errorf("version answer of %d bytes, want %d", f.Len, spec.Frames["GET_FIRMWARE_VERSION"].Len)
	}
}

// Silenced by `can_faults:` from 0.1 s to 0.3 s, the SPARK sends nothing,
// ignores its frames and goes neutral; then it answers again.
func TestSparkCANFault(t *testing.T) {
	s := newSim(t, loadRobot(t, sparkURDF, sparkSimYAML), Options{Joints: map[string]JointParams{"arm_joint": {Gearing: 60}},
		CANFaults: []CANFault{{Device: "arm_joint", From: 0.1, Until: 0.3}}})
	bus, _ := s.CANBus("rio")
	s.SetDS(enabled)
	drive := func(until time.Duration) {
		for at := s.t; at < until; at += 10 * time.Millisecond {
			bus.Send(hal.Frame{ID: 0x02052C80, Len: 8, Data: [8]byte{0x20}})
			bus.Send(hal.Frame{ID: 0x02050085, Len: 8, Data: [8]byte{0, 0, 0, 0x3F}})
			s.AdvanceTo(at + 10*time.Millisecond)
		}
	}
	drive(100 * time.Millisecond)
	if j := truth(t, s, "arm_joint"); j.Voltage == 0 {
		t.Fatal("not driving before the fault")
	}
	_, before, _ := bus.Latest(0x0205B805)
	drive(200 * time.Millisecond)
	if j := truth(t, s, "arm_joint"); j.Voltage != 0 {
		t.Errorf("silenced: %v V", j.Voltage)
	}
	if _, at, _ := bus.Latest(0x0205B805); at != before || at > 100*time.Millisecond {
		t.Errorf("status 0 at %v while silenced (last before %v)", at, before)
	}
	bus.Send(hal.Frame{ID: 0x02052605})
	if _, _, ok := bus.Latest(0x02052605); ok {
		t.Error("answered the version while silenced")
	}
	drive(400 * time.Millisecond)
	if _, at, _ := bus.Latest(0x0205B805); at < 390*time.Millisecond {
		t.Errorf("status 0 last at %v after the fault", at)
	}
	if j := truth(t, s, "arm_joint"); j.Voltage == 0 {
		t.Error("not driving after the fault")
	}
}

// The emulated SPARK acknowledges parameter writes (ids and bytes from
// REV's can-specs for CAN id 5: write 0x02053805, response 0x02053845),
// refuses a parameter it does not have (result 1, Invalid ID), and closes
// a position loop on its rotor with the gains written.
func TestSparkParametersAndOwnLoop(t *testing.T) {
	s := newSim(t, loadRobot(t, sparkURDF, sparkSimYAML), Options{Joints: map[string]JointParams{"arm_joint": {Gearing: 60}}})
	bus, _ := s.CANBus("rio")
	// kP_0 (13) = 0.05: float32 0x3D4CCCCD.
	bus.Send(hal.Frame{ID: 0x02053805, Len: 5, Data: [8]byte{0x0D, 0xCD, 0xCC, 0x4C, 0x3D}})
	if f := latest(t, bus, 0x02053845); f.Len != 7 || f.Data != [8]byte{0x0D, 3, 0xCD, 0xCC, 0x4C, 0x3D, 0} {
		t.Errorf("ack % x (%d bytes), want 0d 03 cd cc 4c 3d 00", f.Data, f.Len)
	}
	bus.Send(hal.Frame{ID: 0x02053805, Len: 5, Data: [8]byte{0xC8, 0, 0, 0x80, 0x3F}}) // parameter 200
	if f := latest(t, bus, 0x02053845); f.Data != [8]byte{0xC8, 3, 0, 0, 0, 0, 1} {
		t.Errorf("unknown parameter's ack % x, want c8 03 00 00 00 00 01", f.Data)
	}
	// Position set point at 0x02050105: 15 rotations of the NEO (float32
	// 0x41700000) = 15 / 60 × 2π = π/2 rad of the arm.
	s.SetDS(enabled)
	for at := 10 * time.Millisecond; at <= 3*time.Second; at += 10 * time.Millisecond {
		bus.Send(hal.Frame{ID: 0x02052C80, Len: 8, Data: [8]byte{0x20}})
		bus.Send(hal.Frame{ID: 0x02050105, Len: 8, Data: [8]byte{0, 0, 0x70, 0x41}})
		s.AdvanceTo(at)
	}
	if j := truth(t, s, "arm_joint"); math.Abs(j.Position-math.Pi/2) > 0.05 {
		t.Errorf("arm at %v rad under the SPARK's own loop, want π/2", j.Position)
	}
}

// RebootCAN reboots the emulated SPARK as a brown-out would: Status 1
// (0x0205B845 for CAN id 5) gains its "has reset" warning, active (byte
// 2) and sticky (byte 5), bit 6: 0x40; the gains written go back to the
// flash's 0, so a position set point no longer moves the arm
// (its loop's output is 0); written again, they do. Its built-in encoder
// counts from 0 again: a set point of 0 then holds the arm where it
// rebooted, at π/2 (before the reboot 0 was the arm's 0).
func TestSparkReboot(t *testing.T) {
	s := newSim(t, loadRobot(t, sparkURDF, sparkSimYAML), Options{Joints: map[string]JointParams{"arm_joint": {Gearing: 60}}})
	bus, _ := s.CANBus("rio")
	s.SetDS(enabled)
	at := time.Duration(0)
	// run sends the heartbeat and a position set point every 10 ms for d:
	// 15 NEO rotations (float32 0x41700000, π/2 rad of the arm), or 0.
	run := func(d time.Duration, rotations15 bool) {
		sp := [8]byte{0, 0, 0x70, 0x41}
		if !rotations15 {
			sp = [8]byte{}
		}
		for end := at + d; at < end; {
			at += 10 * time.Millisecond
			bus.Send(hal.Frame{ID: 0x02052C80, Len: 8, Data: [8]byte{0x20}})
			bus.Send(hal.Frame{ID: 0x02050105, Len: 8, Data: sp})
			s.AdvanceTo(at)
		}
	}
	kP := hal.Frame{ID: 0x02053805, Len: 5, Data: [8]byte{0x0D, 0xCD, 0xCC, 0x4C, 0x3D}} // kP_0 = 0.05
	bus.Send(kP)
	run(3*time.Second, true)
	if j := truth(t, s, "arm_joint"); math.Abs(j.Position-math.Pi/2) > 0.05 {
		t.Fatalf("arm at %v rad before the reboot, want π/2", j.Position)
	}
	if f := latest(t, bus, 0x0205B845); f.Data != [8]byte{} {
		t.Errorf("Status 1 before the reboot % x", f.Data)
	}
	if err := s.RebootCAN("arm_joint"); err != nil {
		t.Fatal(err)
	}
	// 15 rotations off: kP_0 0.05 would give duty 0.75. 260 ms: Status 1
	// comes every 250 ms after a reboot, REV's default.
	run(260*time.Millisecond, false)
	if f := latest(t, bus, 0x0205B845); f.Data != [8]byte{0, 0, 0x40, 0, 0, 0x40} {
		t.Errorf("Status 1 after the reboot % x, want 00 00 40 00 00 40 00 00", f.Data)
	}
	if j := truth(t, s, "arm_joint"); j.Voltage != 0 {
		t.Errorf("%v V on the flash's gains (0)", j.Voltage)
	}
	bus.Send(kP)
	run(3*time.Second, false)
	if j := truth(t, s, "arm_joint"); math.Abs(j.Position-math.Pi/2) > 0.05 {
		t.Errorf("arm at %v rad with kP_0 written again and set point 0 (its encoder restarted at π/2), want π/2", j.Position)
	}
	if err := s.RebootCAN("nothing"); err == nil {
		t.Error("rebooting no device: no error")
	}
}

// `sim: spark_firmware:` sets the emulated SPARKs' firmware major.
func TestSparkFirmwareFromYAML(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want [8]byte
	}{
		{"", [8]byte{26, 1, 0, 5, 0, 2}},
		{"sim: {spark_firmware: \"25\"}\n", [8]byte{25, 0, 0, 4, 0, 2}},
		{"sim: {spark_firmware: \"26\"}\n", [8]byte{26, 1, 0, 5, 0, 2}},
	} {
		r := loadRobot(t, sparkURDF, sparkSimYAML+tc.yaml)
		s := newSim(t, r, ConfigOptions(r.Config, 1, false))
		bus, _ := s.CANBus("rio")
		bus.Send(hal.Frame{ID: 0x02052605, Len: 8, RTR: true})
		if f := latest(t, bus, 0x02052605); f.Data != tc.want {
			t.Errorf("%q: answer % x, want % x", tc.yaml, f.Data, tc.want)
		}
	}
}
