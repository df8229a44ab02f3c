//go:build cgo && systemcore && !roborio

// hal2027.h: the trampolines only Systemcore's 2027 HAL has (hal2027.c).

#ifndef FRCD_HAL2027_H
#define FRCD_HAL2027_H

#include <stdint.h>

#include "wpihal.h"

// HAL_GetRuntimeType: 0 Systemcore, 1 simulation (HAL.h HAL_RuntimeType).
int32_t frcd_runtime_type(void);

// Op modes (DriverStation.h HAL_SetOpModeOptions): n options, option i
// with id ids[i] and the name of lens[i] bytes that follows option i-1's
// in names (the HAL copies them); no group or description, default
// colours. frcd_ds_opmode is the op mode id the control word frcd_ds read
// last selects, 0 for none.
int32_t frcd_set_opmodes(const int64_t* ids, const char* names, const int32_t* lens, int32_t n);
int64_t frcd_ds_opmode(void);

// HAL_SetPWMOutputPeriod: 0 5 ms, 1 or 2 10 ms, 3 20 ms (PWM.cpp).
int32_t frcd_pwm_period(int32_t h, int32_t period);

// HAL_InitializeEncoder on SmartIO channels a and b = a + 1, a even
// (Encoder.cpp IsValidChannelPair); encoding is HAL_EncoderEncodingType.
frcd_int frcd_encoder_init_channels(int32_t a, int32_t b, int32_t reverse, int32_t encoding);

// The built-in IMU: out gets the quaternion w, x, y, z, the gyro rates x,
// y, z (rad/s) and the acceleration x, y, z (m/s²); the status of the
// first call that failed.
int32_t frcd_imu_read(double* out);

// A duty-cycle input on a SmartIO channel (HAL_InitializeDutyCycle of the
// channel; read with wpihal.h's frcd_dutycycle_*).
frcd_int frcd_dutycycle_init(int32_t ch);

// Addressable LEDs on SmartIO channels (AddressableLED.h): a channel's
// window (start, length) of the one buffer of 1024 LEDs all channels
// share, and its colours, 3 bytes r, g, b per LED, written in the order
// given (HAL_AddressableLEDColorOrder).
frcd_int frcd_led_init(int32_t ch);
void frcd_led_free(int32_t h);
int32_t frcd_led_window(int32_t h, int32_t start, int32_t length);
int32_t frcd_led_set(int32_t start, int32_t length, int32_t order, const uint8_t* rgb);

#endif
