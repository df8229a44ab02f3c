# frcd: build, test and tooling. `make` alone lists the targets.

GO       ?= go
GOFMT    ?= $(shell $(GO) env GOROOT)/bin/gofmt
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)
FUZZTIME ?= 60s
# make install puts bin/frcd in $(DESTDIR)$(PREFIX)/bin.
PREFIX   ?= /usr/local
DESTDIR  ?=
# Fuzz targets as package:FuzzFunc; add one line per new target.
FUZZ_TARGETS ?= \
	./urdf:FuzzParse \
	./urdf:FuzzFastRead \
	./config:FuzzParse \
	./config:FuzzSplitSame \
	./devices:FuzzPDPStatus \
	./devices:FuzzPCMStatus \
	./devices:FuzzREVStatus \
	./devices:FuzzNavXDecode \
	./sim:FuzzNavXTransfers \
	./sim:FuzzPDPPacking \
	./sim:FuzzCANSend \
	./ros/master:FuzzDecode \
	./sim:FuzzParseScenario \
	./control:FuzzPlan \
	./control:FuzzTrajectory \
	./wpilibws:FuzzDecode \
	./hal/socketcan:FuzzDecode \
	./hal/socketcan:FuzzDecodeFD \
	./nt4/wire:FuzzDecode \
	./nt4/wire:FuzzClientDecode \
	./wpilog:FuzzSummarize \
	./frc:FuzzSparkStatus \
	./ros:FuzzParseArgs \
	./ros:FuzzParamUpdate \
	./internal/sparkspec:FuzzRead \
	./ros2msg:FuzzUnmarshal \
	./ros2msg:FuzzMotionUnmarshal \
	./ros2bridge:FuzzReadParameters \
	./ros2bridge:FuzzReadSwitch \
	./ros2msg:FuzzUnmarshalState \
	./rtps:FuzzParse \
	./rtps:FuzzHandle \
	./ros2node:FuzzParseArgs \
	./ros2node:FuzzCycloneInterface \
	./ros2node:FuzzParamsFile \
	./hal:FuzzParseStation

EXAMPLE_URDF := examples/competition/robot.urdf
EXAMPLE_YAML := examples/competition/robot.yaml

.DEFAULT_GOAL := help
.PHONY: help deps deps-bench build test bench lint fmt-check vet rio rio-test systemcore systemcore-test fuzz docs run mem attack install uninstall clean

help: ## list the targets
	@echo "usage: make TARGET"
	@echo
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# DEPS_DONE=1: make test's later phases, after its deps phase.
deps: ## install the system packages the tests need (check_urdf, ...), only when missing
	@[ -n "$(DEPS_DONE)" ] || scripts/install-deps.sh

# A static binary (no cgo: Go's own DNS resolver and user lookup): it runs on
# any Linux coprocessor, and starts a millisecond sooner without the dynamic
# loader and glibc's NSS.
build: ## build bin/frcd for this machine
	CGO_ENABLED=0 $(GO) build -trimpath -tags netgo,osusergo -ldflags "$(LDFLAGS)" -o bin/frcd ./cmd/frcd

# Each phase says what it is and how long it took (scripts/phase.sh), and
# the whole run its total.
PHASE     := scripts/phase.sh
SUBMAKE   := $(MAKE) --no-print-directory DEPS_DONE=1
# -timeout: go test's default of 10 minutes per package is cmd/frcd's 4 quiet
# minutes at a load of 20 on 2 cores; CI's own limit is the bound that matters.
RACE_TEST := env FRCD_REQUIRE_TOOLS=1 $(GO) test -race -count=1 -timeout 40m

test: ## install test deps, check formatting, vet, build and test the roboRIO and Systemcore binaries, run all tests with -race; each phase with its time
	@$(PHASE) --start
	@$(PHASE) "deps: the packages the tests need" scripts/install-deps.sh
	@$(PHASE) "fmt-check" $(SUBMAKE) fmt-check
	@$(PHASE) "vet" $(SUBMAKE) vet
	@$(PHASE) "rio: the roboRIO build" $(SUBMAKE) rio
	@$(PHASE) "rio-test: its tests under qemu-arm" $(SUBMAKE) rio-test
	@$(PHASE) "systemcore: the Systemcore build" $(SUBMAKE) systemcore
	@$(PHASE) "systemcore-test: its tests under qemu-aarch64" $(SUBMAKE) systemcore-test
	@$(PHASE) "race: every package's tests" $(RACE_TEST) ./...
	@$(PHASE) "race: -tags roborio" $(RACE_TEST) -tags roborio ./hal/wpihal
	@$(PHASE) "race: -tags systemcore" $(RACE_TEST) -tags systemcore ./hal/wpihal ./hal/systemcore
	@$(PHASE) "race: -tags systemcore, cmd/frcd" $(RACE_TEST) -tags systemcore -run 'ExampleOnFakeHAL|AddressableLEDOnFakeHAL|ValidateSystemcore|SystemcoreDriverStationEndToEnd|SystemcoreOpModesEndToEnd|ClockFault' ./cmd/frcd
	@$(PHASE) "race: -tags ctre" $(RACE_TEST) -tags ctre ./hal/ctre ./hal/linux
	@$(PHASE) "race: -tags ctre, devices" $(RACE_TEST) -tags ctre -run 'CTRE|TalonFX' ./devices
	@$(PHASE) "race: -tags roborio, cmd/frcd" $(RACE_TEST) -tags roborio -run "OpenRoboRIO|RunRoboRIO|RoboRIOPose|ClockFault|DutyCycleEncoderOnRoboRIO|RoboRIOOpModeChooser" ./cmd/frcd
	@$(PHASE) "race: third_party/goroslib" sh -c 'cd third_party/goroslib && FRCD_REQUIRE_TOOLS=1 $(GO) test -race -count=1 -timeout 40m ./...'
	@$(PHASE) --total

deps-bench: ## install what make bench needs on top of deps (roscpp headers, valgrind), only when missing
	@scripts/install-deps.sh --bench

bench: deps-bench ## run the benchmarks, then the robot's CPU per simulated minute as ratios to references (internal/cpubench; BENCHFLAGS passes it flags), then wake-ups and CPU by component and priority against a bare loop (internal/wakebench; WAKEBENCHFLAGS), then ROS 2 against Cyclone DDS (internal/ros2bench; ROS2BENCHFLAGS)
	$(GO) test -p 1 -run '^$$' -bench . -benchmem ./...
	$(GO) run ./internal/cpubench $(BENCHFLAGS)
	$(GO) run ./internal/wakebench $(WAKEBENCHFLAGS)
	$(GO) run ./internal/ros2bench $(ROS2BENCHFLAGS)

lint: fmt-check vet ## gofmt check and go vet

fmt-check:
	@out="$$($(GOFMT) -l .)"; \
	if [ -n "$$out" ]; then \
		echo "gofmt: these files need formatting (run gofmt -w):"; \
		echo "$$out" | sed 's/^/  /'; \
		exit 1; \
	fi

vet:
	$(GO) vet ./...
	cd third_party/goroslib && $(GO) vet ./...
	$(GO) vet -tags roborio ./hal/roborio ./hal/wpihal ./cmd/frcd
	$(GO) vet -tags systemcore ./hal/wpihal ./hal/systemcore ./cmd/frcd
	$(GO) vet -tags ctre ./hal/ctre ./hal/linux ./devices

# The roboRIO build: cgo through Debian's armel cross compiler, for the
# roboRIO's Cortex-A9 with the softfp calling convention of its NI Linux RT
# userland; only GLIBC_2.4 symbols (build/rio/glibc-2.4.h) and its own
# entry point (build/rio/start.S) so that it loads on the roboRIO's older
# glibc; Go's own DNS resolver and user lookup (netgo, osusergo) rather
# than glibc's. libwpiHal.so is opened at run time (hal/wpihal).
RIO_CC      ?= arm-linux-gnueabi-gcc
RIO_CFLAGS  := -march=armv7-a -mtune=cortex-a9 -mfpu=vfpv3 -mfloat-abi=softfp -O2 -include $(CURDIR)/build/rio/glibc-2.4.h
RIO_LDFLAGS := -linkmode=external -extldflags '-nostartfiles $(CURDIR)/bin/.rio/start.o -Wl,--no-as-needed -l:libpthread.so.0 -l:libdl.so.2'
RIO_GO      := CGO_ENABLED=1 GOOS=linux GOARCH=arm GOARM=7 CC=$(RIO_CC) CGO_CFLAGS="$(RIO_CFLAGS)" $(GO)
RIO_TAGS    := roborio,netgo,osusergo
QEMU_ARM    := qemu-arm -L /usr/arm-linux-gnueabi

bin/.rio/start.o: build/rio/start.S
	@mkdir -p bin/.rio
	$(RIO_CC) -march=armv7-a -c -o $@ $<

rio: deps bin/.rio/start.o ## cross-compile bin/frcd-rio for the roboRIO (linux/arm softfp, the WPILib HAL backend) and check it
	$(RIO_GO) build -tags $(RIO_TAGS) -trimpath -ldflags "$(LDFLAGS) $(RIO_LDFLAGS)" -o bin/frcd-rio ./cmd/frcd
	scripts/check-rio.sh bin/frcd-rio

# The cross-compiled tests (rio-test, systemcore-test): their test binaries
# built by one go command, with -trimpath as the binary's own build, so that
# every package rio or systemcore compiled is taken from the build cache
# (without it a fresh clone compiles them all again: the cache keys of
# untrimmed builds hold the clone's path); then run under qemu-user two at
# a time (a qemu-user test run keeps about one core busy), the longest
# first, each run's output printed whole when it ends (-O).
RUN_2 := $(MAKE) --no-print-directory -j2 -O

RIO_RUNS := rio-run-clock rio-run-wpihal rio-run-ctre rio-run-frcd
.PHONY: $(RIO_RUNS)

rio-test: deps bin/.rio/start.o ## run the WPILib HAL binding's 2026 tests as ARM binaries under qemu-arm (fake HAL built for ARM)
	$(RIO_GO) test -c -trimpath -tags $(RIO_TAGS) -ldflags "$(RIO_LDFLAGS)" -o bin/.rio/ ./hal/wpihal ./cmd/frcd ./hal/ctre
	@$(RUN_2) $(RIO_RUNS)

rio-run-wpihal:
	cd hal/wpihal && FRCD_REQUIRE_TOOLS=1 FAKEHAL_CC=$(RIO_CC) $(QEMU_ARM) $(CURDIR)/bin/.rio/wpihal.test -test.count=1
rio-run-ctre:
	cd hal/ctre && FRCD_REQUIRE_TOOLS=1 FAKECTRE_CC=$(RIO_CC) $(QEMU_ARM) $(CURDIR)/bin/.rio/ctre.test -test.count=1
rio-run-frcd:
	cd cmd/frcd && LD_LIBRARY_PATH= FRCD_REQUIRE_TOOLS=1 FAKEHAL_CC=$(RIO_CC) $(QEMU_ARM) $(CURDIR)/bin/.rio/frcd.test -test.run "OpenRoboRIO|RunRoboRIO|DutyCycleEncoderOnRoboRIO" -test.v
# A HAL clock that fails, stalls or steps back, on the fake 2026 HAL built for ARM.
rio-run-clock:
	cd cmd/frcd && FRCD_REQUIRE_TOOLS=1 FAKEHAL_CC=$(RIO_CC) $(QEMU_ARM) $(CURDIR)/bin/.rio/frcd.test -test.count=1 -test.run "ClockFault" -test.v

# The Systemcore build: linux/arm64 with cgo through Debian's aarch64 cross
# compiler, so that frcd loads WPILib's 2027 HAL (libwpiHal.so) at run time
# (hal/wpihal, build tag systemcore) and CTRE's Phoenix libraries for
# SocketCAN when deployed (hal/ctre, build tag ctre); Go's own DNS resolver and user lookup
# (netgo, osusergo); it needs only libc.so.6 and no glibc symbol newer than
# Systemcore's 2.35 (scripts/check-systemcore.sh).
SC_CC        ?= aarch64-linux-gnu-gcc
SC_GO        := CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=$(SC_CC) $(GO)
SC_TAGS      := systemcore,ctre,netgo,osusergo
QEMU_AARCH64 := qemu-aarch64 -L /usr/aarch64-linux-gnu

systemcore: deps ## cross-compile bin/frcd-systemcore for Systemcore (linux/arm64, cgo, WPILib's 2027 HAL loaded at run time) and check it
	$(SC_GO) build -tags $(SC_TAGS) -trimpath -ldflags "$(LDFLAGS)" -o bin/frcd-systemcore ./cmd/frcd
	scripts/check-systemcore.sh bin/frcd-systemcore
	$(QEMU_AARCH64) bin/frcd-systemcore validate --hal systemcore examples/systemcore/robot.urdf examples/systemcore/robot.yaml
	$(QEMU_AARCH64) bin/frcd-systemcore validate --strict --hal systemcore examples/systemcore_io/robot.urdf examples/systemcore_io/robot.yaml

SC_RUNS := sc-run-e2e sc-run-frcd sc-run-wpihal sc-run-systemcore sc-run-socketcan
.PHONY: $(SC_RUNS)

systemcore-test: deps ## run the WPILib HAL binding's 2027 tests, the Systemcore backend's, SocketCAN's, the Systemcore example's and the Driver Station end to end (on the fake HAL) as arm64 binaries under qemu-aarch64
	@mkdir -p bin/.systemcore
	$(SC_GO) test -c -trimpath -tags $(SC_TAGS) -o bin/.systemcore/ ./hal/wpihal ./hal/systemcore ./hal/socketcan ./cmd/frcd
	@$(RUN_2) $(SC_RUNS)

sc-run-wpihal:
	cd hal/wpihal && FRCD_REQUIRE_TOOLS=1 FAKEHAL_CC=$(SC_CC) $(QEMU_AARCH64) $(CURDIR)/bin/.systemcore/wpihal.test -test.count=1
sc-run-systemcore:
	cd hal/systemcore && FRCD_REQUIRE_TOOLS=1 FAKEHAL_CC=$(SC_CC) $(QEMU_AARCH64) $(CURDIR)/bin/.systemcore/systemcore.test -test.count=1 -test.v
# qemu-user does not pass SO_RXQ_OVFL on to the kernel: the two tests of it run natively in make test.
sc-run-socketcan:
	cd hal/socketcan && $(QEMU_AARCH64) $(CURDIR)/bin/.systemcore/socketcan.test -test.count=1 -test.short -test.skip 'TestSockConnReadsFramesAndTimesOut|TestSockConnCountsKernelDrops'
sc-run-frcd:
	cd cmd/frcd && FRCD_REQUIRE_TOOLS=1 FAKEHAL_CC=$(SC_CC) $(QEMU_AARCH64) $(CURDIR)/bin/.systemcore/frcd.test -test.count=1 -test.short -test.run 'ValidateHAL|ValidateSystemcore|ExampleOnFakeHAL|AddressableLEDOnFakeHAL|ClockFault' -test.v
# The whole daemon on the fake HAL, read by rostopic (the host's, started by the arm64 test) and an NT4 client.
sc-run-e2e:
	cd cmd/frcd && FRCD_REQUIRE_TOOLS=1 FAKEHAL_CC=$(SC_CC) $(QEMU_AARCH64) $(CURDIR)/bin/.systemcore/frcd.test -test.count=1 -test.run 'SystemcoreDriverStationEndToEnd' -test.v

fuzz: ## run each fuzz target for FUZZTIME (default 60s)
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "== fuzz $$pkg $$fn for $(FUZZTIME)"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME); \
	done

docs: ## regenerate docs/devices.md from the device table and docs/flags.md from the commands' flags
	$(GO) test ./config -run TestDocsUpToDate -update
	$(GO) test ./cmd/frcd -run TestFlagReference -update

run: build ## run the example robot on the simulated HAL, bridged to ROS (embedded master if none runs; Ctrl-C stops)
	bin/frcd validate $(EXAMPLE_URDF) $(EXAMPLE_YAML)
	bin/frcd run --sim $(EXAMPLE_URDF) $(EXAMPLE_YAML)

mem: build ## measure the resident memory of the example robot on the sim with ROS (30 s, then 30 s with a subscriber)
	scripts/mem.sh bin/frcd

attack: build ## replay the attacks of issues 32 and 37 against bin/frcd on the sim (as root in a network namespace of its own, with ROS 2 and the DDS attacks): per attack the loop's share, peak memory, egress, and whether a ROS 1 node, an NT4 dashboard and a Cyclone DDS subscriber are served during and after (exit 1 past a bound; docs/security.md)
	$(GO) run ./internal/attack bin/frcd

install: build ## put frcd on the PATH: $(DESTDIR)$(PREFIX)/bin/frcd (PREFIX defaults to /usr/local)
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 bin/frcd "$(DESTDIR)$(PREFIX)/bin/frcd"

uninstall: ## remove $(DESTDIR)$(PREFIX)/bin/frcd
	rm -f "$(DESTDIR)$(PREFIX)/bin/frcd"

clean: ## remove bin/
	rm -rf bin
