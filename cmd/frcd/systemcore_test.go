package main

import (
	"strings"
	"testing"
)

// validate --hal systemcore: examples/systemcore and systemcore_io run
// as they are; on the competition example every device Systemcore's
// backend cannot run gets its finding (relays, analog outputs, DIO duty
// cycles, encoders off SmartIO's channel pairs, the navX on roboRIO
// ports), every channel past SmartIO's six and every SmartIO channel used
// twice gets one, and the devices it can run (the PDP, PWM controllers on
// channels 0-5, encoders on SmartIO pairs) get none; CTRE's Phoenix 5
// devices (talon_srx, pigeon_imu) get one: CTRE ships no Phoenix 5 for
// Systemcore.
func TestValidateSystemcore(t *testing.T) {
	for _, ex := range []string{"systemcore", "systemcore_io"} {
		code, out, errOut := runFrcd("validate", "--hal", "systemcore", "../../examples/"+ex+"/robot.urdf", "../../examples/"+ex+"/robot.yaml")
		if code != 0 || strings.Contains(out, "cannot run") || !strings.Contains(out, "0 errors, 0 warnings") {
			t.Errorf("examples/%s: exit %d\n%s%s", ex, code, out, errOut)
		}
	}
	code, out, errOut := runFrcd("validate", "--hal", "systemcore", "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml")
	if code != 0 {
		t.Fatalf("examples/competition: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		`nidec "shooter_joint": the systemcore backend cannot run it: it has no DIO duty-cycle outputs`,
		`encoder "turret_encoder": ch_a: DIO 8 and 9: Systemcore counts quadrature on SmartIO channel pairs 0/1, 2/3, 4/5 only`,
		`digital_input "elevator_lower_limit": dio_channel: DIO channel 6: Systemcore has SmartIO channels 0-5 only (WPILib's kNumSmartIo = 6)`,
		`analog_input "shoulder_pot": ain_channel: analog input channel 0 is SmartIO channel 0, which right_front_wheel_joint's id already uses`,
		`pwm_victor_spx "conveyor_joint": id: PWM channel 9: Systemcore has SmartIO channels 0-5 only`,
		`relay "hatch_joint": the systemcore backend cannot run it: it has no relay channels`,
		`analog_output "underglow_led": the systemcore backend cannot run it: it has no analog outputs`,
		`navx "navx": the systemcore backend cannot run it: it has no roboRIO SPI or I2C ports`,
		// CTRE ships no Phoenix 5 for Systemcore (deploy/ctre.md).
		`talon_srx "left_front_wheel_joint": the systemcore backend cannot run it`, `pigeon_imu "pigeon": the systemcore backend cannot run it`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--hal systemcore lacks %q\n%s", want, out)
		}
	}
	for _, not := range []string{`pdp "pdp":`, `spark "right_front_wheel_joint":`, `victor_sp "right_rear_wheel_joint":`,
		`encoder "left_drive_encoder": ch_a: DIO 0 and 1`, `encoder "left_drive_encoder": the systemcore backend cannot run it`} {
		if strings.Contains(out, not) {
			t.Errorf("--hal systemcore warns about %s, which it runs\n%s", not, out)
		}
	}
}
