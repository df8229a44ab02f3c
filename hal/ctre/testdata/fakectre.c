// fakectre.c: a fake of CTRE's C interfaces for package ctre's tests. It
// implements the functions frcd calls, with the signatures CTRE publishes
// (declared here, not taken from ../phoenix.h, so that a mistake in
// frcd's declarations fails a test), and appends one line per call with
// its arguments to the file named by $FAKECTRE_LOG. What devices report
// comes from the file named by $FAKECTRE_IN, read at every call: lines of
// "key value...", the last line of a key winning. "fail NAME CODE" makes
// function NAME return CODE; "fail NAME CODE N" makes its next N calls
// return CODE and the ones after succeed (a device that does not answer,
// then does), N counted from the line's first use.
//
// Built with -DONLY6 it has Phoenix 6's functions only, as a robot with
// only libCTRE_PhoenixTools.so deployed.

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void logf_(const char* fmt, ...) {
	const char* path = getenv("FAKECTRE_LOG");
	if (path == NULL) {
		return;
	}
	FILE* f = fopen(path, "a");
	if (f == NULL) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

// in_find copies what follows "key " on the last matching line of
// $FAKECTRE_IN into out; 0 when there is none.
static int in_find(const char* key, char* out, size_t n) {
	const char* path = getenv("FAKECTRE_IN");
	if (path == NULL) {
		return 0;
	}
	FILE* f = fopen(path, "r");
	if (f == NULL) {
		return 0;
	}
	char line[512];
	size_t kl = strlen(key);
	int found = 0;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, key, kl) == 0 && line[kl] == ' ') {
			snprintf(out, n, "%s", line + kl + 1);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

// in_append adds a line to $FAKECTRE_IN: what a device saved (a config
// applied), read back by later calls as a test's own lines are.
static void in_append(const char* fmt, ...) {
	const char* path = getenv("FAKECTRE_IN");
	FILE* f = path != NULL ? fopen(path, "a") : NULL;
	if (f == NULL) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

// The calls counted for "fail NAME CODE N", by name: the line they
// count for (its text) and how many it has failed.
#define MAX_COUNTED 16
static struct {
	char name[96];
	char line[64];
	int n;
} counted[MAX_COUNTED];

static int failing(const char* name) {
	char key[128], v[64];
	if (getenv("FAKECTRE_IN") == NULL) { // no inputs: no key to format (make bench's fake)
		return 0;
	}
	snprintf(key, sizeof key, "fail %s", name);
	if (!in_find(key, v, sizeof v)) {
		return 0;
	}
	int code = 0, n = -1;
	if (sscanf(v, "%d %d", &code, &n) < 2) {
		return code;
	}
	int i = 0;
	for (; i < MAX_COUNTED && counted[i].name[0] != 0 && strcmp(counted[i].name, name) != 0; i++) {
	}
	if (i == MAX_COUNTED) {
		return code;
	}
	if (counted[i].name[0] == 0 || strcmp(counted[i].line, v) != 0) { // a new line: count afresh
		snprintf(counted[i].name, sizeof counted[i].name, "%s", name);
		snprintf(counted[i].line, sizeof counted[i].line, "%s", v);
		counted[i].n = 0;
	}
	if (counted[i].n >= n) {
		return 0;
	}
	counted[i].n++;
	return code;
}

#ifndef ONLY6
// ---- Phoenix 5

typedef struct {
	int arb;
} handle;

void* c_MotController_Create1(int baseArbId) {
	logf_("c_MotController_Create1 %#x", baseArbId);
	handle* h = malloc(sizeof *h);
	h->arb = baseArbId;
	return h;
}

int c_MotController_Set_4(void* h, int mode, double demand0, double demand1, int demand1Type) {
	logf_("c_MotController_Set_4 %#x %d %g %g %d", ((handle*)h)->arb, mode, demand0, demand1, demand1Type);
	return failing("c_MotController_Set_4");
}

static int motor_value(void* h, int i, double* v) {
	char key[64], val[256];
	if (getenv("FAKECTRE_IN") == NULL) { // no inputs: no key to format (make bench's fake)
		*v = 0;
		return 0;
	}
	snprintf(key, sizeof key, "p5 %#x", ((handle*)h)->arb);
	double x[3] = {0, 0, 0};
	if (in_find(key, val, sizeof val)) {
		sscanf(val, "%lf %lf %lf", &x[0], &x[1], &x[2]);
	}
	*v = x[i];
	return 0;
}

int c_MotController_GetBusVoltage(void* h, double* v) {
	logf_("c_MotController_GetBusVoltage %#x", ((handle*)h)->arb);
	int e = failing("c_MotController_GetBusVoltage");
	return e ? e : motor_value(h, 0, v);
}

int c_MotController_GetOutputCurrent(void* h, double* v) {
	logf_("c_MotController_GetOutputCurrent %#x", ((handle*)h)->arb);
	return motor_value(h, 1, v);
}

int c_MotController_GetTemperature(void* h, double* v) {
	logf_("c_MotController_GetTemperature %#x", ((handle*)h)->arb);
	return motor_value(h, 2, v);
}

void c_FeedEnable(int timeoutMs) { logf_("c_FeedEnable %d", timeoutMs); }

void c_MotController_SetNeutralMode(void* h, int neutralMode) {
	logf_("c_MotController_SetNeutralMode %#x %d", ((handle*)h)->arb, neutralMode);
}

// A Talon SRX's current limit configs, saved as "p5cfg ARB PARAM VALUE"
// (ParamEnum: 360 continuous amps, 361 peak ms, 362 peak amps).
static int p5_config(void* h, const char* name, int param, int value, int timeoutMs) {
	logf_("%s %#x %d %d", name, ((handle*)h)->arb, value, timeoutMs);
	int e = failing(name);
	if (e == 0) {
		in_append("p5cfg %#x %d %d", ((handle*)h)->arb, param, value);
	}
	return e;
}

int c_MotController_ConfigPeakCurrentLimit(void* h, int amps, int timeoutMs) {
	return p5_config(h, "c_MotController_ConfigPeakCurrentLimit", 362, amps, timeoutMs);
}

int c_MotController_ConfigPeakCurrentDuration(void* h, int milliseconds, int timeoutMs) {
	return p5_config(h, "c_MotController_ConfigPeakCurrentDuration", 361, milliseconds, timeoutMs);
}

int c_MotController_ConfigContinuousCurrentLimit(void* h, int amps, int timeoutMs) {
	return p5_config(h, "c_MotController_ConfigContinuousCurrentLimit", 360, amps, timeoutMs);
}

int c_MotController_EnableCurrentLimit(void* h, bool enable) {
	logf_("c_MotController_EnableCurrentLimit %#x %d", ((handle*)h)->arb, enable);
	return 0;
}

int c_MotController_ConfigGetParameter(void* h, int param, double* value, int ordinal, int timeoutMs) {
	logf_("c_MotController_ConfigGetParameter %#x %d %d %d", ((handle*)h)->arb, param, ordinal, timeoutMs);
	char key[64], v[64];
	snprintf(key, sizeof key, "p5cfg %#x %d", ((handle*)h)->arb, param);
	*value = in_find(key, v, sizeof v) ? atof(v) : 0;
	return failing("c_MotController_ConfigGetParameter");
}

// A reset to report is a line "p5reset ARB 1"; reporting it clears it
// (HasResetOccurred: "true if the device has reset since last call").
int c_MotController_HasResetOccurred(void* h, bool* output) {
	logf_("c_MotController_HasResetOccurred %#x", ((handle*)h)->arb);
	char key[64], v[16];
	snprintf(key, sizeof key, "p5reset %#x", ((handle*)h)->arb);
	*output = in_find(key, v, sizeof v) && atoi(v) != 0;
	if (*output) {
		in_append("p5reset %#x 0", ((handle*)h)->arb);
	}
	return failing("c_MotController_HasResetOccurred");
}

void* c_PigeonIMU_Create1(int deviceNumber, const char* version, const char* canbus) {
	logf_("c_PigeonIMU_Create1 %d \"%s\" \"%s\"", deviceNumber, version, canbus);
	handle* h = malloc(sizeof *h);
	h->arb = deviceNumber;
	return h;
}

void* c_PigeonIMU_Create2(int talonDeviceID, const char* version) {
	logf_("c_PigeonIMU_Create2 %d \"%s\"", talonDeviceID, version);
	handle* h = malloc(sizeof *h);
	h->arb = 1000 + talonDeviceID;
	return h;
}

static void pigeon_values(void* h, double v[10]) {
	char key[64], val[256];
	if (getenv("FAKECTRE_IN") == NULL) { // no inputs: no key to format (make bench's fake)
		memset(v, 0, 10 * sizeof v[0]);
		return;
	}
	snprintf(key, sizeof key, "pigeon5 %d", ((handle*)h)->arb);
	memset(v, 0, 10 * sizeof v[0]);
	if (in_find(key, val, sizeof val)) {
		sscanf(val, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
		       &v[9]);
	}
}

int c_PigeonIMU_Get6dQuaternion(void* h, double wxyz[4]) {
	logf_("c_PigeonIMU_Get6dQuaternion %d", ((handle*)h)->arb);
	double v[10];
	pigeon_values(h, v);
	memcpy(wxyz, v, 4 * sizeof v[0]);
	return failing("c_PigeonIMU_Get6dQuaternion");
}

int c_PigeonIMU_GetRawGyro(void* h, double xyz_dps[3]) {
	logf_("c_PigeonIMU_GetRawGyro %d", ((handle*)h)->arb);
	double v[10];
	pigeon_values(h, v);
	memcpy(xyz_dps, v + 4, 3 * sizeof v[0]);
	return 0;
}

int c_PigeonIMU_GetBiasedAccelerometer(void* h, short ba_xyz[3]) {
	logf_("c_PigeonIMU_GetBiasedAccelerometer %d", ((handle*)h)->arb);
	double v[10];
	pigeon_values(h, v);
	for (int i = 0; i < 3; i++) {
		ba_xyz[i] = (short)v[7 + i];
	}
	return 0;
}
#endif

// ---- Phoenix 6

typedef struct {
	uint32_t devicehash;
	uint32_t spn;
} SignalValues;

typedef struct {
	double outValue;
	uint32_t unitsKey;
	const char* units;
	double hwtimestampseconds;
	double swtimestampseconds;
	double ecutimestampseconds;
	int error;
} ReturnValues;

int c_ctre_phoenix6_encode_device(int deviceId, const char* model, const char* canbus, uint32_t* hash) {
	logf_("c_ctre_phoenix6_encode_device %d \"%s\" \"%s\"", deviceId, model, canbus);
	int code = strcmp(model, "talon fx") == 0 ? 1 : strcmp(model, "cancoder") == 0 ? 2 : strcmp(model, "pigeon 2") == 0 ? 3 : 0;
	if (code == 0) {
		return -1;
	}
	*hash = (uint32_t)(code << 16 | deviceId);
	return failing("c_ctre_phoenix6_encode_device");
}

int c_ctre_phoenix6_get_signal(size_t count, SignalValues* signals, ReturnValues* rets, const char* network, bool wait,
			       double timeout) {
	char line[2048];
	int n = snprintf(line, sizeof line, "c_ctre_phoenix6_get_signal %zu \"%s\" %d %g", count, network, wait, timeout);
	for (size_t i = 0; i < count && n < (int)sizeof line - 32; i++) {
		n += snprintf(line + n, sizeof line - n, " %#x:%u", signals[i].devicehash, signals[i].spn);
	}
	logf_("%s", line);
	for (size_t i = 0; i < count; i++) {
		char key[64], val[64];
		memset(&rets[i], 0, sizeof rets[i]);
		snprintf(key, sizeof key, "sig %#x %u", signals[i].devicehash, signals[i].spn);
		if (in_find(key, val, sizeof val)) {
			rets[i].outValue = atof(val);
		}
		snprintf(key, sizeof key, "sigerr %#x %u", signals[i].devicehash, signals[i].spn);
		if (in_find(key, val, sizeof val)) {
			rets[i].error = atoi(val);
		}
	}
	return failing("c_ctre_phoenix6_get_signal");
}

int c_ctre_phoenix6_SetUpdateFrequency(int context, const char* network, uint32_t deviceHash, uint16_t spn, double frequencyHz,
				       double timeoutSeconds) {
	logf_("c_ctre_phoenix6_SetUpdateFrequency %d \"%s\" %#x %u %g %g", context, network, deviceHash, spn, frequencyHz, timeoutSeconds);
	return failing("c_ctre_phoenix6_SetUpdateFrequency");
}

int c_ctre_phoenix6_RequestControlDutyCycleOut(const char* canbus, uint32_t ecu, double freq, double output, bool foc, bool brake,
					       bool limFwd, bool limRev, bool ignHard, bool ignSoft, bool timesync) {
	logf_("c_ctre_phoenix6_RequestControlDutyCycleOut \"%s\" %#x %g %g %d%d%d%d%d%d%d", canbus, ecu, freq, output, foc, brake, limFwd,
	      limRev, ignHard, ignSoft, timesync);
	return failing("c_ctre_phoenix6_RequestControlDutyCycleOut");
}

int c_ctre_phoenix6_RequestControlVoltageOut(const char* canbus, uint32_t ecu, double freq, double output, bool foc, bool brake,
					     bool limFwd, bool limRev, bool ignHard, bool ignSoft, bool timesync) {
	logf_("c_ctre_phoenix6_RequestControlVoltageOut \"%s\" %#x %g %g %d%d%d%d%d%d%d", canbus, ecu, freq, output, foc, brake, limFwd,
	      limRev, ignHard, ignSoft, timesync);
	return failing("c_ctre_phoenix6_RequestControlVoltageOut");
}

int c_ctre_phoenix6_RequestControlPositionVoltage(const char* canbus, uint32_t ecu, double freq, double position, double velocity,
						  bool foc, double ff, int slot, bool brake, bool limFwd, bool limRev, bool ignHard,
						  bool ignSoft, bool timesync) {
	logf_("c_ctre_phoenix6_RequestControlPositionVoltage \"%s\" %#x %g %g %g %d %g %d %d%d%d%d%d%d", canbus, ecu, freq, position,
	      velocity, foc, ff, slot, brake, limFwd, limRev, ignHard, ignSoft, timesync);
	return 0;
}

int c_ctre_phoenix6_RequestControlVelocityVoltage(const char* canbus, uint32_t ecu, double freq, double velocity, double accel,
						  bool foc, double ff, int slot, bool brake, bool limFwd, bool limRev, bool ignHard,
						  bool ignSoft, bool timesync) {
	logf_("c_ctre_phoenix6_RequestControlVelocityVoltage \"%s\" %#x %g %g %g %d %g %d %d%d%d%d%d%d", canbus, ecu, freq, velocity,
	      accel, foc, ff, slot, brake, limFwd, limRev, ignHard, ignSoft, timesync);
	return 0;
}

int c_ctre_phoenix6_RequestControlNeutralOut(const char* canbus, uint32_t ecu, double freq, bool timesync) {
	logf_("c_ctre_phoenix6_RequestControlNeutralOut \"%s\" %#x %g %d", canbus, ecu, freq, timesync);
	return 0;
}

int c_ctre_phoenix6_serialize_double(int spn, double value, char** out) {
	logf_("c_ctre_phoenix6_serialize_double %d %g", spn, value);
	char buf[64];
	snprintf(buf, sizeof buf, "%d=%g;", spn, value);
	*out = strdup(buf);
	return 0;
}

int c_ctre_phoenix6_serialize_int(int spn, int value, char** out) {
	logf_("c_ctre_phoenix6_serialize_int %d %d", spn, value);
	char buf[64];
	snprintf(buf, sizeof buf, "%d=%d;", spn, value);
	*out = strdup(buf);
	return 0;
}

int c_ctre_phoenix6_serialize_bool(int spn, bool value, char** out) {
	logf_("c_ctre_phoenix6_serialize_bool %d %d", spn, value);
	char buf[64];
	snprintf(buf, sizeof buf, "%d=%d;", spn, value ? 1 : 0);
	*out = strdup(buf);
	return 0;
}

// save_configs is a device keeping the configs of an apply: each
// "spn=value;" of values becomes a "cfg HASH SPN VALUE" line of
// $FAKECTRE_IN, which get_configs reads back.
static void save_configs(uint32_t hash, const char* values, uint32_t len) {
	uint32_t i = 0;
	while (i < len) {
		unsigned spn;
		double v;
		int n = 0;
		if (sscanf(values + i, "%u=%lf;%n", &spn, &v, &n) != 2 || n == 0) {
			return;
		}
		in_append("cfg %#x %u %.17g", hash, spn, v);
		i += (uint32_t)n;
	}
}

// get_configs gives every config the device holds ("cfg HASH ..." lines,
// the last of each SPN winning when deserialized) as "spn=value;" pairs;
// "hold HASH SPN VALUE" lines come last: a value the device keeps
// whatever it is sent.
int c_ctre_phoenix6_get_configs(int context, const char* network, int deviceHash, double timeout, char** values, bool useDid) {
	logf_("c_ctre_phoenix6_get_configs %d \"%s\" %#x %g %d", context, network, deviceHash, timeout, useDid);
	int e = failing("c_ctre_phoenix6_get_configs");
	if (e != 0) {
		return e;
	}
	size_t cap = 4096, len = 0;
	char* all = calloc(cap, 1);
	const char* path = getenv("FAKECTRE_IN");
	FILE* f = path != NULL ? fopen(path, "r") : NULL;
	char line[512];
	while (f != NULL && fgets(line, sizeof line, f) != NULL && len + 64 < cap) {
		unsigned h, spn;
		double v;
		if (sscanf(line, "cfg %x %u %lf", &h, &spn, &v) == 3 && h == (unsigned)deviceHash) {
			len += (size_t)snprintf(all + len, cap - len, "%u=%.17g;", spn, v);
		}
	}
	if (f != NULL) {
		rewind(f);
	}
	while (f != NULL && fgets(line, sizeof line, f) != NULL && len + 64 < cap) {
		unsigned h, spn;
		double v;
		if (sscanf(line, "hold %x %u %lf", &h, &spn, &v) == 3 && h == (unsigned)deviceHash) {
			len += (size_t)snprintf(all + len, cap - len, "%u=%.17g;", spn, v);
		}
	}
	if (f != NULL) {
		fclose(f);
	}
	*values = all;
	return 0;
}

// deserialize finds the last "spn=" pair in str; 1 when there is none
// (a config the device did not send).
static int deserialize(int spn, const char* str, uint32_t len, double* out) {
	char key[32];
	int kl = snprintf(key, sizeof key, "%d=", spn);
	int found = 0;
	for (uint32_t i = 0; i + (uint32_t)kl <= len; i++) {
		if ((i == 0 || str[i - 1] == ';') && strncmp(str + i, key, (size_t)kl) == 0) {
			*out = atof(str + i + kl);
			found = 1;
		}
	}
	return found ? 0 : 1;
}

int c_ctre_phoenix6_deserialize_double(int spn, const char* str, uint32_t len, double* out) {
	logf_("c_ctre_phoenix6_deserialize_double %d", spn);
	return deserialize(spn, str, len, out);
}

int c_ctre_phoenix6_deserialize_int(int spn, const char* str, uint32_t len, int* out) {
	logf_("c_ctre_phoenix6_deserialize_int %d", spn);
	double v = 0;
	int e = deserialize(spn, str, len, &v);
	*out = (int)v;
	return e;
}

int c_ctre_phoenix6_deserialize_bool(int spn, const char* str, uint32_t len, bool* out) {
	logf_("c_ctre_phoenix6_deserialize_bool %d", spn);
	double v = 0;
	int e = deserialize(spn, str, len, &v);
	*out = v != 0;
	return e;
}

// lose_configs is what a device does with an apply whose
// futureProofConfigs is true (a whole configuration, as phoenix6's
// TalonFXConfiguration sends it): every config not in values returns to
// its default. The device's other configs are the "cfg HASH SPN VALUE"
// lines of $FAKECTRE_IN; each lost one is logged, so a test sees it.
static void lose_configs(uint32_t hash, const char* values, uint32_t len) {
	const char* path = getenv("FAKECTRE_IN");
	FILE* f = path != NULL ? fopen(path, "r") : NULL;
	if (f == NULL) {
		return;
	}
	char line[512];
	while (fgets(line, sizeof line, f) != NULL) {
		unsigned h, spn;
		double v;
		if (sscanf(line, "cfg %x %u %lf", &h, &spn, &v) != 3 || h != hash) {
			continue;
		}
		char key[32];
		int kl = snprintf(key, sizeof key, "%u=", spn);
		int sent = 0;
		for (uint32_t i = 0; i + (uint32_t)kl <= len && !sent; i++) {
			sent = (i == 0 || values[i - 1] == ';') && strncmp(values + i, key, (size_t)kl) == 0;
		}
		if (!sent) {
			logf_("config %u of %#x (%g) returned to its default: not in an apply with futureProofConfigs", spn, hash, v);
		}
	}
	fclose(f);
}

int c_ctre_phoenix6_set_configs(int context, const char* network, int deviceHash, double timeout, const char* values, uint32_t len,
				bool futureProofConfigs, bool overrideIfDuplicate, bool useDid) {
	logf_("c_ctre_phoenix6_set_configs %d \"%s\" %#x %g \"%.*s\" %u %d%d%d", context, network, deviceHash, timeout, (int)len, values,
	      len, futureProofConfigs, overrideIfDuplicate, useDid);
	int e = failing("c_ctre_phoenix6_set_configs");
	if (e == 0 && futureProofConfigs) {
		lose_configs((uint32_t)deviceHash, values, len);
	}
	if (e == 0) {
		save_configs((uint32_t)deviceHash, values, len);
	}
	return e;
}

int c_ctre_phoenix6_free_memory(char** p) {
	logf_("c_ctre_phoenix6_free_memory");
	free(*p);
	*p = NULL;
	return 0;
}

int c_ctre_phoenix6_unmanaged_feed_enable(int32_t timeoutMs) {
	logf_("c_ctre_phoenix6_unmanaged_feed_enable %d", timeoutMs);
	return 0;
}
