// fakehal2026.c: a fake 2026 (roboRIO) libwpiHal.so for hal/wpihal's tests
// with the roborio tag. It implements the WPILib HAL functions the backend
// calls, with the 2026 signatures, and appends one line per call, with its
// arguments and results, to the file named by $FAKEHAL_LOG. What a real
// roboRIO would sense comes from the file named by $FAKEHAL_IN (fakeio.h).
//
// It allocates handles as the HAL does, refusing a second allocation of a
// channel (RESOURCE_IS_ALLOCATED) and channels out of range
// (RESOURCE_OUT_OF_RANGE), and fails any call on demand ("fail NAME
// STATUS").
//
// Built by the tests with the host's C compiler:
//   cc -shared -fPIC -o libwpiHal.so fakehal2026.c

#include "fakeio.h"

// The HAL's types and status codes, declared as its headers declare them
// rather than taken from ../wpihal.h: the fake stands for the real library,
// so a mistake in wpihal.h's copy of a type fails a test instead of being
// shared by both sides.
typedef int32_t HAL_Bool;
typedef int32_t HAL_Handle;

#define CAN_MESSAGE_NOT_FOUND -44087

// ---- handles

enum { K_PORT = 1, K_PWM, K_DIO, K_AI, K_AO, K_ENC, K_RELAY, K_DPWM, K_DUTY, K_NKIND };
static const int limit[K_NKIND] = {0, 255, 20, 26, 8, 2, 26, 8, 6, 8};
static int alloc[K_NKIND][256];

static HAL_Handle mk(int kind, int idx) { return kind << 16 | idx; }
static int kind_of(HAL_Handle h) { return h >> 16; }
static int idx_of(HAL_Handle h) { return h & 0xFFFF; }

// take allocates index idx of a kind, as the HAL's handle resources do.
static HAL_Handle take(int kind, int idx, int32_t* status) {
	if (idx < 0 || idx >= limit[kind]) {
		*status = RESOURCE_OUT_OF_RANGE;
		return 0;
	}
	if (alloc[kind][idx]) {
		*status = RESOURCE_IS_ALLOCATED;
		return 0;
	}
	alloc[kind][idx] = 1;
	return mk(kind, idx);
}

static int valid(HAL_Handle h, int kind) { return kind_of(h) == kind && alloc[kind][idx_of(h)]; }

// release is a free function: it logs "NAME h=H" and frees h if it is a
// handle of that kind.
static void release(const char* name, HAL_Handle h, int kind) {
	logf_("%s h=%#x", name, h);
	if (kind_of(h) == kind) {
		alloc[kind][idx_of(h)] = 0;
	}
}

// port_channel is the channel of a port handle, -1 if it is not one.
static int port_channel(HAL_Handle port) { return kind_of(port) == K_PORT ? idx_of(port) : -1; }

// init_port is an initializer taking a port handle: it allocates the
// port's channel of that kind and logs "NAME port=P -> H status=S".
static HAL_Handle init_port(const char* name, int kind, HAL_Handle port, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed(name, status)) {
		h = take(kind, port_channel(port), status);
	}
	logf_("%s port=%#x -> %#x status=%d", name, port, h, *status);
	return h;
}

// check sets *status for a call on handle h of a kind, and reports
// whether it did: the failure asked for, else HAL_HANDLE_ERROR when h is
// not an allocated handle of it.
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

// ---- base

static int initialized;
static uint32_t can_ids[64];
static long long can_seq[64];

HAL_Bool HAL_Initialize(int32_t timeout, int32_t mode) {
	logf_("HAL_Initialize timeout=%d mode=%d", timeout, mode);
	if (in_int("noinit", 0)) {
		return 0;
	}
	initialized = 1;
	return 1;
}

void HAL_Shutdown(void) {
	logf_("HAL_Shutdown");
	memset(alloc, 0, sizeof alloc);
	memset(can_ids, 0, sizeof can_ids);
	memset(can_seq, 0, sizeof can_seq);
	initialized = 0;
}

// "fpga US": the FPGA clock fixed at US µs; without it (or with
// "fpgawall 1") it follows CLOCK_MONOTONIC, for a program running in real
// time. "fail HAL_GetFPGATime STATUS" makes it fail; "clockstall" and
// "clockback" make it stall or step back (fakeio.h).
uint64_t HAL_GetFPGATime(int32_t* status) {
	failed("HAL_GetFPGATime", status);
	char v[64];
	if (in_int("fpgawall", 0) || !in_find("fpga", v, sizeof v)) {
		return clock_of(mono_us());
	}
	return clock_of(strtoull(v, NULL, 0));
}

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

void HAL_SetAccelerometerActive(HAL_Bool active) { logf_("HAL_SetAccelerometerActive active=%d", active); }
void HAL_SetAccelerometerRange(int32_t range) { logf_("HAL_SetAccelerometerRange range=%d", range); }
double HAL_GetAccelerometerX(void) { return in_double("accelx", 0); }
double HAL_GetAccelerometerY(void) { return in_double("accely", 0); }
double HAL_GetAccelerometerZ(void) { return in_double("accelz", 0); }

HAL_Handle HAL_GetPort(int32_t channel) {
	logf_("HAL_GetPort channel=%d", channel);
	return channel >= 0 && channel < 255 ? mk(K_PORT, channel) : 0;
}

// ---- Driver Station

typedef struct {
	uint32_t enabled : 1;
	uint32_t autonomous : 1;
	uint32_t test : 1;
	uint32_t eStop : 1;
	uint32_t fmsAttached : 1;
	uint32_t dsAttached : 1;
	uint32_t control_reserved : 26;
} HAL_ControlWord;

void HAL_ObserveUserProgramStarting(void) { logf_("HAL_ObserveUserProgramStarting"); }
void HAL_ObserveUserProgramDisabled(void) { logf_("HAL_ObserveUserProgramDisabled"); }
void HAL_ObserveUserProgramAutonomous(void) { logf_("HAL_ObserveUserProgramAutonomous"); }
void HAL_ObserveUserProgramTeleop(void) { logf_("HAL_ObserveUserProgramTeleop"); }
void HAL_ObserveUserProgramTest(void) { logf_("HAL_ObserveUserProgramTest"); }

// "refresh 0": no new DS data since the last call (the real HAL returns
// whether new data came).
HAL_Bool HAL_RefreshDSData(void) {
	logf_("HAL_RefreshDSData");
	return (HAL_Bool)in_int("refresh", 1);
}

// "cw ENABLED AUTONOMOUS TEST ESTOP FMS DS", each 0 or 1.
int32_t HAL_GetControlWord(HAL_ControlWord* w) {
	int en = 0, au = 0, te = 0, es = 0, fms = 0, ds = 0;
	char v[256];
	memset(w, 0, sizeof *w);
	int32_t status = 0;
	if (failed("HAL_GetControlWord", &status)) {
		return status;
	}
	if (in_find("cw", v, sizeof v)) {
		sscanf(v, "%d %d %d %d %d %d", &en, &au, &te, &es, &fms, &ds);
	}
	w->enabled = en;
	w->autonomous = au;
	w->test = te;
	w->eStop = es;
	w->fmsAttached = fms;
	w->dsAttached = ds;
	logf_("HAL_GetControlWord");
	return 0;
}

double HAL_GetMatchTime(int32_t* status) {
	failed("HAL_GetMatchTime", status);
	return in_double("matchtime", -1);
}

typedef struct {
	char eventName[64];
	int32_t matchType; // HAL_MatchType
	uint16_t matchNumber;
	uint8_t replayNumber;
	uint8_t gameSpecificMessage[64];
	uint16_t gameSpecificMessageSize;
} HAL_MatchInfo;

// "matchinfo EVENT TYPE NUMBER REPLAY MESSAGE"; no line: no match.
int32_t HAL_GetMatchInfo(HAL_MatchInfo* info) {
	logf_("HAL_GetMatchInfo");
	int32_t status = 0;
	if (failed("HAL_GetMatchInfo", &status)) {
		return status;
	}
	char v[1024], event[128] = "", msg[128] = "";
	int type = 0, number = 0, replay = 0;
	memset(info, 0, sizeof *info);
	if (in_find("matchinfo", v, sizeof v)) {
		sscanf(v, "%127s %d %d %d %127s", event, &type, &number, &replay, msg);
	}
	memcpy(info->eventName, event, strlen(event) < 64 ? strlen(event) : 64); // 64 bytes: no NUL
	info->matchType = type;
	info->matchNumber = (uint16_t)number;
	info->replayNumber = (uint8_t)replay;
	size_t n = strlen(msg) < 64 ? strlen(msg) : 64;
	memcpy(info->gameSpecificMessage, msg, n);
	info->gameSpecificMessageSize = (uint16_t)n;
	return 0;
}

typedef struct {
	int16_t count;
	float axes[12];
	uint8_t raw[12];
} HAL_JoystickAxes;

typedef struct {
	int16_t count;
	int16_t povs[12];
} HAL_JoystickPOVs;

typedef struct {
	uint32_t buttons;
	uint8_t count;
} HAL_JoystickButtons;

// "joyaxes N a0 a1 ...", "joypovs N p0 ...", "joybuttons N MASK COUNT".
int32_t HAL_GetJoystickAxes(int32_t n, HAL_JoystickAxes* a) {
	double x[12];
	logf_("HAL_GetJoystickAxes joystick=%d", n);
	memset(a, 0, sizeof *a);
	if (n < 0 || n >= 6) {
		return PARAMETER_OUT_OF_RANGE;
	}
	a->count = (int16_t)joy_numbers("joyaxes", n, x);
	for (int i = 0; i < a->count; i++) {
		a->axes[i] = (float)x[i];
	}
	return 0;
}

int32_t HAL_GetJoystickPOVs(int32_t n, HAL_JoystickPOVs* p) {
	double x[12];
	memset(p, 0, sizeof *p);
	p->count = (int16_t)joy_numbers("joypovs", n, x);
	for (int i = 0; i < p->count; i++) {
		p->povs[i] = (int16_t)x[i];
	}
	return 0;
}

int32_t HAL_GetJoystickButtons(int32_t n, HAL_JoystickButtons* b) {
	char v[512];
	unsigned mask = 0, count = 0;
	memset(b, 0, sizeof *b);
	if (joy_key("joybuttons", n, v, sizeof v)) {
		sscanf(v, "%i %u", (int*)&mask, &count);
	}
	b->buttons = mask;
	b->count = (uint8_t)count;
	return 0;
}

// ---- PWM

HAL_Handle HAL_InitializePWMPort(HAL_Handle port, const char* loc, int32_t* status) {
	return init_port("HAL_InitializePWMPort", K_PWM, port, status);
}

void HAL_FreePWMPort(HAL_Handle h) { release("HAL_FreePWMPort", h, K_PWM); }

void HAL_SetPWMPulseTimeMicroseconds(HAL_Handle h, int32_t us, int32_t* status) {
	check("HAL_SetPWMPulseTimeMicroseconds", h, K_PWM, status);
	logf_("HAL_SetPWMPulseTimeMicroseconds h=%#x us=%d", h, us);
}

void HAL_SetPWMDisabled(HAL_Handle h, int32_t* status) {
	check("HAL_SetPWMDisabled", h, K_PWM, status);
	logf_("HAL_SetPWMDisabled h=%#x", h);
}

void HAL_SetPWMAlwaysHighMode(HAL_Handle h, int32_t* status) {
	check("HAL_SetPWMAlwaysHighMode", h, K_PWM, status);
	logf_("HAL_SetPWMAlwaysHighMode h=%#x", h);
}

// ---- DIO

HAL_Handle HAL_InitializeDIOPort(HAL_Handle port, HAL_Bool input, const char* loc, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializeDIOPort", status)) {
		h = take(K_DIO, port_channel(port), status);
	}
	logf_("HAL_InitializeDIOPort port=%#x input=%d -> %#x status=%d", port, input, h, *status);
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
	key_(key, sizeof key, "dio %d", idx_of(h));
	return (HAL_Bool)in_int(key, 0);
}

HAL_Handle HAL_AllocateDigitalPWM(int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_AllocateDigitalPWM", status)) {
		*status = RESOURCE_OUT_OF_RANGE;
		for (int i = 0; i < limit[K_DPWM]; i++) {
			if (!alloc[K_DPWM][i]) {
				*status = 0;
				h = take(K_DPWM, i, status);
				break;
			}
		}
	}
	logf_("HAL_AllocateDigitalPWM -> %#x status=%d", h, *status);
	return h;
}

void HAL_FreeDigitalPWM(HAL_Handle h) { release("HAL_FreeDigitalPWM", h, K_DPWM); }

void HAL_SetDigitalPWMRate(double rate, int32_t* status) {
	failed("HAL_SetDigitalPWMRate", status);
	logf_("HAL_SetDigitalPWMRate rate=%g", rate);
}

void HAL_SetDigitalPWMDutyCycle(HAL_Handle h, double duty, int32_t* status) {
	check("HAL_SetDigitalPWMDutyCycle", h, K_DPWM, status);
	logf_("HAL_SetDigitalPWMDutyCycle h=%#x duty=%g", h, duty);
}

void HAL_SetDigitalPWMOutputChannel(HAL_Handle h, int32_t channel, int32_t* status) {
	check("HAL_SetDigitalPWMOutputChannel", h, K_DPWM, status);
	logf_("HAL_SetDigitalPWMOutputChannel h=%#x channel=%d", h, channel);
}

// ---- duty-cycle inputs: the FPGA's 8 counters (wpilibc DutyCycle.h:
// "There are 8 of these in the roboRIO"), each routed from a DIO handle.
// "pwmin CH HIGH PERIOD" is DIO channel CH's signal, µs; the FPGA's
// frequency is whole Hz (DutyCycle.h: int32_t).

#define NO_AVAILABLE_RESOURCES -1004
static int duty_dio[8];

HAL_Handle HAL_InitializeDutyCycle(HAL_Handle source, int32_t triggerType, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializeDutyCycle", status)) {
		if (!valid(source, K_DIO)) {
			*status = HAL_HANDLE_ERROR;
		} else {
			*status = NO_AVAILABLE_RESOURCES;
			for (int i = 0; i < limit[K_DUTY]; i++) {
				if (!alloc[K_DUTY][i]) {
					*status = 0;
					h = take(K_DUTY, i, status);
					duty_dio[i] = idx_of(source);
					break;
				}
			}
		}
	}
	logf_("HAL_InitializeDutyCycle source=%#x trigger=%d -> %#x status=%d", source, triggerType, h, *status);
	return h;
}

void HAL_FreeDutyCycle(HAL_Handle h) { release("HAL_FreeDutyCycle", h, K_DUTY); }

static void pwmin(HAL_Handle h, unsigned* high, unsigned* period) {
	char key[32], v[64];
	*high = *period = 0;
	key_(key, sizeof key, "pwmin %d", duty_dio[idx_of(h)]);
	if (in_find(key, v, sizeof v) && sscanf(v, "%u %u", high, period) == 2 && *high > *period) {
		*high = *period;
	}
}

int32_t HAL_GetDutyCycleFrequency(HAL_Handle h, int32_t* status) {
	unsigned high, period;
	if (check("HAL_GetDutyCycleFrequency", h, K_DUTY, status)) {
		return 0;
	}
	pwmin(h, &high, &period);
	return period == 0 ? 0 : (int32_t)(1000000 / period);
}

double HAL_GetDutyCycleOutput(HAL_Handle h, int32_t* status) {
	unsigned high, period;
	if (check("HAL_GetDutyCycleOutput", h, K_DUTY, status)) {
		return 0;
	}
	pwmin(h, &high, &period);
	return period == 0 ? 0.0 : (double)high / period;
}

// ---- analog

HAL_Handle HAL_InitializeAnalogInputPort(HAL_Handle port, const char* loc, int32_t* status) {
	return init_port("HAL_InitializeAnalogInputPort", K_AI, port, status);
}

void HAL_FreeAnalogInputPort(HAL_Handle h) { release("HAL_FreeAnalogInputPort", h, K_AI); }

void HAL_SetAnalogAverageBits(HAL_Handle h, int32_t bits, int32_t* status) {
	check("HAL_SetAnalogAverageBits", h, K_AI, status);
	logf_("HAL_SetAnalogAverageBits h=%#x bits=%d", h, bits);
}

void HAL_SetAnalogOversampleBits(HAL_Handle h, int32_t bits, int32_t* status) {
	check("HAL_SetAnalogOversampleBits", h, K_AI, status);
	logf_("HAL_SetAnalogOversampleBits h=%#x bits=%d", h, bits);
}

// "ai CH VOLTS AVERAGEVOLTS"
static double ai_read(HAL_Handle h, int average, const char* name, int32_t* status) {
	char key[32], v[256];
	double volts = 0, avg = 0;
	logf_("%s h=%#x", name, h);
	if (check(name, h, K_AI, status)) {
		return 0;
	}
	key_(key, sizeof key, "ai %d", idx_of(h));
	if (in_find(key, v, sizeof v)) {
		sscanf(v, "%lf %lf", &volts, &avg);
	}
	return average ? avg : volts;
}

double HAL_GetAnalogVoltage(HAL_Handle h, int32_t* status) { return ai_read(h, 0, "HAL_GetAnalogVoltage", status); }
double HAL_GetAnalogAverageVoltage(HAL_Handle h, int32_t* status) {
	return ai_read(h, 1, "HAL_GetAnalogAverageVoltage", status);
}

HAL_Handle HAL_InitializeAnalogOutputPort(HAL_Handle port, const char* loc, int32_t* status) {
	return init_port("HAL_InitializeAnalogOutputPort", K_AO, port, status);
}

void HAL_FreeAnalogOutputPort(HAL_Handle h) { release("HAL_FreeAnalogOutputPort", h, K_AO); }

void HAL_SetAnalogOutput(HAL_Handle h, double volts, int32_t* status) {
	check("HAL_SetAnalogOutput", h, K_AO, status);
	logf_("HAL_SetAnalogOutput h=%#x volts=%g", h, volts);
}

// ---- encoders

HAL_Handle HAL_InitializeEncoder(HAL_Handle a, int32_t trigA, HAL_Handle b, int32_t trigB, HAL_Bool reverse,
                                 int32_t encoding, int32_t* status) {
	HAL_Handle h = 0;
	if (!failed("HAL_InitializeEncoder", status)) {
		if (!valid(a, K_DIO) || !valid(b, K_DIO)) {
			*status = HAL_HANDLE_ERROR;
		} else {
			h = take(K_ENC, idx_of(a), status);
		}
	}
	logf_("HAL_InitializeEncoder a=%#x trigA=%d b=%#x trigB=%d reverse=%d encoding=%d -> %#x status=%d", a, trigA, b,
	      trigB, reverse, encoding, h, *status);
	return h;
}

void HAL_FreeEncoder(HAL_Handle h) { release("HAL_FreeEncoder", h, K_ENC); }

// "encoder CHA RAW"
int32_t HAL_GetEncoderRaw(HAL_Handle h, int32_t* status) {
	char key[32];
	if (check("HAL_GetEncoderRaw", h, K_ENC, status)) {
		return 0;
	}
	key_(key, sizeof key, "encoder %d", idx_of(h));
	return (int32_t)in_int(key, 0);
}

// ---- relays: forward and reverse handles of a channel are two resources

HAL_Handle HAL_InitializeRelayPort(HAL_Handle port, HAL_Bool fwd, const char* loc, int32_t* status) {
	HAL_Handle h = 0;
	int ch = port_channel(port);
	if (!failed("HAL_InitializeRelayPort", status)) {
		if (ch < 0 || ch >= 4) {
			*status = RESOURCE_OUT_OF_RANGE;
		} else {
			h = take(K_RELAY, ch * 2 + (fwd ? 0 : 1), status);
		}
	}
	logf_("HAL_InitializeRelayPort port=%#x fwd=%d -> %#x status=%d", port, fwd, h, *status);
	return h;
}

void HAL_FreeRelayPort(HAL_Handle h) { release("HAL_FreeRelayPort", h, K_RELAY); }

void HAL_SetRelay(HAL_Handle h, HAL_Bool on, int32_t* status) {
	check("HAL_SetRelay", h, K_RELAY, status);
	logf_("HAL_SetRelay h=%#x on=%d", h, on);
}

// ---- CAN

void HAL_CAN_SendMessage(uint32_t id, const uint8_t* data, uint8_t len, int32_t period, int32_t* status) {
	char d[32];
	failed("HAL_CAN_SendMessage", status);
	hexs(data, len, d);
	logf_("HAL_CAN_SendMessage id=%#x len=%d data=%s period=%d", id, len, d, period);
}

// "can ID SEQ STAMP HEXDATA": a frame that arrived at STAMP (ms); each SEQ
// is given once, as NetComm gives each frame once.
void HAL_CAN_ReceiveMessage(uint32_t* id, uint32_t mask, uint8_t* data, uint8_t* len, uint32_t* stamp,
                            int32_t* status) {
	char key[32], v[256], hx[64] = "";
	long long seq = 0;
	unsigned long ts = 0;
	logf_("HAL_CAN_ReceiveMessage id=%#x mask=%#x", *id, mask);
	if (failed("HAL_CAN_ReceiveMessage", status)) {
		return;
	}
	key_(key, sizeof key, "can %#x", *id);
	*status = CAN_MESSAGE_NOT_FOUND;
	if (!in_find(key, v, sizeof v) || sscanf(v, "%lld %lu %63s", &seq, &ts, hx) < 2) {
		return;
	}
	int slot = -1;
	for (int i = 0; i < 64; i++) {
		if (can_ids[i] == *id || can_ids[i] == 0) {
			slot = i;
			break;
		}
	}
	if (slot < 0 || (can_ids[slot] == *id && can_seq[slot] >= seq)) {
		return;
	}
	can_ids[slot] = *id;
	can_seq[slot] = seq;
	*len = (uint8_t)hex(hx, data, 8);
	*stamp = (uint32_t)ts;
	*status = 0;
}

uint32_t HAL_GetCANPacketBaseTime(void) { return (uint32_t)in_int("canbase", 0); }

// ---- SPI: "spi PORT HEX" is what the device answers to the next transfer

void HAL_InitializeSPI(int32_t port, int32_t* status) {
	if (!failed("HAL_InitializeSPI", status) && (port < 0 || port > 4)) {
		*status = RESOURCE_OUT_OF_RANGE;
	}
	logf_("HAL_InitializeSPI port=%d status=%d", port, *status);
}

int32_t HAL_TransactionSPI(int32_t port, const uint8_t* tx, uint8_t* rx, int32_t n) {
	char key[32], v[1100], d[1100];
	int32_t st = 0;
	hexs(tx, n, d);
	logf_("HAL_TransactionSPI port=%d tx=%s", port, d);
	if (failed("HAL_TransactionSPI", &st)) {
		return -1;
	}
	memset(rx, 0, n);
	key_(key, sizeof key, "spi %d", port);
	if (in_find(key, v, sizeof v)) {
		hex(v, rx, n);
	}
	return n;
}

void HAL_SetSPISpeed(int32_t port, int32_t hz) { logf_("HAL_SetSPISpeed port=%d hz=%d", port, hz); }
void HAL_SetSPIMode(int32_t port, int32_t mode) { logf_("HAL_SetSPIMode port=%d mode=%d", port, mode); }

void HAL_SetSPIChipSelectActiveLow(int32_t port, int32_t* status) {
	failed("HAL_SetSPIChipSelectActiveLow", status);
	logf_("HAL_SetSPIChipSelectActiveLow port=%d", port);
}

void HAL_CloseSPI(int32_t port) { logf_("HAL_CloseSPI port=%d", port); }

// ---- I2C: "i2c PORT ADDR HEX" is what the device at ADDR answers

void HAL_InitializeI2C(int32_t port, int32_t* status) {
	if (!failed("HAL_InitializeI2C", status) && (port < 0 || port > 1)) {
		*status = RESOURCE_OUT_OF_RANGE;
	}
	logf_("HAL_InitializeI2C port=%d status=%d", port, *status);
}

static int32_t i2c_read(int32_t port, int32_t addr, uint8_t* r, int32_t nr) {
	char key[32], v[1100];
	memset(r, 0, nr);
	key_(key, sizeof key, "i2c %d %#x", port, addr);
	if (!in_find(key, v, sizeof v)) {
		return -1; // nobody acknowledges
	}
	hex(v, r, nr);
	return 0;
}

int32_t HAL_TransactionI2C(int32_t port, int32_t addr, const uint8_t* w, int32_t nw, uint8_t* r, int32_t nr) {
	char d[1100];
	int32_t st = 0;
	hexs(w, nw, d);
	logf_("HAL_TransactionI2C port=%d addr=%#x w=%s nr=%d", port, addr, d, nr);
	if (failed("HAL_TransactionI2C", &st)) {
		return -1;
	}
	return i2c_read(port, addr, r, nr);
}

int32_t HAL_WriteI2C(int32_t port, int32_t addr, const uint8_t* w, int32_t nw) {
	char d[1100];
	hexs(w, nw, d);
	logf_("HAL_WriteI2C port=%d addr=%#x w=%s", port, addr, d);
	char key[32], v[16];
	key_(key, sizeof key, "i2c %d %#x", port, addr);
	return in_find(key, v, sizeof v) ? 0 : -1;
}

int32_t HAL_ReadI2C(int32_t port, int32_t addr, uint8_t* r, int32_t nr) {
	logf_("HAL_ReadI2C port=%d addr=%#x nr=%d", port, addr, nr);
	return i2c_read(port, addr, r, nr);
}

void HAL_CloseI2C(int32_t port) { logf_("HAL_CloseI2C port=%d", port); }
