package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// armURDF is one arm on a revolute joint, limited to ±2 rad.
const armURDF = `<robot name="arm">
  <link name="base_link"/>
  <link name="arm_link">
    <inertial><mass value="2"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="arm_joint" type="revolute"><parent link="base_link"/><child link="arm_link"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" effort="100" velocity="10"/></joint>
</robot>
`

// A Talon FX's own position loop (PositionVoltage on its rotor, slot 0)
// settles its joint at the target, and its status reads the rotor
// through the gearing (20 rotor rotations per turn of the arm).
func TestTalonFXPositionLoopSettles(t *testing.T) {
	r := loadRobot(t, armURDF, "joints:\n  - {name: arm_joint, type: talon_fx, id: 1, sensor_to_mechanism_ratio: 20}\n"+
		"sim:\n  joints:\n    - {name: arm_joint, motor: falcon500, inertia: 0.05}\n")
	s := newSim(t, r, Options{})
	s.SetDS(enabled)
	p6 := phoenix6.Provider(s)
	fx, err := p6.OpenTalonFX("", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p6.OpenTalonFX("", 1); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("second open: %v", err)
	}
	if err := fx.SetGains(0, phoenix6.FXGains{P: 3, D: 0.15}); err != nil {
		t.Fatal(err)
	}
	target := 1.0 // rad of the arm
	rotor := target / (2 * math.Pi) * 20
	var now time.Duration
	for i := 0; i < 150; i++ { // 3 s of 20 ms loops
		if err := fx.Control(phoenix6.FXControl{Mode: phoenix6.FXPosition, Value: rotor}); err != nil {
			t.Fatal(err)
		}
		now += 20 * time.Millisecond
		s.AdvanceTo(now)
	}
	j := truth(t, s, "arm_joint")
	if !near(j.Position, target, 0.01) || !near(j.Velocity, 0, 0.05) {
		t.Errorf("after 3 s the arm is at %.4f rad moving %.4f rad/s; want it settled at %v", j.Position, j.Velocity, target)
	}
	st, err := fx.Status()
	if err != nil || !near(st.Position, rotor, 0.05) || !near(st.SupplyVoltage, s.vTerm, 1e-9) || st.Temperature == 0 {
		t.Errorf("status %+v, %v; want the rotor at %.3f rotations", st, err, rotor)
	}
	// Disabled, the Talon goes neutral: the arm coasts, holding no torque.
	s.SetDS(hal.DSState{Attached: true})
	now += 20 * time.Millisecond
	s.AdvanceTo(now)
	if d := s.canMotors[canKey{"", 1}].effective(false, now); d != 0 {
		t.Errorf("disabled duty %v", d)
	}
	if err := fx.Control(phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: math.NaN()}); err == nil {
		t.Error("a NaN request was taken")
	}
}

// swerveWithPhoenix6 is the drive rig's swerve robot with Talon FXs on the
// steering, a CANcoder on each steering joint and a Pigeon 2 for the
// Pigeon IMU.
func swerveWithPhoenix6(t *testing.T) *Sim {
	urdf := driveURDF(true)
	for _, c := range wheelCorners {
		old := `<axis xyz="0 0 1"/></joint>`
		i := strings.Index(urdf, `<joint name="`+c.name+`_steer"`)
		j := i + strings.Index(urdf[i:], old)
		urdf = urdf[:j] + `<axis xyz="0 0 1"/><sensor name="` + c.name + `_cc" type="encoder"/></joint>` + urdf[j+len(old):]
	}
	yaml := driveYAML(true, swerveYAML)
	yaml = strings.Replace(yaml, "{name: pigeon, type: pigeon_imu, frame_id: base_link, id: 3}", "{name: pigeon, type: pigeon2, frame_id: base_link, id: 3}", 1)
	for i, c := range wheelCorners {
		old := fmt.Sprintf("{name: %s_steer, type: spark, id: %d}", c.name, 4+i)
		if !strings.Contains(yaml, old) {
			t.Fatalf("the drive rig has no %s", old)
		}
		yaml = strings.Replace(yaml, old, fmt.Sprintf("{name: %s_steer, type: talon_fx, id: %d, sensor_to_mechanism_ratio: 12.8}\n"+
			"  - {name: %s_cc, type: cancoder, id: %d}", c.name, 4+i, c.name, 10+i), 1)
	}
	r := loadRobot(t, urdf, yaml)
	s := newSim(t, r, ConfigOptions(r.Config, 1, false))
	s.SetDS(enabled)
	return s
}

// A CANcoder on a swerve module's steering measures its angle while the
// module's Talon FX turns it.
func TestCANcoderMeasuresSwerveAngle(t *testing.T) {
	s := swerveWithPhoenix6(t)
	fx, err := s.OpenTalonFX("", 4) // lf_steer
	if err != nil {
		t.Fatal(err)
	}
	cc, err := s.OpenCANcoder("", 10) // lf_cc
	if err != nil {
		t.Fatal(err)
	}
	fx.SetGains(0, phoenix6.FXGains{P: 1.5, D: 0.05})
	var now time.Duration
	for i := 0; i < 100; i++ {
		fx.Control(phoenix6.FXControl{Mode: phoenix6.FXPosition, Value: -0.75 * 12.8}) // -0.75 turn of the module
		now += 20 * time.Millisecond
		s.AdvanceTo(now)
	}
	angle := truth(t, s, "lf_steer").Position
	pos, vel, abs, _, err := cc.Read()
	if err != nil || !near(pos*2*math.Pi, angle, 1e-9) || !near(vel*2*math.Pi, truth(t, s, "lf_steer").Velocity, 1e-9) {
		t.Errorf("CANcoder %v rotations (%v/s), %v; the module is at %v rad", pos, vel, err, angle)
	}
	if !near(angle, -1.5*math.Pi, 0.05) || !near(abs, 0.25, 0.01) {
		t.Errorf("module at %v rad (want -3π/2), CANcoder absolute %v (want 0.25)", angle, abs)
	}
	// Its stand-in status frame is on the bus (the inventory finds it),
	// with the position in 1/4096 rotation.
	f, _, ok := s.CAN().Latest(frc.FRCID(frc.DevEncoder, frc.MfrCTRE, 0x50, 10))
	if !ok || int32(binary.LittleEndian.Uint32(f.Data[:])) != int32(math.Round(pos*4096)) {
		t.Errorf("CANcoder frame %+v (heard %v); want %v", f, ok, math.Round(pos*4096))
	}
	// The other modules did not turn, and their CANcoders say so.
	rf, _ := s.OpenCANcoder("", 11)
	if p, _, _, _, _ := rf.Read(); p != 0 {
		t.Errorf("rf CANcoder %v", p)
	}
	// A silenced CANcoder (sim: can_faults) reads as stale.
	s.mu.Lock()
	s.canNodes["lf_cc"].manual = true
	s.mu.Unlock()
	if _, _, _, _, err := cc.Read(); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("silent CANcoder: %v", err)
	}
}

// The Pigeon 2 reports the base's yaw as the base turns.
func TestPigeon2ReportsBaseYaw(t *testing.T) {
	s := swerveWithPhoenix6(t)
	p2, err := s.OpenPigeon2("", 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetPose(0, 0, 0.7); err != nil {
		t.Fatal(err)
	}
	s.AdvanceTo(20 * time.Millisecond)
	q, _, _, err := p2.Read()
	p, _ := s.Pose()
	if yaw := 2 * math.Atan2(q[3], q[0]); err != nil || !near(yaw, p.Yaw, 1e-9) || !near(yaw, 0.7, 1e-6) {
		t.Errorf("Pigeon 2 yaw %v, %v; the base's %v", yaw, err, p.Yaw)
	}
	if _, err := s.OpenPigeon2("", 3); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("second open: %v", err)
	}
}

// A rebooted Talon FX (RebootCAN) keeps its configs (Phoenix 6's are
// persistent) and gains, goes neutral, reports the reset once, and its
// rotor position restarts within one rotation: the rotor's absolute
// position, its whole turns lost; it counts on from there.
func TestTalonFXRebootRestartsWithinARotation(t *testing.T) {
	r := loadRobot(t, armURDF, "joints:\n  - {name: arm_joint, type: talon_fx, id: 1, sensor_to_mechanism_ratio: 20}\n"+
		"sim:\n  joints:\n    - {name: arm_joint, motor: falcon500, inertia: 0.05}\n")
	s := newSim(t, r, Options{})
	s.SetDS(enabled)
	fx, err := phoenix6.Provider(s).OpenTalonFX("", 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := phoenix6.FXConfig{Brake: true, StatorLimit: 40, StatorLimitEnable: true}
	if err := fx.(phoenix6.FXConfigurer).ApplyConfig(cfg); err != nil {
		t.Fatal(err)
	}
	if err := fx.SetGains(0, phoenix6.FXGains{P: 3, D: 0.15}); err != nil {
		t.Fatal(err)
	}
	rst := fx.(interface{ HasResetOccurred() (bool, error) })
	rotor := 1.0 / (2 * math.Pi) * 20 // 1 rad of the arm: 3.18 rotor rotations
	var now time.Duration
	for range 150 {
		if err := fx.Control(phoenix6.FXControl{Mode: phoenix6.FXPosition, Value: rotor}); err != nil {
			t.Fatal(err)
		}
		now += 20 * time.Millisecond
		s.AdvanceTo(now)
	}
	before, _ := fx.Status()
	if !near(before.Position, rotor, 0.05) {
		t.Fatalf("before: rotor at %v, want %v", before.Position, rotor)
	}
	if r, _ := rst.HasResetOccurred(); r {
		t.Error("a reset reported before the reboot")
	}
	if err := s.RebootCAN("arm_joint"); err != nil {
		t.Fatal(err)
	}
	after, _ := fx.Status()
	if want := before.Position - math.Floor(before.Position); !near(after.Position, want, 1e-9) || after.Position < 0 || after.Position >= 1 {
		t.Errorf("after the reboot: rotor at %v, want %v (within one rotation)", after.Position, want)
	}
	if r, _ := rst.HasResetOccurred(); !r {
		t.Error("the reboot not reported")
	}
	if r, _ := rst.HasResetOccurred(); r {
		t.Error("the reboot reported twice")
	}
	if got, _ := fx.(phoenix6.FXConfigurer).Config(); got != cfg {
		t.Errorf("after the reboot the Talon holds %+v, want its configs kept %+v", got, cfg)
	}
	if d := s.canMotors[canKey{"", 1}].effective(true, now); d != 0 {
		t.Errorf("after the reboot: duty %v, want neutral until commanded", d)
	}
	// Its own loop, given the set point in its new count, holds the arm:
	// its gains were kept.
	for range 100 {
		if err := fx.Control(phoenix6.FXControl{Mode: phoenix6.FXPosition, Value: after.Position}); err != nil {
			t.Fatal(err)
		}
		now += 20 * time.Millisecond
		s.AdvanceTo(now)
	}
	if j := truth(t, s, "arm_joint"); !near(j.Position, 1, 0.02) {
		t.Errorf("held after the reboot at %v rad, want 1", j.Position)
	}
}
