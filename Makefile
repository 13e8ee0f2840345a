SHELL := /bin/bash
# The two commands a newcomer runs: `make bench` (the experiments) and
# `make test` (everything CI checks). .ci/run calls `make test`.

GO      ?= go
# Every kernel level, and those this CPU and build can run, lowest first.
LEVELS  := generic avx2 avx512
KERNELS := $(shell $(GO) run ./internal/kernels 2>/dev/null)
BEST    := $(lastword $(KERNELS))
# -count=1: every level runs, never served from go test's cache (CI shares
# this machine's build cache).
GOTEST  := $(GO) test -count=1
FUZZTIME ?= 30s
BENCHFLAGS ?=

.PHONY: test vet tidy test-default test-kernels test-purego test-race test-bench test-gen \
        generate check-generate bench bench-go fuzz test-clickhouse interop-clickhouse anchor

test: vet tidy check-generate test-default test-kernels test-purego test-race test-bench test-gen test-clickhouse

vet:
	$(GO) vet ./...
	$(GO) vet -tags purego ./...
	GOARCH=arm64 $(GO) vet ./...
	cd formats/clickhouse && $(GO) vet ./...

# go.mod and go.sum of all three modules are exactly what the code needs.
tidy:
	$(GO) mod tidy -diff
	cd bench && $(GO) mod tidy -diff
	cd gen && $(GO) mod tidy -diff
	cd formats/clickhouse && $(GO) mod tidy -diff

# The default build must select the best kernel the CPU has, and prove it
# in every package (TestKernel).
test-default:
	@test -n "$(KERNELS)" || { echo "go run ./internal/kernels printed no kernel level"; exit 1; }
	@echo "== kernel $(BEST) (default selection; levels here: $(KERNELS))"
	FILTERENGINE_REQUIRE_KERNEL=$(BEST) $(GOTEST) ./...

# Every lower level, capped by FILTERENGINE_KERNEL and required to run; a
# level the CPU lacks is named as skipped.
test-kernels:
	@set -e; for k in $(filter-out $(BEST),$(KERNELS)); do \
		echo "== kernel $$k"; \
		FILTERENGINE_KERNEL=$$k FILTERENGINE_REQUIRE_KERNEL=$$k $(GOTEST) ./...; \
	done
	@for k in $(filter-out $(KERNELS),$(LEVELS)); do \
		echo "== kernel $$k: SKIPPED, this CPU or build cannot run it"; done

# No assembly at all.
test-purego:
	@echo "== purego (no assembly)"
	FILTERENGINE_REQUIRE_KERNEL=generic $(GOTEST) -tags purego ./...

# The concurrent paths (tests named *Concurrent*) under the race detector;
# each runs every kernel level in-process (kerneltest.ForEachLevel).
test-race:
	@echo "== race ($(KERNELS))"
	$(GOTEST) -race -run 'Concurrent' ./...

test-bench:
	cd bench && $(GO) vet ./... && $(GOTEST) ./...

test-gen:
	cd gen && $(GO) vet ./...

generate:
	cd gen && $(GO) generate ./...

GENERATED = ls asm/*_amd64.s asm/*_stub_amd64.go formats/clickhouse/*_amd64.s \
	formats/clickhouse/*_stub_amd64.go bench/anchor/*_amd64.s \
	bench/anchor/*_stub_amd64.go 2>/dev/null | xargs -r sha256sum

check-generate:
	@before="$$($(GENERATED))"; $(MAKE) -s generate; after="$$($(GENERATED))"; \
	if [ "$$before" != "$$after" ]; then \
		echo "generated assembly does not match gen/: run 'make generate' and commit"; \
		diff <(echo "$$before") <(echo "$$after"); exit 1; fi

bench:
	cd bench && $(GO) run ./cmd/filterbench $(BENCHFLAGS)

# blocked beside Boost.Bloom's fast_multiblock32<8> on this machine, the
# two programs alternating (bench/anchor); Boost 1.90+ headers in
# BOOST_INCLUDE, without them (or g++) our side alone.
BOOST_INCLUDE ?= $(wildcard $(CURDIR)/../shared/anchors/boost-bloom/include)
ANCHORFLAGS ?=
anchor:
	cd bench && BOOST_INCLUDE="$(BOOST_INCLUDE)" $(GO) run ./anchor $(ANCHORFLAGS)

# go test -bench over every package, benchstat-comparable.
bench-go:
	$(GO) test -run '^$$' -bench . -count 6 ./... | tee bench-go.txt

fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; done

# formats/clickhouse is a module of its own (its requirements stay out of
# ../go.mod); ./... above skips it. Its tests, with its assembly and
# with -tags purego, then the live cross-check.
test-clickhouse:
	cd formats/clickhouse && $(GOTEST) ./... && $(GOTEST) -tags purego ./...
	@$(MAKE) -s interop-clickhouse

# Against a real ClickHouse: chdb (an in-process ClickHouse, ~550 MB) is
# installed once into CHDB_DIR, outside the repository, then live.js writes
# parts and asks queries, and TestLive compares everything.
CHDB_DIR     ?= $(HOME)/.cache/filterengine/chdb
CHDB_VERSION := 3.4.0
interop-clickhouse:
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		echo "== interop-clickhouse: SKIPPED, node and npm are needed"; exit 0; fi; \
	set -eo pipefail; \
	if ! grep -qs '"version": "$(CHDB_VERSION)"' "$(CHDB_DIR)/node_modules/chdb/package.json"; then \
		echo "== interop-clickhouse: installing chdb@$(CHDB_VERSION) into $(CHDB_DIR)"; \
		mkdir -p "$(CHDB_DIR)"; \
		test -f "$(CHDB_DIR)/package.json" || echo '{"name":"filterengine-chdb","private":true}' > "$(CHDB_DIR)/package.json"; \
		(cd "$(CHDB_DIR)" && npm install --no-audit --no-fund --loglevel=error chdb@$(CHDB_VERSION)); fi; \
	out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	echo "== interop-clickhouse: chdb $(CHDB_VERSION)"; \
	CHDB_DIR="$(CHDB_DIR)" node formats/clickhouse/interop/live.js "$$out" $(LIVE_SEED); \
	cd formats/clickhouse && CLICKHOUSE_LIVE_DIR="$$out" $(GOTEST) -run '^TestLive$$' -v .
