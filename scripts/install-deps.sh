#!/usr/bin/env bash
# install-deps.sh: install the Debian packages and npm modules frcd's tests need, only when missing.
#
# Usage: scripts/install-deps.sh           install whatever is missing (silent if nothing is)
#        scripts/install-deps.sh --check   only report what is missing; exit 1 if anything is
#        scripts/install-deps.sh --bench   also what `make bench` needs (roscpp, valgrind)
#
# Safe to run again and again: it looks for each tool first and touches apt only
# when something must be installed, running `apt-get update` at most once.
# Needs no standard input, so it works in CI. Uses sudo when not root.
set -euo pipefail

# One line per dependency: a command looked up on PATH (or an absolute path to
# a file that must exist), then the Debian package that provides it. To add a
# dependency, add a line. Lines starting with # are ignored.
DEPS='
# the URDF check of the validation tests (check_urdf) and the C compiler of cgo
check_urdf             liburdfdom-tools
gcc                    gcc
# the roboRIO build (make rio): the softfp ARM cross compiler, its C library, and
# qemu to run the ARM binary once built
arm-linux-gnueabi-gcc  gcc-arm-linux-gnueabi
/usr/arm-linux-gnueabi/include/stdio.h libc6-dev-armel-cross
qemu-arm               qemu-user
# the Systemcore build (make systemcore): the arm64 cross compiler and its C
# library for cgo (the WPILib HAL), qemu to run the arm64 binary and its tests
aarch64-linux-gnu-gcc  gcc-aarch64-linux-gnu
/usr/aarch64-linux-gnu/include/stdio.h libc6-dev-arm64-cross
qemu-aarch64           qemu-user
# ROS 1 tools for the ROS bridge integration tests, from Debian itself
rosmaster              python3-rosmaster
rostopic               python3-rostopic
rosnode                python3-rosnode
rosparam               python3-rosparam
rosservice             python3-rosservice
/usr/lib/robot_state_publisher/robot_state_publisher ros-robot-state-publisher
# roslaunch and rospack, for the launch-file test (package.xml, launch/)
roslaunch              python3-roslaunch
rospack                rospack-tools
# rospy and tf2_ros for Python, for the TF test (ros/testdata/tfcheck.py: what tf_echo sees)
/usr/lib/python3/dist-packages/rospy/__init__.py python3-rospy
/usr/lib/python3/dist-packages/tf2_ros/__init__.py python3-tf2-ros
# genpy, to make the Python types of controller_manager_msgs from ros/cmmsgs (Debian has no ros_control)
/usr/lib/genpy/gensrv_py.py python3-genpy
# the actionlib Python client and trajectory_msgs, for the FollowJointTrajectory test (ros/testdata/follow_trajectory.py;
# the control_msgs types are made from ros/ctlmsgs with genpy and the genaction of actionlib_msgs)
/usr/lib/python3/dist-packages/actionlib/simple_action_client.py python3-actionlib
/usr/lib/python3/dist-packages/trajectory_msgs/msg/_JointTrajectory.py python3-trajectory-msgs
/usr/lib/actionlib_msgs/genaction.py libactionlib-msgs-dev
/usr/share/actionlib_msgs/msg/GoalID.msg ros-actionlib-msgs
# dynparam and dynamic_reconfigure.client, for the dynamic_reconfigure test (ros/reconfigure_integration_test.go)
/usr/lib/dynamic_reconfigure/dynparam python3-dynamic-reconfigure
# dynparam loads itself through roslib, which needs the package.xml of dynamic_reconfigure: Debian ships it in the -dev package
/usr/share/dynamic_reconfigure/package.xml libdynamic-reconfigure-config-init-mutex-dev
# message definitions, so rostopic can echo the topics of frcd and rosservice call its services
/usr/lib/python3/dist-packages/sensor_msgs/msg/_JointState.py python3-sensor-msgs
/usr/lib/python3/dist-packages/diagnostic_msgs/msg/_DiagnosticArray.py python3-diagnostic-msgs
/usr/lib/python3/dist-packages/geometry_msgs/msg/_Quaternion.py python3-geometry-msgs
/usr/lib/python3/dist-packages/tf2_msgs/msg/_TFMessage.py python3-tf2-msgs
/usr/lib/python3/dist-packages/std_srvs/srv/_SetBool.py python3-std-srvs
/usr/lib/python3/dist-packages/nav_msgs/msg/_Odometry.py python3-nav-msgs
/usr/lib/python3/dist-packages/roscpp/srv/_GetLoggers.py python3-roscpp-msg
# the .msg definitions themselves, so that rosmsg show works on the types of frcd
rosmsg                 python3-rosmsg
/usr/share/std_msgs/msg/Float64.msg ros-std-msgs
/usr/share/sensor_msgs/msg/JointState.msg ros-sensor-msgs
/usr/share/geometry_msgs/msg/Quaternion.msg ros-geometry-msgs
/usr/share/diagnostic_msgs/msg/DiagnosticArray.msg ros-diagnostic-msgs
/usr/share/nav_msgs/msg/Odometry.msg ros-nav-msgs
/usr/share/rosgraph_msgs/msg/Log.msg ros-rosgraph-msgs
# rosmsg and rospack find a message package by its package.xml, which Debian ships in the
# -dev package of the messages, not beside the .msg files: without it rosmsg show sensor_msgs/X fails
/usr/share/sensor_msgs/package.xml libsensor-msgs-dev
/usr/share/diagnostic_msgs/package.xml libdiagnostic-msgs-dev
/usr/share/nav_msgs/package.xml libnav-msgs-dev
/usr/share/std_srvs/package.xml libstd-srvs-dev
# Cyclone DDS 0.10.2 (what rmw_cyclonedds_cpp is built on), the peer of the rtps interop tests
# (rtps/interop_test.go): its headers and library, idlc for the message type, pkg-config to link
idlc                   cyclonedds-tools
/usr/include/dds/dds.h cyclonedds-dev
pkg-config             pkgconf
# Fast DDS 2.9.1 (what rmw_fastrtps_cpp is built on), the other peer of those tests: its headers
# and library, fastddsgen for the message type, g++
fastddsgen             fastddsgen
/usr/include/fastdds/dds/domain/DomainParticipant.hpp libfastrtps-dev
g++                    g++
# Node.js, for the WPILib simulation WebSocket test with the WPILib client library
node                   nodejs
npm                    npm
# OpenSSH server, for the deploy test: frcd deploy installs to a fake roboRIO tree over real SSH
/usr/sbin/sshd         openssh-server
# systemd-analyze, to verify the coprocessor unit deploy/frcd.service
systemd-analyze        systemd
# the rtps tests in a network namespace (multicast on lo): unshare, ip
unshare                util-linux
ip                     iproute2
# the real-kernel CAN test (cmd/frcd TestLinuxCANOnKernel, internal/qemutest): qemu, a
# kernel with the can, can_raw and vcan modules (the one file of the metapackage marks it
# installed), a static busybox for the init of the VM, candump and cansend of can-utils as the
# CAN peers in the VM, xz to unpack modules where the kernel ships them as .ko.xz
qemu-system-x86_64     qemu-system-x86
/usr/share/bug/linux-image-amd64/presubj linux-image-amd64
busybox                busybox-static
candump                can-utils
cansend                can-utils
xz                     xz-utils
'

# What `make bench` needs on top (--bench): the roscpp reference node of
# internal/cpubench, built from the ROS 1 headers, and callgrind.
BENCH_DEPS='
# make bench: the roscpp reference node of internal/cpubench, built from the ROS 1
# headers, and callgrind
g++                    g++
pkg-config             pkgconf
/usr/include/ros/ros.h libroscpp-dev
/usr/include/std_msgs/Float64.h libstd-msgs-dev
/usr/include/sensor_msgs/JointState.h libsensor-msgs-dev
/usr/include/nav_msgs/Odometry.h libnav-msgs-dev
/usr/include/geometry_msgs/Twist.h libgeometry-msgs-dev
/usr/include/diagnostic_msgs/DiagnosticArray.h libdiagnostic-msgs-dev
valgrind               valgrind
'

# npm modules, one line each: a file that must exist (relative to the
# repository), then the directory whose committed package-lock.json npm ci
# installs it from.
NPM_DEPS='
test/wpilibws/node_modules/@wpilib/node-wpilib-ws/package.json test/wpilibws
test/nt4/node_modules/ntcore-ts-client/package.json test/nt4
test/rtps/node_modules/@foxglove/rtps/package.json test/rtps
'

# For its own test (cmd/frcd TestInstallDepsLeavesNoService) only: a tree
# standing for / (its etc/ and usr/sbin/, written without sudo) and a table
# standing for DEPS.
sysroot=${INSTALL_DEPS_SYSROOT-}
if [ -n "${INSTALL_DEPS_TABLE-}" ]; then
	DEPS=$INSTALL_DEPS_TABLE
	NPM_DEPS=''
fi

prog=install-deps
die() {
	echo "$prog: $*" >&2
	exit 1
}

present() {
	case $1 in
	/*) [ -e "$1" ] ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

check_only=0
case ${1-} in
'') ;;
--check) check_only=1 ;;
--bench) DEPS="$DEPS$BENCH_DEPS" ;;
-h | --help)
	sed -n '2,10s/^# \{0,1\}//p' "$0"
	exit 0
	;;
*) die "unknown argument '$1' (try --help)" ;;
esac

# Collect the packages to install, each once, with what each is for
# (parallel arrays rather than an associative one, so macOS's bash 3.2 copes).
# Why a package is needed is the comment above its group, its lines joined.
missing_pkgs=()
missing_for=()
missing_why=()
why='' comment=0
while read -r what pkg rest; do
	case $what in
	'#'*)
		line=$(printf '%s %s %s' "${what#\#}" "$pkg" "$rest" | sed 's/^ *//; s/ *$//')
		if [ "$comment" = 1 ]; then why="$why $line"; else why=$line; fi
		comment=1
		continue
		;;
	'') continue ;;
	esac
	comment=0
	[ -n "$pkg" ] && [ -z "$rest" ] || die "bad table line: '$what $pkg $rest'"
	present "$what" && continue
	i=0
	while [ $i -lt ${#missing_pkgs[@]} ] && [ "${missing_pkgs[$i]}" != "$pkg" ]; do
		i=$((i + 1))
	done
	if [ $i -eq ${#missing_pkgs[@]} ]; then
		missing_pkgs[i]=$pkg
		missing_for[i]=$what
		missing_why[i]=$why
	else
		missing_for[i]="${missing_for[$i]} $what"
	fi
done <<<"$DEPS"

root=$(cd "$(dirname "$0")/.." && pwd)
missing_npm=()
while read -r what dir rest; do
	case $what in '' | '#'*) continue ;; esac
	[ -n "$dir" ] && [ -z "$rest" ] || die "bad npm table line: '$what $dir $rest'"
	[ -e "$root/$what" ] || missing_npm+=("$dir")
done <<<"$NPM_DEPS"

[ ${#missing_pkgs[@]} -eq 0 ] && [ ${#missing_npm[@]} -eq 0 ] && exit 0

if [ "$check_only" = 1 ]; then
	for i in "${!missing_pkgs[@]}"; do
		echo "$prog: missing ${missing_for[$i]} (package ${missing_pkgs[$i]})"
	done
	for dir in ${missing_npm[@]+"${missing_npm[@]}"}; do
		echo "$prog: missing the npm modules of $dir (npm ci there)"
	done
	exit 1
fi

log=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX")
trap 'rm -f "$log"' EXIT

fail() {
	echo "$prog: $*" >&2
	echo "$prog: last lines of the output:" >&2
	tail -n 20 "$log" | sed 's/^/    /' >&2
	exit 1
}

# install_npm runs npm ci where modules are missing, from the lock file.
install_npm() {
	for dir in ${missing_npm[@]+"${missing_npm[@]}"}; do
		command -v npm >/dev/null 2>&1 || die "cannot install the npm modules of $dir: npm not found"
		(cd "$root/$dir" && npm ci --no-audit --no-fund --loglevel=error </dev/null >>"$log" 2>&1) ||
			fail "npm ci in $dir failed"
		echo "$prog: installed the npm modules of $dir"
	done
}

if [ ${#missing_pkgs[@]} -eq 0 ]; then
	install_npm
	exit 0
fi

need="${missing_pkgs[*]}"
command -v apt-get >/dev/null 2>&1 ||
	die "cannot install $need: apt-get not found (this script supports Debian/Ubuntu only); install them by hand"

as_root=()
if [ -z "$sysroot" ] && [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 ||
		die "cannot install $need: not root and sudo not found; run as root: apt-get install $need"
	if [ -t 0 ]; then
		as_root=(sudo)
	else
		as_root=(sudo -n) # no terminal to ask for a password on: fail instead of hanging
	fi
fi

run_apt() {
	${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive \
		apt-get -q -y -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=600 "$@" </dev/null >>"$log" 2>&1
}

# What is installed, and why, before apt's long quiet minutes (its output
# goes to the log, shown on failure).
echo "$prog: installing ${#missing_pkgs[@]} Debian package(s) the tests need, with apt-get (output in $log):"
# One paragraph per reason, its packages on the line under it.
shown=''
for i in "${!missing_pkgs[@]}"; do
	case " $shown " in *" $i "*) continue ;; esac
	pkgs=''
	for j in "${!missing_pkgs[@]}"; do
		if [ "${missing_why[$j]}" = "${missing_why[$i]}" ]; then
			pkgs="$pkgs ${missing_pkgs[$j]}"
			shown="$shown $j"
		fi
	done
	echo "$prog:   ${missing_why[$i]}:"
	echo "$prog:    $pkgs"
done

# Leave the machine as found: no package may start or enable a system
# service (openssh-server would leave sshd listening on port 22; the tests
# run their own servers as their children, on temporary ports with
# temporary keys). policy-rc.d (Debian's invoke-rc.d policy, honoured by
# deb-systemd-invoke too) refuses every start during the install; every
# service link the install adds is disabled again after it.
service_links() {
	local d dirs=()
	for d in systemd/system rc0.d rc1.d rc2.d rc3.d rc4.d rc5.d rc6.d rcS.d; do
		dirs+=("$sysroot/etc/$d")
	done
	{ find "${dirs[@]}" -maxdepth 2 -type l 2>/dev/null || true; } | sort
}
links_before=$(service_links)
policy=$sysroot/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\n# scripts/install-deps.sh: no service starts while it installs\nexit 101\n' |
		${as_root[@]+"${as_root[@]}"} sh -c "cat >$policy && chmod 0755 $policy" && own_policy=1
fi
remove_policy() {
	[ "$own_policy" = 1 ] && ${as_root[@]+"${as_root[@]}"} rm -f "$policy"
	own_policy=0
}
trap 'remove_policy; rm -f "$log"' EXIT

# disable_new_services disables every service link the install added.
disable_new_services() {
	local link name
	comm -13 <(printf '%s\n' "$links_before") <(service_links) | while read -r link; do
		[ -n "$link" ] && [ -L "$link" ] || continue
		name=$(basename "$link")
		case ${link#"$sysroot"} in
		/etc/systemd/system/*)
			case $name in *.service | *.socket | *.timer | *.path) ;; *) continue ;; esac
			if [ -n "$sysroot" ]; then
				systemctl --root="$sysroot" disable "$name" >>"$log" 2>&1 || true
			elif [ -d /run/systemd/system ]; then
				${as_root[@]+"${as_root[@]}"} systemctl disable --now "$name" >>"$log" 2>&1 || true
			else
				${as_root[@]+"${as_root[@]}"} systemctl disable "$name" >>"$log" 2>&1 || true
			fi
			if [ -L "$link" ]; then ${as_root[@]+"${as_root[@]}"} rm -f "$link"; fi
			;;
		/etc/rc*.d/S*)
			name=${name#S[0-9][0-9]}
			if [ -n "$sysroot" ]; then
				mv "$link" "$(dirname "$link")/K01$name"
			else
				${as_root[@]+"${as_root[@]}"} update-rc.d "$name" disable >>"$log" 2>&1 || ${as_root[@]+"${as_root[@]}"} rm -f "$link"
			fi
			;;
		*) continue ;;
		esac
		echo "$prog: $name: a system service the install enabled, disabled again (nothing is left running)"
	done
}

run_apt update || fail "apt-get update failed (needed to install $need)"
run_apt install --no-install-recommends "${missing_pkgs[@]}" || { disable_new_services; fail "apt-get install $need failed"; }
disable_new_services
remove_policy

for i in "${!missing_pkgs[@]}"; do
	for what in ${missing_for[$i]}; do
		present "$what" || die "installed ${missing_pkgs[$i]} but '$what' is still missing"
	done
	echo "$prog: installed ${missing_pkgs[$i]} (for ${missing_for[$i]})"
done
install_npm
