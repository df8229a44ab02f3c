//go:build cgo && roborio

// hal2026.h: the trampolines only the roboRIO's 2026 HAL has (hal2026.c):
// the accelerometer, the DIO PWM generators, the analog accumulator and
// outputs, encoders on DIO handles, relays, NetComm's CAN, SPI and I2C.

#ifndef FRCD_HAL2026_H
#define FRCD_HAL2026_H

#include <stdint.h>

#include "wpihal.h"

// A CAN frame as HAL_CAN_ReceiveMessage returns it.
typedef struct {
	uint8_t data[8];
	uint8_t len;
	uint32_t stamp;    // ms, NetComm's CLOCK_MONOTONIC base
	uint32_t baseTime; // HAL_GetCANPacketBaseTime() right after
	int32_t status;
} frcd_canrx;

// The built-in accelerometer: range is HAL_AccelerometerRange (0 2 g,
// 1 4 g, 2 8 g); xyz gets x, y, z in g.
void frcd_accel_open(int32_t range);
void frcd_accel_read(double* xyz);

// The DIO PWM generators.
frcd_int frcd_dpwm_alloc(void);
void frcd_dpwm_free(int32_t h);
int32_t frcd_dpwm_rate(double hz);
int32_t frcd_dpwm_channel(int32_t h, int32_t channel);
int32_t frcd_dpwm_duty(int32_t h, double duty);

// The analog accumulator and outputs.
int32_t frcd_ai_average_bits(int32_t h, int32_t bits);
int32_t frcd_ai_oversample_bits(int32_t h, int32_t bits);
frcd_double frcd_ai_average_voltage(int32_t h);
frcd_int frcd_ao_init(int32_t channel);
void frcd_ao_free(int32_t h);
int32_t frcd_ao_set(int32_t h, double volts);

// Encoders on two DIO handles: encoding is HAL_EncoderEncodingType (0 1x,
// 1 2x, 2 4x).
frcd_int frcd_encoder_init(int32_t dioA, int32_t dioB, int32_t encoding);

// A duty-cycle input on a DIO input's handle (HAL_InitializeDutyCycle of
// the handle, trigger type 0, as WPILib's DutyCycle of a DigitalInput;
// read with wpihal.h's frcd_dutycycle_*).
frcd_int frcd_dutycycle_init(int32_t dio);

// Relays.
frcd_int frcd_relay_init(int32_t channel, int32_t forward);
void frcd_relay_free(int32_t h);
int32_t frcd_relay_set(int32_t h, int32_t on);

// CAN.
int32_t frcd_can_send(uint32_t id, const uint8_t* data, uint8_t len);
void frcd_can_receive(uint32_t id, frcd_canrx* out);

// SPI and I2C; the transfers return the HAL's byte count (negative on
// failure).
int32_t frcd_spi_init(int32_t port);
int32_t frcd_spi_configure(int32_t port, int32_t hz, int32_t mode);
int32_t frcd_spi_transaction(int32_t port, const uint8_t* tx, uint8_t* rx, int32_t n);
void frcd_spi_close(int32_t port);
int32_t frcd_i2c_init(int32_t port);
int32_t frcd_i2c_transaction(int32_t port, int32_t addr, const uint8_t* w, int32_t nw, uint8_t* r, int32_t nr);
void frcd_i2c_close(int32_t port);

#endif
