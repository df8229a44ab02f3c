//go:build cgo && systemcore && !roborio

// hal2027.c: Systemcore's WPILib HAL, 2027, in the two layouts frcd
// calls, each from its headers (hal/src/main/native/include/wpi/hal/):
// allwpilib tag v2027.0.0-alpha-6 (commit 878da3d54cbc6b64d663bded17d87d5bed040ed9,
// 2026-05-07; alpha-5's headers declare every function and struct below
// alike) and main at commit caf0fb2dccb462a1507888246646daa5ba38cd82
// (2026-08-21). Its functions and types as frcd calls them, and the
// trampolines of wpihal.h and hal2027.h on them. testdata/wpihal_decls.txt
// has each declaration with its header and commit; a test checks the
// tables and structs below against it.

#include <stdlib.h>
#include <string.h>

#include "hal2027.h"
#include "wpihal.h"

typedef int32_t HAL_Handle;
typedef int32_t HAL_Bool;

// HAL_ControlWord (DriverStationTypes.h): one int64_t; the op mode hash in
// bits 0-55, the robot mode (HAL_RobotMode: 0 unknown, 1 autonomous, 2
// teleoperated, 3 utility) in 56-57, enabled 58, e-stop 59, FMS attached
// 60, DS attached 61 (the HAL_CONTROLWORD_*_MASK macros).
typedef struct {
	int64_t value;
} frcd_ControlWord;

#define CW_MODE_SHIFT 56
#define CW_MODE_MASK 0x0300000000000000LL
#define CW_ENABLED 0x0400000000000000LL
#define CW_ESTOP 0x0800000000000000LL
#define CW_FMS 0x1000000000000000LL
#define CW_DS 0x2000000000000000LL
#define CW_OPMODE_MASK 0x00FFFFFFFFFFFFFFLL

// WPI_String (wpiutil wpi/util/string.h) and HAL_OpModeOption
// (DriverStationTypes.h), alike in both layouts: the id holds the robot
// mode in bits 56-57 and the name's hash in 0-55; colours 0x00RRGGBB or
// -1 for the default.
typedef struct {
	const char* str;
	size_t len;
} WPI_String;

typedef struct {
	int64_t id;
	WPI_String name;
	WPI_String group;
	WPI_String description;
	int32_t textColor;
	int32_t backgroundColor;
} frcd_OpModeOption;

// HAL_JoystickAxes, HAL_JoystickPOVs, HAL_JoystickButtons
// (DriverStationTypes.h: HAL_MAX_JOYSTICK_AXES 12, HAL_MAX_JOYSTICK_POVS 8);
// "available" is a mask of the axes, POVs, buttons the joystick has.
typedef struct {
	uint16_t available;
	float axes[12];
	int16_t raw[12];
} frcd_JoystickAxes;

typedef struct {
	uint8_t available;
	uint8_t povs[8]; // HAL_JoystickPOV, a uint8_t: up 1, right 2, down 4, left 8
} frcd_JoystickPOVs;

typedef struct {
	uint64_t buttons;
	uint64_t available;
} frcd_JoystickButtons;

// HAL_MatchInfo (matchType is HAL_MatchType, an int32_t) and HAL_GameData.
// main's eventName is 65 bytes (allwpilib #8858, 2026-06-06), alpha-6's 64:
// read with the other's struct, the match type, number and replay would
// come from 4 bytes off.
typedef struct {
	char eventName[65];
	int32_t matchType;
	uint16_t matchNumber;
	uint8_t replayNumber;
} frcd_MatchInfo;

typedef struct {
	char eventName[64];
	int32_t matchType;
	uint16_t matchNumber;
	uint8_t replayNumber;
} frcd_MatchInfo_alpha6;

typedef struct {
	char gameData[9];
} frcd_GameData;

// IMUTypes.h: a time stamp, then the values (m/s², rad/s; quaternion w, x,
// y, z).
typedef struct {
	int64_t timestamp;
	double w, x, y, z;
} frcd_Quaternion;

typedef struct {
	int64_t timestamp;
	double x, y, z;
} frcd_Acceleration3d;

typedef struct {
	int64_t timestamp;
	double x, y, z;
} frcd_GyroRate3d;

// One LED's colour (AddressableLEDTypes.h): 3 bytes, r, g, b.
typedef struct {
	uint8_t r, g, b;
} frcd_AddressableLEDData;

// X(name, return type, parameter list): every HAL function frcd calls
// that both layouts declare alike.
#define FRCD_HAL_FUNCS(X)                                                                                   \
	X(HAL_Shutdown, void, (void))                                                                           \
	X(HAL_GetErrorMessage, const char*, (int32_t code))                                                     \
	X(HAL_GetLastError, const char*, (int32_t * status))                                                    \
	X(HAL_GetMonotonicTime, uint64_t, (void))                                                               \
	X(HAL_GetRuntimeType, int32_t, (void))                                                                  \
	X(HAL_GetVinVoltage, double, (int32_t * status))                                                        \
	X(HAL_GetBrownedOut, HAL_Bool, (int32_t * status))                                                      \
	X(HAL_ObserveUserProgramStarting, void, (void))                                                         \
	X(HAL_ObserveUserProgram, void, (frcd_ControlWord word))                                                \
	X(HAL_RefreshDSData, HAL_Bool, (void))                                                                  \
	X(HAL_GetControlWord, int32_t, (frcd_ControlWord * word))                                               \
	X(HAL_SetOpModeOptions, int32_t, (const frcd_OpModeOption* options, int32_t count))                     \
	X(HAL_GetOutputsEnabled, HAL_Bool, (void))                                                              \
	X(HAL_GetMatchTime, double, (int32_t * status))                                                         \
	X(HAL_GetGameData, int32_t, (frcd_GameData * data))                                                     \
	X(HAL_GetJoystickAxes, int32_t, (int32_t n, frcd_JoystickAxes * axes))                                  \
	X(HAL_GetJoystickPOVs, int32_t, (int32_t n, frcd_JoystickPOVs * povs))                                  \
	X(HAL_GetJoystickButtons, int32_t, (int32_t n, frcd_JoystickButtons * buttons))                         \
	X(HAL_InitializePWMPort, HAL_Handle, (int32_t channel, const char* loc, int32_t* status))               \
	X(HAL_FreePWMPort, void, (HAL_Handle h))                                                                \
	X(HAL_SetPWMPulseTimeMicroseconds, void, (HAL_Handle h, int32_t us, int32_t * status))                  \
	X(HAL_SetPWMOutputPeriod, void, (HAL_Handle h, int32_t period, int32_t * status))                       \
	X(HAL_InitializeDIOPort, HAL_Handle, (int32_t channel, HAL_Bool input, const char* loc, int32_t* status)) \
	X(HAL_FreeDIOPort, void, (HAL_Handle h))                                                                \
	X(HAL_SetDIO, void, (HAL_Handle h, HAL_Bool value, int32_t * status))                                   \
	X(HAL_GetDIO, HAL_Bool, (HAL_Handle h, int32_t * status))                                               \
	X(HAL_InitializeAnalogInputPort, HAL_Handle, (int32_t channel, const char* loc, int32_t* status))       \
	X(HAL_FreeAnalogInputPort, void, (HAL_Handle h))                                                        \
	X(HAL_GetAnalogVoltage, double, (HAL_Handle h, int32_t * status))                                       \
	X(HAL_InitializeEncoder, HAL_Handle,                                                                    \
	  (int32_t a, int32_t b, HAL_Bool reverse, int32_t encoding, int32_t* status))                          \
	X(HAL_FreeEncoder, void, (HAL_Handle h))                                                                \
	X(HAL_GetEncoderRaw, int32_t, (HAL_Handle h, int32_t * status))                                         \
	X(HAL_GetIMUQuaternion, void, (frcd_Quaternion * q, int32_t * status))                                  \
	X(HAL_GetIMUGyroRates, void, (frcd_GyroRate3d * rates, int32_t * status))                                 \
	X(HAL_GetIMUAcceleration, void, (frcd_Acceleration3d * accel, int32_t * status))                        \
	X(HAL_InitializeDutyCycle, HAL_Handle, (int32_t channel, const char* loc, int32_t* status))             \
	X(HAL_FreeDutyCycle, void, (HAL_Handle h))                                                              \
	X(HAL_GetDutyCycleFrequency, double, (HAL_Handle h, int32_t * status))                                  \
	X(HAL_GetDutyCycleOutput, double, (HAL_Handle h, int32_t * status))                                     \
	X(HAL_InitializeAddressableLED, HAL_Handle, (int32_t channel, const char* loc, int32_t* status))        \
	X(HAL_FreeAddressableLED, void, (HAL_Handle h))                                                         \
	X(HAL_SetAddressableLEDStart, void, (HAL_Handle h, int32_t start, int32_t * status))                    \
	X(HAL_SetAddressableLEDLength, void, (HAL_Handle h, int32_t length, int32_t * status))                  \
	X(HAL_SetAddressableLEDData, void,                                                                      \
	  (int32_t start, int32_t length, int32_t order, const frcd_AddressableLEDData* data, int32_t* status))

// The functions whose declarations differ between the layouts: main's
// HAL_Initialize takes no arguments (allwpilib #9152, 2026-07-24).
#define FRCD_HAL_FUNCS_MAIN(X)                                \
	X(HAL_Initialize, HAL_Bool, (void))                       \
	X(HAL_GetMatchInfo, int32_t, (frcd_MatchInfo * info))

#define FRCD_HAL_FUNCS_ALPHA6(X)                                      \
	X(HAL_Initialize, HAL_Bool, (int32_t timeout, int32_t mode))      \
	X(HAL_GetMatchInfo, int32_t, (frcd_MatchInfo_alpha6 * info))

// The layouts, told apart by the symbols the library exports (each checked
// in allwpilib's Systemcore HAL sources at the commit):
//   - main (caf0fb2dcc): HAL_SendProgramCrash (#8858, which made eventName
//     65 bytes) and HAL_SetBrownoutVoltages (#9238, 2026-08-07, after
//     #9152), and no HAL_GetBrownoutVoltage (#9238 removed it);
//   - v2027.0.0-alpha-6: HAL_GetMonotonicTime (since alpha-5) and
//     HAL_GetBrownoutVoltage, neither HAL_SendProgramCrash nor
//     HAL_SetBrownoutVoltages.
// main between #8858 and #9238 (HAL_SendProgramCrash beside
// HAL_GetBrownoutVoltage) is neither, nor is a 2027 alpha before alpha-5
// or the roboRIO's 2026 HAL (HAL_GetFPGATime, no HAL_GetMonotonicTime):
// refused.
#define FRCD_LAYOUT_MAIN 0
#define FRCD_LAYOUT_ALPHA6 1
#define FRCD_LAYOUTS                                                                                       \
	{"main caf0fb2dcc", {"HAL_GetMonotonicTime", "HAL_SendProgramCrash", "HAL_SetBrownoutVoltages", NULL}, \
	 {"HAL_GetBrownoutVoltage", NULL}},                                                                    \
	{"v2027.0.0-alpha-6", {"HAL_GetMonotonicTime", "HAL_GetBrownoutVoltage", NULL},                         \
	 {"HAL_SendProgramCrash", "HAL_SetBrownoutVoltages", NULL}}
#define FRCD_MARKERS \
	"HAL_GetMonotonicTime", "HAL_GetFPGATime", "HAL_GetBrownoutVoltage", "HAL_SendProgramCrash", "HAL_SetBrownoutVoltages"
#define FRCD_BUILD                                                                                  \
	"this frcd calls Systemcore's 2027 HAL of allwpilib v2027.0.0-alpha-6 (alpha-5's is the same) " \
	"or of main at caf0fb2dcc (2026-08-21)"
#define FRCD_HAL_YEAR "2027"
#include "loader.h"

#define FRCD_FIELD(name, ret, params) ret(*name) params;
static struct {
	FRCD_HAL_FUNCS_MAIN(FRCD_FIELD)
} l_main;
static struct {
	FRCD_HAL_FUNCS_ALPHA6(FRCD_FIELD)
} l_alpha6;

static int frcd_resolve_layout(void* lib, const char* path, int layout, char* err, int errlen) {
#define FRCD_RESOLVE_MAIN(name, ret, params)                                                     \
	if ((l_main.name = (ret(*) params)frcd_sym(lib, path, #name, err, errlen)) == NULL) { \
		return 0;                                                                        \
	}
#define FRCD_RESOLVE_ALPHA6(name, ret, params)                                                     \
	if ((l_alpha6.name = (ret(*) params)frcd_sym(lib, path, #name, err, errlen)) == NULL) { \
		return 0;                                                                          \
	}
	if (layout == FRCD_LAYOUT_MAIN) {
		FRCD_HAL_FUNCS_MAIN(FRCD_RESOLVE_MAIN)
	} else {
		FRCD_HAL_FUNCS_ALPHA6(FRCD_RESOLVE_ALPHA6)
	}
	return 1;
}

// Mode 0 kills a robot program that still runs, as WPILib's programs do;
// main's HAL_Initialize takes neither.
int frcd_initialize(int32_t timeout_ms) {
	if (frcd_layout_index == FRCD_LAYOUT_MAIN) {
		return l_main.HAL_Initialize();
	}
	return l_alpha6.HAL_Initialize(timeout_ms, 0);
}

void frcd_shutdown(void) { p_HAL_Shutdown(); }
const char* frcd_error_message(int32_t code) { return p_HAL_GetErrorMessage(code); }
const char* frcd_last_error(int32_t* code) { return p_HAL_GetLastError(code); }
int32_t frcd_runtime_type(void) { return p_HAL_GetRuntimeType(); }

frcd_u64 frcd_now_us(void) {
	frcd_u64 r = {p_HAL_GetMonotonicTime(), 0};
	return r;
}

frcd_double frcd_vin(void) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetVinVoltage(&r.status);
	return r;
}

frcd_int frcd_browned_out(void) {
	frcd_int r = {0, 0};
	r.v = p_HAL_GetBrownedOut(&r.status);
	return r;
}

void frcd_observe_starting(void) { p_HAL_ObserveUserProgramStarting(); }

// l_opmode is the op mode id of the control word frcd_ds read last
// (HAL_ControlWord_GetOpModeId: 0 when the hash bits are 0); read on the
// loop's thread, as frcd_ds is called.
static int64_t l_opmode;

int64_t frcd_ds_opmode(void) { return l_opmode; }

int32_t frcd_set_opmodes(const int64_t* ids, const char* names, const int32_t* lens, int32_t n) {
	if (n < 0 || n > 1000) {
		return FRCD_PARAMETER_OUT_OF_RANGE;
	}
	frcd_OpModeOption* opts = calloc(n > 0 ? (size_t)n : 1, sizeof *opts);
	if (opts == NULL) {
		return FRCD_PARAMETER_OUT_OF_RANGE;
	}
	const char* name = names;
	for (int32_t i = 0; i < n; i++) {
		opts[i].id = ids[i];
		opts[i].name.str = name;
		opts[i].name.len = (size_t)lens[i];
		opts[i].group.str = "";
		opts[i].description.str = "";
		opts[i].textColor = -1;
		opts[i].backgroundColor = -1;
		name += lens[i];
	}
	int32_t s = p_HAL_SetOpModeOptions(n > 0 ? opts : NULL, n);
	free(opts);
	return s;
}

frcd_int frcd_ds(int32_t run) {
	frcd_ControlWord w = {0};
	frcd_int r = {0, 0};
	int refreshed = p_HAL_RefreshDSData() != 0;
	r.status = p_HAL_GetControlWord(&w);
	if (r.status != 0) {
		w.value = 0;
	}
	l_opmode = (w.value & CW_OPMODE_MASK) == 0 ? 0 : w.value & (CW_OPMODE_MASK | CW_MODE_MASK);
	int outputs = p_HAL_GetOutputsEnabled() != 0;
	int mode = (int)((w.value & CW_MODE_MASK) >> CW_MODE_SHIFT);
	int enabled = (w.value & CW_ENABLED) != 0, estop = (w.value & CW_ESTOP) != 0, ds = (w.value & CW_DS) != 0;
	r.v = (enabled ? FRCD_DS_ENABLED : 0) | (mode == 1 ? FRCD_DS_AUTONOMOUS : 0) | (mode == 3 ? FRCD_DS_TEST : 0) |
	      (estop ? FRCD_DS_ESTOP : 0) | ((w.value & CW_FMS) != 0 ? FRCD_DS_FMS : 0) | (ds ? FRCD_DS_ATTACHED : 0) |
	      (outputs ? FRCD_DS_OUTPUTS : 0) | (refreshed ? FRCD_DS_REFRESHED : 0);
	// Tell the Driver Station, every loop, the mode the program runs in:
	// the word as read, its enable cleared unless frcd lets the robot run.
	frcd_ControlWord o = w;
	if (!run || !enabled || estop || !ds || !outputs || !refreshed) {
		o.value &= ~CW_ENABLED;
	}
	p_HAL_ObserveUserProgram(o);
	return r;
}

frcd_double frcd_match_time(void) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetMatchTime(&r.status);
	return r;
}

// FRCD_MATCH_INFO reads HAL_GetMatchInfo through layout lay's pointer,
// into its struct T, and then into out.
#define FRCD_MATCH_INFO(lay, T)                              \
	{                                                        \
		T m;                                                 \
		memset(&m, 0, sizeof m);                             \
		s = lay.HAL_GetMatchInfo(&m);                        \
		m.eventName[sizeof m.eventName - 1] = 0;             \
		memcpy(out->event, m.eventName, sizeof m.eventName); \
		out->type = m.matchType;                             \
		out->number = m.matchNumber;                         \
		out->replay = m.replayNumber;                        \
	}

int32_t frcd_match_info(frcd_match* out) {
	frcd_GameData g;
	int32_t s = 0;
	memset(out, 0, sizeof *out);
	memset(&g, 0, sizeof g);
	if (frcd_layout_index == FRCD_LAYOUT_MAIN) {
		FRCD_MATCH_INFO(l_main, frcd_MatchInfo)
	} else {
		FRCD_MATCH_INFO(l_alpha6, frcd_MatchInfo_alpha6)
	}
	if (s == 0) {
		s = p_HAL_GetGameData(&g);
	}
	if (s != 0) {
		memset(out, 0, sizeof *out);
		return s;
	}
	g.gameData[sizeof g.gameData - 1] = 0;
	out->msglen = (int32_t)strlen(g.gameData);
	memcpy(out->msg, g.gameData, out->msglen);
	return 0;
}

// bitlen is the position of the highest bit set, 0 for none: how many
// axes, POVs or buttons an "available" mask makes.
static int bitlen(uint64_t v) {
	int n = 0;
	while (v != 0) {
		n++;
		v >>= 1;
	}
	return n;
}

// povDegrees is a HAL_JoystickPOV as WPILib's angle in degrees: up 0,
// clockwise; -1 centred (or not a direction).
static int16_t povDegrees(uint8_t v) {
	switch (v) {
	case 0x01: return 0;
	case 0x03: return 45;
	case 0x02: return 90;
	case 0x06: return 135;
	case 0x04: return 180;
	case 0x0C: return 225;
	case 0x08: return 270;
	case 0x09: return 315;
	}
	return -1;
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
	out->naxes = bitlen(a.available);
	for (int i = 0; i < out->naxes && i < 12; i++) {
		out->axes[i] = a.axes[i];
	}
	out->npovs = bitlen(p.available);
	for (int i = 0; i < out->npovs && i < 8; i++) {
		out->povs[i] = povDegrees(p.povs[i]);
	}
	out->nbuttons = bitlen(b.available);
	out->buttons = b.buttons & b.available;
	return 0;
}

frcd_int frcd_pwm_init(int32_t ch) { FRCD_INIT(p_HAL_InitializePWMPort(ch, NULL, &r.status)) }
void frcd_pwm_free(int32_t h) { p_HAL_FreePWMPort(h); }
int32_t frcd_pwm_set_us(int32_t h, int32_t us) { FRCD_STATUS(p_HAL_SetPWMPulseTimeMicroseconds(h, us, &status)) }
// PWM.cpp: a pulse of 0 disables the output, 0xFFFF holds it high.
int32_t frcd_pwm_disable(int32_t h) { FRCD_STATUS(p_HAL_SetPWMPulseTimeMicroseconds(h, 0, &status)) }
int32_t frcd_pwm_always_high(int32_t h) { FRCD_STATUS(p_HAL_SetPWMPulseTimeMicroseconds(h, 0xFFFF, &status)) }
int32_t frcd_pwm_period(int32_t h, int32_t period) { FRCD_STATUS(p_HAL_SetPWMOutputPeriod(h, period, &status)) }

frcd_int frcd_dio_init(int32_t ch, int32_t input) { FRCD_INIT(p_HAL_InitializeDIOPort(ch, input, NULL, &r.status)) }
void frcd_dio_free(int32_t h) { p_HAL_FreeDIOPort(h); }
int32_t frcd_dio_set(int32_t h, int32_t v) { FRCD_STATUS(p_HAL_SetDIO(h, v, &status)) }
frcd_int frcd_dio_get(int32_t h) { FRCD_INIT(p_HAL_GetDIO(h, &r.status)) }

frcd_int frcd_ai_init(int32_t ch) { FRCD_INIT(p_HAL_InitializeAnalogInputPort(ch, NULL, &r.status)) }
void frcd_ai_free(int32_t h) { p_HAL_FreeAnalogInputPort(h); }

frcd_double frcd_ai_voltage(int32_t h) {
	frcd_double r = {0, 0};
	r.v = p_HAL_GetAnalogVoltage(h, &r.status);
	return r;
}

frcd_int frcd_encoder_init_channels(int32_t a, int32_t b, int32_t reverse, int32_t encoding) {
	FRCD_INIT(p_HAL_InitializeEncoder(a, b, reverse, encoding, &r.status))
}
void frcd_encoder_free(int32_t h) { p_HAL_FreeEncoder(h); }
frcd_int frcd_encoder_raw(int32_t h) { FRCD_INIT(p_HAL_GetEncoderRaw(h, &r.status)) }

int32_t frcd_imu_read(double* out) {
	frcd_Quaternion q;
	frcd_GyroRate3d g;
	frcd_Acceleration3d a;
	memset(&q, 0, sizeof q);
	memset(&g, 0, sizeof g);
	memset(&a, 0, sizeof a);
	int32_t s = 0;
	p_HAL_GetIMUQuaternion(&q, &s);
	if (s == 0) {
		p_HAL_GetIMUGyroRates(&g, &s);
	}
	if (s == 0) {
		p_HAL_GetIMUAcceleration(&a, &s);
	}
	double v[10] = {q.w, q.x, q.y, q.z, g.x, g.y, g.z, a.x, a.y, a.z};
	memcpy(out, v, sizeof v);
	return s;
}

frcd_int frcd_dutycycle_init(int32_t ch) { FRCD_INIT(p_HAL_InitializeDutyCycle(ch, NULL, &r.status)) }
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

frcd_int frcd_led_init(int32_t ch) { FRCD_INIT(p_HAL_InitializeAddressableLED(ch, NULL, &r.status)) }
void frcd_led_free(int32_t h) { p_HAL_FreeAddressableLED(h); }

int32_t frcd_led_window(int32_t h, int32_t start, int32_t length) {
	int32_t s = 0;
	p_HAL_SetAddressableLEDStart(h, start, &s);
	if (s == 0) {
		p_HAL_SetAddressableLEDLength(h, length, &s);
	}
	return s;
}

int32_t frcd_led_set(int32_t start, int32_t length, int32_t order, const uint8_t* rgb) {
	int32_t s = 0;
	p_HAL_SetAddressableLEDData(start, length, order, (const frcd_AddressableLEDData*)rgb, &s);
	return s;
}
