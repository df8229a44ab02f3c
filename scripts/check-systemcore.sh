#!/usr/bin/env bash
# check-systemcore.sh: check that a Systemcore build of frcd (make systemcore)
# will load there.
#
# Usage: scripts/check-systemcore.sh BINARY
#
# It must be an AArch64 executable loaded by /lib/ld-linux-aarch64.so.1,
# needing only libc.so.6 (WPILib's HAL, libwpiHal.so, is opened at run time
# with dlopen, which glibc 2.34 and later keep in libc), and no glibc
# symbol version newer than Systemcore's glibc, GLIBC_2.35 (issue 26's
# figure for the Systemcore image; check it there with ldd --version, see
# deploy/systemcore.md). When qemu-aarch64 and Debian's arm64 C library
# are installed it also runs the binary (frcd version).
set -euo pipefail

prog=check-systemcore
die() {
	echo "$prog: $*" >&2
	exit 1
}

bin=${1-}
[ -f "$bin" ] || die "usage: $0 BINARY"
tools=aarch64-linux-gnu-
command -v ${tools}readelf >/dev/null 2>&1 || die "${tools}readelf not found (package binutils-aarch64-linux-gnu)"

${tools}readelf -h "$bin" | grep -q 'Machine:.*AArch64' || die "$bin is not an AArch64 executable"

interp=$(${tools}readelf -l "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
[ "$interp" = /lib/ld-linux-aarch64.so.1 ] || die "$bin asks for the loader '$interp', not /lib/ld-linux-aarch64.so.1"

needed=$(${tools}readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
[ "$needed" = "libc.so.6 " ] || die "$bin needs the libraries: $needed(want libc.so.6 alone)"

max=GLIBC_2.35
versions=$(${tools}objdump -T "$bin" | grep -o 'GLIBC_[0-9.]*' | sort -uV)
newest=$(printf '%s\n%s\n' "$versions" "$max" | sort -V | tail -n 1)
if [ "$newest" != "$max" ]; then
	${tools}objdump -T "$bin" | grep 'GLIBC_' | sed 's/^/    /' >&2
	die "$bin needs $newest, newer than Systemcore's $max"
fi
echo "$prog: $bin: AArch64, $interp, needs $needed, glibc symbols: $(echo $versions)"

if command -v qemu-aarch64 >/dev/null 2>&1 && [ -d /usr/aarch64-linux-gnu/lib ]; then
	out=$(qemu-aarch64 -L /usr/aarch64-linux-gnu "$bin" version) || die "$bin does not run under qemu-aarch64"
	echo "$prog: under qemu-aarch64: $out"
fi
