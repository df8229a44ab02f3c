package roborio

import (
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
)

// Caps are the providers the roboRIO backend has: the FPGA's I/O, the CAN
// bus and the SPI and I2C ports, and CTRE's devices through CTRE's
// libraries when they are deployed (hal/ctre). It builds without the
// roborio tag, so that `frcd validate --hal roborio` knows it anywhere;
// TestCTRE checks it against the backend.
const Caps = hal.CapPWM | hal.CapDIO | hal.CapDutyCycle | hal.CapAnalogIn | hal.CapAnalogOut | hal.CapEncoder |
	hal.CapRelay | hal.CapCAN | hal.CapRIOPorts | hal.CapAccel | ctre.Caps
