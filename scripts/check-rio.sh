#!/usr/bin/env bash
# check-rio.sh: check that a roboRIO build of frcd (make rio) will load there.
#
# Usage: scripts/check-rio.sh BINARY
#
# It must be a 32-bit ARM EABI5 executable with the soft-float calling
# convention (the roboRIO userland is softfp), loaded by /lib/ld-linux.so.3,
# needing only libc.so.6, libpthread.so.0 and libdl.so.2 (libwpiHal.so is
# opened at run time), and no glibc symbol version newer than GLIBC_2.4
# (see build/rio/glibc-2.4.h). When qemu-arm is installed it also runs the
# binary (frcd version) on Debian's armel glibc.
set -euo pipefail

prog=check-rio
die() {
	echo "$prog: $*" >&2
	exit 1
}

bin=${1-}
[ -f "$bin" ] || die "usage: $0 BINARY"
tools=arm-linux-gnueabi-
command -v ${tools}readelf >/dev/null 2>&1 || die "${tools}readelf not found (package binutils-arm-linux-gnueabi)"

header=$(${tools}readelf -h "$bin")
grep -q 'Machine:.*ARM' <<<"$header" || die "$bin is not an ARM executable"
grep -q 'Version5 EABI' <<<"$header" || die "$bin is not ARM EABI5"
grep -q 'hard-float' <<<"$header" && die "$bin uses the hard-float calling convention; the roboRIO's is softfp"

interp=$(${tools}readelf -l "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
[ "$interp" = /lib/ld-linux.so.3 ] || die "$bin asks for the loader '$interp', not /lib/ld-linux.so.3"

needed=$(${tools}readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
[ "$needed" = "libc.so.6 libdl.so.2 libpthread.so.0 " ] || die "$bin needs the libraries: $needed(want libc.so.6 libdl.so.2 libpthread.so.0)"

max=GLIBC_2.4
versions=$(${tools}objdump -T "$bin" | grep -o 'GLIBC_[0-9.]*' | sort -uV)
newest=$(printf '%s\n%s\n' "$versions" "$max" | sort -V | tail -n 1)
if [ "$newest" != "$max" ]; then
	${tools}objdump -T "$bin" | grep -v "($max)" | grep 'GLIBC_' | sed 's/^/    /' >&2
	die "$bin needs $newest, newer than $max: bind those symbols in build/rio/glibc-2.4.h"
fi
echo "$prog: $bin: ARM EABI5 softfp, $interp, needs $needed, glibc symbols: $(echo $versions)"

if command -v qemu-arm >/dev/null 2>&1 && [ -d /usr/arm-linux-gnueabi/lib ]; then
	out=$(qemu-arm -L /usr/arm-linux-gnueabi "$bin" version) || die "$bin does not run under qemu-arm"
	echo "$prog: under qemu-arm: $out"
fi
