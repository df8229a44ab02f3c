//go:build linux

package socketcan

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/heartbeat"
)

// wallClock is real time since the test began.
type wallClock struct{ start time.Time }

func (c wallClock) Now() time.Duration { return time.Since(c.start) }

// TestHardware is the on-hardware check of deploy/can.md, run on a robot's
// bus: FRCD_CAN_IFACE=can0 [FRCD_CAN_PDP=0] go test -v -run TestHardware
// ./hal/socketcan. For two seconds it listens, sends the heartbeat (auto:
// not beside a roboRIO) and lists what it heard. Skipped without
// FRCD_CAN_IFACE.
func TestHardware(t *testing.T) {
	iface := os.Getenv("FRCD_CAN_IFACE")
	if iface == "" {
		t.Skip("set FRCD_CAN_IFACE=can0 to run the on-hardware check")
	}
	clock := wallClock{time.Now()}
	bs, err := Open([]string{iface}, clock, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bus, _ := bs.Bus("")
	hb := heartbeat.New(bus, heartbeat.Auto)
	tick := time.NewTicker(10 * time.Millisecond)
	end := time.After(2 * time.Second)
	last := hb.Status()
	t.Logf("%v", last)
loop:
	for {
		select {
		case <-tick.C:
			if err := hb.Tick(clock.Now(), hal.DSState{Attached: true}); err != nil {
				t.Logf("heartbeat: %v", err)
			}
			if st := hb.Status(); st != last {
				t.Logf("%v", st)
				last = st
			}
		case <-end:
			break loop
		}
	}
	tick.Stop()
	begun := time.Now()
	if err := bs.Close(); err != nil {
		t.Error(err)
	}
	t.Logf("Close took %v (at most the receive timeout, %v)", time.Since(begun), defaultRecvTimeout)

	st, e := bus.Stats(), bus.Errors()
	sent, failed, lastErr := hb.Counts()
	t.Logf("stats: %+v", st)
	t.Logf("errors: %+v", e)
	t.Logf("heartbeats sent %d, failed %d (%v)", sent, failed, lastErr)
	for _, h := range bus.Heard(nil) {
		typ, mfr, api, dev := frc.SplitFRCID(h.ID)
		t.Logf("heard %#08x: %s, %s, API %#x, device %d: %d frames, %.0f/s", h.ID,
			frc.DeviceTypeName(typ), frc.ManufacturerName(mfr), api, dev, h.Count, float64(h.Count)/2)
	}
	if st.RxFrames == 0 {
		t.Error("nothing heard: is a device powered and wired to the adapter, the bus terminated (120 ohm at each end), the bit rate 1000000?")
	}
	if e.State == BusOff {
		t.Error("the controller is bus-off: wiring, termination or bit rate")
	}
	if last.State == heartbeat.Sending && failed > 0 {
		t.Errorf("%d heartbeats failed: %v", failed, lastErr)
	}
	if s := os.Getenv("FRCD_CAN_PDP"); s != "" {
		id, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("FRCD_CAN_PDP=%q: %v", s, err)
		}
		for _, base := range []uint32{0x08041400, 0x08041440, 0x08041480, 0x08041740} {
			if _, at, ok := bus.Latest(base + uint32(id)); !ok {
				t.Errorf("no PDP frame %#08x", base+uint32(id))
			} else {
				t.Logf("PDP frame %#08x last at %v", base+uint32(id), at)
			}
		}
	}
}
