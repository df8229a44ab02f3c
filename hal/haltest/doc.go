// Package haltest holds fakes of package hal for unit tests, after
// periph's gpiotest: a stateful Backend whose exported fields tests set
// (inputs: analog volts, DIO levels, encoder counts, Vin, the Driver
// Station, the clock, received CAN frames) and inspect (outputs: PWM pulse
// widths, DIO levels and duty cycles, analog output volts, relay contacts,
// CAN frames sent, CAN motor duties).
//
// Channels are fixed arrays indexed by channel number, so that a test may
// set an input before or after a driver opens it, and a driver's calls
// reach plain fields without allocating. Each Open* checks the channel's
// range (ErrNoDevice) and refuses a second open (ErrInUse), as a real
// backend does. Setting a channel's Err makes every call on it fail.
//
// The Backend is not safe for concurrent use: like the loop it serves, it
// runs on one goroutine.
package haltest
