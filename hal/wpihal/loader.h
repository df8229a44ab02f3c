//go:build cgo && (roborio || systemcore)

// loader.h: the dlopen loader both years' C files share. A year's file
// defines FRCD_HAL_FUNCS(X), one X(name, return type, parameter list) per
// HAL function it calls, with the types of that year's headers, then
// includes this file, which declares a pointer p_NAME for each and defines
// frcd_load and frcd_hal_year.

#ifndef FRCD_LOADER_H
#define FRCD_LOADER_H

#include <dlfcn.h>
#include <stdio.h>

#define FRCD_DECLARE(name, ret, params) static ret(*p_##name) params;
FRCD_HAL_FUNCS(FRCD_DECLARE)

const char* frcd_hal_year(void) { return FRCD_HAL_YEAR; }

int frcd_load(const char* path, char* err, int errlen) {
	void* lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	if (lib == NULL) {
		const char* e = dlerror();
		snprintf(err, errlen, "%s", e != NULL ? e : "dlopen failed");
		return 0;
	}
	// A symbol only the other year's HAL has names the mismatch at once:
	// a HAL of the wrong year is one clear error, not a crash on a call
	// with the wrong arguments.
	if (dlsym(lib, FRCD_OTHER_YEAR_SYMBOL) != NULL && dlsym(lib, FRCD_OWN_YEAR_SYMBOL) == NULL) {
		snprintf(err, errlen, "%s is the %s WPILib HAL (it has %s), not the %s HAL this frcd calls", path,
		         FRCD_OTHER_YEAR, FRCD_OTHER_YEAR_SYMBOL, FRCD_HAL_YEAR);
		return 0;
	}
	// The library stays loaded for the life of the process: the HAL runs
	// threads of its own that unloading would pull the code from under.
#define FRCD_RESOLVE(name, ret, params)                                                             \
	p_##name = (ret(*) params)dlsym(lib, #name);                                                     \
	if (p_##name == NULL) {                                                                          \
		snprintf(err, errlen, "%s has no %s: it is not the %s WPILib HAL", path, #name, FRCD_HAL_YEAR); \
		return 0;                                                                                    \
	}
	FRCD_HAL_FUNCS(FRCD_RESOLVE)
	return 1;
}

// Handle-returning initializers and calls that only set a status.
#define FRCD_INIT(expr)  \
	frcd_int r = {0, 0}; \
	r.v = (expr);        \
	return r;

#define FRCD_STATUS(call) \
	int32_t status = 0;   \
	call;                 \
	return status;

#endif
