//go:build cgo && (roborio || systemcore)

// loader.h: the dlopen loader both years' C files share. A year's file
// defines, then includes this file:
//
//   - FRCD_HAL_FUNCS(X), one X(name, return type, parameter list) per HAL
//     function it calls alike in every layout it supports, with the types
//     of that year's headers; this file declares a pointer p_NAME for each;
//   - FRCD_LAYOUTS: the layouts it supports (frcd_layout initializers),
//     each the release (or commit) whose headers it was written from and
//     the symbols by which a library shows it is of that layout;
//   - FRCD_MARKERS: every symbol the layouts are told apart by, and
//     FRCD_BUILD: what this build calls, for the refusal;
//   - frcd_resolve_layout(lib, layout, err, errlen): resolves the
//     functions whose declarations differ between its layouts.
//
// It defines frcd_load, frcd_hal_year and frcd_hal_layout.

#ifndef FRCD_LOADER_H
#define FRCD_LOADER_H

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// A layout of a year's HAL: name (the tag, or "main" and the commit) and
// the symbols a library of it exports (has) and does not (lacks), NULL
// ending each list.
typedef struct {
	const char* name;
	const char* has[4];
	const char* lacks[4];
} frcd_layout;

static const frcd_layout frcd_layouts[] = {FRCD_LAYOUTS};
#define FRCD_NLAYOUTS ((int)(sizeof frcd_layouts / sizeof frcd_layouts[0]))

static int frcd_resolve_layout(void* lib, const char* path, int layout, char* err, int errlen);

#define FRCD_DECLARE(name, ret, params) static ret(*p_##name) params;
FRCD_HAL_FUNCS(FRCD_DECLARE)

// frcd_layout_index is the layout of the library loaded.
static int frcd_layout_index = -1;

const char* frcd_hal_year(void) { return FRCD_HAL_YEAR; }

const char* frcd_hal_layout(void) {
	return frcd_layout_index < 0 ? "" : frcd_layouts[frcd_layout_index].name;
}

// frcd_sym resolves name, or writes why not to err.
static void* frcd_sym(void* lib, const char* path, const char* name, char* err, int errlen) {
	void* p = dlsym(lib, name);
	if (p == NULL) {
		snprintf(err, errlen, "%s has no %s: it is not the %s WPILib HAL (layout %s)", path, name, FRCD_HAL_YEAR,
		         frcd_hal_layout());
	}
	return p;
}

static int frcd_is_layout(void* lib, const frcd_layout* l) {
	for (int i = 0; l->has[i] != NULL; i++) {
		if (dlsym(lib, l->has[i]) == NULL) {
			return 0;
		}
	}
	for (int i = 0; l->lacks[i] != NULL; i++) {
		if (dlsym(lib, l->lacks[i]) != NULL) {
			return 0;
		}
	}
	return 1;
}

// frcd_refuse writes the one line of a library of no supported layout:
// which of the symbols that tell the layouts apart it has and lacks, and
// what this build calls.
static void frcd_refuse(void* lib, const char* path, char* err, int errlen) {
	static const char* const markers[] = {FRCD_MARKERS};
	char has[256] = "", lacks[256] = "";
	for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
		char* dst = dlsym(lib, markers[i]) != NULL ? has : lacks;
		size_t n = strlen(dst);
		snprintf(dst + n, sizeof has - n, "%s%s", n > 0 ? ", " : "", markers[i]);
	}
	(void)path;
	snprintf(err, errlen, "it is a WPILib HAL of a layout frcd does not call (it has %s; it lacks %s): %s",
	         has[0] ? has : "none of them", lacks[0] ? lacks : "none of them", FRCD_BUILD);
}

int frcd_load(const char* path, char* err, int errlen) {
	void* lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	if (lib == NULL) {
		const char* e = dlerror();
		snprintf(err, errlen, "%s", e != NULL ? e : "dlopen failed");
		return 0;
	}
	// Which layout: a library of none is one clear error, never a call
	// with the wrong arguments or a struct read at the wrong offsets.
	frcd_layout_index = -1;
	for (int i = 0; i < FRCD_NLAYOUTS; i++) {
		if (frcd_is_layout(lib, &frcd_layouts[i])) {
			frcd_layout_index = i;
			break;
		}
	}
	if (frcd_layout_index < 0) {
		frcd_refuse(lib, path, err, errlen);
		return 0;
	}
	// The library stays loaded for the life of the process: the HAL runs
	// threads of its own that unloading would pull the code from under.
#define FRCD_RESOLVE(name, ret, params)                                        \
	if ((p_##name = (ret(*) params)frcd_sym(lib, path, #name, err, errlen)) == NULL) { \
		return 0;                                                              \
	}
	FRCD_HAL_FUNCS(FRCD_RESOLVE)
	return frcd_resolve_layout(lib, path, frcd_layout_index, err, errlen);
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
