# hermes-tools: the two commands of the quick start, and a few more.
#   make run    set up, build (Release), serve MCP on stdio in the current folder
#   make test   set up, build, run every test (unit + end-to-end) with ctest
#   make test-asan   the same tests under AddressSanitizer + UBSan (clang)
#   make bench  run the benchmarks
#   make fuzz   build the libFuzzer harnesses (in test-asan's build), run each briefly
# Build output goes to stderr so that `make run` keeps stdout for the protocol.
SHELL := /bin/bash
ROOT := $(dir $(abspath $(lastword $(MAKEFILE_LIST))))
JOBS ?= $(shell nproc)

.PHONY: deps build run test test-asan bench fuzz clean

deps:
	@"$(ROOT)scripts/install-deps"

build: deps
	@cmake -S "$(ROOT)" -B "$(ROOT)build-release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHERMES_BUILD_TESTS=OFF >&2
	@ninja -C "$(ROOT)build-release" hermes-tools >&2

run: build
	@exec "$(ROOT)build-release/src/cli/hermes-tools" mcp

test: deps
	@cmake -S "$(ROOT)" -B "$(ROOT)build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
	@ninja -C "$(ROOT)build" >&2
	cd "$(ROOT)build" && ctest --output-on-failure -j $(JOBS)

test-asan: deps
	@"$(ROOT)scripts/configure-sanitized" "$(ROOT)build-asan"
	@ninja -C "$(ROOT)build-asan" >&2
	cd "$(ROOT)build-asan" && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(ROOT)tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

bench: deps
	@cmake -S "$(ROOT)" -B "$(ROOT)build-release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHERMES_BUILD_BENCH=ON >&2
	@ninja -C "$(ROOT)build-release" >&2
	"$(ROOT)bench/run_all.sh" "$(ROOT)build-release"

fuzz: deps
	FUZZ_BUILD_DIR="$(ROOT)build-asan" "$(ROOT)scripts/fuzz"

clean:
	rm -rf "$(ROOT)build" "$(ROOT)build-release" "$(ROOT)build-asan" "$(ROOT)build-fuzz"
