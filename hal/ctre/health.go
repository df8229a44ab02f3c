//go:build (ctre || roborio) && cgo

// A Phoenix 6 device's health: its temperature, supply and faults, read
// through signals of its own apart from the loop's (phoenix6.Healthy).

package ctre

import (
	"math"
	"sync"

	"github.com/frcd/frcd/hal/phoenix6"
)

// health reads a Phoenix 6 device's health signals (phoenix6.Healthy): its
// temperature and supply, its fault fields and the named faults, through
// C arrays of its own, apart from the loop's reads, under a lock (the
// diagnostics goroutine calls it).
type health struct {
	mu    *sync.Mutex
	d     *p6Dev
	temp  bool // the first signal is a temperature
	named []phoenix6.Fault
	vals  []float64
}

// namedFault is a named fault and the SPN of its signal.
type namedFault struct {
	f   phoenix6.Fault
	spn int
}

// The named faults every Phoenix 6 device has.
var commonFaults = []namedFault{{phoenix6.Hardware, spnFaultHardware}, {phoenix6.DeviceTemp, spnFaultDeviceTemp},
	{phoenix6.Undervoltage, spnFaultUndervoltage}, {phoenix6.BootDuringEnable, spnFaultBootDuringEnable}}

// openHealth opens the health signals of a device: temp's SPN (-1: none),
// supply's, AllFaults, AllStickyFaults, then its own named faults and the
// common ones.
func openHealth(dev *p6Dev, temp, supply int, own ...namedFault) health {
	h := health{mu: new(sync.Mutex), temp: temp >= 0}
	var spns []int
	if h.temp {
		spns = append(spns, temp)
	}
	spns = append(spns, supply, spnAllFaults, spnAllStickyFaults)
	for _, nf := range append(own, commonFaults...) {
		h.named = append(h.named, nf.f)
		spns = append(spns, nf.spn)
	}
	h.d, h.vals = dev.signals(spns), make([]float64, len(spns))
	return h
}

// Health reads the device's health signals.
func (h *health) Health() (phoenix6.Health, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.d.read(h.vals); err != nil {
		return phoenix6.Health{}, err
	}
	v := h.vals
	r := phoenix6.Health{TempC: math.NaN()}
	if h.temp {
		r.TempC, v = v[0], v[1:]
	}
	r.SupplyV, r.Faults, r.StickyFaults = v[0], uint32(v[1]), uint32(v[2])
	for i, f := range h.named {
		if v[3+i] != 0 {
			r.Active |= f
		}
	}
	return r, nil
}
