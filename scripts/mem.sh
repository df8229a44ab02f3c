#!/usr/bin/env bash
# mem.sh: measure the resident memory of frcd running the full example robot on the sim with ROS.
#
# Usage: scripts/mem.sh [FRCD_BINARY]     (default bin/frcd; make mem builds it first)
#
# Starts `frcd run --sim` on examples/competition with the ROS bridge and its embedded master (on a
# free loopback port) and the WPILib simulation WebSocket server, waits MEM_SECONDS (default 30),
# prints VmRSS and VmHWM from /proc, then attaches `rostopic echo /joint_states` and measures again
# after as long. The target on a roboRIO 1 (256 MB) is under 30 MB resident. GOMEMLIMIT and GOGC
# pass through to frcd.
set -euo pipefail

bin=${1:-bin/frcd}
secs=${MEM_SECONDS:-30}
urdf=examples/competition/robot.urdf
yaml=examples/competition/robot.yaml
prog=mem

[ -x "$bin" ] || { echo "$prog: $bin not found (make build)" >&2; exit 1; }
command -v rostopic >/dev/null 2>&1 || { echo "$prog: rostopic not found (make deps)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/frcd-mem.XXXXXX")
pids=()
cleanup() {
	for p in ${pids[@]+"${pids[@]}"}; do kill -TERM -- "-$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export ROS_MASTER_URI=http://127.0.0.1:$port ROS_IP=127.0.0.1 ROS_HOME=$tmp ROS_LOG_DIR=$tmp PYTHONDONTWRITEBYTECODE=1

# Each process in its own group, so that cleanup stops it and whatever it started.
setsid "$bin" run --sim --master embedded --wpilibws 127.0.0.1:0 "$urdf" "$yaml" >"$tmp/frcd.out" 2>&1 &
frcd=$!
pids+=("$frcd")

status() { # the VmRSS and VmHWM lines of frcd, in MB
	awk '/^(VmRSS|VmHWM):/ {printf "%s %.1f MB  ", $1, $2/1024}' "/proc/$frcd/status"
}

sleep "$secs"
kill -0 "$frcd" 2>/dev/null || { echo "$prog: frcd stopped:" >&2; cat "$tmp/frcd.out" >&2; exit 1; }
echo "$prog: frcd $(GOFLAGS= "$bin" version | cut -d' ' -f2-) after ${secs}s with ROS (embedded master): $(status)"

setsid rostopic echo /joint_states >"$tmp/echo.txt" 2>&1 &
pids+=("$!")
sleep "$secs"
kill -0 "$frcd" 2>/dev/null || { echo "$prog: frcd stopped:" >&2; cat "$tmp/frcd.out" >&2; exit 1; }
got=$(grep -c '^---$' "$tmp/echo.txt" || true)
[ "$got" -gt 0 ] || { echo "$prog: rostopic echo received nothing:" >&2; cat "$tmp/echo.txt" >&2; exit 1; }
echo "$prog: after ${secs}s more with rostopic echo /joint_states subscribed ($got messages received): $(status)"
