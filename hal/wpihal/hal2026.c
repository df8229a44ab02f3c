//go:build cgo && roborio

// hal2026.c: the roboRIO's WPILib HAL, 2026 (allwpilib tag v2026.2.2,
// commit 7ca35e5678, hal/src/main/native/include/hal/): its functions as
// frcd calls them, and the trampolines of wpihal.h and hal2026.h on them.
// testdata/wpihal_decls.txt has each declaration with its header; a test
// checks the table below against it.

#include <string.h>

#include "hal2026.h"
#include "wpihal.h"

typedef int32_t HAL_Handle;
typedef int32_t HAL_Bool;

// HAL_ControlWord (DriverStationTypes.h): bit fields from bit 0 up.
typedef struct {
	uint32_t enabled : 1;
	uint32_t autonomous : 1;
	uint32_t test : 1;
	uint32_t eStop : 1;
	uint32_t fmsAttached : 1;
	uint32_t dsAttached : 1;
	uint32_t control_reserved : 26;
} frcd_ControlWord;

// HAL_JoystickAxes, HAL_JoystickPOVs, HAL_JoystickButtons
// (DriverStationTypes.h; HAL_kMaxJoystickAxes = HAL_kMaxJoystickPOVs = 12).
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

// X(name, return type, parameter list): every HAL function frcd calls.
#define FRCD_HAL_FUNCS(X)                                                                  \
	X(HAL_Initialize, HAL_Bool, (int32_t timeout, int32_t mode))                           \
	X(HAL_Shutdown, void, (void))                                                          \
	X(HAL_GetErrorMessage, const char*, (int32_t code))                                    \
	X(HAL_GetLastError, const char*, (int32_t * status))                                   \
	X(HAL_GetFPGATime, uint64_t, (int32_t * status))                                       \
	X(HAL_GetVinVoltage, double, (int32_t * status))                                       \
	X(HAL_GetBrownedOut, HAL_Bool, (int32_t * status))                                     \
	X(HAL_GetPort, HAL_Handle, (int32_t channel))                                          \
	X(HAL_ObserveUserProgramStarting, void, (void))                                        \
	X(HAL_ObserveUserProgramDisabled, void, (void))                                        \
	X(HAL_ObserveUserProgramAutonomous, void, (void))                                      \
	X(HAL_ObserveUserProgramTeleop, void, (void))                                          \
	X(HAL_ObserveUserProgramTest, void, (void))                                            \
	X(HAL_RefreshDSData, HAL_Bool, (void))                                                 \
	X(HAL_GetControlWord, int32_t, (frcd_ControlWord * word))                              \
	X(HAL_GetMatchTime, double, (int32_t * status))                                        \
	X(HAL_GetMatchInfo, int32_t, (frcd_MatchInfo * info))                                  \
	X(HAL_GetJoystickAxes, int32_t, (int32_t n, frcd_JoystickAxes * axes))                 \
	X(HAL_GetJoystickPOVs, int32_t, (int32_t n, frcd_JoystickPOVs * povs))                 \
	X(HAL_GetJoystickButtons, int32_t, (int32_t n, frcd_JoystickButtons * buttons))        \
	X(HAL_InitializePWMPort, HAL_Handle, (HAL_Handle port, const char* loc, int32_t* status)) \
	X(HAL_FreePWMPort, void, (HAL_Handle h))                                               \
	X(HAL_SetPWMPulseTimeMicroseconds, void, (HAL_Handle h, int32_t us, int32_t * status)) \
	X(HAL_SetPWMDisabled, void, (HAL_Handle h, int32_t * status))                          \
	X(HAL_SetPWMAlwaysHighMode, void, (HAL_Handle h, int32_t * status))                    \
	X(HAL_InitializeDIOPort, HAL_Handle, (HAL_Handle port, HAL_Bool input, const char* loc, int32_t* status)) \
	X(HAL_FreeDIOPort, void, (HAL_Handle h))                                               \
	X(HAL_SetDIO, void, (HAL_Handle h, HAL_Bool value, int32_t * status))                  \
	X(HAL_GetDIO, HAL_Bool, (HAL_Handle h, int32_t * status))                              \
	X(HAL_AllocateDigitalPWM, HAL_Handle, (int32_t * status))                              \
	X(HAL_FreeDigitalPWM, void, (HAL_Handle h))                                            \
	X(HAL_SetDigitalPWMRate, void, (double rate, int32_t* status))                         \
	X(HAL_SetDigitalPWMDutyCycle, void, (HAL_Handle h, double duty, int32_t* status))      \
	X(HAL_SetDigitalPWMOutputChannel, void, (HAL_Handle h, int32_t channel, int32_t* status)) \
	X(HAL_InitializeAnalogInputPort, HAL_Handle, (HAL_Handle port, const char* loc, int32_t* status)) \
	X(HAL_FreeAnalogInputPort, void, (HAL_Handle h))                                       \
	X(HAL_SetAnalogAverageBits, void, (HAL_Handle h, int32_t bits, int32_t* status))       \
	X(HAL_SetAnalogOversampleBits, void, (HAL_Handle h, int32_t bits, int32_t* status))    \
	X(HAL_GetAnalogVoltage, double, (HAL_Handle h, int32_t * status))                      \
	X(HAL_GetAnalogAverageVoltage, double, (HAL_Handle h, int32_t * status))               \
	X(HAL_InitializeAnalogOutputPort, HAL_Handle, (HAL_Handle port, const char* loc, int32_t* status)) \
	X(HAL_FreeAnalogOutputPort, void, (HAL_Handle h))                                      \
	X(HAL_SetAnalogOutput, void, (HAL_Handle h, double volts, int32_t* status))            \
	X(HAL_InitializeEncoder, HAL_Handle,                                                   \
	  (HAL_Handle a, int32_t trigA, HAL_Handle b, int32_t trigB, HAL_Bool reverse, int32_t encoding, int32_t* status)) \
	X(HAL_FreeEncoder, void, (HAL_Handle h))                                               \
	X(HAL_GetEncoderRaw, int32_t, (HAL_Handle h, int32_t * status))                        \
	X(HAL_InitializeDutyCycle, HAL_Handle, (HAL_Handle source, int32_t triggerType, int32_t* status)) \
	X(HAL_FreeDutyCycle, void, (HAL_Handle h))                                             \
	X(HAL_GetDutyCycleFrequency, int32_t, (HAL_Handle h, int32_t * status))                \
	X(HAL_GetDutyCycleOutput, double, (HAL_Handle h, int32_t * status))                    \
	X(HAL_InitializeRelayPort, HAL_Handle, (HAL_Handle port, HAL_Bool fwd, const char* loc, int32_t* status)) \
	X(HAL_FreeRelayPort, void, (HAL_Handle h))                                             \
	X(HAL_SetRelay, void, (HAL_Handle h, HAL_Bool on, int32_t * status))                   \
	X(HAL_CAN_SendMessage, void, (uint32_t id, const uint8_t* data, uint8_t len, int32_t period, int32_t* status)) \
	X(HAL_CAN_ReceiveMessage, void,                                                        \
	  (uint32_t * id, uint32_t mask, uint8_t * data, uint8_t * len, uint32_t * stamp, int32_t * status)) \
	X(HAL_GetCANPacketBaseTime, uint32_t, (void))                                          \
	X(HAL_InitializeSPI, void, (int32_t port, int32_t * status))                           \
	X(HAL_TransactionSPI, int32_t, (int32_t port, const uint8_t* tx, uint8_t* rx, int32_t n)) \
	X(HAL_SetSPISpeed, void, (int32_t port, int32_t hz))                                   \
	X(HAL_SetSPIMode, void, (int32_t port, int32_t mode))                                  \
	X(HAL_SetSPIChipSelectActiveLow, void, (int32_t port, int32_t * status))               \
	X(HAL_CloseSPI, void, (int32_t port))                                                  \
	X(HAL_InitializeI2C, void, (int32_t port, int32_t * status))                           \
	X(HAL_TransactionI2C, int32_t,                                                         \
	  (int32_t port, int32_t addr, const uint8_t* w, int32_t nw, uint8_t* r, int32_t nr))  \
	X(HAL_WriteI2C, int32_t, (int32_t port, int32_t addr, const uint8_t* w, int32_t nw))   \
	X(HAL_ReadI2C, int32_t, (int32_t port, int32_t addr, uint8_t* r, int32_t nr))          \
	X(HAL_CloseI2C, void, (int32_t port))                                                  \
	X(HAL_SetAccelerometerActive, void, (HAL_Bool active))                                 \
	X(HAL_SetAccelerometerRange, void, (int32_t range))                                    \
	X(HAL_GetAccelerometerX, double, (void))                                               \
	X(HAL_GetAccelerometerY, double, (void))                                               \
	X(HAL_GetAccelerometerZ, double, (void))

// One layout: v2026.2.2's. Systemcore's 2027 HAL (HAL_GetMonotonicTime,
// since v2027.0.0-alpha-5) is refused.
#define FRCD_LAYOUTS {"v2026.2.2", {NULL}, {"HAL_GetMonotonicTime", NULL}}
#define FRCD_MARKERS "HAL_GetFPGATime", "HAL_GetMonotonicTime"
#define FRCD_BUILD "this frcd calls the roboRIO's 2026 HAL of allwpilib v2026.2.2"
#define FRCD_HAL_YEAR "2026"
#include "loader.h"

static int frcd_resolve_layout(void* lib, const char* path, int layout, char* err, int errlen) {
	(void)lib, (void)path, (void)layout, (void)err, (void)errlen;
	return 1; // one layout: FRCD_HAL_FUNCS has it all
}

// Mode 0 kills a robot program that still runs, as WPILib's programs do.
int frcd_initialize(int32_t timeout_ms) { return p_HAL_Initialize(timeout_ms, 0); }
void frcd_shutdown(void) { p_HAL_Shutdown(); }
const char* frcd_error_message(int32_t code) { return p_HAL_GetErrorMessage(code); }
const char* frcd_last_error(int32_t* code) { return p_HAL_GetLastError(code); }

frcd_u64 frcd_now_us(void) {
	frcd_u64 r = {0, 0};
	r.v = p_HAL_GetFPGATime(&r.status);
	return r;
}

frcd_double frcd_vin(void) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetVinVoltage(&r.status);
	return r;
}

void frcd_observe_starting(void) { p_HAL_ObserveUserProgramStarting(); }

// As WPILib's BuiltInAccelerometer: standby, the range, active.
void frcd_accel_open(int32_t range) {
	p_HAL_SetAccelerometerActive(0);
	p_HAL_SetAccelerometerRange(range);
	p_HAL_SetAccelerometerActive(1);
}

void frcd_accel_read(double* xyz) {
	xyz[0] = p_HAL_GetAccelerometerX();
	xyz[1] = p_HAL_GetAccelerometerY();
	xyz[2] = p_HAL_GetAccelerometerZ();
}

frcd_int frcd_ds(int32_t run) {
	frcd_ControlWord w;
	frcd_int r = {0, 0};
	memset(&w, 0, sizeof w);
	// The 2026 HAL_RefreshDSData says whether new data came since the last
	// call (FRCDriverStation.cpp: prev != nullptr), false on every other
	// cycle of a loop faster than the DS's 50 Hz: no staleness, so it
	// counts as refreshed. A detached DS zeroes the word it gives.
	p_HAL_RefreshDSData();
	int refreshed = 1;
	r.status = p_HAL_GetControlWord(&w);
	if (r.status != 0) {
		memset(&w, 0, sizeof w);
	}
	// The 2026 HAL has no separate outputs-enabled state: the FPGA's own
	// watchdog disables the outputs with the Driver Station.
	r.v = (int32_t)((uint32_t)w.enabled * FRCD_DS_ENABLED | (uint32_t)w.autonomous * FRCD_DS_AUTONOMOUS |
			(uint32_t)w.test * FRCD_DS_TEST | (uint32_t)w.eStop * FRCD_DS_ESTOP |
			(uint32_t)w.fmsAttached * FRCD_DS_FMS | (uint32_t)w.dsAttached * FRCD_DS_ATTACHED | FRCD_DS_OUTPUTS |
			(refreshed ? FRCD_DS_REFRESHED : 0));
	// The Driver Station shows the robot's code as running only while the
	// program says, every loop, which mode it runs in.
	if (!run || !w.enabled || w.eStop || !w.dsAttached) {
		p_HAL_ObserveUserProgramDisabled();
	} else if (w.test) {
		p_HAL_ObserveUserProgramTest();
	} else if (w.autonomous) {
		p_HAL_ObserveUserProgramAutonomous();
	} else {
		p_HAL_ObserveUserProgramTeleop();
	}
	return r;
}

frcd_int frcd_browned_out(void) {
	frcd_int r = {0, 0};
	r.v = p_HAL_GetBrownedOut(&r.status);
	return r;
}

frcd_double frcd_match_time(void) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetMatchTime(&r.status);
	return r;
}

int32_t frcd_match_info(frcd_match* out) {
	frcd_MatchInfo m;
	memset(out, 0, sizeof *out);
	memset(&m, 0, sizeof m);
	int32_t s = p_HAL_GetMatchInfo(&m);
	if (s != 0) {
		return s;
	}
	memcpy(out->event, m.eventName, sizeof m.eventName); // 64 bytes, perhaps without a NUL: out->event has 68
	out->type = m.matchType;
	out->number = m.matchNumber;
	out->replay = m.replayNumber;
	out->msglen = m.gameSpecificMessageSize < sizeof m.gameSpecificMessage ? m.gameSpecificMessageSize
	                                                                        : (int32_t)sizeof m.gameSpecificMessage;
	memcpy(out->msg, m.gameSpecificMessage, out->msglen);
	return 0;
}

int32_t frcd_joystick_read(int32_t n, frcd_joystick* out) {
	frcd_JoystickAxes a;
	frcd_JoystickPOVs p;
	frcd_JoystickButtons b;
	memset(out, 0, sizeof *out);
	memset(&a, 0, sizeof a);
	memset(&p, 0, sizeof p);
	memset(&b, 0, sizeof b);
	int32_t s = p_HAL_GetJoystickAxes(n, &a);
	if (s == 0) {
		s = p_HAL_GetJoystickPOVs(n, &p);
	}
	if (s == 0) {
		s = p_HAL_GetJoystickButtons(n, &b);
	}
	if (s != 0) {
		return s;
	}
	out->naxes = a.count < 0 ? 0 : a.count > 12 ? 12 : a.count;
	memcpy(out->axes, a.axes, sizeof out->axes);
	out->npovs = p.count < 0 ? 0 : p.count > 12 ? 12 : p.count;
	memcpy(out->povs, p.povs, sizeof out->povs); // degrees, -1 centred, as frcd keeps them
	out->nbuttons = b.count;
	out->buttons = b.buttons;
	return 0;
}

// Handle-returning initializers pass a NULL allocation location, as the
// HAL allows; it then reports no location in its "already allocated" errors.
frcd_int frcd_pwm_init(int32_t ch) { FRCD_INIT(p_HAL_InitializePWMPort(p_HAL_GetPort(ch), NULL, &r.status)) }
void frcd_pwm_free(int32_t h) { p_HAL_FreePWMPort(h); }

int32_t frcd_pwm_set_us(int32_t h, int32_t us) { FRCD_STATUS(p_HAL_SetPWMPulseTimeMicroseconds(h, us, &status)) }
int32_t frcd_pwm_disable(int32_t h) { FRCD_STATUS(p_HAL_SetPWMDisabled(h, &status)) }
int32_t frcd_pwm_always_high(int32_t h) { FRCD_STATUS(p_HAL_SetPWMAlwaysHighMode(h, &status)) }

frcd_int frcd_dio_init(int32_t ch, int32_t input) { FRCD_INIT(p_HAL_InitializeDIOPort(p_HAL_GetPort(ch), input, NULL, &r.status)) }
void frcd_dio_free(int32_t h) { p_HAL_FreeDIOPort(h); }
int32_t frcd_dio_set(int32_t h, int32_t v) { FRCD_STATUS(p_HAL_SetDIO(h, v, &status)) }
frcd_int frcd_dio_get(int32_t h) { FRCD_INIT(p_HAL_GetDIO(h, &r.status)) }
frcd_int frcd_dpwm_alloc(void) { FRCD_INIT(p_HAL_AllocateDigitalPWM(&r.status)) }
void frcd_dpwm_free(int32_t h) { p_HAL_FreeDigitalPWM(h); }
int32_t frcd_dpwm_rate(double hz) { FRCD_STATUS(p_HAL_SetDigitalPWMRate(hz, &status)) }
int32_t frcd_dpwm_channel(int32_t h, int32_t ch) { FRCD_STATUS(p_HAL_SetDigitalPWMOutputChannel(h, ch, &status)) }
int32_t frcd_dpwm_duty(int32_t h, double duty) { FRCD_STATUS(p_HAL_SetDigitalPWMDutyCycle(h, duty, &status)) }

frcd_int frcd_ai_init(int32_t ch) { FRCD_INIT(p_HAL_InitializeAnalogInputPort(p_HAL_GetPort(ch), NULL, &r.status)) }
void frcd_ai_free(int32_t h) { p_HAL_FreeAnalogInputPort(h); }
int32_t frcd_ai_average_bits(int32_t h, int32_t bits) { FRCD_STATUS(p_HAL_SetAnalogAverageBits(h, bits, &status)) }
int32_t frcd_ai_oversample_bits(int32_t h, int32_t bits) { FRCD_STATUS(p_HAL_SetAnalogOversampleBits(h, bits, &status)) }

frcd_double frcd_ai_voltage(int32_t h) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetAnalogVoltage(h, &r.status);
	return r;
}

frcd_double frcd_ai_average_voltage(int32_t h) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetAnalogAverageVoltage(h, &r.status);
	return r;
}

frcd_int frcd_ao_init(int32_t ch) { FRCD_INIT(p_HAL_InitializeAnalogOutputPort(p_HAL_GetPort(ch), NULL, &r.status)) }
void frcd_ao_free(int32_t h) { p_HAL_FreeAnalogOutputPort(h); }
int32_t frcd_ao_set(int32_t h, double v) { FRCD_STATUS(p_HAL_SetAnalogOutput(h, v, &status)) }

// The DIO handles are the routing sources; analog trigger type 0
// (HAL_Trigger_kInWindow) is what a DigitalInput routes as. Never reversed:
// frcd swaps channels A and B instead.
frcd_int frcd_encoder_init(int32_t a, int32_t b, int32_t encoding) {
	FRCD_INIT(p_HAL_InitializeEncoder(a, 0, b, 0, 0, encoding, &r.status))
}
void frcd_encoder_free(int32_t h) { p_HAL_FreeEncoder(h); }
frcd_int frcd_encoder_raw(int32_t h) { FRCD_INIT(p_HAL_GetEncoderRaw(h, &r.status)) }

// Trigger type 0: WPILib's DigitalInput::GetAnalogTriggerTypeForRouting
// (v2026.2.2), which the HAL's remapDigitalSource ignores for a DIO.
frcd_int frcd_dutycycle_init(int32_t dio) { FRCD_INIT(p_HAL_InitializeDutyCycle(dio, 0, &r.status)) }
void frcd_dutycycle_free(int32_t h) { p_HAL_FreeDutyCycle(h); }

frcd_double frcd_dutycycle_frequency(int32_t h) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetDutyCycleFrequency(h, &r.status);
	return r;
}

frcd_double frcd_dutycycle_output(int32_t h) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetDutyCycleOutput(h, &r.status);
	return r;
}

frcd_int frcd_relay_init(int32_t ch, int32_t fwd) { FRCD_INIT(p_HAL_InitializeRelayPort(p_HAL_GetPort(ch), fwd, NULL, &r.status)) }
void frcd_relay_free(int32_t h) { p_HAL_FreeRelayPort(h); }
int32_t frcd_relay_set(int32_t h, int32_t on) { FRCD_STATUS(p_HAL_SetRelay(h, on, &status)) }

// Period 0 is HAL_CAN_SEND_PERIOD_NO_REPEAT: sent once.
int32_t frcd_can_send(uint32_t id, const uint8_t* data, uint8_t len) {
	FRCD_STATUS(p_HAL_CAN_SendMessage(id, data, len, 0, &status))
}

// The full 29-bit mask asks NetComm for exactly that id; it answers with
// the newest frame that came since the last ask, or MessageNotFound.
void frcd_can_receive(uint32_t id, frcd_canrx* out) {
	memset(out, 0, sizeof *out);
	uint32_t mid = id;
	p_HAL_CAN_ReceiveMessage(&mid, 0x1FFFFFFF, out->data, &out->len, &out->stamp, &out->status);
	out->baseTime = p_HAL_GetCANPacketBaseTime();
}

int32_t frcd_spi_init(int32_t port) { FRCD_STATUS(p_HAL_InitializeSPI(port, &status)) }

int32_t frcd_spi_configure(int32_t port, int32_t hz, int32_t mode) {
	int32_t status = 0;
	p_HAL_SetSPISpeed(port, hz);
	p_HAL_SetSPIMode(port, mode);
	p_HAL_SetSPIChipSelectActiveLow(port, &status);
	return status;
}

int32_t frcd_spi_transaction(int32_t port, const uint8_t* tx, uint8_t* rx, int32_t n) {
	return p_HAL_TransactionSPI(port, tx, rx, n);
}
void frcd_spi_close(int32_t port) { p_HAL_CloseSPI(port); }

int32_t frcd_i2c_init(int32_t port) { FRCD_STATUS(p_HAL_InitializeI2C(port, &status)) }

int32_t frcd_i2c_transaction(int32_t port, int32_t addr, const uint8_t* w, int32_t nw, uint8_t* r, int32_t nr) {
	if (nw == 0) {
		return p_HAL_ReadI2C(port, addr, r, nr);
	}
	if (nr == 0) {
		return p_HAL_WriteI2C(port, addr, w, nw);
	}
	return p_HAL_TransactionI2C(port, addr, w, nw, r, nr);
}
void frcd_i2c_close(int32_t port) { p_HAL_CloseI2C(port); }
