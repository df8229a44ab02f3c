package wpihal

import (
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
)

// RoboRIOCaps are the providers the 2026 HAL's backend has on a roboRIO:
// the FPGA's I/O (duty-cycle inputs among them), the CAN bus, the SPI and I2C ports and the
// accelerometer, and CTRE's devices through CTRE's libraries when they are
// deployed (hal/ctre). This file builds without tags, so that `frcd
// validate --hal roborio` knows it anywhere; TestCTRE checks it against
// the backend.
var RoboRIOCaps = hal.CapPWM | hal.CapDIO | hal.CapDutyCycle | hal.CapDutyCycleIn | hal.CapAnalogIn | hal.CapAnalogOut | hal.CapEncoder |
	hal.CapRelay | hal.CapCAN | hal.CapRIOPorts | hal.CapAccel | ctre.Caps

// SystemcoreCaps are the providers the 2027 HAL's backend has on
// Systemcore: the SmartIO channels as PWM outputs, DIO, analog inputs,
// quadrature encoders, duty-cycle inputs and addressable LEDs, and the
// built-in IMU. (CAN is Systemcore's
// SocketCAN, hal/systemcore's.) TestCaps checks it against the backend.
const SystemcoreCaps = hal.CapPWM | hal.CapDIO | hal.CapAnalogIn | hal.CapEncoder | hal.CapIMU | hal.CapDutyCycleIn | hal.CapAddressableLED
