package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/hal"
)

// SetIMU sets the motion the IMU of that YAML name (navx or pigeon_imu)
// feels. An IMU the drive base moved reads what is set from then on.
func (s *Sim) SetIMU(name string, m IMU) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.sensors[name].imu
	if d == nil {
		return fmt.Errorf("sim: no navx or pigeon_imu named %q: %w", name, hal.ErrNoDevice)
	}
	d.m, d.onBase = m, false
	if d.nav != nil {
		d.nav.set(d.motion(), s.t)
	}
	return nil
}

// SetSensor sets what a link sensor senses: a digital_input is active when
// v is not 0; an analog_input reads v in its units (m, rad...).
func (s *Sim) SetSensor(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("sim: sensor %q: %v is not a number", name, v)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.digital[name]; d != nil {
		d.value = v
		return nil
	}
	if a := s.analog[name]; a != nil {
		a.value = v
		return nil
	}
	return fmt.Errorf("sim: no digital_input or analog_input named %q in a link: %w", name, hal.ErrNoDevice)
}

// SetJoint places a joint's plant (held within its limits).
func (s *Sim) SetJoint(name string, pos, vel float64) error {
	if math.IsNaN(pos) || math.IsInf(pos, 0) || math.IsNaN(vel) || math.IsInf(vel, 0) {
		return fmt.Errorf("sim: joint %q: position %v, velocity %v: not numbers", name, pos, vel)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.byName[name]
	if j == nil {
		return fmt.Errorf("sim: no movable joint named %q: %w", name, hal.ErrNoDevice)
	}
	j.pos, j.vel = pos, vel
	j.stops()
	return nil
}

// Scenario is the scenario the Sim was built from: its options, with
// the defaults applied, and the robot's name.
func (s *Sim) Scenario() *Scenario { return ScenarioOf(s.r, s.opts, s.opts.Enabled) }

// Pose is the drive base's true pose and velocity on the field: x, y in
// m, yaw in rad counter-clockwise from the field's x axis, the velocity
// vx, vy in m/s in the field frame and wz in rad/s.
type Pose struct {
	X   float64 `json:"x"`
	Y   float64 `json:"y"`
	Yaw float64 `json:"yaw"`
	VX  float64 `json:"vx"`
	VY  float64 `json:"vy"`
	WZ  float64 `json:"wz"`
}

// Pose returns the drive base's true pose; ok is false without a
// drivetrain.
func (s *Sim) Pose() (p Pose, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.base
	if b == nil {
		return Pose{}, false
	}
	return Pose{X: b.x, Y: b.y, Yaw: b.yaw, VX: b.vx, VY: b.vy, WZ: b.wz}, true
}

// SetPose places the drive base on the field at rest: x, y in m, yaw in
// rad. The wheels keep turning as they were; the floor stops them.
func (s *Sim) SetPose(x, y, yaw float64) error {
	for _, v := range []float64{x, y, yaw} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("sim: pose %v, %v, %v: not numbers", x, y, yaw)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.base
	if b == nil {
		return fmt.Errorf("sim: no drivetrain configured: %w", hal.ErrNoDevice)
	}
	b.x, b.y, b.yaw = x, y, math.Remainder(yaw, 2*math.Pi)
	b.vx, b.vy, b.wz, b.ax, b.ay, b.alpha = 0, 0, 0, 0, 0, 0
	s.baseIMUs()
	return nil
}

// EachJoint calls fn with every movable joint's name and ground truth, in
// the robot's order, all at one instant. fn must not call the Sim.
func (s *Sim) EachJoint(fn func(name string, t JointTruth)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.joints {
		fn(j.name, j.truth())
	}
}

func (j *joint) truth() JointTruth {
	return JointTruth{Position: j.pos, Velocity: j.vel + j.carried, Current: j.motors * j.current, Voltage: j.volts,
		Effort: j.motors * j.gear * j.motor.kt * j.current}
}

// Joint returns a joint's ground truth.
func (s *Sim) Joint(name string) (JointTruth, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.byName[name]
	if j == nil {
		return JointTruth{}, false
	}
	return j.truth(), true
}

// PWMPulse is the last width a driver wrote on a PWM channel (0: disabled
// or never written).
func (s *Sim) PWMPulse(ch int) time.Duration {
	if ch < 0 || ch >= numPWM {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pwm[ch].width
}

// DIO is the last level a driver wrote on a DIO output.
func (s *Sim) DIO(ch int) bool {
	if ch < 0 || ch >= numDIO {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dio[ch].level
}

// DutyCycle is the last duty cycle a driver wrote on a DIO duty-cycle
// output, 0 to 1.
func (s *Sim) DutyCycle(ch int) float64 {
	if ch < 0 || ch >= numDIO {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dio[ch].duty
}

// AnalogOut is the last voltage a driver wrote on an analog output, V.
func (s *Sim) AnalogOut(ch int) float64 {
	if ch < 0 || ch >= numAO {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ao[ch].volts
}

// RelayOut is the last contact state a driver wrote on a relay.
func (s *Sim) RelayOut(ch int) (fwd, rev bool) {
	if ch < 0 || ch >= numRelay {
		return false, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.relay[ch].fwd, s.relay[ch].rev
}

// Solenoid is a PCM's actual output on a channel (the default bus's PCM;
// Pneumatics reads any module).
func (s *Sim) Solenoid(pcmID, ch int) bool {
	if ch < 0 || ch > 7 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pcmByID[pcmID]
	return p != nil && p.out&(1<<uint(ch)) != 0
}

// PCMCommand is what the drivers last asked of a PCM in a Control1 frame:
// its solenoid bits and closed-loop enable. ok is false before any frame.
// Unlike Solenoid, it shows what the robot program sent even while the
// PCM ignores it (robot disabled).
func (s *Sim) PCMCommand(pcmID int) (solenoids byte, closedLoop, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pcmByID[pcmID]
	if p == nil {
		return 0, false, false
	}
	return byte(p.ctrlBits), p.ctrlClosed, p.ctrlOK
}

// Compressor reports whether a PCM runs its compressor, and its tank's
// pressure, psi.
func (s *Sim) Compressor(pcmID int) (on bool, pressurePSI float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pcmByID[pcmID]
	if p == nil {
		return false, 0
	}
	return p.compOn, p.pressure
}

// Battery returns the battery's terminal voltage, V, and current, A.
func (s *Sim) Battery() (volts, amps float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vTerm, s.iTotal
}

// CANMotorDuty is the last duty a driver set on a CAN motor controller
// (what it applies is in Joint's Voltage: neutral when disabled or stale).
func (s *Sim) CANMotorDuty(id int) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.canMotors[canKey{"", id}]; m != nil {
		return m.duty
	}
	return 0
}
