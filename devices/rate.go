package devices

import "time"

// rateWindow is the shortest span a rate is estimated over: long enough
// that a coarse encoder read at 1 kHz, which moves one count every few
// cycles, reads a steady rate rather than zero and spikes; short enough
// that the rate lags the motion by only about half of it (10 ms).
const rateWindow = 20 * time.Millisecond

// rateSamples is the ring's size: it covers rateWindow at up to 3.2 kHz.
const rateSamples = 64

// rateEstimator estimates the rate of change of a sampled value as the
// difference between the newest sample and the newest one at least
// rateWindow older, over their time apart. Until the ring spans the window
// it uses its oldest sample. It keeps a fixed ring: no allocation.
type rateEstimator struct {
	t    [rateSamples]time.Duration
	x    [rateSamples]float64
	head int // index of the newest sample
	n    int // samples held
	rate float64
}

// update adds the sample x taken at now and returns the rate, in x's unit
// per second. A sample no newer than the last is not added (the last rate
// is returned); time going backwards restarts the estimate.
func (r *rateEstimator) update(now time.Duration, x float64) float64 {
	if r.n > 0 {
		last := r.t[r.head]
		if now == last {
			return r.rate
		}
		if now < last {
			r.reset()
		}
	}
	r.head = (r.head + 1) % rateSamples
	r.t[r.head], r.x[r.head] = now, x
	if r.n < rateSamples {
		r.n++
	}
	if r.n == 1 {
		r.rate = 0
		return 0
	}
	// Walk back from the newest to the first sample old enough, else the oldest.
	j := r.head
	for k := 1; k < r.n; k++ {
		j = (r.head - k + rateSamples) % rateSamples
		if now-r.t[j] >= rateWindow {
			break
		}
	}
	r.rate = (x - r.x[j]) / (now - r.t[j]).Seconds()
	return r.rate
}

// reset forgets every sample.
func (r *rateEstimator) reset() { r.n, r.rate = 0, 0 }
