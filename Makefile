SHELL := /bin/bash
# The two commands a newcomer runs: `make bench` (the experiments) and
# `make test` (everything CI checks). .ci/run calls `make test`.

GO      ?= go
# Kernel levels this CPU and build can run, lowest first (generic avx2 ...).
KERNELS := $(shell $(GO) run ./internal/kernels 2>/dev/null)
BEST    := $(lastword $(KERNELS))
FUZZTIME ?= 30s
BENCHFLAGS ?=

.PHONY: test vet test-default test-kernels test-purego test-race test-bench test-gen \
        generate check-generate bench bench-go fuzz

test: vet check-generate test-default test-kernels test-purego test-race test-bench test-gen

vet:
	$(GO) vet ./...
	$(GO) vet -tags purego ./...
	GOARCH=arm64 $(GO) vet ./...

# The default build must select the best kernel the CPU has, and prove it.
test-default:
	FILTERENGINE_REQUIRE_KERNEL=$(BEST) $(GO) test ./...

# Every lower level, capped by FILTERENGINE_KERNEL and required to run.
test-kernels:
	@set -e; for k in $(filter-out $(BEST),$(KERNELS)); do \
		echo "== kernel $$k"; \
		FILTERENGINE_KERNEL=$$k FILTERENGINE_REQUIRE_KERNEL=$$k $(GO) test ./...; \
	done

# No assembly at all.
test-purego:
	FILTERENGINE_REQUIRE_KERNEL=generic $(GO) test -tags purego ./...

# The concurrent paths (tests named *Concurrent*) under the race detector.
test-race:
	$(GO) test -race -run 'Concurrent' ./...

test-bench:
	cd bench && $(GO) vet ./... && $(GO) test ./...

test-gen:
	cd gen && $(GO) vet ./...

generate:
	cd gen && $(GO) generate ./...

GENERATED = ls asm/*_amd64.s asm/*_stub_amd64.go 2>/dev/null | xargs -r sha256sum

check-generate:
	@before="$$($(GENERATED))"; $(MAKE) -s generate; after="$$($(GENERATED))"; \
	if [ "$$before" != "$$after" ]; then \
		echo "generated assembly does not match gen/: run 'make generate' and commit"; \
		diff <(echo "$$before") <(echo "$$after"); exit 1; fi

bench:
	cd bench && $(GO) run ./cmd/filterbench $(BENCHFLAGS)

# go test -bench over every package, benchstat-comparable.
bench-go:
	$(GO) test -run '^$$' -bench . -count 6 ./... | tee bench-go.txt

fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; done
