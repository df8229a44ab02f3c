package sim

import (
	"errors"
	"github.com/frcd/frcd/frc"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
)

func revRobot(t testing.TB) *robot.Robot {
	t.Helper()
	return example(t, "rev")
}

// A PDH decoder written from allwpilib's PDHFrames alone.
func pdhTen(b []byte) [3]float64 {
	return [3]float64{
		float64(int(b[0])|int(b[1]&3)<<8) * 0.125,
		float64(int(b[1])>>2|int(b[2]&0xF)<<6) * 0.125,
		float64(int(b[2])>>4|int(b[3]&0x3F)<<4) * 0.125,
	}
}

func latest(t *testing.T, bus hal.CANBus, id uint32) hal.Frame {
	t.Helper()
	f, _, ok := bus.Latest(id)
	if !ok {
		t.Fatalf("no frame %#08x", id)
	}
	return f
}

// The emulated PDH reports its channels' currents from the plants, the
// terminal voltage, the battery's current and its switchable channel;
// the emulated PH drives the same pneumatic plant as a PCM from SetAll
// and runs its compressor on the digital switch from CompressorConfig.
func TestPDHAndPH(t *testing.T) {
	s := newSim(t, revRobot(t), Options{Pressure: 90})
	s.SetDS(enabled)
	arm, err := s.OpenCANMotorOn("can1", frc.TalonSRX, 1)
	if err != nil {
		t.Fatal(err)
	}
	bus := s.CAN()
	setAll := hal.Frame{ID: 0x09050C01, Len: 4, Data: [8]byte{3: 0x40}} // channel 15 on: the latch
	for now := time.Duration(0); now < 200*time.Millisecond; now += 10 * time.Millisecond {
		if err := arm.SetDuty(0.5); err != nil {
			t.Fatal(err)
		}
		if err := bus.Send(setAll); err != nil {
			t.Fatal(err)
		}
		if now == 0 {
			bus.Send(hal.Frame{ID: 0x09050841, Len: 5, Data: [8]byte{4: 0x02}}) // digital closed loop
			bus.Send(hal.Frame{ID: 0x08050841, Len: 1, Data: [8]byte{0x01}})    // the switchable channel on
		}
		s.AdvanceTo(now + 10*time.Millisecond)
	}
	tr, _ := s.Joint("arm_joint")
	v, amps := s.Battery()
	var ch [24]float64
	for k := 0; k < 3; k++ {
		f := latest(t, bus, uint32(0x08051801+0x40*k))
		a, b := pdhTen(f.Data[0:4]), pdhTen(f.Data[4:8])
		copy(ch[6*k:], a[:])
		copy(ch[6*k+3:], b[:])
	}
	f3 := latest(t, bus, 0x080518C1)
	f4 := latest(t, bus, 0x08051901)
	volts := float64(int(f4.Data[0])|int(f4.Data[1]&0xF)<<8) * 0.0078125
	if !near(ch[4], math.Abs(tr.Current), 0.0625+1e-9) || tr.Current == 0 || f3.Len != 8 || f4.Len != 8 {
		t.Errorf("PDH channel 4 %v A, arm current %v A", ch[4], tr.Current)
	}
	if !near(volts, v, 0.0078125) || !near(float64(f4.Data[4])*2, amps, 1) || f4.Data[2]&0x10 == 0 || !s.PDHSwitch("", 1) {
		t.Errorf("PDH Status4 %x: %v V (battery %v), total %v A (battery %v), switch %v", f4.Data, volts, v, float64(f4.Data[4])*2, amps, f4.Data[2]&0x10 != 0)
	}
	latch, _ := s.Joint("latch_joint")
	out, comp, psi, ok := s.Pneumatics("", config.ModuleREVPH, 1)
	s0 := latest(t, bus, 0x09051801)
	s1 := latest(t, bus, 0x09051841)
	if !ok || out != 1<<15 || !comp || !near(latch.Position, 0.02*0.19/0.25, 0.001) || psi <= 90-strokePSI || psi >= 91 {
		t.Errorf("PH: outputs %x, compressor %v, %v psi, latch at %v", out, comp, psi, latch.Position)
	}
	if s0.Data[1] != 0x80 || s0.Data[7]&0x01 == 0 || (s0.Data[7]>>3)&3 != 1 || s0.Data[4]&1 != 0 || float64(s1.Data[4])*0.125 != compressorA {
		t.Errorf("PH status %x %x", s0.Data, s1.Data)
	}
	// Disabled: outputs and compressor off, though the config stays.
	s.SetDS(hal.DSState{Attached: true})
	s.AdvanceTo(220 * time.Millisecond)
	if out, comp, _, _ := s.Pneumatics("", config.ModuleREVPH, 1); out != 0 || comp {
		t.Errorf("disabled: outputs %x, compressor %v", out, comp)
	}
}

// The sim's buses hear every frame: the ids their devices send with
// counts and times, frames both ways, and the load over the last second
// from each frame's exact bit time.
func TestCANMonitor(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	mon := s.CAN().(hal.CANMonitor)
	s.AdvanceTo(time.Second)
	heard := mon.Heard(nil)
	byID := map[uint32]hal.Heard{}
	var rx uint64
	for i, h := range heard {
		if i > 0 && heard[i-1].ID >= h.ID {
			t.Errorf("Heard not in id order at %d", i)
		}
		byID[h.ID] = h
		rx += h.Count
	}
	for _, c := range []struct {
		id    uint32
		count uint64
	}{
		{0x08041400, 51}, {0x08041740, 51}, {0x09041400, 51}, // the PDP and PCM every 20 ms from 0
		{0x02041401, 101}, {0x02041441, 51}, {0x020414C1, 7}, // the Talon SRX's STATUS_1, 2 and 4: 10, 20, 160 ms
		{0x02041402, 101}, // the Victor SPX's STATUS_1
	} {
		if h := byID[c.id]; h.Count != c.count || h.Last > time.Second || h.Last < time.Second-160*time.Millisecond {
			t.Errorf("%#08x: heard %+v, want %d frames", c.id, h, c.count)
		}
	}
	if _, ok := byID[0x15042200]; ok {
		t.Error("the Pigeon on the Talon sends frames of its own")
	}
	st := mon.Stats()
	if st.RxFrames != rx || st.TxFrames != 0 || st.ErrorFrames != 0 {
		t.Errorf("stats %+v, heard %d frames", st, rx)
	}
	// The load counts the frames of the last second (not those at 0): each
	// between its unstuffed and its worst stuffed length.
	var lo, hi float64
	for _, h := range heard {
		f, _, _ := s.CAN().Latest(h.ID)
		n := float64(h.Count - 1)
		lo += n * float64(64+8*int(f.Len)+13-1)
		hi += n * float64(hal.WorstFrameBits(int(f.Len)))
	}
	if st.Load*hal.CANBitRate < lo || st.Load*hal.CANBitRate > hi || st.Load > 0.5 {
		t.Errorf("load %.4f, want %.4f-%.4f", st.Load, lo/hal.CANBitRate, hi/hal.CANBitRate)
	}
	t.Logf("competition robot, default bus: load %.1f %%, %d ids, %d frames/s", 100*st.Load, len(heard), rx-uint64(len(heard)))
	// A frame sent counts once, exactly its bit time, until it is a second old.
	f := hal.Frame{ID: 0x1ABCDEF, Len: 3, Data: [8]byte{1, 2, 3}}
	if err := s.CAN().Send(f); err != nil {
		t.Fatal(err)
	}
	st2 := mon.Stats()
	if st2.TxFrames != 1 || math.Abs((st2.Load-st.Load)*hal.CANBitRate-float64(hal.FrameBits(f))) > 1e-6 {
		t.Errorf("after one frame: %+v, load +%v bits, want %d", st2, (st2.Load-st.Load)*hal.CANBitRate, hal.FrameBits(f))
	}
	// Three seconds on, only the periodic frames remain: the same load.
	s.AdvanceTo(3 * time.Second)
	l3 := mon.Stats().Load
	s.AdvanceTo(4 * time.Second)
	if l4 := mon.Stats().Load; math.Abs(l4-l3) > 0.01 || l4 == 0 {
		t.Errorf("steady load %v then %v", l3, l4)
	}
}

// Every name a device uses is a bus of its own: the same ids on two
// buses are two devices, each bus hears only its own.
func TestNamedBuses(t *testing.T) {
	s := newSim(t, revRobot(t), Options{})
	c1, err := s.CANBus("can1")
	if err != nil {
		t.Fatal(err)
	}
	s.AdvanceTo(100 * time.Millisecond)
	ids := func(b hal.CANBus) map[uint32]bool {
		m := map[uint32]bool{}
		for _, h := range b.(hal.CANMonitor).Heard(nil) {
			m[h.ID] = true
		}
		return m
	}
	def, one := ids(s.CAN()), ids(c1)
	// STATUS_1 of id 1: the Victor SPX on the default bus, the Talon SRX on can1.
	if !def[0x02041401] || !one[0x02041401] || !one[0x15042203] || def[0x15042203] || one[0x08051801] || !def[0x08051801] {
		t.Errorf("default bus %v, can1 %v", def, one)
	}
	if got := s.CANBuses(); len(got) != 2 || got[0] != "" || got[1] != "can1" {
		t.Errorf("buses %q", got)
	}
	// Motor controllers open on their bus; the other bus has none there.
	if _, err := s.OpenCANMotorOn("can1", frc.TalonSRX, 1); err != nil {
		t.Errorf("the Talon on can1: %v", err)
	}
	if _, err := s.OpenCANMotorOn("", frc.TalonSRX, 1); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("a Talon on the default bus's Victor id: %v", err)
	}
	if _, err := s.OpenPigeonOn("can1", 3, -1); err != nil {
		t.Errorf("the Pigeon on can1: %v", err)
	}
	// A name no device uses is an empty bus.
	b, _ := s.CANBus("can7")
	if h := b.(hal.CANMonitor).Heard(nil); len(h) != 0 {
		t.Errorf("can7 heard %v", h)
	}
}

// A silent device sends nothing and hears nothing, on schedule or by
// SetCANSilent; unknown names and bad times are refused.
func TestCANSilence(t *testing.T) {
	s := newSim(t, revRobot(t), Options{CANFaults: []CANFault{{Device: "shooter_joint", From: 0.05, Until: 0.1}}})
	s.SetDS(enabled)
	m, _ := s.OpenCANMotor(frc.VictorSPX, 1)
	c1, _ := s.CANBus("can1")
	p, _ := s.OpenPigeonOn("can1", 3, -1)
	if err := s.SetCANSilent("pigeon", true); err != nil {
		t.Fatal(err)
	}
	s.AdvanceTo(60 * time.Millisecond)
	if _, err := m.Status(); !errors.Is(err, hal.ErrTimeout) || !s.CANSilent("shooter_joint") {
		t.Errorf("silent Victor: %v", err)
	}
	m.SetDuty(1) // lost
	if s.CANMotorDuty(1) != 0 {
		t.Error("a silent Victor heard SetDuty")
	}
	if _, at, _ := s.CAN().Latest(0x02041401); at != 40*time.Millisecond {
		t.Errorf("the Victor's last STATUS_1 at %v, want 40 ms (silent from 50)", at)
	}
	if _, _, _, err := p.Read(); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("silent Pigeon: %v", err)
	}
	if _, at, ok := c1.Latest(0x15042203); !ok || at != 0 {
		t.Errorf("the Pigeon silenced after New sent at %v (want its first frame, at 0, only)", at)
	}
	s.AdvanceTo(110 * time.Millisecond)
	if _, err := m.Status(); err != nil || s.CANSilent("shooter_joint") {
		t.Errorf("after the fault: %v", err)
	}
	if err := s.SetCANSilent("arm_encoder", true); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("silencing an encoder: %v", err)
	}
	for _, f := range []CANFault{{Device: "nope"}, {Device: "pdh", From: -1}, {Device: "pdh", From: 2, Until: 1}, {Device: "pdh", From: math.NaN()}} {
		if _, err := New(revRobot(t), Options{CANFaults: []CANFault{f}}); err == nil {
			t.Errorf("%+v accepted", f)
		}
	}
}

// The REV robot's sim, its monitors and its silences do not allocate in
// steady state.
func TestREVNoAllocations(t *testing.T) {
	s := newSim(t, revRobot(t), Options{})
	s.SetDS(enabled)
	c1, _ := s.CANBus("can1")
	mon := c1.(hal.CANMonitor)
	dst := make([]hal.Heard, 0, 64)
	now := time.Duration(0)
	allocs := testing.AllocsPerRun(200, func() {
		now += 10 * time.Millisecond
		s.AdvanceTo(now)
		s.CAN().Send(hal.Frame{ID: 0x09050C01, Len: 4})
		dst = mon.Heard(dst[:0])
		_ = mon.Stats()
	})
	if allocs != 0 {
		t.Errorf("%v allocs per step", allocs)
	}
}
