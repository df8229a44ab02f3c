#!/usr/bin/env bash
# phase.sh: run one phase of `make test`, saying what it is and how long it took.
#
# Usage: scripts/phase.sh --start              mark the start of make test (bin/.test-start)
#        scripts/phase.sh NAME COMMAND [ARG...] run COMMAND as the phase NAME, then print its time
#        scripts/phase.sh --total              print the time since --start
#
# The phase's output passes through unchanged; its exit status is COMMAND's.
set -uo pipefail

start_file=${PHASE_START_FILE:-bin/.test-start}

# now is the time in seconds, to the microsecond where bash has it (5.0+).
now() {
	if [ -n "${EPOCHREALTIME-}" ]; then
		echo "${EPOCHREALTIME/,/.}"
	else
		date +%s
	fi
}

# took formats the seconds from $1 to now: 42.1 s, 3 min 07 s.
took() {
	awk -v a="$1" -v b="$(now)" 'BEGIN {
		d = b - a; if (d < 0) d = 0
		if (d < 60) printf "%.1f s", d; else printf "%d min %02d s", int(d / 60), int(d) % 60
	}'
}

case ${1-} in
--start)
	mkdir -p "$(dirname "$start_file")" && now >"$start_file"
	exit 0
	;;
--total)
	if [ -f "$start_file" ]; then
		echo "== make test: all phases passed in $(took "$(cat "$start_file")")"
	fi
	exit 0
	;;
'' | -h | --help)
	sed -n '2,8s/^# \{0,1\}//p' "$0"
	exit 2
	;;
esac

name=$1
shift
[ $# -gt 0 ] || {
	echo "phase.sh: no command for phase $name" >&2
	exit 2
}
echo "== $name"
t0=$(now)
"$@"
status=$?
if [ $status -eq 0 ]; then
	echo "== $name: ok in $(took "$t0")"
else
	echo "== $name: FAILED (exit $status) after $(took "$t0")"
fi
exit $status
