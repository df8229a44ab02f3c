package devices

import (
	"errors"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

func TestBuiltInAccel(t *testing.T) {
	b := haltest.New()
	b.Accel.X, b.Accel.Y, b.Accel.Z = 0.5, -0.25, 1
	r := buildOn(t, b, "joints:\n  - {name: rio, type: built_in_accel, frame_id: base_link, range: 4}\n")
	if b.Accel.Range != 4 {
		t.Errorf("opened at %d g, want 4", b.Accel.Range)
	}
	r.cycle()
	st := state[interfaces.IMUState](r, "rio", interfaces.IMU)
	if want := [3]float64{0.5 * hal.Gravity, -0.25 * hal.Gravity, hal.Gravity}; st.LinearAcceleration != want {
		t.Errorf("acceleration %v m/s², want %v", st.LinearAcceleration, want)
	}
	if st.OrientationCovariance[0] != -1 || st.AngularVelocityCovariance[0] != -1 || st.LinearAccelerationCovariance[0] != 0 {
		t.Errorf("covariances: orientation and angular velocity must be marked not provided: %+v", st)
	}
	// A failing read, or one carrying NaN, leaves the state as it was.
	before := *st
	boom := errors.New("gone")
	b.Accel.Err = boom
	if err := r.step(time.Millisecond); !errors.Is(err, boom) {
		t.Errorf("Read error %v", err)
	}
	b.Accel.Err, b.Accel.X = nil, nan
	if err := r.step(time.Millisecond); !errors.Is(err, errNotFinite) {
		t.Errorf("Read of NaN: %v", err)
	}
	if *st != before {
		t.Errorf("state changed on a failed read: %+v", *st)
	}
}

// A backend without a built-in accelerometer (a Linux coprocessor's) is
// refused with ErrUnsupported.
func TestBuiltInAccelUnsupported(t *testing.T) {
	f, list := config.Parse("r.yaml", []byte("joints:\n  - {name: rio, type: built_in_accel, frame_id: base_link}\n"))
	if len(list) != 0 {
		t.Fatal(list)
	}
	_, err := Build(f, NewEnv(noAccel{haltest.New()}, interfaces.NewRegistry()))
	if !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("Build on a backend without one: %v, want ErrUnsupported", err)
	}
}

// noAccel hides the fake backend's accelerometer.
type noAccel struct{ hal.Backend }
