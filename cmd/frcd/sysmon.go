package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
)

// sysmonSetting is the GODEBUG setting `frcd run` runs with: a scheduler
// trace every 2^31-1 ms (24.8 days), which keeps the Go runtime's monitor
// thread (sysmon) from sleeping deeply whenever every P is idle. The trace
// itself is never printed: the first would come 24.8 days after the
// machine booted (the runtime's monotonic clock), then every 24.8 days, one
// line to stderr. Its cost: an unrecovered panic or a fatal error prints
// the scheduler's state first (a line per P, M and goroutine), and a fatal
// error the runtime raises while it holds its scheduler lock (thread
// exhaustion, a broken invariant of its own) hangs the process instead of
// ending it, since printing that state takes the same lock
// (runtime/panic.go, startpanic_m). frcd never reaches the first; the
// second is a runtime bug.
//
// Why: the loop sleeps between cycles with every P idle, so without it
// sysmon sleeps deeply, and the cycle's first cgo call (a HAL call), or its
// thread taking a P back at SCHED_FIFO, wakes it with its 20 µs polling
// restarted: two or three wake-ups of sysmon a cycle, each a cross-thread
// wake-up the loop's thread pays for. Finding the cycle running with a P
// whose schedule count is 10 ms old, sysmon then preempts it, which for the
// goroutine locked to its SCHED_FIFO thread is a hand-off through another
// thread, mid-cycle. Awake, sysmon polls every 10 ms on its own timer, about
// 100 wake-ups a second whatever the loop's rate, and rarely meets a cycle
// (docs/architecture.md, "The priority's cost", has the figures).
//
// The runtime reads schedtrace only at start, so frcd sets it by executing
// itself again (reexecForSysmon). An operator's own schedtrace in GODEBUG
// (schedtrace=0 to run without it) is kept.
const sysmonSetting = "schedtrace=2147483647"

// withSysmonSetting returns env with sysmonSetting added to GODEBUG, or
// nil when GODEBUG sets schedtrace already. GODEBUG is its first entry in
// env, as the runtime reads it; later ones are left as they are.
func withSysmonSetting(env []string) []string {
	for i, kv := range env {
		v, ok := strings.CutPrefix(kv, "GODEBUG=")
		if !ok {
			continue
		}
		for _, s := range strings.Split(v, ",") {
			if strings.HasPrefix(s, "schedtrace=") {
				return nil
			}
		}
		if v != "" {
			v += ","
		}
		out := slices.Clone(env)
		out[i] = "GODEBUG=" + v + sysmonSetting
		return out
	}
	return append(slices.Clone(env), "GODEBUG="+sysmonSetting)
}

// reexecForSysmon executes this program again, same arguments and
// process, with sysmonSetting in its environment, unless GODEBUG sets
// schedtrace already. It returns only if it did not: nothing to do, or the
// exec failed (said on stderr; frcd then runs without the setting). It
// must run before anything else of `frcd run`: nothing it opened would
// survive.
func reexecForSysmon(stderr io.Writer) {
	env := withSysmonSetting(os.Environ())
	if env == nil {
		return
	}
	exe, err := os.Executable()
	if err == nil {
		err = syscall.Exec(exe, os.Args, env)
	}
	fmt.Fprintf(stderr, "frcd: running without GODEBUG=%s (%v): the Go runtime's monitor thread wakes with every cycle\n", sysmonSetting, err)
}
