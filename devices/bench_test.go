package devices

import (
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

// BenchmarkDecodeCAN is the second half of the CAN receive path: every
// cycle, the frame-level CAN devices (a PDP, a PCM, a REV PDH and a REV
// PH) take their newest status frames from the bus (fresh each cycle)
// and decode them into their state handles. hal/socketcan's
// BenchmarkReceive is the first half, socket to table. frames/s counts
// the status frames decoded; allocs/op is per cycle of all four devices.
func BenchmarkDecodeCAN(b *testing.B) {
	f, list := config.Parse("bench.yaml", []byte(`joints:
  - {name: pdp, type: pdp, id: 0}
  - {name: compressor, type: compressor}
  - {name: valve, type: solenoid, id: 3}
  - {name: pdh, type: rev_pdh, id: 1}
  - {name: hub, type: rev_ph, id: 1}
  - {name: latch, type: solenoid, id: 15, module_type: rev_ph}
`))
	if list.Errors() > 0 {
		b.Fatal(list)
	}
	hb := haltest.New()
	reg := interfaces.NewRegistry()
	devs, err := Build(f, NewEnv(hb, reg))
	if err != nil {
		b.Fatal(err)
	}
	var ids []uint32
	for _, d := range ExpectedCAN(f) {
		ids = append(ids, d.StatusIDs()...)
	}
	if len(ids) < 10 {
		b.Fatalf("%d status ids, want the PDP's, PCM's, PDH's and PH's", len(ids))
	}
	const dt = 10 * time.Millisecond
	cycle := func(i int) {
		hb.Advance(dt)
		now := hb.Now()
		for k, id := range ids {
			data := pdhStatus0Bytes
			data[7] = byte(i + k)
			hb.Bus.Inject(hal.Frame{ID: id, Len: 8, Data: data}, now)
		}
		for _, d := range devs {
			if err := d.Read(now, dt); err != nil {
				b.Fatal(err)
			}
		}
	}
	cycle(0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		cycle(i)
	}
	b.StopTimer()
	b.ReportMetric(float64(len(ids)*b.N)/b.Elapsed().Seconds(), "frames/s")
	pdh, err := interfaces.State[interfaces.PDPState](reg, "pdh", interfaces.PDP)
	if err != nil || pdh.Current[0] != 10 {
		b.Errorf("the PDH's channel 0 was not decoded: %v %+v", err, pdh)
	}
}
