//go:build (ctre || roborio) && cgo

// phoenix.c: loads CTRE's C interface at run time and calls it through
// pointers, so that frcd builds and runs without CTRE's files.

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phoenix.h"

#define FRCD_PTR(name, ret, params, fam) static ret(*p_##name) params;
FRCD_CTRE_FUNCS(FRCD_PTR)

int frcd_ctre_load(const char** paths, int n, char* err, int errlen) {
	void* libs[8];
	int nlibs = 0;
	err[0] = 0;
	for (int i = 0; i < n && nlibs < 8; i++) {
		void* l = dlopen(paths[i], RTLD_NOW | RTLD_GLOBAL);
		if (l == NULL) {
			const char* e = dlerror();
			if (err[0] == 0) {
				snprintf(err, errlen, "%s", e != NULL ? e : "dlopen failed");
			}
			continue;
		}
		// Loaded for the life of the process: CTRE's libraries run
		// threads of their own.
		libs[nlibs++] = l;
	}
	int have5 = 1, have6 = 1;
#define FRCD_RESOLVE(name, ret, params, fam)                                                   \
	p_##name = NULL;                                                                        \
	for (int i = 0; i < nlibs && p_##name == NULL; i++) {                                   \
		p_##name = (ret(*) params)dlsym(libs[i], #name);                                \
	}                                                                                       \
	if (p_##name == NULL) {                                                                 \
		if (fam == 5) {                                                                 \
			have5 = 0;                                                              \
		} else {                                                                        \
			have6 = 0;                                                              \
		}                                                                               \
		if (err[0] == 0 && nlibs > 0) {                                                 \
			snprintf(err, errlen, "no %s in the libraries loaded", #name);         \
		}                                                                               \
	}
	FRCD_CTRE_FUNCS(FRCD_RESOLVE)
	if (nlibs == 0) {
		return 0;
	}
	return (have5 ? 1 : 0) | (have6 ? 2 : 0);
}

void* frcd_p5_motor_create(int arbID) {
	return p_c_MotController_Create1 ? p_c_MotController_Create1(arbID) : NULL;
}

// Mode 0 is PercentOutput; demand1 type 0 is none.
int frcd_p5_set_duty(void* h, double duty) {
	return p_c_MotController_Set_4 ? p_c_MotController_Set_4(h, 0, duty, 0, 0) : FRCD_CTRE_MISSING;
}

int frcd_p5_status(void* h, double* busV, double* current, double* temp) {
	if (!p_c_MotController_GetBusVoltage || !p_c_MotController_GetOutputCurrent || !p_c_MotController_GetTemperature) {
		return FRCD_CTRE_MISSING;
	}
	int e = p_c_MotController_GetBusVoltage(h, busV);
	if (e == 0) {
		e = p_c_MotController_GetOutputCurrent(h, current);
	}
	if (e == 0) {
		e = p_c_MotController_GetTemperature(h, temp);
	}
	return e;
}

// frcd_p5_config applies a Phoenix 5 controller's neutral mode (Phoenix
// 5's NeutralMode: 1 Coast, 2 Brake; 0, EEPROMSetting, is not sent) and,
// with limits (a Talon SRX), its current limit: peak, duration and
// continuous (configs, each answered within timeoutMs) and
// EnableCurrentLimit, as TalonSRX::ConfigPeakCurrentLimit... do. The
// first failure ends it.
int frcd_p5_config(void* h, int neutral, int limits, bool enable, int peakA, int peakMs, int continuousA, int timeoutMs) {
	if (!p_c_MotController_SetNeutralMode || !p_c_MotController_ConfigPeakCurrentLimit || !p_c_MotController_ConfigPeakCurrentDuration ||
	    !p_c_MotController_ConfigContinuousCurrentLimit || !p_c_MotController_EnableCurrentLimit) {
		return FRCD_CTRE_MISSING;
	}
	if (neutral == 1 || neutral == 2) {
		p_c_MotController_SetNeutralMode(h, neutral);
	}
	if (!limits) {
		return 0;
	}
	int e = p_c_MotController_ConfigPeakCurrentLimit(h, peakA, timeoutMs);
	if (e == 0) {
		e = p_c_MotController_ConfigPeakCurrentDuration(h, peakMs, timeoutMs);
	}
	if (e == 0) {
		e = p_c_MotController_ConfigContinuousCurrentLimit(h, continuousA, timeoutMs);
	}
	if (e == 0) {
		e = p_c_MotController_EnableCurrentLimit(h, enable);
	}
	return e;
}

// frcd_p5_read_limits reads a Talon SRX's current limit configs back
// (ConfigGetParameter, ordinal 0): ParamEnum ePeakCurrentLimitAmps 362,
// ePeakCurrentLimitMs 361, eContinuousCurrentLimitAmps 360
// (ctre/phoenix/paramEnum.h).
int frcd_p5_read_limits(void* h, double* peakA, double* peakMs, double* continuousA, int timeoutMs) {
	if (!p_c_MotController_ConfigGetParameter) {
		return FRCD_CTRE_MISSING;
	}
	int e = p_c_MotController_ConfigGetParameter(h, 362, peakA, 0, timeoutMs);
	if (e == 0) {
		e = p_c_MotController_ConfigGetParameter(h, 361, peakMs, 0, timeoutMs);
	}
	if (e == 0) {
		e = p_c_MotController_ConfigGetParameter(h, 360, continuousA, 0, timeoutMs);
	}
	return e;
}

// frcd_p5_has_reset is BaseMotorController::HasResetOccurred: whether
// the controller has reset since the last call.
int frcd_p5_has_reset(void* h, bool* reset) {
	if (!p_c_MotController_HasResetOccurred) {
		return FRCD_CTRE_MISSING;
	}
	return p_c_MotController_HasResetOccurred(h, reset);
}

void frcd_p5_feed(int timeoutMs) {
	if (p_c_FeedEnable) {
		p_c_FeedEnable(timeoutMs);
	}
}

// The version and bus CTRE's own C++ API passes: PigeonIMU(int) and
// PigeonIMU(TalonSRX&) give "v1", and "" (the default bus) on CAN
// (libCTRE_Phoenix.so, BasePigeon's constructors; deploy/ctre.md).
void* frcd_p5_pigeon_create(int id, int talonID) {
	if (talonID >= 0) {
		return p_c_PigeonIMU_Create2 ? p_c_PigeonIMU_Create2(talonID, "v1") : NULL;
	}
	return p_c_PigeonIMU_Create1 ? p_c_PigeonIMU_Create1(id, "v1", "") : NULL;
}

int frcd_p5_pigeon_read(void* h, double wxyz[4], double dps[3], short accel[3]) {
	if (!p_c_PigeonIMU_Get6dQuaternion || !p_c_PigeonIMU_GetRawGyro || !p_c_PigeonIMU_GetBiasedAccelerometer) {
		return FRCD_CTRE_MISSING;
	}
	int e = p_c_PigeonIMU_Get6dQuaternion(h, wxyz);
	if (e == 0) {
		e = p_c_PigeonIMU_GetRawGyro(h, dps);
	}
	if (e == 0) {
		e = p_c_PigeonIMU_GetBiasedAccelerometer(h, accel);
	}
	return e;
}

int frcd_p6_encode(int id, const char* model, const char* bus, uint32_t* hash) {
	return p_c_ctre_phoenix6_encode_device ? p_c_ctre_phoenix6_encode_device(id, model, bus, hash) : FRCD_CTRE_MISSING;
}

int frcd_p6_get(size_t n, frcd_p6_signal* sig, frcd_p6_return* ret, const char* bus) {
	// No wait: the latest value the library holds, in the loop.
	return p_c_ctre_phoenix6_get_signal ? p_c_ctre_phoenix6_get_signal(n, sig, ret, bus, false, 0) : FRCD_CTRE_MISSING;
}

// frcd_p6_set_freq asks the device to send each of the n signals at hz
// (c_ctre_phoenix6_SetUpdateFrequency, context 0 as phoenix6's own
// StatusSignal passes it); the first failure ends it.
int frcd_p6_set_freq(const char* bus, uint32_t hash, int n, const frcd_p6_signal* sig, double hz, double timeout) {
	if (!p_c_ctre_phoenix6_SetUpdateFrequency) {
		return FRCD_CTRE_MISSING;
	}
	int e = 0;
	for (int i = 0; i < n && e == 0; i++) {
		e = p_c_ctre_phoenix6_SetUpdateFrequency(0, bus, hash, (uint16_t)sig[i].spn, hz, timeout);
	}
	return e;
}

// The requests go out at 100 Hz, Phoenix 6's default; FOC off (it needs a
// Pro licence), no limits overridden, brake as configured, no timesync.
#define FRCD_FREQ 100.0

int frcd_p6_control(const char* bus, uint32_t hash, int mode, double value, double ff, int slot) {
	switch (mode) {
	case 1:
		return p_c_ctre_phoenix6_RequestControlDutyCycleOut
			   ? p_c_ctre_phoenix6_RequestControlDutyCycleOut(bus, hash, FRCD_FREQ, value, false, false, false, false, false, false, false)
			   : FRCD_CTRE_MISSING;
	case 2:
		return p_c_ctre_phoenix6_RequestControlVoltageOut
			   ? p_c_ctre_phoenix6_RequestControlVoltageOut(bus, hash, FRCD_FREQ, value, false, false, false, false, false, false, false)
			   : FRCD_CTRE_MISSING;
	case 3:
		return p_c_ctre_phoenix6_RequestControlPositionVoltage
			   ? p_c_ctre_phoenix6_RequestControlPositionVoltage(bus, hash, FRCD_FREQ, value, 0, false, ff, slot, false, false, false, false, false, false)
			   : FRCD_CTRE_MISSING;
	case 4:
		return p_c_ctre_phoenix6_RequestControlVelocityVoltage
			   ? p_c_ctre_phoenix6_RequestControlVelocityVoltage(bus, hash, FRCD_FREQ, value, 0, false, ff, slot, false, false, false, false, false, false)
			   : FRCD_CTRE_MISSING;
	default:
		return p_c_ctre_phoenix6_RequestControlNeutralOut ? p_c_ctre_phoenix6_RequestControlNeutralOut(bus, hash, FRCD_FREQ, false)
								  : FRCD_CTRE_MISSING;
	}
}

// p6_serialize serializes one config value of its kind, as phoenix6's
// config groups do (serialize_double, serialize_int for an enum's value,
// serialize_bool).
static int p6_serialize(int spn, int kind, double v, char** s) {
	switch (kind) {
	case FRCD_CFG_INT:
		return p_c_ctre_phoenix6_serialize_int(spn, (int)v, s);
	case FRCD_CFG_BOOL:
		return p_c_ctre_phoenix6_serialize_bool(spn, v != 0, s);
	default:
		return p_c_ctre_phoenix6_serialize_double(spn, v, s);
	}
}

// frcd_p6_config serializes each (spn, kind, value) and applies them in
// one config apply, as a config group applied alone: futureProofConfigs
// false, as phoenix6's own Slot0Configs.apply passes it, so that the
// device keeps every config not sent (true is for a whole device
// configuration, and returns what it does not carry to the defaults).
int frcd_p6_config(const char* bus, uint32_t hash, int n, const int* spns, const int* kinds, const double* values, double timeout) {
	if (!p_c_ctre_phoenix6_serialize_double || !p_c_ctre_phoenix6_serialize_int || !p_c_ctre_phoenix6_serialize_bool ||
	    !p_c_ctre_phoenix6_set_configs || !p_c_ctre_phoenix6_free_memory) {
		return FRCD_CTRE_MISSING;
	}
	size_t cap = 256, len = 0;
	char* all = malloc(cap);
	if (all == NULL) {
		return -1;
	}
	all[0] = 0;
	int e = 0;
	for (int i = 0; i < n && e == 0; i++) {
		char* s = NULL;
		e = p6_serialize(spns[i], kinds[i], values[i], &s);
		if (e == 0 && s != NULL) {
			size_t l = strlen(s);
			if (len + l + 1 > cap) {
				cap = 2 * (len + l + 1);
				char* grown = realloc(all, cap);
				if (grown == NULL) {
					p_c_ctre_phoenix6_free_memory(&s);
					free(all);
					return -1;
				}
				all = grown;
			}
			memcpy(all + len, s, l + 1);
			len += l;
		}
		if (s != NULL) {
			p_c_ctre_phoenix6_free_memory(&s);
		}
	}
	if (e == 0) {
		e = p_c_ctre_phoenix6_set_configs(0, bus, (int)hash, timeout, all, (uint32_t)len, false, false, false);
	}
	free(all);
	return e;
}

// frcd_p6_read_configs reads the device's configs (get_configs, context
// 0 and useDid false, as phoenix6's refresh passes them) and takes each
// spn's value of its kind from them; the first failure ends it.
int frcd_p6_read_configs(const char* bus, uint32_t hash, int n, const int* spns, const int* kinds, double* values, double timeout) {
	if (!p_c_ctre_phoenix6_get_configs || !p_c_ctre_phoenix6_deserialize_double || !p_c_ctre_phoenix6_deserialize_int ||
	    !p_c_ctre_phoenix6_deserialize_bool || !p_c_ctre_phoenix6_free_memory) {
		return FRCD_CTRE_MISSING;
	}
	char* all = NULL;
	int e = p_c_ctre_phoenix6_get_configs(0, bus, (int)hash, timeout, &all, false);
	if (e == 0 && all == NULL) {
		e = -1;
	}
	uint32_t len = all != NULL ? (uint32_t)strlen(all) : 0;
	for (int i = 0; i < n && e == 0; i++) {
		switch (kinds[i]) {
		case FRCD_CFG_INT: {
			int v = 0;
			e = p_c_ctre_phoenix6_deserialize_int(spns[i], all, len, &v);
			values[i] = v;
			break;
		}
		case FRCD_CFG_BOOL: {
			bool v = false;
			e = p_c_ctre_phoenix6_deserialize_bool(spns[i], all, len, &v);
			values[i] = v ? 1 : 0;
			break;
		}
		default:
			e = p_c_ctre_phoenix6_deserialize_double(spns[i], all, len, &values[i]);
		}
	}
	if (all != NULL) {
		p_c_ctre_phoenix6_free_memory(&all);
	}
	return e;
}

int frcd_p6_feed(int timeoutMs) {
	return p_c_ctre_phoenix6_unmanaged_feed_enable ? p_c_ctre_phoenix6_unmanaged_feed_enable(timeoutMs) : FRCD_CTRE_MISSING;
}
