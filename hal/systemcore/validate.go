package systemcore

import (
	"strconv"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/diag"
)

// CheckChannels adds a finding for every PWM, DIO or analog input channel
// of f that Systemcore lacks (it has SmartIO channels 0-5 only), for every
// SmartIO channel two devices use (PWM 2 and DIO 2 are one channel on
// Systemcore, two on a roboRIO) and for every quadrature pair (a device's
// DIO keys ch_a and ch_b) that is not one of the pairs WPILib's 2027 HAL
// counts on (0/1, 2/3, 4/5: Encoder.cpp IsValidChannelPair, either way
// round). `frcd validate --hal systemcore` calls it; running the file, the
// backend refuses the same channels.
func CheckChannels(f *config.File, list *diag.List) {
	used := map[int]string{}
	for _, d := range f.Devices {
		if d.Type == nil {
			continue
		}
		if d.Has("ch_a") && d.Has("ch_b") {
			a, b := d.Int("ch_a"), d.Int("ch_b")
			if lo := min(a, b); lo < 0 || lo%2 != 0 || max(a, b) != lo+1 || lo+1 >= NumSmartIO {
				list.Warnf(d.ValuePos("ch_a"), "%s: ch_a: DIO %d and %d: Systemcore counts quadrature on SmartIO channel pairs 0/1, 2/3, 4/5 only (WPILib's 2027 Encoder.cpp)",
					d, a, b)
			}
		}
		for _, k := range d.Type.Keys {
			switch k.Resource {
			case config.PWM, config.DIO, config.AnalogIn:
			default:
				continue
			}
			if !d.Has(k.Name) {
				continue
			}
			n, pos := d.Int(k.Name), d.ValuePos(k.Name)
			what := k.Resource.String() + " " + strconv.Itoa(n)
			if n < 0 || n >= NumSmartIO {
				list.Warnf(pos, "%s: %s: %s: Systemcore has SmartIO channels 0-%d only (WPILib's kNumSmartIo = %d), shared by PWM, DIO and analog inputs",
					d, k.Name, what, NumSmartIO-1, NumSmartIO)
				continue
			}
			if other, ok := used[n]; ok {
				list.Warnf(pos, "%s: %s: %s is SmartIO channel %d, which %s already uses: on Systemcore PWM, DIO and analog inputs share its six channels, one use each",
					d, k.Name, what, n, other)
				continue
			}
			used[n] = d.Name + "'s " + k.Name
		}
	}
}
