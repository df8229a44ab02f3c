// fakehal2027.c: a fake 2027 (Systemcore) libwpiHal.so for hal/wpihal's
// tests with the systemcore tag, written from the 2027 headers
// (hal/src/main/native/include/wpi/hal/) of the layout it is compiled for:
//   (default)                 allwpilib main at caf0fb2dcc
//   -DFAKEHAL_LAYOUT_ALPHA6   allwpilib tag v2027.0.0-alpha-6 (878da3d54c):
//                             HAL_Initialize(timeout, mode), a 64-byte
//                             eventName, HAL_GetBrownoutVoltage
//   -DFAKEHAL_LAYOUT_BETWEEN  main between #8858 and #9238: main's structs
//                             with alpha-6's brownout calls, a layout frcd
//                             refuses
// Each exports the symbols its layout's HAL does that frcd tells layouts
// apart by (HAL_SendProgramCrash, HAL_SetBrownoutVoltages,
// HAL_GetBrownoutVoltage). It implements
// the HAL functions the backend calls with their 2027 signatures, logs
// each call with its arguments to $FAKEHAL_LOG and plays a Driver Station
// and Systemcore's SmartIO, IMU and battery from $FAKEHAL_IN (fakeio.h):
//
//   cw ENABLED MODE ESTOP FMS DS   the DS's control word (MODE 0-3, as
//                                  HAL_RobotMode); no line: no DS
//   opmode NAME                    the DS selects the op mode NAME among
//                                  those HAL_SetOpModeOptions registered:
//                                  its id in the control word (hash and
//                                  robot mode, over cw's MODE); no line, or
//                                  a name not registered: none
//   outputs 0|1                    HAL_GetOutputsEnabled (default 1)
//   stale 1                        the DS has gone silent: as WPILib's
//                                  MrcLibDs, HAL_RefreshDSData fails and
//                                  the control word reads 0, outputs 0
//   joyaxes N a0 a1 ...            joystick N's axes (-1 to 1)
//   joypovs N p0 ...               its POVs as HAL_JoystickPOV bit masks
//   joybuttons N MASK AVAILABLE    its buttons and the mask of those it has
//   matchinfo EVENT TYPE NUMBER REPLAY, gamedata TEXT, matchtime S
//   vin V, brownout 0|1, dio CH 0|1, ai CH VOLTS, encoder CH COUNT
//   pwmin CH HIGH PERIOD           a duty-cycle input's signal as mrclib
//                                  measures it: high time and period, µs
//   quat W X Y Z, gyro X Y Z, accel X Y Z
//   runtime 1                      HAL_GetRuntimeType says simulation
//   clock US                       HAL_GetMonotonicTime fixed at US µs
//                                  (default: CLOCK_MONOTONIC's); clockstall
//                                  and clockback make it fail (fakeio.h)
//
// SmartIO channels 0-5 are one resource whatever they are opened as
// (PWM, DIO, analog input, encoder pairs, duty-cycle inputs, LEDs), as smartIoHandles is in the
// real HAL. Built by the tests with the host's C compiler, or for arm64:
//   cc -shared -fPIC -o libwpiHal.so fakehal2027.c

#include "fakeio.h"

// The 2027 HAL's types, as its headers declare them (not ../hal2027.c's
// copies, so that a mistake there fails a test instead of being shared).
typedef int32_t HAL_Bool;
typedef int32_t HAL_Handle;

struct HAL_ControlWord {
	int64_t value;
};
typedef struct HAL_ControlWord HAL_ControlWord;

struct HAL_JoystickAxes {
	uint16_t available;
	float axes[12];
	int16_t raw[12];
};
typedef struct HAL_JoystickAxes HAL_JoystickAxes;

typedef uint8_t HAL_JoystickPOV;
struct HAL_JoystickPOVs {
	uint8_t available;
	HAL_JoystickPOV povs[8];
};
typedef struct HAL_JoystickPOVs HAL_JoystickPOVs;

struct HAL_JoystickButtons {
	uint64_t buttons;
	uint64_t available;
};
typedef struct HAL_JoystickButtons HAL_JoystickButtons;

typedef int32_t HAL_MatchType;
struct HAL_MatchInfo {
#ifdef FAKEHAL_LAYOUT_ALPHA6
	char eventName[64];
#else
	char eventName[65];
#endif
	HAL_MatchType matchType;
	uint16_t matchNumber;
	uint8_t replayNumber;
};
typedef struct HAL_MatchInfo HAL_MatchInfo;

struct HAL_GameData {
	char gameData[9];
};
typedef struct HAL_GameData HAL_GameData;

struct WPI_String {
	const char* str;
	size_t len;
};

struct HAL_OpModeOption {
	int64_t id;
	struct WPI_String name;
	struct WPI_String group;
	struct WPI_String description;
	int32_t textColor;
	int32_t backgroundColor;
};
typedef struct HAL_OpModeOption HAL_OpModeOption;

struct HAL_Quaternion {
	int64_t timestamp;
	double w;
	double x;
	double y;
	double z;
};
typedef struct HAL_Quaternion HAL_Quaternion;

struct HAL_Acceleration3d {
	int64_t timestamp;
	double x;
	double y;
	double z;
};
typedef struct HAL_Acceleration3d HAL_Acceleration3d;
typedef struct HAL_Acceleration3d HAL_GyroRate3d; // the same layout

#define HAL_INCOMPATIBLE_STATE 1015

// ---- SmartIO channels and handles

enum { K_PWM = 1, K_DIO, K_AI, K_ENC, K_DUTY, K_LED };
static int owner[6]; // the kind each SmartIO channel is open as, 0 free
static int period[6];

static HAL_Handle mk(int kind, int ch) { return kind << 16 | ch; }
static int kind_of(HAL_Handle h) { return h >> 16; }
static int ch_of(HAL_Handle h) { return h & 0xFFFF; }

static HAL_Handle take(int kind, int ch, int32_t* status) {
	if (ch < 0 || ch >= 6) {
		*status = RESOURCE_OUT_OF_RANGE;
		return 0;
	}
	if (owner[ch]) {
		*status = RESOURCE_IS_ALLOCATED;
		return 0;
	}
	owner[ch] = kind;
	return mk(kind, ch);
}

static int valid(HAL_Handle h, int kind) {
	return kind_of(h) == kind && ch_of(h) >= 0 && ch_of(h) < 6 && owner[ch_of(h)] == kind;
}

static int check(const char* name, HAL_Handle h, int kind, int32_t* status) {
	if (failed(name, status)) {
		return 1;
	}
	if (!valid(h, kind)) {
		*status = HAL_HANDLE_ERROR;
		return 1;
	}
	return 0;
}

static void release(const char* name, HAL_Handle h, int kind) {
	logf_("%s h=%#x", name, h);
	if (valid(h, kind)) {
		owner[ch_of(h)] = 0;
		if (kind == K_ENC) {
			owner[ch_of(h) + 1] = 0;
		}
	}
}

// ---- base

#ifdef FAKEHAL_LAYOUT_ALPHA6
HAL_Bool HAL_Initialize(int32_t timeout, int32_t mode) {
	logf_("HAL_Initialize timeout=%d mode=%d", timeout, mode);
	return in_int("noinit", 0) ? 0 : 1;
}
#else
HAL_Bool HAL_Initialize(void) {
	logf_("HAL_Initialize");
	return in_int("noinit", 0) ? 0 : 1;
}
#endif

// The symbols that tell the layouts apart (frcd never calls them).
struct WPI_String;
#ifndef FAKEHAL_LAYOUT_ALPHA6
int32_t HAL_SendProgramCrash(const struct WPI_String* details, const struct WPI_String* location,
                             const struct WPI_String* callStack) {
	(void)details, (void)location, (void)callStack;
	return 0;
}
#endif
#if defined(FAKEHAL_LAYOUT_ALPHA6) || defined(FAKEHAL_LAYOUT_BETWEEN)
double HAL_GetBrownoutVoltage(int32_t* status) {
	*status = 0;
	return 6.75;
}
void HAL_SetBrownoutVoltage(double voltage, int32_t* status) {
	(void)voltage;
	*status = 0;
}
#else
void HAL_SetBrownoutVoltages(double brownoutVoltage, double recoveryVoltage, int32_t* status) {
	(void)brownoutVoltage, (void)recoveryVoltage;
	*status = 0;
}
#endif

void HAL_Shutdown(void) {
	logf_("HAL_Shutdown");
	memset(owner, 0, sizeof owner);
}

// HAL_GetMonotonicTime cannot fail: a 2027 HAL clock stalls or steps
// back (clock_of), never errs.
uint64_t HAL_GetMonotonicTime(void) {
	char v[64];
	return clock_of(in_find("clock", v, sizeof v) ? strtoull(v, NULL, 0) : mono_us());
}

int32_t HAL_GetRuntimeType(void) { return (int32_t)in_int("runtime", 0); }

double HAL_GetVinVoltage(int32_t* status) {
	logf_("HAL_GetVinVoltage");
	failed("HAL_GetVinVoltage", status);
	return in_double("vin", 0);
}

HAL_Bool HAL_GetBrownedOut(int32_t* status) {
	logf_("HAL_GetBrownedOut");
	failed("HAL_GetBrownedOut", status);
	return (HAL_Bool)in_int("brownout", 0);
}

// ---- the Driver Station

#define CW_ENABLED 0x0400000000000000LL
#define CW_ESTOP 0x0800000000000000LL
#define CW_FMS 0x1000000000000000LL
#define CW_DS 0x2000000000000000LL

#define CW_OPMODE_MASK 0x00FFFFFFFFFFFFFFLL
#define CW_MODE_MASK 0x0300000000000000LL

static int stale(void) { return in_int("stale", 0) != 0; }

// The op modes registered, copied as MrcLibDs does (options with id 0
// skipped); names kept to 255 bytes (mrclib's lengths are uint8_t).
static struct {
	int64_t id;
	char name[256];
} opmodes[1000];
static int nopmodes;

int32_t HAL_SetOpModeOptions(const struct HAL_OpModeOption* options, int32_t count) {
	int32_t status = 0;
	if (failed("HAL_SetOpModeOptions", &status)) {
		return status;
	}
	if (count < 0 || count > 1000 || (count != 0 && options == NULL)) {
		logf_("HAL_SetOpModeOptions count=%d refused", count);
		return PARAMETER_OUT_OF_RANGE;
	}
	char line[4096];
	int at = snprintf(line, sizeof line, "HAL_SetOpModeOptions count=%d", count);
	nopmodes = 0;
	for (int32_t i = 0; i < count; i++) {
		const struct HAL_OpModeOption* o = &options[i];
		if (o->id == 0) {
			continue;
		}
		size_t n = o->name.len < 255 ? o->name.len : 255;
		opmodes[nopmodes].id = o->id;
		memcpy(opmodes[nopmodes].name, o->name.str, n);
		opmodes[nopmodes].name[n] = 0;
		if (at < (int)sizeof line) {
			at += snprintf(line + at, sizeof line - at, " [mode=%d %s group=%d desc=%d colours=%d,%d]",
			               (int)((o->id & CW_MODE_MASK) >> 56), opmodes[nopmodes].name, (int)o->group.len,
			               (int)o->description.len, o->textColor, o->backgroundColor);
		}
		nopmodes++;
	}
	logf_("%s", line);
	return 0;
}

// selected is the id of the registered op mode the "opmode" line names, 0
// for none.
static int64_t selected(void) {
	char v[256];
	if (!in_find("opmode", v, sizeof v)) {
		return 0;
	}
	for (int i = 0; i < nopmodes; i++) {
		if (strcmp(opmodes[i].name, v) == 0) {
			return opmodes[i].id;
		}
	}
	return 0;
}

void HAL_ObserveUserProgramStarting(void) { logf_("HAL_ObserveUserProgramStarting"); }

void HAL_ObserveUserProgram(HAL_ControlWord word) {
	logf_("HAL_ObserveUserProgram mode=%d enabled=%d", (int)((word.value >> 56) & 3), (word.value & CW_ENABLED) != 0);
}

HAL_Bool HAL_RefreshDSData(void) {
	char v[256];
	return !stale() && in_find("cw", v, sizeof v);
}

int32_t HAL_GetControlWord(HAL_ControlWord* w) {
	int en = 0, mode = 0, es = 0, fms = 0, ds = 0;
	char v[256];
	int32_t status = 0;
	w->value = 0;
	if (failed("HAL_GetControlWord", &status)) {
		return status;
	}
	if (!stale() && in_find("cw", v, sizeof v)) {
		sscanf(v, "%d %d %d %d %d", &en, &mode, &es, &fms, &ds);
	}
	w->value = ((int64_t)(mode & 3) << 56) | (en ? CW_ENABLED : 0) | (es ? CW_ESTOP : 0) | (fms ? CW_FMS : 0) |
	           (ds ? CW_DS : 0);
	int64_t op = ds ? selected() : 0;
	if (op != 0) {
		w->value = (w->value & ~(CW_OPMODE_MASK | CW_MODE_MASK)) | op;
	}
	return 0;
}

HAL_Bool HAL_GetOutputsEnabled(void) { return !stale() && in_int("outputs", 1) != 0; }

double HAL_GetMatchTime(int32_t* status) {
	failed("HAL_GetMatchTime", status);
	return in_double("matchtime", -1);
}

// "matchinfo EVENT TYPE NUMBER REPLAY"; no line: no match.
int32_t HAL_GetMatchInfo(HAL_MatchInfo* info) {
	int32_t status = 0;
	char v[1024], event[128] = "";
	int type = 0, number = 0, replay = 0;
	logf_("HAL_GetMatchInfo");
	memset(info, 0, sizeof *info);
	if (failed("HAL_GetMatchInfo", &status)) {
		return status;
	}
	if (in_find("matchinfo", v, sizeof v)) {
		sscanf(v, "%127s %d %d %d", event, &type, &number, &replay);
	}
	size_t n = strlen(event) < sizeof info->eventName - 1 ? strlen(event) : sizeof info->eventName - 1;
	memcpy(info->eventName, event, n); // NUL-terminated by the memset
	info->matchType = type;
	info->matchNumber = (uint16_t)number;
	info->replayNumber = (uint8_t)replay;
	return 0;
}

int32_t HAL_GetGameData(HAL_GameData* data) {
	char v[256] = "";
	memset(data, 0, sizeof *data);
	in_find("gamedata", v, sizeof v);
	memcpy(data->gameData, v, strlen(v) < 8 ? strlen(v) : 8);
	return 0;
}

int32_t HAL_GetJoystickAxes(int32_t n, HAL_JoystickAxes* a) {
	double x[12];
	memset(a, 0, sizeof *a);
	if (n < 0 || n >= 6) {
		return PARAMETER_OUT_OF_RANGE;
	}
	int count = stale() ? 0 : joy_numbers("joyaxes", n, x);
	for (int i = 0; i < count; i++) {
		a->axes[i] = (float)x[i];
		a->raw[i] = (int16_t)(x[i] < 0 ? x[i] * 32768 : x[i] * 32767);
		a->available |= (uint16_t)(1u << i);
	}
	return 0;
}

int32_t HAL_GetJoystickPOVs(int32_t n, HAL_JoystickPOVs* p) {
	double x[12];
	memset(p, 0, sizeof *p);
	if (n < 0 || n >= 6) {
		return PARAMETER_OUT_OF_RANGE;
	}
	int count = stale() ? 0 : joy_numbers("joypovs", n, x);
	for (int i = 0; i < count && i < 8; i++) {
		p->povs[i] = (HAL_JoystickPOV)x[i];
		p->available |= (uint8_t)(1u << i);
	}
	return 0;
}

int32_t HAL_GetJoystickButtons(int32_t n, HAL_JoystickButtons* b) {
	char v[512];
	unsigned long long mask = 0, available = 0;
	memset(b, 0, sizeof *b);
	if (n < 0 || n >= 6) {
		return PARAMETER_OUT_OF_RANGE;
	}
	if (!stale() && joy_key("joybuttons", n, v, sizeof v)) {
		sscanf(v, "%lli %lli", &mask, &available);
	}
	b->buttons = mask;
	b->available = available;
	return 0;
}

// ---- SmartIO: PWM

HAL_Handle HAL_InitializePWMPort(int32_t channel, const char* loc, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializePWMPort", status)) {
		h = take(K_PWM, channel, status);
	}
	logf_("HAL_InitializePWMPort channel=%d -> %#x status=%d", channel, h, *status);
	return h;
}

void HAL_FreePWMPort(HAL_Handle h) { release("HAL_FreePWMPort", h, K_PWM); }

void HAL_SetPWMPulseTimeMicroseconds(HAL_Handle h, int32_t us, int32_t* status) {
	if (!check("HAL_SetPWMPulseTimeMicroseconds", h, K_PWM, status) && (us < 0 || (us != 0xFFFF && us >= 4096))) {
		*status = PARAMETER_OUT_OF_RANGE;
	}
	logf_("HAL_SetPWMPulseTimeMicroseconds h=%#x us=%d", h, us);
}

void HAL_SetPWMOutputPeriod(HAL_Handle h, int32_t p, int32_t* status) {
	if (!check("HAL_SetPWMOutputPeriod", h, K_PWM, status)) {
		if (p < 0 || p > 3) {
			*status = PARAMETER_OUT_OF_RANGE;
		} else {
			period[ch_of(h)] = p;
		}
	}
	logf_("HAL_SetPWMOutputPeriod h=%#x period=%d", h, p);
}

// ---- SmartIO: DIO

HAL_Handle HAL_InitializeDIOPort(int32_t channel, HAL_Bool input, const char* loc, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializeDIOPort", status)) {
		h = take(K_DIO, channel, status);
	}
	logf_("HAL_InitializeDIOPort channel=%d input=%d -> %#x status=%d", channel, input, h, *status);
	return h;
}

void HAL_FreeDIOPort(HAL_Handle h) { release("HAL_FreeDIOPort", h, K_DIO); }

void HAL_SetDIO(HAL_Handle h, HAL_Bool value, int32_t* status) {
	check("HAL_SetDIO", h, K_DIO, status);
	logf_("HAL_SetDIO h=%#x value=%d", h, value);
}

HAL_Bool HAL_GetDIO(HAL_Handle h, int32_t* status) {
	char key[32];
	if (check("HAL_GetDIO", h, K_DIO, status)) {
		return 0;
	}
	snprintf(key, sizeof key, "dio %d", ch_of(h));
	return (HAL_Bool)in_int(key, 0);
}

// ---- SmartIO: analog inputs

HAL_Handle HAL_InitializeAnalogInputPort(int32_t channel, const char* loc, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializeAnalogInputPort", status)) {
		h = take(K_AI, channel, status);
	}
	logf_("HAL_InitializeAnalogInputPort channel=%d -> %#x status=%d", channel, h, *status);
	return h;
}

void HAL_FreeAnalogInputPort(HAL_Handle h) { release("HAL_FreeAnalogInputPort", h, K_AI); }

double HAL_GetAnalogVoltage(HAL_Handle h, int32_t* status) {
	char key[32];
	if (check("HAL_GetAnalogVoltage", h, K_AI, status)) {
		return 0;
	}
	snprintf(key, sizeof key, "ai %d", ch_of(h));
	return in_double(key, 0);
}

// ---- SmartIO: encoders on a channel pair (Encoder.cpp: a even, b = a + 1)

HAL_Handle HAL_InitializeEncoder(int32_t a, int32_t b, HAL_Bool reverse, int32_t encoding, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializeEncoder", status)) {
		if (a < 0 || a >= 6 || a % 2 != 0 || b != a + 1 || encoding < 0 || encoding > 2) {
			*status = PARAMETER_OUT_OF_RANGE;
		} else if (owner[a] || owner[b]) {
			*status = RESOURCE_IS_ALLOCATED;
		} else {
			owner[a] = owner[b] = K_ENC;
			h = mk(K_ENC, a);
		}
	}
	logf_("HAL_InitializeEncoder a=%d b=%d reverse=%d encoding=%d -> %#x status=%d", a, b, reverse, encoding, h,
	      *status);
	return h;
}

void HAL_FreeEncoder(HAL_Handle h) { release("HAL_FreeEncoder", h, K_ENC); }

int32_t HAL_GetEncoderRaw(HAL_Handle h, int32_t* status) {
	char key[32];
	if (check("HAL_GetEncoderRaw", h, K_ENC, status)) {
		return 0;
	}
	snprintf(key, sizeof key, "encoder %d", ch_of(h));
	return (int32_t)in_int(key, 0);
}

// ---- SmartIO: duty-cycle inputs (the systemcore DutyCycle.cpp's
// arithmetic on mrclib's high time and period, both uint16_t µs: the
// frequency 1e6 / period, the output high / period at most 1, both 0
// without a period)

HAL_Handle HAL_InitializeDutyCycle(int32_t channel, const char* loc, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializeDutyCycle", status)) {
		h = take(K_DUTY, channel, status);
	}
	logf_("HAL_InitializeDutyCycle channel=%d -> %#x status=%d", channel, h, *status);
	return h;
}

void HAL_FreeDutyCycle(HAL_Handle h) { release("HAL_FreeDutyCycle", h, K_DUTY); }

static void pwmin(HAL_Handle h, unsigned* high, unsigned* period) {
	char key[32], v[64];
	*high = *period = 0;
	snprintf(key, sizeof key, "pwmin %d", ch_of(h));
	if (in_find(key, v, sizeof v) && sscanf(v, "%u %u", high, period) == 2) {
		*high &= 0xFFFF;
		*period &= 0xFFFF;
	}
}

double HAL_GetDutyCycleFrequency(HAL_Handle h, int32_t* status) {
	unsigned high, period;
	if (check("HAL_GetDutyCycleFrequency", h, K_DUTY, status)) {
		return 0;
	}
	pwmin(h, &high, &period);
	return period == 0 ? 0.0 : 1000000.0 / period;
}

double HAL_GetDutyCycleOutput(HAL_Handle h, int32_t* status) {
	unsigned high, period;
	if (check("HAL_GetDutyCycleOutput", h, K_DUTY, status)) {
		return 0;
	}
	pwmin(h, &high, &period);
	if (period == 0) {
		return 0.0;
	}
	return high >= period ? 1.0 : (double)high / period;
}

// ---- SmartIO: addressable LEDs (systemcore AddressableLED.cpp): each
// channel a window (start, length) of one buffer of 1024 LEDs; each
// HAL_SetAddressableLEDData copies LEDs start..start+length-1 in and
// hands mrclib the whole buffer. The fake keeps the buffer as r, g, b
// (the order is logged, not applied) and logs each write's LEDs in hex,
// so that a test replays the log into the buffer (fakehal.LEDBuffer).

struct HAL_AddressableLEDData {
	uint8_t r, g, b;
};

enum { MAX_LEDS = 1024 };
static struct HAL_AddressableLEDData leds[MAX_LEDS];
static int led_start[6], led_length[6];

HAL_Handle HAL_InitializeAddressableLED(int32_t channel, const char* loc, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializeAddressableLED", status)) {
		h = take(K_LED, channel, status);
	}
	logf_("HAL_InitializeAddressableLED channel=%d -> %#x status=%d", channel, h, *status);
	return h;
}

void HAL_FreeAddressableLED(HAL_Handle h) { release("HAL_FreeAddressableLED", h, K_LED); }

void HAL_SetAddressableLEDStart(HAL_Handle h, int32_t start, int32_t* status) {
	if (!check("HAL_SetAddressableLEDStart", h, K_LED, status)) {
		if (start < 0 || start >= MAX_LEDS) {
			*status = PARAMETER_OUT_OF_RANGE;
		} else {
			led_start[ch_of(h)] = start;
		}
	}
	logf_("HAL_SetAddressableLEDStart h=%#x start=%d status=%d", h, start, *status);
}

void HAL_SetAddressableLEDLength(HAL_Handle h, int32_t length, int32_t* status) {
	if (!check("HAL_SetAddressableLEDLength", h, K_LED, status)) {
		if (length < 0 || length > MAX_LEDS) {
			*status = PARAMETER_OUT_OF_RANGE;
		} else {
			led_length[ch_of(h)] = length;
		}
	}
	logf_("HAL_SetAddressableLEDLength h=%#x length=%d status=%d", h, length, *status);
}

void HAL_SetAddressableLEDData(int32_t start, int32_t length, int32_t order,
                               const struct HAL_AddressableLEDData* data, int32_t* status) {
	static char hex[MAX_LEDS * 6 + 1];
	if (failed("HAL_SetAddressableLEDData", status)) {
		return;
	}
	if (start < 0 || length < 0 || start + length > MAX_LEDS || order < 0 || order > 5) {
		*status = PARAMETER_OUT_OF_RANGE;
		logf_("HAL_SetAddressableLEDData start=%d length=%d order=%d status=%d", start, length, order, *status);
		return;
	}
	memcpy(&leds[start], data, (size_t)length * sizeof leds[0]);
	for (int i = 0; i < length; i++) {
		snprintf(hex + 6 * i, 7, "%02x%02x%02x", leds[start + i].r, leds[start + i].g, leds[start + i].b);
	}
	hex[6 * length] = 0;
	logf_("HAL_SetAddressableLEDData start=%d length=%d order=%d rgb=%s", start, length, order, hex);
}

// ---- the IMU

static void vec(const char* key, double* out, int n) {
	char v[256];
	memset(out, 0, n * sizeof *out);
	if (in_find(key, v, sizeof v)) {
		char* p = v;
		for (int i = 0; i < n; i++) {
			out[i] = strtod(p, &p);
		}
	}
}

void HAL_GetIMUQuaternion(HAL_Quaternion* q, int32_t* status) {
	double v[4];
	if (failed("HAL_GetIMUQuaternion", status)) {
		return;
	}
	vec("quat", v, 4);
	q->timestamp = in_int("clock", 0);
	q->w = v[0], q->x = v[1], q->y = v[2], q->z = v[3];
}

void HAL_GetIMUGyroRates(HAL_GyroRate3d* r, int32_t* status) {
	double v[3];
	failed("HAL_GetIMUGyroRates", status);
	vec("gyro", v, 3);
	r->timestamp = in_int("clock", 0);
	r->x = v[0], r->y = v[1], r->z = v[2];
}

void HAL_GetIMUAcceleration(HAL_Acceleration3d* a, int32_t* status) {
	double v[3];
	failed("HAL_GetIMUAcceleration", status);
	vec("accel", v, 3);
	a->timestamp = in_int("clock", 0);
	a->x = v[0], a->y = v[1], a->z = v[2];
}
