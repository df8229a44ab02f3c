package sim

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"slices"
	"sort"
	"time"

	"github.com/frcd/frcd/hal"
)

// Gauss is a normal distribution: mean Mu, standard deviation Sigma.
type Gauss struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// SensorFault is the fault model of one sensor (Veranda's): the package
// doc's "Faults" says what each field does to each kind of sensor. The
// zero value is a healthy sensor.
type SensorFault struct {
	// Noise is added to each reading, in the units the sensor measures:
	// the joint's rad or m for an encoder or analog input (before counts
	// or volts), rad of yaw for an IMU.
	Noise Gauss `json:"noise"`
	// Drift is a random walk added to the readings, per second: after t
	// seconds its mean is Mu × t and its deviation Sigma × √t. It
	// accumulates with sim time, whether or not anything reads.
	Drift Gauss `json:"drift"`
	// Dropout is the probability, 0 to 1, that one reading is lost.
	Dropout float64 `json:"dropout"`
	// Stuck freezes the reading at its value when the fault begins.
	Stuck bool `json:"stuck"`
	// Disconnected is a pulled cable.
	Disconnected bool `json:"disconnected"`
	// FaultAt is the sim time, s, when Stuck or Disconnected begins.
	FaultAt float64 `json:"fault_at"`
}

// sensorKind is what a YAML sensor is, for its faults.
type sensorKind uint8

const (
	sensorEncoder sensorKind = iota
	sensorAnalog
	sensorDigital
	sensorNavX
	sensorPigeon
)

// sensorRef is one YAML sensor the sim emulates; exactly one field is set.
type sensorRef struct {
	enc *encoderSensor
	an  *analogSensor
	dig *digitalSensor
	imu *imuDev
}

func (r sensorRef) kind() sensorKind {
	switch {
	case r.enc != nil:
		return sensorEncoder
	case r.an != nil:
		return sensorAnalog
	case r.dig != nil:
		return sensorDigital
	case r.imu.nav != nil:
		return sensorNavX
	}
	return sensorPigeon
}

// fault is a sensor's fault model with its state. Its parameters never
// change: SetFault replaces the whole fault (keeping the drift and the
// random streams).
type fault struct {
	p   SensorFault
	ref sensorRef
	at  time.Duration // when Stuck or Disconnected begins

	drift float64 // the random walk so far
	// Each sensor draws from streams of its own, seeded from Options.Seed
	// and its name: how often one sensor is read changes no other draw,
	// and the drift never depends on the reads.
	driftRng, readRng *rand.Rand

	begun bool // Stuck or Disconnected has begun
	// What the reading froze at when it began: the measured position
	// (encoder, analog input), level (digital input) or motion (IMU).
	q     float64
	level bool
	imu   IMU
}

// faulty reports whether a Stuck or Disconnected fault has begun.
func (f *fault) faulty() bool { return f != nil && f.begun }

// dropped draws whether this read is lost.
func (f *fault) dropped() bool { return f.p.Dropout > 0 && f.readRng.Float64() < f.p.Dropout }

// noise draws one sample of the noise.
func (f *fault) noise() float64 {
	if f.p.Noise.Sigma == 0 {
		return f.p.Noise.Mu
	}
	return f.p.Noise.Mu + f.p.Noise.Sigma*f.readRng.NormFloat64()
}

// advance adds h seconds of drift.
func (f *fault) advance(h float64) {
	d := &f.p.Drift
	switch {
	case d.Sigma > 0:
		f.drift += d.Mu*h + d.Sigma*math.Sqrt(h)*f.driftRng.NormFloat64()
	case d.Mu != 0:
		f.drift += d.Mu * h
	}
}

// begin latches what the reading freezes at, without noise.
func (f *fault) begin() {
	f.begun = true
	switch r := f.ref; {
	case r.enc != nil:
		f.q = r.enc.q() + f.drift
	case r.an != nil:
		f.q = r.an.q() + f.drift
	case r.dig != nil:
		f.level = r.dig.level()
	default:
		f.imu = f.imuReading(r.imu.motion(), false)
	}
}

// imuReading is the motion m as the faulty IMU reports it: its yaw off by
// the drift (and a noise sample when noisy), and its z rate off by the
// drift's mean rate (the gyro bias that makes the yaw drift) and, when
// noisy, by a noise sample of deviation Noise.Sigma in rad/s.
func (f *fault) imuReading(m IMU, noisy bool) IMU {
	e, rate := f.drift, f.p.Drift.Mu
	if noisy {
		e += f.noise()
		if f.p.Noise.Sigma > 0 {
			rate += f.p.Noise.Sigma * f.readRng.NormFloat64()
		}
	}
	m.Orientation = yawed(m.Orientation, e)
	m.AngularVelocity[2] += rate
	return m
}

// yawed is the unit quaternion q (w, x, y, z; zero is the identity) turned
// by e rad about the world's z axis.
func yawed(q [4]float64, e float64) [4]float64 {
	if q == [4]float64{} {
		q[0] = 1
	}
	if e == 0 {
		return q
	}
	c, s := math.Cos(e/2), math.Sin(e/2)
	// (c, 0, 0, s) ⊗ q
	return [4]float64{c*q[0] - s*q[3], c*q[1] - s*q[2], c*q[2] + s*q[1], c*q[3] + s*q[0]}
}

// streamSeed derives the seed of one random stream from the Sim's seed.
func streamSeed(seed int64, what, name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(what))
	h.Write([]byte{0})
	h.Write([]byte(name))
	return seed*0x5851f42d4c957f2d ^ int64(h.Sum64())
}

func newStream(seed int64, what, name string) *rand.Rand {
	return rand.New(rand.NewSource(streamSeed(seed, what, name)))
}

// errPigeonTimeout is what a Pigeon that sends no frame gives.
var errPigeonTimeout = fmt.Errorf("sim: Pigeon: no status frame: %w", hal.ErrTimeout)

// checkFault refuses a fault that does not fit the sensor or is not made
// of finite numbers in range.
func checkFault(name string, k sensorKind, f SensorFault) error {
	finite := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
		return true
	}
	switch {
	case !finite(f.Noise.Mu, f.Noise.Sigma, f.Drift.Mu, f.Drift.Sigma, f.Dropout, f.FaultAt):
		return fmt.Errorf("sim: sensor %q: fault %+v: values must be finite numbers", name, f)
	case f.Noise.Sigma < 0 || f.Drift.Sigma < 0:
		return fmt.Errorf("sim: sensor %q: sigma must not be negative", name)
	case f.Dropout < 0 || f.Dropout > 1:
		return fmt.Errorf("sim: sensor %q: dropout %v is not a probability (0 to 1)", name, f.Dropout)
	case f.FaultAt < 0:
		return fmt.Errorf("sim: sensor %q: fault_at %v s is negative", name, f.FaultAt)
	case k == sensorDigital && (f.Noise != Gauss{} || f.Drift != Gauss{}):
		return fmt.Errorf("sim: sensor %q: a digital input is on or off: noise and drift do not apply (dropout, stuck and disconnected do)", name)
	}
	return nil
}

// SetFault sets the fault model of the YAML sensor of that name (an
// encoder, analog_input, digital_input, navx or pigeon_imu); the zero
// SensorFault makes it healthy again. A new model keeps the drift
// accumulated so far. Stuck and Disconnected begin at FaultAt, or now if
// that has passed.
func (s *Sim) SetFault(name string, f SensorFault) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.setFault(name, f)
}

func (s *Sim) setFault(name string, p SensorFault) error {
	ref, ok := s.sensors[name]
	if !ok {
		return fmt.Errorf("sim: no encoder, analog_input, digital_input, navx or pigeon_imu named %q: %w", name, hal.ErrNoDevice)
	}
	if err := checkFault(name, ref.kind(), p); err != nil {
		return err
	}
	old := s.faults[name]
	var f *fault
	if p != (SensorFault{}) {
		f = &fault{p: p, ref: ref, at: time.Duration(p.FaultAt * float64(time.Second))}
		if old != nil {
			f.drift, f.driftRng, f.readRng = old.drift, old.driftRng, old.readRng
		} else {
			f.driftRng, f.readRng = newStream(s.opts.Seed, "drift", name), newStream(s.opts.Seed, "read", name)
		}
		if (p.Stuck || p.Disconnected) && s.t >= f.at {
			f.begin()
		}
	}
	switch {
	case ref.enc != nil:
		ref.enc.f = f
	case ref.an != nil:
		ref.an.f = f
	case ref.dig != nil:
		ref.dig.f = f
	default:
		ref.imu.f = f
		if n := ref.imu.nav; n != nil {
			n.mu.Lock()
			n.fault = f
			n.mu.Unlock()
		}
	}
	if i := slices.Index(s.faultList, old); old != nil && i >= 0 {
		s.faultList = slices.Delete(s.faultList, i, i+1)
	}
	delete(s.faults, name)
	if f != nil {
		s.faults[name] = f
		s.faultList = append(s.faultList, f)
	}
	return nil
}

// Faults returns the fault models set, by sensor name.
func (s *Sim) Faults() map[string]SensorFault {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]SensorFault, len(s.faults))
	for n, f := range s.faults {
		out[n] = f.p
	}
	return out
}

// setFaults applies Options.Faults: the YAML's devices in file order, then
// names of no device, sorted, which fail.
func (s *Sim) setFaults(faults map[string]SensorFault) error {
	var errs []error
	var unknown []string
	for _, d := range s.r.Config.Devices {
		if f, ok := faults[d.Name]; ok {
			errs = append(errs, s.setFault(d.Name, f))
		}
	}
	for n := range faults {
		if s.r.Config.Device(n) == nil {
			unknown = append(unknown, n)
		}
	}
	sort.Strings(unknown)
	for _, n := range unknown {
		errs = append(errs, s.setFault(n, faults[n]))
	}
	return errors.Join(errs...)
}

// advanceFaults accumulates h seconds of drift and begins the faults due
// by the time now.
func (s *Sim) advanceFaults(h float64, now time.Duration) {
	for _, f := range s.faultList {
		f.advance(h)
		if !f.begun && (f.p.Stuck || f.p.Disconnected) && now >= f.at {
			f.begin()
		}
	}
}
