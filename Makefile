# hotpath task runner. `make help` lists the targets.
# Every tool is pinned and built into .tools/bin by the repo itself.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

ROOT := $(CURDIR)
BIN := $(ROOT)/.tools/bin
export PATH := $(BIN):$(PATH)

JSONNET_FILES = $(shell find jsonnet tests demo -name '*.jsonnet' -o -name '*.libsonnet' 2>/dev/null)
RULE_FILES = rules/hotpath-rules.yaml rules/hotpath-alerts.yaml

.PHONY: help
help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

# ---- tools ----------------------------------------------------------------

.PHONY: tools
tools: ## build the pinned promtool, prometheus and go-jsonnet into .tools/bin
	@tools/install.sh

# ---- generated artefacts ---------------------------------------------------

.PHONY: generate
generate: tools ## render rules/ and dashboards/ from jsonnet/
	@tests/generated/render.sh jsonnet/generate.jsonnet .cache/generated
	@mkdir -p .cache/generated/rules .cache/generated/dashboards
	@rm -rf rules dashboards && cp -r .cache/generated/rules .cache/generated/dashboards .
	@echo "generated: $$(ls rules dashboards | grep -c '\.')" files in rules/ and dashboards/

.PHONY: fmt
fmt: tools ## format every jsonnet file in place
	@jsonnetfmt -i $(JSONNET_FILES)

# ---- tests ----------------------------------------------------------------

.PHONY: lint
lint: tools ## jsonnetfmt, jsonnet-lint, promtool check rules
	@jsonnetfmt --test $(JSONNET_FILES) || { echo "jsonnetfmt: run 'make fmt'" >&2; exit 1; }
	@for f in $(JSONNET_FILES); do jsonnet-lint -J jsonnet "$$f"; done
	@promtool check rules $(RULE_FILES)

.PHONY: test-generated
test-generated: tools ## fail when rules/ or dashboards/ drift from jsonnet/
	@tests/generated/check-drift.sh

GO_TEST_FLAGS ?= -count=1 -timeout 20m
.PHONY: test-go
test-go: tools ## Go tests against the real Prometheus (tests/): harness, overlays, dashboards
	@cd tests && go test $(GO_TEST_FLAGS) ./...

.PHONY: test-demo-units
test-demo-units: ## Go unit tests of the playground (demo/): services, store, load, cgroups, fixtures
	@cd demo && go test $(GO_TEST_FLAGS) ./...

# ---- pprof fixtures ---------------------------------------------------------

.PHONY: fixtures
fixtures: ## recapture tests/fixtures/*.pb.gz from demo/incidents (fails if a story does not reproduce)
	@cd demo && go run ./cmd/capture-fixtures -out ../tests/fixtures

# ---- panel plugin (plugin/, tests/browser/) ----------------------------------

# npm ci when the lockfile is newer than the last install (a clean checkout always installs).
plugin/node_modules/.ci-stamp: plugin/package-lock.json plugin/package.json
	@cd plugin && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

.PHONY: plugin
plugin: plugin/node_modules/.ci-stamp ## build the panel plugin into plugin/dist and package hotpath-overlay-panel-<version>.zip
	@cd plugin && npm run --silent build -- --no-stats && node ../tests/browser/package-plugin.mjs

.PHONY: test-plugin
test-plugin: plugin/node_modules/.ci-stamp ## plugin typecheck (tsc), lint (eslint) and unit/property/component tests (jest)
	@cd plugin && npm run --silent typecheck && npm run --silent lint && npx jest --ci --maxWorkers 2

.PHONY: test-browser
test-browser: plugin ## the built plugin in headless Debian chromium (installed when missing): rendering, hover, focus, search, diff, errors
	@tools/install-chromium.sh
	@node --test --test-concurrency=1 tests/browser/panel.test.mjs

.PHONY: bench-plugin
bench-plugin: plugin ## benchmark vs @grafana/flamegraph in chromium (10k/200k/1M nodes); writes tests/browser/BENCHMARK.md
	@tools/install-chromium.sh
	@node tests/browser/bench.mjs --write

# The test command (README, .ci/run). Each part is also a target of its own.
TEST_TARGETS := lint test-generated test-go test-demo-units

.PHONY: test
test: $(TEST_TARGETS) ## run every test
	@echo "all tests passed: $(TEST_TARGETS)"
