// phoenix.h: frcd's own declarations of the CTRE C interface functions it
// calls, and the shim (phoenix.c) that loads them at run time.
//
// Phoenix 5 ("CCI", libCTRE_PhoenixCCI.so): the signatures of
// ctre/phoenix/cci/MotController_CCI.h, PigeonIMU_CCI.h and Unmanaged_CCI.h
// (ErrorCode is an int-sized enum). Phoenix 6 (libCTRE_PhoenixTools.so):
// the 2026 signatures (v26) of ctre/phoenix6/networking/interfaces/
// Control_Interface.h and the native API's c_ctre_phoenix6_* functions.
// Sources in ../../deploy/ctre.md; decls_test.go checks every entry
// against CTRE's own declarations (testdata/vendor-decls.txt).
#ifndef FRCD_PHOENIX_H
#define FRCD_PHOENIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Phoenix 6's signal request and result, as its native API lays them out.
typedef struct {
	uint32_t devicehash;
	uint32_t spn;
} frcd_p6_signal;

typedef struct {
	double outValue;
	uint32_t unitsKey;
	const char* units;
	double hwtimestampseconds;
	double swtimestampseconds;
	double ecutimestampseconds;
	int error;
} frcd_p6_return;

// X(name, return type, parameters, family): 5 for Phoenix 5, 6 for Phoenix 6.
#define FRCD_CTRE_FUNCS(X)                                                                                    \
	X(c_MotController_Create1, void*, (int baseArbId), 5)                                                     \
	X(c_MotController_Set_4, int, (void* h, int mode, double demand0, double demand1, int demand1Type), 5)     \
	X(c_MotController_GetBusVoltage, int, (void* h, double* v), 5)                                            \
	X(c_MotController_GetOutputCurrent, int, (void* h, double* v), 5)                                         \
	X(c_MotController_GetTemperature, int, (void* h, double* v), 5)                                           \
	X(c_FeedEnable, void, (int timeoutMs), 5)                                                                 \
	X(c_MotController_SetNeutralMode, void, (void* h, int neutralMode), 5)                                    \
	X(c_MotController_ConfigPeakCurrentLimit, int, (void* h, int amps, int timeoutMs), 5)                     \
	X(c_MotController_ConfigPeakCurrentDuration, int, (void* h, int milliseconds, int timeoutMs), 5)          \
	X(c_MotController_ConfigContinuousCurrentLimit, int, (void* h, int amps, int timeoutMs), 5)               \
	X(c_MotController_EnableCurrentLimit, int, (void* h, bool enable), 5)                                     \
	X(c_MotController_ConfigGetParameter, int, (void* h, int param, double* value, int ordinal, int timeoutMs), 5) \
	X(c_MotController_HasResetOccurred, int, (void* h, bool* output), 5)                                       \
	X(c_PigeonIMU_Create1, void*, (int deviceNumber, const char* version, const char* canbus), 5)             \
	X(c_PigeonIMU_Create2, void*, (int talonDeviceID, const char* version), 5)                                \
	X(c_PigeonIMU_Get6dQuaternion, int, (void* h, double wxyz[4]), 5)                                         \
	X(c_PigeonIMU_GetRawGyro, int, (void* h, double xyz_dps[3]), 5)                                           \
	X(c_PigeonIMU_GetBiasedAccelerometer, int, (void* h, short ba_xyz[3]), 5)                                 \
	X(c_ctre_phoenix6_encode_device, int, (int deviceId, const char* model, const char* canbus, uint32_t* hash), 6) \
	X(c_ctre_phoenix6_get_signal, int,                                                                        \
	  (size_t count, frcd_p6_signal* signals, frcd_p6_return* rets, const char* network, bool wait, double timeout), 6) \
	X(c_ctre_phoenix6_SetUpdateFrequency, int,                                                                \
	  (int context, const char* network, uint32_t deviceHash, uint16_t spn, double frequencyHz, double timeoutSeconds), 6) \
	X(c_ctre_phoenix6_RequestControlDutyCycleOut, int,                                                        \
	  (const char* canbus, uint32_t ecu, double freq, double output, bool foc, bool brake, bool limFwd, bool limRev, \
	   bool ignHard, bool ignSoft, bool timesync), 6)                                                         \
	X(c_ctre_phoenix6_RequestControlVoltageOut, int,                                                          \
	  (const char* canbus, uint32_t ecu, double freq, double output, bool foc, bool brake, bool limFwd, bool limRev, \
	   bool ignHard, bool ignSoft, bool timesync), 6)                                                         \
	X(c_ctre_phoenix6_RequestControlPositionVoltage, int,                                                     \
	  (const char* canbus, uint32_t ecu, double freq, double position, double velocity, bool foc, double ff, int slot, \
	   bool brake, bool limFwd, bool limRev, bool ignHard, bool ignSoft, bool timesync), 6)                   \
	X(c_ctre_phoenix6_RequestControlVelocityVoltage, int,                                                     \
	  (const char* canbus, uint32_t ecu, double freq, double velocity, double accel, bool foc, double ff, int slot, \
	   bool brake, bool limFwd, bool limRev, bool ignHard, bool ignSoft, bool timesync), 6)                   \
	X(c_ctre_phoenix6_RequestControlNeutralOut, int, (const char* canbus, uint32_t ecu, double freq, bool timesync), 6) \
	X(c_ctre_phoenix6_serialize_double, int, (int spn, double value, char** out), 6)                          \
	X(c_ctre_phoenix6_serialize_int, int, (int spn, int value, char** out), 6)                                \
	X(c_ctre_phoenix6_serialize_bool, int, (int spn, bool value, char** out), 6)                              \
	X(c_ctre_phoenix6_deserialize_double, int, (int spn, const char* str, uint32_t len, double* out), 6)     \
	X(c_ctre_phoenix6_deserialize_int, int, (int spn, const char* str, uint32_t len, int* out), 6)           \
	X(c_ctre_phoenix6_deserialize_bool, int, (int spn, const char* str, uint32_t len, bool* out), 6)         \
	X(c_ctre_phoenix6_get_configs, int,                                                                       \
	  (int context, const char* network, int deviceHash, double timeout, char** values, bool useDid), 6)     \
	X(c_ctre_phoenix6_set_configs, int,                                                                       \
	  (int context, const char* network, int deviceHash, double timeout, const char* values, uint32_t len,    \
	   bool futureProofConfigs, bool overrideIfDuplicate, bool useDid), 6)                                    \
	X(c_ctre_phoenix6_free_memory, int, (char** p), 6)                                                        \
	X(c_ctre_phoenix6_unmanaged_feed_enable, int, (int32_t timeoutMs), 6)

// FRCD_CTRE_MISSING is the status of a call whose library is not loaded.
#define FRCD_CTRE_MISSING -100000

// frcd_ctre_load dlopens each of the n paths (RTLD_GLOBAL) and resolves
// every function from any of them. It returns a bit set of the families
// wholly resolved (1: Phoenix 5, 2: Phoenix 6), and writes into err why a
// library did not load or which function is missing (the first).
int frcd_ctre_load(const char** paths, int n, char* err, int errlen);

// The calls, through the resolved pointers; a missing function returns
// FRCD_CTRE_MISSING (or NULL for the creators) without calling anything.
void* frcd_p5_motor_create(int arbID);
int frcd_p5_set_duty(void* h, double duty);
int frcd_p5_status(void* h, double* busV, double* current, double* temp);
void frcd_p5_feed(int timeoutMs);
void* frcd_p5_pigeon_create(int id, int talonID);
int frcd_p5_pigeon_read(void* h, double wxyz[4], double dps[3], short accel[3]);
int frcd_p6_encode(int id, const char* model, const char* bus, uint32_t* hash);
int frcd_p6_get(size_t n, frcd_p6_signal* sig, frcd_p6_return* ret, const char* bus);
int frcd_p6_set_freq(const char* bus, uint32_t hash, int n, const frcd_p6_signal* sig, double hz, double timeout);
int frcd_p6_control(const char* bus, uint32_t hash, int mode, double value, double ff, int slot);
// The kinds of a config's value (how it is serialized): a double, an int
// (an enum's value) or a bool.
#define FRCD_CFG_DOUBLE 0
#define FRCD_CFG_INT 1
#define FRCD_CFG_BOOL 2
int frcd_p6_config(const char* bus, uint32_t hash, int n, const int* spns, const int* kinds, const double* values, double timeout);
int frcd_p6_read_configs(const char* bus, uint32_t hash, int n, const int* spns, const int* kinds, double* values, double timeout);
int frcd_p5_config(void* h, int neutral, int limits, bool enable, int peakA, int peakMs, int continuousA, int timeoutMs);
int frcd_p5_read_limits(void* h, double* peakA, double* peakMs, double* continuousA, int timeoutMs);
int frcd_p5_has_reset(void* h, bool* reset);
int frcd_p6_feed(int timeoutMs);

#endif
