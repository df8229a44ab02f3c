//go:build cgo && (roborio || systemcore)

// wpihal.h: the trampolines through which Go calls the WPILib HAL once
// frcd_load has loaded libwpiHal.so at run time; the part both HALs share
// (the roboRIO's 2026 HAL, allwpilib tag v2026.2.2, and Systemcore's 2027
// HAL, allwpilib tag v2027.0.0-alpha-6 and main at caf0fb2dcc), with
// year-neutral types. Each year's
// C file (hal2026.c, hal2027.c) declares its HAL's functions from that
// year's headers and implements these on them; hal2026.h and hal2027.h
// declare what only one year has.
//
// A trampoline of a call that can fail gives its int32 status (0 is
// success), returned alone, beside the result in a struct returned by
// value, or in C memory the caller passes, so that a call neither
// allocates nor hands Go pointers to the library.

#ifndef FRCD_WPIHAL_H
#define FRCD_WPIHAL_H

#include <stdint.h>

// HAL error codes frcd interprets (Errors.h of both years, CAN.h of 2026).
#define FRCD_RESOURCE_IS_ALLOCATED -1029
#define FRCD_RESOURCE_OUT_OF_RANGE -1030
#define FRCD_PARAMETER_OUT_OF_RANGE -1028
#define FRCD_HAL_USE_LAST_ERROR -1156
#define FRCD_CAN_MESSAGE_NOT_FOUND -44087

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

// A joystick, whichever year's structs it was read from: axes -1 to 1,
// POVs in degrees (-1 centred), buttons from bit 0.
typedef struct {
	int32_t naxes;
	float axes[12];
	int32_t npovs;
	int16_t povs[12];
	int32_t nbuttons;
	uint64_t buttons;
} frcd_joystick;

// The match: event name (NUL-terminated), HAL_MatchType, number, replay,
// game-specific message (msglen bytes).
typedef struct {
	char event[68];
	int32_t type;
	int32_t number;
	int32_t replay;
	char msg[68];
	int32_t msglen;
} frcd_match;

// frcd_ds's bits.
#define FRCD_DS_ENABLED 1
#define FRCD_DS_AUTONOMOUS 2
#define FRCD_DS_TEST 4
#define FRCD_DS_ESTOP 8
#define FRCD_DS_FMS 16
#define FRCD_DS_ATTACHED 32
#define FRCD_DS_OUTPUTS 64   // the HAL says outputs are enabled (2027's HAL_GetOutputsEnabled; always on 2026)
#define FRCD_DS_REFRESHED 128 // HAL_RefreshDSData said it had the DS's data

// Loading. frcd_load opens path (RTLD_NOW | RTLD_GLOBAL), tells which of the
// year's layouts the library is by the symbols it exports and resolves every
// symbol that layout's functions need; on failure (a library of no layout
// this build calls, or lacking a function) it returns 0 and writes one line
// to err. frcd_hal_year names the year this build calls ("2026", "2027"),
// frcd_hal_layout the layout loaded ("v2026.2.2", "v2027.0.0-alpha-6",
// "main caf0fb2dcc"; "" before a load succeeds).
int frcd_load(const char* path, char* err, int errlen);
const char* frcd_hal_year(void);
const char* frcd_hal_layout(void);

// Base. frcd_initialize gives HAL_Initialize's result (1 ok); the 2026 HAL
// takes the timeout (ms) to wait for another robot program to exit, the
// 2027 HAL takes none.
int frcd_initialize(int32_t timeout_ms);
void frcd_shutdown(void);
const char* frcd_error_message(int32_t code);
const char* frcd_last_error(int32_t* code);
// frcd_now_us: the HAL's clock, µs (2026: HAL_GetFPGATime; 2027:
// HAL_GetMonotonicTime, which cannot fail).
frcd_u64 frcd_now_us(void);
frcd_double frcd_vin(void);
frcd_int frcd_browned_out(void);

// Driver Station.
void frcd_observe_starting(void);
// frcd_ds refreshes the Driver Station data, reads the control word as the
// FRCD_DS_ bits and tells the Driver Station the program runs in that mode,
// or disabled when run is 0 (frcd holds the robot disabled) or the word does
// not let it run.
frcd_int frcd_ds(int32_t run);
frcd_double frcd_match_time(void);
int32_t frcd_match_info(frcd_match* out);
int32_t frcd_joystick_read(int32_t n, frcd_joystick* out);

// PWM: a pulse of us µs; 0 disables the output, frcd_pwm_always_high holds
// it high.
frcd_int frcd_pwm_init(int32_t channel);
void frcd_pwm_free(int32_t h);
int32_t frcd_pwm_set_us(int32_t h, int32_t us);
int32_t frcd_pwm_disable(int32_t h);
int32_t frcd_pwm_always_high(int32_t h);

// DIO.
frcd_int frcd_dio_init(int32_t channel, int32_t input);
void frcd_dio_free(int32_t h);
int32_t frcd_dio_set(int32_t h, int32_t v);
frcd_int frcd_dio_get(int32_t h);

// Analog inputs.
frcd_int frcd_ai_init(int32_t channel);
void frcd_ai_free(int32_t h);
frcd_double frcd_ai_voltage(int32_t h);

// Encoders: frcd_encoder_raw is HAL_GetEncoderRaw.
void frcd_encoder_free(int32_t h);
frcd_int frcd_encoder_raw(int32_t h);

// Duty-cycle inputs (DutyCycle.h of both years; each year's header opens
// one): the frequency in Hz (0 with no signal; the 2026 HAL's is whole
// Hz) and the output, the fraction of each period the signal is high.
void frcd_dutycycle_free(int32_t h);
frcd_double frcd_dutycycle_frequency(int32_t h);
frcd_double frcd_dutycycle_output(int32_t h);

#endif
