package sim

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
)

// competitionWith is the competition robot with one YAML line replaced.
func competitionWith(t testing.TB, old, new string) *robot.Robot {
	t.Helper()
	u, err := os.ReadFile("../examples/competition/robot.urdf")
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile("../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(y), old) {
		t.Fatalf("the competition robot has no %q", old)
	}
	return loadRobot(t, string(u), strings.Replace(string(y), old, new, 1))
}

// meanSD is the sample mean and standard deviation.
func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// checkStats checks a sample's mean and deviation against a normal
// distribution's: the mean within 5 standard errors (σ/√n) plus slack
// (a quantum), the deviation within 5 of its standard errors (σ/√(2n)).
func checkStats(t *testing.T, what string, xs []float64, mu, sigma, slack float64) {
	t.Helper()
	n := float64(len(xs))
	m, sd := meanSD(xs)
	if d := math.Abs(m - mu); d > 5*sigma/math.Sqrt(n)+slack {
		t.Errorf("%s: mean %.6g, want %.6g ± %.3g", what, m, mu, 5*sigma/math.Sqrt(n)+slack)
	}
	if d := math.Abs(sd - sigma); d > 5*sigma/math.Sqrt(2*n)+slack {
		t.Errorf("%s: deviation %.6g, want %.6g ± %.3g", what, sd, sigma, 5*sigma/math.Sqrt(2*n)+slack)
	}
}

// within checks that k successes in n trials fit probability p: within 5
// binomial standard deviations.
func within(t *testing.T, what string, k, n int, p float64) {
	t.Helper()
	if d := math.Abs(float64(k) - float64(n)*p); d > 5*math.Sqrt(float64(n)*p*(1-p)) {
		t.Errorf("%s: %d of %d, want %v ± %.0f", what, k, n, float64(n)*p, 5*math.Sqrt(float64(n)*p*(1-p)))
	}
}

func mustOK[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// yawOf is the yaw, rad, of a unit quaternion w, x, y, z.
func yawOf(q [4]float64) float64 {
	return math.Atan2(2*(q[0]*q[3]+q[1]*q[2]), 1-2*(q[2]*q[2]+q[3]*q[3]))
}

func TestNoiseStatistics(t *testing.T) {
	const n = 20000
	s := bench(t, Options{Seed: 1, Faults: map[string]SensorFault{
		"enc_c":   {Noise: Gauss{Mu: 0.05, Sigma: 0.1}},
		"arm_pot": {Noise: Gauss{Mu: -0.02, Sigma: 0.04}},
		"range":   {Noise: Gauss{Mu: 0.3, Sigma: 0.2}},
	}})
	enc := mustOK[hal.Encoder](t)(s.OpenEncoder(4, 5, hal.X4))
	pot := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(0, 7, 0))
	rng := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(3, 0, 0))
	s.SetJoint("spin", 10, 0)
	s.SetJoint("arm", 0.3, 0)
	s.SetSensor("range", 2)
	var e, p, r []float64
	for range n {
		c, _ := enc.Count()
		e = append(e, float64(c)*0.01/4)
		v, _ := pot.Voltage()
		p = append(p, v/5*2-1)
		v, _ = rng.Voltage()
		r = append(r, v/5*5.12)
	}
	// The encoder truncates to 0.0025 rad counts: that much slack.
	checkStats(t, "encoder at 10 rad", e, 10.05, 0.1, 0.0025)
	checkStats(t, "pot at 0.3 rad", p, 0.28, 0.04, 1e-12)
	checkStats(t, "range at 2 m", r, 2.3, 0.2, 1e-12)

	// Noise with sigma 0 and mean m shifts every reading by exactly m (to
	// the count quantum for an encoder).
	s = bench(t, Options{Faults: map[string]SensorFault{"enc_a": {Noise: Gauss{Mu: 0.123}}, "arm_pot": {Noise: Gauss{Mu: 0.25}}}})
	a := mustOK[hal.Encoder](t)(s.OpenEncoder(0, 1, hal.X1))
	pot = mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(0, 7, 0))
	for _, q := range []float64{0, 0.5, -0.4} {
		s.SetJoint("spin", q, 0)
		s.SetJoint("arm", q, 0)
		for range 3 {
			if c, _ := a.Count(); c != int64(math.Trunc((q+0.123)/0.01)) {
				t.Errorf("spin at %v, noise mean 0.123: count %d, want %v", q, c, math.Trunc((q+0.123)/0.01))
			}
			if v, _ := pot.Voltage(); math.Abs(v-(q+0.25+1)/2*5) > 1e-12 {
				t.Errorf("arm at %v, noise mean 0.25: %v V, want %v", q, v, (q+0.25+1)/2*5)
			}
		}
	}
}

// driftSample runs one Sim with drift on five sensors for 4 s and
// returns each one's offset at 1 s and at 4 s, measured through its
// readings.
func driftSample(t *testing.T, seed int64, f SensorFault) (at1, at4 []float64) {
	faults := map[string]SensorFault{}
	for _, n := range []string{"enc_a", "enc_b", "enc_c", "arm_pot", "range"} {
		faults[n] = f
	}
	s := bench(t, Options{Seed: seed, Faults: faults})
	ok := mustOK[hal.Encoder](t)
	encs := []hal.Encoder{ok(s.OpenEncoder(0, 1, hal.X4)), ok(s.OpenEncoder(2, 3, hal.X4)), ok(s.OpenEncoder(4, 5, hal.X4))}
	pot := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(0, 7, 0))
	rng := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(3, 0, 0))
	s.SetSensor("range", 2.56)
	read := func() []float64 {
		var out []float64
		for i, e := range encs {
			c, _ := e.Count()
			x := float64(c) * 0.01 / 4
			if i == 1 {
				x = -x // enc_b is mounted backwards
			}
			out = append(out, x)
		}
		v, _ := pot.Voltage()
		out = append(out, v/5*2-1)
		v, _ = rng.Voltage()
		return append(out, v/5*5.12-2.56)
	}
	s.AdvanceTo(time.Second)
	at1 = read()
	s.AdvanceTo(4 * time.Second)
	return at1, read()
}

func TestDriftGrowsWithTime(t *testing.T) {
	f := SensorFault{Drift: Gauss{Mu: 0.01, Sigma: 0.02}}
	var at1, at4 []float64
	for seed := int64(1); seed <= 60; seed++ {
		a, b := driftSample(t, seed, f)
		at1, at4 = append(at1, a...), append(at4, b...)
	}
	// mean mu·t, deviation sigma·√t; the encoders count in 0.0025 rad.
	checkStats(t, "drift at 1 s", at1, 0.01, 0.02, 0.0025)
	checkStats(t, "drift at 4 s", at4, 0.04, 0.04, 0.0025)

	// Without sigma the drift is exactly mu·t.
	at1, at4 = driftSample(t, 1, SensorFault{Drift: Gauss{Mu: -0.05}})
	for i := range at1 {
		if math.Abs(at1[i]+0.05) > 0.0025+1e-9 || math.Abs(at4[i]+0.2) > 0.0025+1e-9 {
			t.Errorf("sensor %d: drift %v at 1 s and %v at 4 s, want -0.05 and -0.2", i, at1[i], at4[i])
		}
	}
}

// TestDriftAccumulatesWithoutReads: a sensor read every 10 ms and one
// read only at 10 s have drifted bit-identically, with or without noise
// on the reads.
func TestDriftAccumulatesWithoutReads(t *testing.T) {
	for _, f := range []SensorFault{
		{Drift: Gauss{Mu: 0.01, Sigma: 0.05}},
		{Drift: Gauss{Mu: 0.01, Sigma: 0.05}, Noise: Gauss{Sigma: 0.1}, Dropout: 0.2},
	} {
		run := func(every bool) (float64, int64) {
			s := bench(t, Options{Seed: 9, Faults: map[string]SensorFault{"arm_pot": f, "enc_a": f}})
			pot := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(0, 7, 0))
			enc := mustOK[hal.Encoder](t)(s.OpenEncoder(0, 1, hal.X4))
			for now := 10 * time.Millisecond; every && now < 10*time.Second; now += 10 * time.Millisecond {
				s.AdvanceTo(now)
				pot.Voltage()
				enc.Count()
			}
			s.AdvanceTo(10 * time.Second)
			c, _ := enc.Count()
			if f.Noise.Sigma > 0 {
				return s.faults["arm_pot"].drift, int64(s.faults["enc_a"].drift * 1e9)
			}
			v, _ := pot.Voltage()
			return v, c
		}
		v1, c1 := run(true)
		v2, c2 := run(false)
		if v1 != v2 || c1 != c2 {
			t.Errorf("%+v: read every 10 ms: %v, %d; read at 10 s only: %v, %d", f, v1, c1, v2, c2)
		}
		if v1 == 2.5 || c1 == 0 {
			t.Errorf("%+v: no drift after 10 s: %v V, count %d", f, v1, c1)
		}
	}
}

func TestDropout(t *testing.T) {
	const n, p = 20000, 0.3
	s := bench(t, Options{Seed: 3, Faults: map[string]SensorFault{
		"enc_a": {Dropout: p}, "arm_pot": {Dropout: p}, "beam": {Dropout: p},
	}})
	enc := mustOK[hal.Encoder](t)(s.OpenEncoder(0, 1, hal.X1))
	pot := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(0, 7, 0))
	beam := mustOK[hal.DigitalIn](t)(s.OpenDigitalIn(10))
	var encDrops, potDrops, beamDrops int
	lastC, lastV, lastB := int64(0), 2.5, false
	for i := 1; i <= n; i++ {
		// Each read the truth differs from the last reading; a dropped
		// read gives that last reading, stale.
		s.SetJoint("spin", float64(i)*0.01+0.005, 0)
		s.SetJoint("arm", math.Mod(float64(i)*0.001, 1.8)-0.9, 0)
		s.SetSensor("beam", 1-b2f(lastB)) // the truth is never the last reading
		c, _ := enc.Count()
		v, _ := pot.Voltage()
		b, _ := beam.Get()
		switch c {
		case lastC:
			encDrops++
		case int64(i):
		default:
			t.Fatalf("read %d: count %d, neither %d nor the last %d", i, c, i, lastC)
		}
		if v == lastV {
			potDrops++
		}
		if b == lastB {
			beamDrops++
		}
		lastC, lastV, lastB = c, v, b
	}
	within(t, "encoder reads dropped", encDrops, n, p)
	within(t, "analog reads dropped", potDrops, n, p)
	within(t, "digital reads dropped", beamDrops, n, p)

	// A Pigeon misses its frame: hal.ErrTimeout.
	c := newSim(t, competition(t), Options{Seed: 3, Faults: map[string]SensorFault{"pigeon": {Dropout: p}}})
	pg := mustOK[hal.Pigeon](t)(c.OpenPigeon(-1, 1))
	misses := 0
	for range n {
		if _, _, _, err := pg.Read(); err != nil {
			if !errors.Is(err, hal.ErrTimeout) {
				t.Fatalf("Pigeon read: %v, want a timeout", err)
			}
			misses++
		}
	}
	within(t, "Pigeon frames missed", misses, n, p)
}

// TestNavXFaults: a navX's dropout garbles an SPI response (its CRC fails)
// or NACKs an I2C read; disconnected, SPI reads zeros and I2C NACKs.
func TestNavXFaults(t *testing.T) {
	const n, p = 4000, 0.25
	s := newSim(t, competition(t), Options{Seed: 5, Faults: map[string]SensorFault{"navx": {Dropout: p}}})
	port := mustOK[spi.Port](t)(s.SPI(4))
	conn := mustOK[spi.Conn](t)(port.Connect(500000, spi.Mode3, 8))
	var bad int
	r := make([]byte, 17)
	for range n {
		navxSPIRequest(t, conn, 0x00, 16)
		if err := conn.Tx(make([]byte, 17), r); err != nil {
			t.Fatal(err)
		}
		if frc.NavXCRC(r[:16]) != r[16] {
			bad++
		} else if r[0] != frc.NavXModel {
			t.Fatalf("a response with a good CRC is not the navX's: % x", r)
		}
	}
	within(t, "SPI responses garbled", bad, n, p)

	// Disconnected at 0.5 s: SPI reads zeros from then on.
	s = newSim(t, competition(t), Options{Faults: map[string]SensorFault{"navx": {Disconnected: true, FaultAt: 0.5}}})
	port = mustOK[spi.Port](t)(s.SPI(4))
	conn = mustOK[spi.Conn](t)(port.Connect(500000, spi.Mode3, 8))
	for _, at := range []time.Duration{100 * time.Millisecond, 500 * time.Millisecond, 2 * time.Second} {
		s.AdvanceTo(at)
		navxSPIRequest(t, conn, 0x00, 16)
		conn.Tx(make([]byte, 17), r)
		if got, want := r[0], byte(frc.NavXModel); (at < 500*time.Millisecond) != (got == want) {
			t.Errorf("disconnected at 0.5 s, at %v: WHOAMI 0x%02x", at, got)
		}
	}

	// On I2C: a dropped read and a pulled cable both NACK.
	r2 := competitionWith(t, "interface: spi, id: 4", "interface: i2c, id: 1")
	s = newSim(t, r2, Options{Seed: 5, Faults: map[string]SensorFault{"navx": {Dropout: p}}})
	bus := mustOK[i2c.Bus](t)(s.I2C(1))
	nacks := 0
	for range n {
		err := bus.Tx(frc.NavXI2CAddr, []byte{0x00, 16}, r[:16])
		switch {
		case errors.Is(err, hal.ErrNoDevice):
			nacks++
		case err != nil || r[0] != frc.NavXModel:
			t.Fatalf("I2C read: %v % x", err, r[:16])
		}
	}
	within(t, "I2C reads NACKed", nacks, n, p)
	s.SetFault("navx", SensorFault{Disconnected: true})
	if err := bus.Tx(frc.NavXI2CAddr, []byte{0x00, 16}, r[:16]); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("I2C read of a disconnected navX: %v", err)
	}
}

func TestStuckAndDisconnected(t *testing.T) {
	for _, disc := range []bool{false, true} {
		f := SensorFault{Stuck: !disc, Disconnected: disc, FaultAt: 0.5}
		s := bench(t, Options{Faults: map[string]SensorFault{"enc_c": f, "arm_pot": f, "arm_high": f, "beam": f, "range": f}})
		enc := mustOK[hal.Encoder](t)(s.OpenEncoder(4, 5, hal.X4))
		pot := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(0, 7, 0))
		high := mustOK[hal.DigitalIn](t)(s.OpenDigitalIn(8)) // inverted: reads high when not pressed
		beam := mustOK[hal.DigitalIn](t)(s.OpenDigitalIn(10))
		s.SetSensor("beam", 1)
		s.SetDS(enabled)
		mustOK[hal.PWM](t)(s.OpenPWM(0)).SetPulse(frc.PWMVictorSP.Pulse(1))
		arm := mustOK[hal.PWM](t)(s.OpenPWM(1))
		arm.SetPulse(frc.PWMTalon.Pulse(1)) // drives the arm to its upper stop
		var atFault [4]float64
		for now := 10 * time.Millisecond; now <= 2*time.Second; now += 10 * time.Millisecond {
			s.AdvanceTo(now)
			c, _ := enc.Count()
			v, _ := pot.Voltage()
			h, _ := high.Get()
			b, _ := beam.Get()
			got := [4]float64{float64(c), v, b2f(h), b2f(b)}
			if now == 500*time.Millisecond {
				atFault = got
			}
			q := truth(t, s, "spin").Position
			healthy := [4]float64{math.Trunc(q / 0.01 * 4), (truth(t, s, "arm").Position + 1) / 2 * 5, b2f(truth(t, s, "arm").Position < 1-1e-3), 1}
			switch {
			case now < 500*time.Millisecond && got != healthy:
				t.Fatalf("stuck %v disconnected %v, before the fault at %v: %v, want %v", f.Stuck, disc, now, got, healthy)
			case now >= 500*time.Millisecond && disc && got != [4]float64{atFault[0], 0, 1, 1}:
				t.Fatalf("disconnected at %v: %v, want the count frozen at %v, 0 V and both inputs high", now, got, atFault[0])
			case now >= 500*time.Millisecond && !disc && got != atFault:
				t.Fatalf("stuck at %v: %v, want %v", now, got, atFault)
			}
		}
		if q := truth(t, s, "spin").Position; q < atFault[0]*0.01/4+1 || truth(t, s, "arm").Position != 1 {
			t.Errorf("the joints did not move on: spin %v rad, arm %v", q, truth(t, s, "arm").Position)
		}
		// A disconnected link sensor's input floats (0 V); a stuck one holds.
		s.SetSensor("range", 4)
		if v, _ := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(3, 0, 0)).Voltage(); (disc && v != 0) || (!disc && v != 0) {
			t.Errorf("range (stuck %v) after SetSensor: %v V, want 0 (its value at 0.5 s)", !disc, v)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestIMUFaults: a Pigeon's yaw noise and drift, and its gyro bias; a
// stuck Pigeon repeats itself, a disconnected one times out; a navX's
// samples drift the same way.
func TestIMUFaults(t *testing.T) {
	const n = 20000
	s := newSim(t, competition(t), Options{Seed: 11, Faults: map[string]SensorFault{"pigeon": {Noise: Gauss{Mu: 0.01, Sigma: 0.02}}}})
	s.SetIMU("pigeon", IMU{Orientation: yawed([4]float64{}, 0.3), AngularVelocity: [3]float64{0, 0, 0.5}})
	pg := mustOK[hal.Pigeon](t)(s.OpenPigeon(-1, 1))
	var yaw, rate []float64
	for range n {
		q, g, _, err := pg.Read()
		if err != nil {
			t.Fatal(err)
		}
		yaw, rate = append(yaw, yawOf(q)), append(rate, g[2])
	}
	checkStats(t, "Pigeon yaw", yaw, 0.31, 0.02, 1e-9)
	checkStats(t, "Pigeon z rate", rate, 0.5, 0.02, 1e-9)

	f := SensorFault{Drift: Gauss{Mu: 0.002}, Stuck: true, FaultAt: 5}
	s = newSim(t, competition(t), Options{Faults: map[string]SensorFault{"pigeon": f, "navx": f}})
	pg = mustOK[hal.Pigeon](t)(s.OpenPigeon(-1, 1))
	port := mustOK[spi.Port](t)(s.SPI(4))
	conn := mustOK[spi.Conn](t)(port.Connect(500000, spi.Mode3, 8))
	s.AdvanceTo(4 * time.Second)
	q, g, _, _ := pg.Read()
	if math.Abs(yawOf(q)-0.008) > 1e-9 || g[2] != 0.002 {
		t.Errorf("Pigeon at 4 s, drifting 0.002 rad/s: yaw %v, z rate %v", yawOf(q), g[2])
	}
	r := make([]byte, 3)
	navxSPIRequest(t, conn, frc.NavXRegYaw, 2)
	conn.Tx(make([]byte, 3), r)
	if yaw := float64(int16(uint16(r[0])|uint16(r[1])<<8)) / 100; math.Abs(yaw-(-0.008*180/math.Pi)) > 0.006 {
		t.Errorf("navX at 4 s, drifting 0.002 rad/s: yaw %v° (clockwise), want %v", yaw, -0.008*180/math.Pi)
	}
	s.AdvanceTo(5 * time.Second)
	q5, _, _, _ := pg.Read()
	s.SetIMU("pigeon", IMU{Orientation: yawed([4]float64{}, 1)})
	s.AdvanceTo(6 * time.Second)
	if q6, _, _, _ := pg.Read(); q6 != q5 || math.Abs(yawOf(q5)-0.01) > 1e-9 {
		t.Errorf("Pigeon stuck at 5 s: %v then %v, want yaw 0.01", q5, q6)
	}
	s.SetFault("pigeon", SensorFault{Disconnected: true})
	if _, _, _, err := pg.Read(); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("disconnected Pigeon: %v, want a timeout", err)
	}
	if err := s.SetFault("pigeon", SensorFault{}); err != nil {
		t.Fatal(err)
	}
	if q, _, _, err := pg.Read(); err != nil || math.Abs(yawOf(q)-1) > 1e-9 {
		t.Errorf("Pigeon healthy again: yaw %v, %v", yawOf(q), err)
	}
}

// TestFaultsReproducible: the same seed and calls give bit-identical
// readings; another seed does not.
func TestFaultsReproducible(t *testing.T) {
	f := SensorFault{Noise: Gauss{Sigma: 0.05}, Drift: Gauss{Mu: 0.01, Sigma: 0.02}, Dropout: 0.1}
	run := func(seed int64) []float64 {
		s := newSim(t, competition(t), Options{Seed: seed, Faults: map[string]SensorFault{
			"shoulder_pot": f, "left_drive_encoder": f, "pigeon": f, "navx": f, "ball_beam_break": {Dropout: 0.5},
		}, Disturbances: []Disturbance{{Joint: "shoulder_joint", Kind: DisturbForce, Magnitude: 20, UpdatePeriod: 0.1}}})
		s.SetDS(enabled)
		h := openHandles(t, s)
		enc := mustOK[hal.Encoder](t)(s.OpenEncoder(0, 1, hal.X4))
		beam := mustOK[hal.DigitalIn](t)(s.OpenDigitalIn(12))
		s.SetIMU("navx", IMU{AngularVelocity: [3]float64{0, 0, 1}})
		var out []float64
		for now := time.Duration(0); now < time.Second; now += 5 * time.Millisecond {
			out = append(out, h.cycle(s, now))
			c, _ := enc.Count()
			b, _ := beam.Get()
			q, _, _, err := h.pigeon.Read()
			out = append(out, float64(c), b2f(b), q[0], q[3], b2f(err != nil), truth(t, s, "shoulder_joint").Position)
		}
		return out
	}
	a, b, c := run(42), run(42), run(43)
	same := func(x, y []float64) bool {
		for i := range x {
			if x[i] != y[i] && !(math.IsNaN(x[i]) && math.IsNaN(y[i])) {
				return false
			}
		}
		return true
	}
	if !same(a, b) {
		t.Error("seed 42 twice: the readings differ")
	}
	if same(a, c) {
		t.Error("seeds 42 and 43: the readings are the same")
	}
}

func TestFaultErrors(t *testing.T) {
	s := bench(t, Options{})
	for _, tc := range []struct {
		name string
		f    SensorFault
		want string
	}{
		{"enc_x", SensorFault{Dropout: 0.1}, `no encoder, analog_input, digital_input, navx or pigeon_imu named "enc_x"`},
		{"spin", SensorFault{Dropout: 0.1}, `named "spin"`},
		{"enc_a", SensorFault{Noise: Gauss{Sigma: -1}}, "sigma must not be negative"},
		{"enc_a", SensorFault{Drift: Gauss{Mu: math.NaN()}}, "finite numbers"},
		{"enc_a", SensorFault{Dropout: 1.1}, "not a probability"},
		{"enc_a", SensorFault{Stuck: true, FaultAt: -1}, "negative"},
		{"beam", SensorFault{Noise: Gauss{Mu: 1}}, "noise and drift do not apply"},
	} {
		if err := s.SetFault(tc.name, tc.f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SetFault(%q, %+v): %v, want %q", tc.name, tc.f, err, tc.want)
		}
	}
	if _, err := New(loadRobot(t, benchURDF, benchYAML), Options{Faults: map[string]SensorFault{"nope": {Stuck: true}}}); err == nil {
		t.Error("New with a fault on no sensor succeeded")
	}
	// Faults lists what is set; the zero fault heals.
	s.SetFault("enc_a", SensorFault{Dropout: 0.5})
	s.SetFault("beam", SensorFault{Stuck: true})
	if got := s.Faults(); len(got) != 2 || got["enc_a"].Dropout != 0.5 || !got["beam"].Stuck {
		t.Errorf("Faults: %+v", got)
	}
	s.SetFault("beam", SensorFault{})
	if got := s.Faults(); len(got) != 1 {
		t.Errorf("Faults after healing beam: %+v", got)
	}
}

// faultySim is the competition robot, enabled, with five faulty sensors
// and a disturbance redrawn every 10 ms, and its channels open.
func faultySim(tb testing.TB) (*Sim, *handles) {
	f := SensorFault{Noise: Gauss{Sigma: 0.05}, Drift: Gauss{Mu: 0.01, Sigma: 0.02}, Dropout: 0.1}
	s := newSim(tb, competition(tb), Options{Faults: map[string]SensorFault{"shoulder_pot": f, "elevator_encoder": f, "pigeon": f, "navx": f,
		"elevator_lower_limit": {Dropout: 0.3}}, Disturbances: []Disturbance{{Joint: "shoulder_joint", Magnitude: 1, UpdatePeriod: 0.01}}})
	s.SetDS(enabled)
	return s, openHandles(tb, s)
}

// TestFaultsDoNotAllocate: reading faulty sensors and advancing their
// drift allocate nothing.
func TestFaultsDoNotAllocate(t *testing.T) {
	s, h := faultySim(t)
	now := time.Duration(0)
	h.cycle(s, now)
	if allocs := testing.AllocsPerRun(200, func() {
		now += time.Millisecond
		h.cycle(s, now)
	}); allocs != 0 {
		t.Errorf("%v allocations per cycle with faults, want 0", allocs)
	}
}

// TestSetFaultKeepsDrift: a new fault model keeps the drift so far; the
// new model's drift grows from there.
func TestSetFaultKeepsDrift(t *testing.T) {
	s := bench(t, Options{Faults: map[string]SensorFault{"arm_pot": {Drift: Gauss{Mu: 0.1}}}})
	pot := mustOK[hal.AnalogIn](t)(s.OpenAnalogIn(0, 7, 0))
	s.AdvanceTo(2 * time.Second)
	pot.Voltage() // what a dropped read repeats
	if err := s.SetFault("arm_pot", SensorFault{Dropout: 0.5}); err != nil {
		t.Fatal(err)
	}
	s.AdvanceTo(4 * time.Second)
	for range 10 {
		if v, _ := pot.Voltage(); math.Abs(v-(0.2+1)/2*5) > 1e-9 {
			t.Fatalf("arm_pot after 2 s of 0.1 rad/s drift, then none: %v V, want %v", v, (0.2+1)/2*5)
		}
	}
}

// BenchmarkCycleFaulty is BenchmarkCycle with five faulty sensors and a
// disturbance.
func BenchmarkCycleFaulty(b *testing.B) {
	s, h := faultySim(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.cycle(s, time.Duration(i)*time.Millisecond)
	}
}
