// Package frc holds the wire facts of FRC hardware that both the device
// drivers (devices) and the simulated robot (sim) need: the PWM speed
// controllers' calibrations (pwm.go), the fields of FRC CAN identifiers
// with the device type and manufacturer numbers (can.go), and the navX-MXP
// register map and CRC (navx.go). It imports the standard library only
// and sits below every other package of frcd, so a driver and the sim
// part emulating its device read the same numbers without importing each
// other, and hal keeps only the hardware interfaces.
package frc
