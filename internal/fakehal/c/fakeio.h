// fakeio.h: what both fake HALs (fakehal2026.c, fakehal2027.c) share: the
// call log ($FAKEHAL_LOG, one line per call; with $FAKEHAL_STAMP set each
// line starts with the wall-clock time in µs since 1970), the inputs ($FAKEHAL_IN, read
// at every call: lines of "key value...", the last line of a key winning),
// failures on demand ("fail NAME STATUS") and the HAL's error messages.

#ifndef FAKEIO_H
#define FAKEIO_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PARAMETER_OUT_OF_RANGE -1028
#define RESOURCE_IS_ALLOCATED -1029
#define RESOURCE_OUT_OF_RANGE -1030
#define HAL_HANDLE_ERROR -1098

// ---- the log

static void logf_(const char* fmt, ...) {
	const char* path = getenv("FAKEHAL_LOG");
	if (path == NULL) {
		return;
	}
	FILE* f = fopen(path, "a");
	if (f == NULL) {
		return;
	}
	if (getenv("FAKEHAL_STAMP") != NULL) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		fprintf(f, "%lld ", (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
	}
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

// ---- the inputs

// in_find copies into out what follows "key " on the last line of
// $FAKEHAL_IN that starts with it; 0 when there is none.
static int in_find(const char* key, char* out, size_t n) {
	const char* path = getenv("FAKEHAL_IN");
	if (path == NULL) {
		return 0;
	}
	FILE* f = fopen(path, "r");
	if (f == NULL) {
		return 0;
	}
	char line[1024];
	size_t k = strlen(key);
	int found = 0;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, key, k) == 0 && line[k] == ' ') {
			snprintf(out, n, "%s", line + k + 1);
			out[strcspn(out, "\n")] = 0;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static double in_double(const char* key, double def) {
	char v[1024];
	return in_find(key, v, sizeof v) ? strtod(v, NULL) : def;
}

static long long in_int(const char* key, long long def) {
	char v[1024];
	return in_find(key, v, sizeof v) ? strtoll(v, NULL, 0) : def;
}

// key_ formats a key of $FAKEHAL_IN, only when there is such a file:
// without inputs the fake answers its defaults and should cost little
// (make bench runs frcd on it).
__attribute__((unused, format(printf, 3, 4))) static void key_(char* key, size_t n, const char* fmt, ...) {
	key[0] = 0;
	if (getenv("FAKEHAL_IN") == NULL) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(key, n, fmt, ap);
	va_end(ap);
}

// failed sets *status (when the input says "fail NAME STATUS") and reports
// whether it did.
static int failed(const char* name, int32_t* status) {
	if (getenv("FAKEHAL_IN") == NULL) {
		return 0; // no inputs: no key to format (make bench's fake, which should cost little)
	}
	char key[128];
	snprintf(key, sizeof key, "fail %s", name);
	long long s = in_int(key, 0);
	if (s != 0 && status != NULL) {
		*status = (int32_t)s;
	}
	return s != 0;
}

// hex reads hex digits into b, at most n bytes; it returns how many.
__attribute__((unused)) static int hex(const char* s, uint8_t* b, int n) {
	int i = 0;
	while (i < n && s[0] && s[1]) {
		unsigned v;
		if (sscanf(s, "%2x", &v) != 1) {
			break;
		}
		b[i++] = (uint8_t)v;
		s += 2;
	}
	return i;
}

// hexs writes b as hex into out for a log line; without a log it writes
// nothing (make bench's fake, which should cost little: formatting an SPI
// transfer a cycle was 4 % of the idle daemon's CPU at normal priority).
__attribute__((unused)) static void hexs(const uint8_t* b, int n, char* out) {
	out[0] = 0;
	if (getenv("FAKEHAL_LOG") == NULL) {
		return;
	}
	for (int i = 0; i < n; i++) {
		sprintf(out + 2 * i, "%02x", b[i]);
	}
	if (n == 0) {
		strcpy(out, "-");
	}
}

const char* HAL_GetErrorMessage(int32_t code) {
	static char buf[128];
	switch (code) {
	case RESOURCE_IS_ALLOCATED:
		return "HAL: Resource already allocated";
	case RESOURCE_OUT_OF_RANGE:
		return "HAL: The requested resource is out of range.";
	case HAL_HANDLE_ERROR:
		return "HAL: A handle parameter was passed incorrectly";
	}
	snprintf(buf, sizeof buf, "fake HAL error %d", code);
	return buf;
}

const char* HAL_GetLastError(int32_t* status) {
	static char buf[512];
	char v[512];
	logf_("HAL_GetLastError status=%d", *status);
	if (in_find("lasterror", v, sizeof v)) {
		char* msg = NULL;
		*status = (int32_t)strtol(v, &msg, 0);
		snprintf(buf, sizeof buf, "%s", msg + strspn(msg, " "));
		return buf;
	}
	return "no last error";
}

// ---- the HAL's clock

// mono_us is CLOCK_MONOTONIC in µs: the clock a fake's follows unless the
// input fixes it.
static uint64_t mono_us(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

// clock_of is a fake HAL's clock, µs, from its reading t (fixed by the
// input, or CLOCK_MONOTONIC's), faulty on demand:
//   clockback N    N µs behind from now on (0 when t < N): a step back
//   clockstall 1   stands still at the time it had when the line came,
//                  until "clockstall 0"
static uint64_t clock_of(uint64_t t) {
	static int stalled;
	static uint64_t at;
	long long back = in_int("clockback", 0);
	if (back > 0) {
		t = (uint64_t)back < t ? t - (uint64_t)back : 0;
	}
	if (in_int("clockstall", 0)) {
		if (!stalled) {
			stalled = 1;
			at = t;
		}
		return at;
	}
	stalled = 0;
	return t;
}

// A joystick's input line is "WHAT N values...".
static int joy_key(const char* what, int32_t n, char* v, size_t size) {
	char key[64];
	snprintf(key, sizeof key, "%s %d", what, n);
	return in_find(key, v, size);
}

// joy_numbers reads up to 12 numbers of a joystick's line into x; it
// returns how many.
static int joy_numbers(const char* what, int32_t n, double* x) {
	char v[512];
	int count = 0;
	if (joy_key(what, n, v, sizeof v)) {
		char* p = v;
		char* end;
		for (; count < 12; count++) {
			x[count] = strtod(p, &end);
			if (end == p) {
				break;
			}
			p = end;
		}
	}
	return count;
}

#endif
