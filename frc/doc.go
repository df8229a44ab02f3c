// Package frc holds the wire facts of FRC hardware that both the device
// drivers (devices) and the simulated robot (sim) need: PWM speed
// controller calibrations and the like. It imports the standard library
// only and sits below every other package of frcd, so a driver and the
// sim part emulating its device read the same numbers without importing
// each other.
package frc
