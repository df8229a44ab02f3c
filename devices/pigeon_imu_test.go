package devices

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

func TestPigeonOnCAN(t *testing.T) {
	b := haltest.New()
	// 90° of yaw: w = cos 45°, z = sin 45°.
	s := math.Sqrt2 / 2
	p := &haltest.Pigeon{Q: [4]float64{s, 0, 0, s}, Gyro: [3]float64{0.1, -0.2, 1.5}, Accel: [3]float64{0.3, 0, 9.81}}
	b.Pigeons[7] = p
	r := buildOn(t, b, "joints:\n  - {name: imu, type: pigeon_imu, frame_id: base_link, id: 7}\n")
	r.cycle()
	st := state[interfaces.IMUState](r, "imu", interfaces.IMU)
	want := interfaces.IMUState{
		Orientation:        [4]float64{0, 0, s, s}, // x, y, z, w
		AngularVelocity:    [3]float64{0.1, -0.2, 1.5},
		LinearAcceleration: [3]float64{0.3, 0, 9.81},
	}
	if *st != want {
		t.Errorf("IMU state %+v,\nwant %+v", *st, want)
	}
	// A failing read, or one carrying NaN, leaves the state as it was.
	boom := errors.New("bus off")
	p.Err = boom
	if err := r.step(time.Millisecond); !errors.Is(err, boom) {
		t.Errorf("Read error %v", err)
	}
	p.Err, p.Q[0] = nil, nan
	if err := r.step(time.Millisecond); !errors.Is(err, errNotFinite) {
		t.Errorf("Read of NaN: %v", err)
	}
	if *st != want {
		t.Errorf("state changed on a bad read: %+v", *st)
	}
}

func TestPigeonOnTalon(t *testing.T) {
	b := haltest.New()
	p := &haltest.Pigeon{Q: [4]float64{1, 0, 0, 0}, Gyro: [3]float64{0, 0, -0.5}}
	b.TalonPigeons[1] = p
	r := buildOn(t, b, `joints:
  - {name: left_front_wheel_joint, type: talon_srx, id: 1}
  - {name: imu, type: pigeon_imu, frame_id: base_link, talon: left_front_wheel_joint}
`)
	if !b.IsOpen("talon pigeon", 1) || b.IsOpen("pigeon", 1) {
		t.Errorf("the Pigeon was not opened on Talon 1")
	}
	r.cycle()
	st := state[interfaces.IMUState](r, "imu", interfaces.IMU)
	if st.Orientation != [4]float64{0, 0, 0, 1} || st.AngularVelocity[2] != -0.5 {
		t.Errorf("IMU state %+v", *st)
	}
}
