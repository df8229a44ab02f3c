package main

import (
	"strings"
	"testing"
)

// validate --hal systemcore: examples/systemcore runs as it is; on the
// competition example every device Systemcore's backend cannot run gets
// its finding (PWM controllers, DIO, analog I/O, encoders, relays, the
// navX on roboRIO ports, CTRE's closed devices), and no CAN device that it
// can run (the PDP) does.
func TestValidateSystemcore(t *testing.T) {
	code, out, errOut := runFrcd("validate", "--hal", "systemcore", "../../examples/systemcore/robot.urdf", "../../examples/systemcore/robot.yaml")
	if code != 0 || strings.Contains(out, "cannot run") || !strings.Contains(out, "0 errors, 0 warnings") {
		t.Errorf("examples/systemcore: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runFrcd("validate", "--hal", "systemcore", "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml")
	if code != 0 {
		t.Fatalf("examples/competition: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		`spark "right_front_wheel_joint": the systemcore backend cannot run it: it has no PWM outputs`,
		`encoder "left_drive_encoder": the systemcore backend cannot run it: it has no quadrature encoders`,
		`digital_input "elevator_lower_limit": the systemcore backend cannot run it: it has no DIO channels`,
		`analog_input "shoulder_pot": the systemcore backend cannot run it: it has no analog inputs`,
		`relay "hatch_joint": the systemcore backend cannot run it: it has no relay channels`,
		`analog_output "underglow_led": the systemcore backend cannot run it: it has no analog outputs`,
		`navx "navx": the systemcore backend cannot run it: it has no roboRIO SPI or I2C ports`,
		`talon_srx "left_front_wheel_joint": the systemcore backend cannot run it: it has no vendor-library CAN motor controllers`,
		`pigeon_imu "pigeon": the systemcore backend cannot run it: it has no vendor-library Pigeon IMUs`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--hal systemcore lacks %q\n%s", want, out)
		}
	}
	if strings.Contains(out, `pdp "pdp": the systemcore`) {
		t.Errorf("--hal systemcore warns about the PDP, a CAN device\n%s", out)
	}
}
