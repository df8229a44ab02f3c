// The heartbeat shared by one bus's SPARKs: the frame that enables them.

package devices

import (
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// sparkHeartbeat is the heartbeat of one bus's SPARKs (shared, one per
// bus): a frame to device 0 whose 64-bit little-endian payload has bit n
// set for each SPARK n to enable. The SPARKs set their bits in their
// Write; its own Write, after theirs, sends the mask on change and every
// sparkHeartbeatPeriod, then clears it for the next cycle. Halt sends an
// empty mask: every SPARK on the bus disabled.
type sparkHeartbeat struct {
	name       string
	can        hal.CANBus
	mask, last uint64
	sent       bool
	sentAt     time.Duration
	wErr       opError
}

var _ Device = (*sparkHeartbeat)(nil)

func sparkHeartbeatOn(env *Env, bus string, can hal.CANBus) (*sparkHeartbeat, error) {
	d, err := env.Shared("rev-spark-heartbeat/"+bus, func() (Device, error) {
		name := "REV SPARK heartbeat"
		if bus != "" {
			name += " on " + bus
		}
		return &sparkHeartbeat{name: name, can: can, wErr: opError{op: name + ": send"}}, nil
	})
	if err != nil {
		return nil, err
	}
	return d.(*sparkHeartbeat), nil
}

func (h *sparkHeartbeat) enable(n int) { h.mask |= 1 << uint(n&63) }

func (h *sparkHeartbeat) Name() string { return h.name }

func (h *sparkHeartbeat) Read(now, dt time.Duration) error { return nil }

func (h *sparkHeartbeat) Write(now, dt time.Duration) error {
	m := h.mask
	h.mask = 0
	if h.sent && m == h.last && now-h.sentAt < sparkHeartbeatPeriod {
		return nil
	}
	return h.send(m, now)
}

func (h *sparkHeartbeat) send(m uint64, now time.Duration) error {
	f := hal.Frame{ID: frc.SparkID(frc.SparkAPIHeartbeat, 0), Len: 8}
	for i := range f.Data {
		f.Data[i] = byte(m >> (8 * i))
	}
	h.last, h.sent, h.sentAt = m, true, now
	return h.wErr.wrap(h.can.Send(f))
}

func (h *sparkHeartbeat) Halt() error {
	h.mask = 0
	return h.send(0, h.sentAt)
}
