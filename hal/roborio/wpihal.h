//go:build roborio && cgo

// wpihal.h: the parts of the WPILib HAL's C API (2026, allwpilib tag
// v2026.2.2, hal/src/main/native/include/hal/) that frcd uses, declared
// here from the headers' signatures, and the trampolines through which Go
// calls them once wpihal.c has loaded libwpiHal.so at run time.
//
// A trampoline of a call that can fail gives its int32 status (0 is
// success), returned alone, beside the result in a struct returned by
// value, or in C memory the caller passes (the SPI and I2C transfers return
// the HAL's byte count instead), so that a call neither allocates nor hands
// Go pointers to the library.

#ifndef FRCD_WPIHAL_H
#define FRCD_WPIHAL_H

#include <stdint.h>

// HAL error codes frcd interprets (hal/Errors.h, hal/CAN.h).
#define FRCD_RESOURCE_IS_ALLOCATED -1029
#define FRCD_RESOURCE_OUT_OF_RANGE -1030
#define FRCD_PARAMETER_OUT_OF_RANGE -1028
#define FRCD_HAL_USE_LAST_ERROR -1156
#define FRCD_CAN_MESSAGE_NOT_FOUND -44087

// HAL_ControlWord (hal/DriverStationTypes.h).
typedef struct {
	uint32_t enabled : 1;
	uint32_t autonomous : 1;
	uint32_t test : 1;
	uint32_t eStop : 1;
	uint32_t fmsAttached : 1;
	uint32_t dsAttached : 1;
	uint32_t control_reserved : 26;
} frcd_ControlWord;

// HAL_JoystickAxes, HAL_JoystickPOVs, HAL_JoystickButtons.
typedef struct {
	int16_t count;
	float axes[12];
	uint8_t raw[12];
} frcd_JoystickAxes;

typedef struct {
	int16_t count;
	int16_t povs[12];
} frcd_JoystickPOVs;

typedef struct {
	uint32_t buttons;
	uint8_t count;
} frcd_JoystickButtons;

// HAL_MatchInfo (DriverStationTypes.h); matchType is the HAL_MatchType
// enum, an int32_t.
typedef struct {
	char eventName[64];
	int32_t matchType;
	uint16_t matchNumber;
	uint8_t replayNumber;
	uint8_t gameSpecificMessage[64];
	uint16_t gameSpecificMessageSize;
} frcd_MatchInfo;

// A joystick as one trampoline reads it.
typedef struct {
	frcd_JoystickAxes axes;
	frcd_JoystickPOVs povs;
	frcd_JoystickButtons buttons;
} frcd_joystick;

// A CAN frame as HAL_CAN_ReceiveMessage returns it.
typedef struct {
	uint8_t data[8];
	uint8_t len;
	uint32_t stamp;    // ms, NetComm's CLOCK_MONOTONIC base
	uint32_t baseTime; // HAL_GetCANPacketBaseTime() right after
	int32_t status;
} frcd_canrx;

typedef struct {
	double v;
	int32_t status;
} frcd_double;

typedef struct {
	int32_t v;
	int32_t status;
} frcd_int;

typedef struct {
	uint64_t v;
	int32_t status;
} frcd_u64;

// Loading. frcd_load opens path (RTLD_NOW | RTLD_GLOBAL) and resolves every
// symbol; on failure it returns 0 and writes one line to err.
int frcd_load(const char* path, char* err, int errlen);

// Base.
int frcd_initialize(int32_t timeout, int32_t mode);
void frcd_shutdown(void);
const char* frcd_error_message(int32_t code);
const char* frcd_last_error(int32_t* code);
frcd_u64 frcd_fpga_time(void);
frcd_double frcd_vin(void);
frcd_int frcd_browned_out(void);

// The built-in accelerometer: range is HAL_AccelerometerRange (0 2 g,
// 1 4 g, 2 8 g); xyz gets x, y, z in g.
void frcd_accel_open(int32_t range);
void frcd_accel_read(double* xyz);

// Driver Station.
void frcd_observe_starting(void);
// frcd_ds refreshes the Driver Station data, reads the control word as
// bits (enabled, autonomous, test, eStop, fmsAttached, dsAttached from bit
// 0 up) and tells the Driver Station the program runs in that mode.
frcd_int frcd_ds(void);
frcd_double frcd_match_time(void);
int32_t frcd_match_info(frcd_MatchInfo* out);
int32_t frcd_joystick_read(int32_t n, frcd_joystick* out);

// PWM.
frcd_int frcd_pwm_init(int32_t channel);
void frcd_pwm_free(int32_t h);
int32_t frcd_pwm_set_us(int32_t h, int32_t us);
int32_t frcd_pwm_disable(int32_t h);
int32_t frcd_pwm_always_high(int32_t h);

// DIO and the DIO PWM generators.
frcd_int frcd_dio_init(int32_t channel, int32_t input);
void frcd_dio_free(int32_t h);
int32_t frcd_dio_set(int32_t h, int32_t v);
frcd_int frcd_dio_get(int32_t h);
frcd_int frcd_dpwm_alloc(void);
void frcd_dpwm_free(int32_t h);
int32_t frcd_dpwm_rate(double hz);
int32_t frcd_dpwm_channel(int32_t h, int32_t channel);
int32_t frcd_dpwm_duty(int32_t h, double duty);

// Analog.
frcd_int frcd_ai_init(int32_t channel);
void frcd_ai_free(int32_t h);
int32_t frcd_ai_average_bits(int32_t h, int32_t bits);
int32_t frcd_ai_oversample_bits(int32_t h, int32_t bits);
frcd_double frcd_ai_voltage(int32_t h);
frcd_double frcd_ai_average_voltage(int32_t h);
frcd_int frcd_ao_init(int32_t channel);
void frcd_ao_free(int32_t h);
int32_t frcd_ao_set(int32_t h, double volts);

// Encoders: encoding is HAL_EncoderEncodingType (0 1x, 1 2x, 2 4x).
frcd_int frcd_encoder_init(int32_t dioA, int32_t dioB, int32_t encoding);
void frcd_encoder_free(int32_t h);
frcd_int frcd_encoder_raw(int32_t h);

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
