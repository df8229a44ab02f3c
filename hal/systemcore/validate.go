package systemcore

import (
	"strconv"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/diag"
)

// CheckChannels adds a finding for every PWM, DIO or analog input channel
// of f that Systemcore lacks (it has SmartIO channels 0-5 only) and for
// every SmartIO channel two devices use (PWM 2 and DIO 2 are one channel
// on Systemcore, two on a roboRIO). `frcd validate --hal systemcore`
// calls it; running the file, the backend refuses the same channels.
func CheckChannels(f *config.File, list *diag.List) {
	used := map[int]string{}
	for _, d := range f.Devices {
		if d.Type == nil {
			continue
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
