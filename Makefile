# frcd: build, test and tooling. `make` alone lists the targets.

GO       ?= go
GOFMT    ?= $(shell $(GO) env GOROOT)/bin/gofmt
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)
FUZZTIME ?= 60s
# Fuzz targets as package:FuzzFunc; add one word per new target.
FUZZ_TARGETS ?= ./urdf:FuzzParse ./config:FuzzParse ./devices:FuzzPDPStatus ./devices:FuzzPCMStatus ./devices:FuzzNavXDecode ./sim:FuzzNavXTransfers ./sim:FuzzPDPPacking ./sim:FuzzCANSend ./ros/master:FuzzDecode ./sim:FuzzParseScenario ./control:FuzzPlan ./wpilibws:FuzzDecode ./hal/socketcan:FuzzDecode

EXAMPLE_URDF := examples/competition/robot.urdf
EXAMPLE_YAML := examples/competition/robot.yaml

.DEFAULT_GOAL := help
.PHONY: help deps build test bench lint fmt-check vet rio fuzz docs run clean

help: ## list the targets
	@echo "usage: make TARGET"
	@echo
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

deps: ## install the system packages the tests need (check_urdf, ...), only when missing
	@scripts/install-deps.sh

build: ## build bin/frcd for this machine
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/frcd ./cmd/frcd

test: deps fmt-check vet ## install test deps, check formatting, vet, run all tests with -race
	FRCD_REQUIRE_TOOLS=1 $(GO) test -race -count=1 ./...

bench: ## run the benchmarks and print their figures
	$(GO) test -p 1 -run '^$$' -bench . -benchmem ./...

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

rio: ## cross-compile the static roboRIO binary bin/frcd-roborio (linux/arm, ARMv7)
	CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=7 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/frcd-roborio ./cmd/frcd
	@if command -v file >/dev/null 2>&1; then \
		info="$$(file -b bin/frcd-roborio)"; echo "bin/frcd-roborio: $$info"; \
		case "$$info" in \
		*"32-bit"*ARM*"statically linked"*) ;; \
		*) echo "rio: bin/frcd-roborio is not a static 32-bit ARM executable" >&2; exit 1 ;; \
		esac; \
	else \
		echo "rio: 'file' not found, binary not checked"; \
	fi

fuzz: ## run each fuzz target for FUZZTIME (default 60s)
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "== fuzz $$pkg $$fn for $(FUZZTIME)"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME); \
	done

docs: ## regenerate docs/devices.md from the device table
	$(GO) test ./config -run TestDocsUpToDate -update

run: build ## run the example robot on the simulated HAL, bridged to ROS (embedded master if none runs; Ctrl-C stops)
	bin/frcd validate $(EXAMPLE_URDF) $(EXAMPLE_YAML)
	bin/frcd run --sim $(EXAMPLE_URDF) $(EXAMPLE_YAML)

clean: ## remove bin/
	rm -rf bin
