# hotpath task runner. `make help` lists the targets.
# Every tool is pinned and built into .tools/bin by the repo itself.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

ROOT := $(CURDIR)
BIN := $(ROOT)/.tools/bin
export PATH := $(BIN):$(PATH)

# The root's npm ci (see its rule below); a variable here, as prerequisites are read where they stand.
NPM_STAMP := node_modules/.ci-stamp

JSONNET_FILES = $(shell find jsonnet tests demo -name '*.jsonnet' -o -name '*.libsonnet' 2>/dev/null)
RULE_FILES = rules/hotpath-rules.yaml rules/hotpath-alerts.yaml

.PHONY: help
help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

# ---- tools ----------------------------------------------------------------

.PHONY: tools
tools: ## build the pinned Go tools (promtool, prometheus, go-jsonnet, ...) into .tools/bin; each tools module via tools/build-module.sh
	@tools/install.sh
	@tools/alertmanager/build.sh
	@tools/build-module.sh tools/kubeconform github.com/yannh/kubeconform/cmd/kubeconform

# Thanos is a target of its own: its cold build is the longest (~15 min on 2 cores), and only the
# Thanos parity tests (test-go) need it, so make generate, lint or demo never wait for it.
.PHONY: tools-thanos
tools-thanos: tools ## build the pinned Thanos (tools/thanos, with its release tags netgo,slicelabels on go1.26.10) into .tools/bin
	@tools/build-module.sh -tags netgo,slicelabels -toolchain go1.26.10 tools/thanos github.com/thanos-io/thanos/cmd/thanos

# A real Kubernetes API server for the bundle's apply tests (test-deploy): kube-apiserver and
# kubectl of k8s.io/kubernetes and the etcd it requires, one tools module (tools/kube). A target
# of its own, like Thanos: its cold build took 16 CPU-minutes (kube-apiserver and etcd 852 s, kubectl
# 102 s more; user+sys on a loaded 2-core AMD EPYC, after the Prometheus tools), about 8 minutes of a
# cold run on 2 idle cores; only test-deploy needs it.
.PHONY: tools-kube
tools-kube: tools ## build the pinned kube-apiserver, kubectl (k8s.io/kubernetes v1.35.4) and etcd (v3.6.5) into .tools/bin (tools/kube)
	@tools/build-module.sh tools/kube k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kubectl ./etcd

# ---- generated artefacts ---------------------------------------------------

.PHONY: generate
# The generated folders, and docs/reference.md (tests/generated/check-drift.sh lists them too).
GENERATED_DIRS := rules dashboards dashboards-import catalogue deploy/kubernetes deploy/grafana deploy/alertmanager
generate: tools ## render rules/, dashboards/, dashboards-import/, deploy/kubernetes/, deploy/grafana/, deploy/alertmanager/, catalogue/ and docs/reference.md from jsonnet/
	@tools/render-mixin.sh jsonnet/generate.jsonnet .cache/generated
	@for d in $(GENERATED_DIRS); do mkdir -p .cache/generated/$$d && rm -rf $$d && mkdir -p $$(dirname $$d) && cp -r .cache/generated/$$d $$d; done
	@cp .cache/generated/docs/reference.md docs/reference.md
	@echo "generated: $$(find $(GENERATED_DIRS) -type f | wc -l) files in $(GENERATED_DIRS), and docs/reference.md"

.PHONY: fmt
fmt: tools ## format every jsonnet and Go file in place
	@jsonnetfmt -i $(JSONNET_FILES)
	@gofmt -w promkit demo tests tools

# ---- tests ----------------------------------------------------------------

# Node's test runner waits forever by default: a hung test, or a child process a failed test left
# running, would hold CI until its own limit. Each test fails after 10 minutes instead, and the
# runner exits when the tests are done.
NODE_TEST := node --test --test-force-exit --test-timeout=600000

.PHONY: lint
lint: tools ## jsonnetfmt, jsonnet-lint, promtool check rules, gofmt and go vet of the Go modules, references that resolve (tools/lint-references.sh), no alert name outside the catalogue (tools/lint-catalogue.mjs), a runbook section for every alert (tools/lint-runbook.mjs), a comment on every recording rule (tools/lint-recorded.mjs), every folder with code named in docs/architecture.md (tools/lint-architecture.mjs), every knob in one area file of jsonnet/config/ (tools/lint-knobs.mjs), and those lints' own test (the plugin's eslint is in test-plugin)
	@tools/lint-references.sh
	@node tools/lint-catalogue.mjs
	@node tools/lint-runbook.mjs
	@node tools/lint-recorded.mjs
	@node tools/lint-architecture.mjs
	@node tools/lint-knobs.mjs
	@$(NODE_TEST) --test-reporter=dot tools/lint.test.mjs
	@jsonnetfmt --test $(JSONNET_FILES) || { echo "jsonnetfmt: run 'make fmt'" >&2; exit 1; }
	@for f in $(JSONNET_FILES); do jsonnet-lint -J jsonnet "$$f"; done
	@promtool check rules $(RULE_FILES)
	@unformatted=$$(gofmt -l promkit demo tests tools); [ -z "$$unformatted" ] || { echo "gofmt: run 'gofmt -w' on: $$unformatted" >&2; exit 1; }
	@cd promkit && go vet ./...
	@cd demo && go vet ./...
	@cd tests && go vet ./... && go vet -tags bench ./bench/... && go vet -tags kube ./deploy/apply/

.PHONY: test-generated
test-generated: tools ## fail when rules/, dashboards/, dashboards-import/, deploy/, catalogue/ or docs/reference.md drift from jsonnet/; and the knob split (jsonnet/config/) generated them byte for byte as before it (from git history)
	@tests/generated/check-drift.sh
	@tests/generated/knob-split.sh

.PHONY: test-rules
test-rules: tools ## promtool rule tests (tests/rules, generated by tests/rules/gen): every alert firing and silent, every recording rule
	@tests/rules/run.sh

GO_TEST_FLAGS ?= -count=1 -timeout 20m
.PHONY: test-go
test-go: tools-thanos $(NPM_STAMP) ## Go tests against the real Prometheus (promkit/, tests/): toolkit, harness, overlays, dashboards (their tables and heatmaps through the plugin's @grafana/data)
	@cd promkit && go test $(GO_TEST_FLAGS) ./...
	@cd tests && go test $(GO_TEST_FLAGS) ./...

.PHONY: test-demo-units
test-demo-units: ## Go unit tests of the playground (demo/): services, store, load, cgroups, fixtures
	@cd demo && go test $(GO_TEST_FLAGS) ./...

# ---- pprof fixtures ---------------------------------------------------------

.PHONY: fixtures
fixtures: ## recapture tests/fixtures/*.pb.gz from demo/incidents (fails if a story does not reproduce)
	@cd demo && go run ./cmd/capture-fixtures -out ../tests/fixtures

.PHONY: runtime-fixtures
runtime-fixtures: ## recapture tests/fixtures/runtimes: one order service per runtime (CPython, Java, Node.js, Ruby, .NET), baseline and incident, under the profiler the registries serve for it (RUNTIMES='python java' for some)
	@tests/fixtures/runtimes/capture/capture.sh $(RUNTIMES)

# ---- panel plugin (plugin/, tests/browser/) ----------------------------------

# One npm workspace at the root (package.json): the profile core (packages/profile-core), the
# headless renderer (packages/headless), the panel (plugin/) and hotpath-notify (notify/), one
# lockfile. npm ci when the lockfile or a package.json is newer than the last install (a clean
# checkout always installs); its prepare script builds the core for Node (packages/profile-core/dist).
$(NPM_STAMP): package-lock.json package.json packages/profile-core/package.json packages/headless/package.json plugin/package.json notify/package.json
	@npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The core's build for Node (hotpath-notify, the snapshot CLI, the sandbox, tests/pprof), rebuilt
# when a source is newer; the panel bundles the sources themselves.
CORE_DIST := packages/profile-core/dist/index.mjs
$(CORE_DIST): $(NPM_STAMP) $(shell find packages/profile-core/src -name '*.ts' ! -name '*.test.ts')
	@npm run --silent build -w @hotpath/profile-core

.PHONY: plugin
plugin: $(NPM_STAMP) $(CORE_DIST) ## build the panel plugin into plugin/dist and package hotpath-overlay-panel-<version>.zip
	@cd plugin && npm run --silent build -- --no-stats && node scripts/package-plugin.mjs

.PHONY: test-plugin
test-plugin: $(NPM_STAMP) $(CORE_DIST) ## the profile core's and the plugin's typecheck (tsc), lint (eslint) and unit/property/component tests (jest)
	@cd packages/profile-core && npm run --silent typecheck && npm run --silent lint && npx jest --ci --maxWorkers 2
	@cd plugin && npm run --silent typecheck && npm run --silent lint && npx jest --ci --maxWorkers 2

.PHONY: test-browser
test-browser: plugin ## the built plugin in headless Debian chromium (installed when missing): rendering, diff, the overlay's windows, the sandbox and demo-check on a fake playground
	@tools/install-chromium.sh
	@$(NODE_TEST) --test-concurrency=1 tests/browser/panel.test.mjs tests/browser/snapshot.test.mjs tests/browser/overlay.test.mjs tests/browser/sandbox.test.mjs tests/browser/per-request.test.mjs tests/browser/call-tree.test.mjs tests/browser/runtimes.test.mjs tests/browser/endpoints.test.mjs

.PHONY: bench-plugin
bench-plugin: plugin ## benchmark vs the flame graph of Grafana 13 (@grafana/flamegraph 13.0.1 on Grafana 13.2's modules, React 19) on five frame shapes, 10k/200k/1M; writes tests/browser/BENCHMARK.md
	@tools/install-chromium.sh
	@node tests/browser/bench.mjs --write

# ---- pprof conformance ----------------------------------------------------------

.PHONY: test-pprof
test-pprof: $(CORE_DIST) ## the plugin's pprof reading against `go tool pprof` on real profiles (tests/fixtures/corpus): totals, top 10 by self and cum, diffs; prints the agreement table; the runtime fixtures' converter (topprof) naming perf's frames
	@$(NODE_TEST) tests/pprof/
	@cd tests/fixtures/runtimes/capture/topprof && go test $(GO_TEST_FLAGS) ./...

.PHONY: bench-snapshot
bench-snapshot: plugin ## the snapshot CLI on a ~425k-node pprof, file to PNG + JSON, stage by stage; writes its section of tests/browser/BENCHMARK.md
	@tools/install-chromium.sh
	@node tests/browser/bench-snapshot.mjs --write

# ---- the panel on Grafana 11.3 to 13 (tests/browser/hosts) -----------------------

# Each host's npm ci and bundle are cached under .cache/browser/hosts, keyed by its lockfile:
# the first run installs three hosts (minutes), a warm run none.
.PHONY: test-matrix
test-matrix: plugin ## the packaged zip (what plugin-validator reported on it), then the same built module.js, loaded by SystemJS as Grafana does, in hosts of Grafana 11.3 (React 18), 12.4 and 13.2 (React 19): render, hover, zoom, search, the call tree, window drag, diff, changes, options editor, no console errors or React warnings
	@tools/install-chromium.sh
	@$(NODE_TEST) --test-concurrency=1 tests/browser/package.test.mjs tests/browser/matrix.test.mjs

# ---- the playground (demo/) ------------------------------------------------

DEMO_BIN := .cache/demo/bin

.PHONY: demo-bin
demo-bin:
	@echo "==> build: hotpath-demo, the orchestrator (demo/cmd/hotpath-demo)"
	@cd demo && go build -o ../$(DEMO_BIN)/hotpath-demo ./cmd/hotpath-demo

# make demo: the panel sandbox needs plugin/dist (make plugin) and node, not Chromium. When the
# plugin does not build, the playground says so and runs without the sandbox.
.PHONY: demo
# THANOS=1: the rule pack on Thanos Ruler through Thanos Query, a sidecar on Prometheus (builds Thanos the first time)
THANOS ?=
demo: tools demo-bin $(if $(THANOS),tools-thanos) ## the playground: services, cAdvisor, real Prometheus with rules/ unchanged over a backfilled day, incidents on a schedule, live status table, the panel sandbox (Ctrl-C stops it; DEMO_FLAGS='-h' lists flags; THANOS=1: the rules on Thanos Ruler + Query)
	@off=; $(MAKE) --no-print-directory plugin || off="make plugin failed (its output is above): the panel sandbox needs plugin/dist"; \
	$(DEMO_BIN)/hotpath-demo run $${off:+-sandbox-off "$$off"} $(if $(THANOS),-thanos) $(DEMO_FLAGS)

# make demo-test: the sandbox and its Chromium check (demo/sandbox/demo-check.mjs) are part of the
# test, so the plugin and Chromium are hard prerequisites.
.PHONY: demo-test
demo-test: tools demo-bin plugin $(if $(THANOS),tools-thanos) ## the playground as a test: demo overlay (only for: shortened), every incident at once, each alert must fire for the right service within 10 min, then the sandbox in Chromium must show each incident's function in the diff; writes demo/demo-test-results.md
	@tools/install-chromium.sh
	@trap '$(DEMO_BIN)/hotpath-demo clean -only demo-test' EXIT; $(DEMO_BIN)/hotpath-demo test $(if $(THANOS),-thanos) $(DEMO_TEST_FLAGS)

.PHONY: demo-screenshots
demo-screenshots: demo-bin ## copy the last passing demo-test's diff screenshots (println, epoll, gzip) into docs/img/ for the README; commit them yourself
	@$(DEMO_BIN)/hotpath-demo screenshots -from .cache/demo-test/browser-check -to docs/img

.PHONY: demo-incident
demo-incident: demo-bin ## switch one incident of the running playground by hand: make demo-incident NAME=println|epoll|cfs|gzip|outlier ON=1|0
	@$(DEMO_BIN)/hotpath-demo incident $(NAME) $(if $(filter 1 on true,$(ON)),on,off)

# ---- hotpath-notify (notify/): the Alertmanager receiver ------------------------

.PHONY: notify
notify: plugin ## run hotpath-notify, the Alertmanager receiver that attaches the profile diff: make notify NOTIFY_FLAGS='--profiles URL --out-dir DIR' (notify/README.md)
	@tools/install-chromium.sh
	@node notify/hotpath-notify.mjs $(NOTIFY_FLAGS)

.PHONY: test-notify
test-notify: tools plugin ## hotpath-notify: unit tests (change point, windows, dedupe, escaping, failure messages, retries), the replayed incidents (every first change names the culprit per request), fault injection (hostile requests, profile sources and Slacks; SIGTERM/SIGKILL and restart; a small storm) and the integration test with the real Alertmanager
	@tools/install-chromium.sh
	@$(NODE_TEST) --test-concurrency=1 notify/test/*.test.mjs

.PHONY: bench-notify
bench-notify: plugin ## hotpath-notify under a storm: one webhook of 200 alerts posted as soon as the receiver listens (BENCH_NOTIFY_FLAGS='--when warm': once its browser is open), time to the last message and memory; writes notify/BENCHMARK-storm.md
	@tools/install-chromium.sh
	@node notify/bench/storm.mjs $(BENCH_NOTIFY_FLAGS)

.PHONY: bench-profile-metrics
bench-profile-metrics: $(NPM_STAMP) $(CORE_DIST) ## hotpath-profile-metrics against a stand-in Pyroscope of 1,000 services answering in realistic time: its CPU, memory and queries per second on Pyroscope; appends to notify/bench/RESULTS-profile-metrics.md
	@node notify/bench/profile-metrics.mjs --write $(BENCH_PROFILE_METRICS_FLAGS)

.PHONY: bench-notify-latency
bench-notify-latency: plugin ## hotpath-notify's latency, webhook to delivered message, over a burst of 20 replayed incident alerts (goal p95 <= 5 s), the warm renderer then the snapshot CLI at the same load; appends to notify/bench/RESULTS.md
	@tools/install-chromium.sh
	@node notify/bench/latency.mjs --alerts 20 --renderer warm $(BENCH_NOTIFY_LATENCY_FLAGS)
	@node notify/bench/latency.mjs --alerts 20 --renderer cli $(BENCH_NOTIFY_LATENCY_FLAGS)

# ---- Kubernetes bundle (deploy/) ---------------------------------------------

.PHONY: test-deploy
test-deploy: tools tools-kube plugin ## deploy/ against the vendored schemas of Kubernetes 1.35 and 1.37, prometheus-operator and grafana-operator (kubeconform, offline); round trips (dashboards, rules, alert routing) and knobs; the bundle applied to a real API server, fresh and over earlier installs, client-side and server-side; hotpath-notify's image recipe run outside a container
	@tests/deploy/validate.sh
	@cd tests && go test $(GO_TEST_FLAGS) ./deploy/...
	@cd tests && go test $(GO_TEST_FLAGS) -tags kube ./deploy/apply/
	@tools/install-chromium.sh
	@$(NODE_TEST) tests/deploy/image.test.mjs

# ---- rule pack benchmark --------------------------------------------------------

.PHONY: bench-detection
# SEEDS: the generated fleets (one per seed, backfilled side by side); KEEP=DIR keeps the backfilled
# data there, to query the recorded series afterwards.
SEEDS ?= 27
KEEP ?=
bench-detection: tools ## the regression alerts' detection rate, time to detect and false alarms on generated fleets (SEEDS=27,28 for more), side by side with fixed factors and MAD bands; writes tests/bench/RESULTS-detection.md
	@cd tests && BENCH_OUT=$(ROOT)/tests/bench/RESULTS-detection.md go test -tags bench -count=1 -timeout 60m -run 'TestEpisodes|TestBenchDetection' -v ./bench/detection -args -seeds '$(SEEDS)' $(if $(KEEP),-keep '$(KEEP)')

.PHONY: bench-functions
# FUNCTION_SEEDS: the fleets, one after the other (each a history of its own); three seeds and 4
# services per cell start every cell's regressions at every even onset hour once. FUNCTIONS_FLAGS:
# -per-cell N (services per kind, size and size class whose regression is an existing function's,
# default 4), -new-per-cell N (a new function's, default 4), -benign N (per benign day and size
# class, default 3), -fixed-share lo,hi; KEEP=DIR keeps each seed's history there (seed-N/, TSDB
# blocks). The timeout fits a 2-core machine busy with other work (about an hour idle, 1h50m beside a CI run).
FUNCTION_SEEDS ?= 27,28,29
FUNCTIONS_FLAGS ?=
bench-functions: tools ## FunctionCostPerRequestRegression (its cost model, and the share condition before it) beside the service regression alerts on generated fleets with per-minute synthetic profiles and the bridge's set: one function, existing or new, adding +5/10/20% to its service's CPU or allocations per request at every even onset hour, and benign days (holiday, traffic doubling, improvement elsewhere, fixed-heavy services, a busy node), by service size; writes tests/bench/RESULTS-functions.md
	@cd tests && BENCH_OUT=$(ROOT)/tests/bench/RESULTS-functions.md go test -tags bench -count=1 -timeout 6h -run 'TestBenchFunctions' -v ./bench/detection -args -seeds '$(FUNCTION_SEEDS)' $(if $(KEEP),-keep '$(KEEP)') $(FUNCTIONS_FLAGS)

.PHONY: bench-contention
bench-contention: $(NPM_STAMP) $(CORE_DIST) ## the playground's real services and the real profiles-to-metrics bridge, quiet, beside busy loops (a busy node), under a CPU quota and with a code change: which function rows each moves, the runtime's own rows beside them, the node's CPU pressure and the throttled time; as root (the quota's cgroup); writes tests/bench/RESULTS-contention.md
	@cd tests && BENCH_OUT=$(ROOT)/tests/bench/RESULTS-contention.md go test -tags bench -count=1 -timeout 60m -run 'TestBenchContention' -v ./bench/contention

.PHONY: bench-endpoints
# ENDPOINTS_FLAGS: -endpoint-per-cell N (services per regression size and per mix size, default 6),
# -endpoint-clean N (default 6); KEEP=DIR keeps the backfilled data there.
ENDPOINTS_FLAGS ?=
bench-endpoints: tools ## EndpointCostPerRequestRegression beside the service regression alerts on a generated fleet of services with 2-6 routes whose mix moves daily: route regressions adding +2/5/10/20% to the service's CPU per request, mix changes of +10/20/50% (no code changed), clean services; writes tests/bench/RESULTS-endpoints.md
	@cd tests && BENCH_OUT=$(ROOT)/tests/bench/RESULTS-endpoints.md go test -tags bench -count=1 -timeout 60m -run 'TestBenchEndpoints' -v ./bench/detection -args -seeds '$(SEEDS)' $(if $(KEEP),-keep '$(KEEP)') $(ENDPOINTS_FLAGS)

.PHONY: bench-rules
# BENCH_BEFORE_REF: the commit whose function rules today's are measured against: its pack
# rendered from its own jsonnet with tests/bench/rules/testdata/bench-intervals.jsonnet, its
# function groups loaded in today's pack in place of its own, in the same Prometheus, alternated
# with today's (default e96ff95: the function rules before their cost model, judged by their
# day's highest share; empty: none); then, on the first fleet, both packs as committed, at their
# shipped intervals, each in a Prometheus of its own side by side (about 50 minutes;
# BENCH_SHIPPED_ROUNDS=0: none, BENCH_SHIPPED_WARMUP before the rounds, default 21m).
# BENCH_SIZES=10000 for one fleet, BENCH_ROUNDS=N alternations of the CPU phases (default 2).
# Thanos Ruler's phase needs tools-thanos (BENCH_THANOS=0: none). bench-rules-shipped runs
# the side-by-side comparison alone.
BENCH_BEFORE_REF ?= e96ff95
bench-rules: tools $(if $(filter 0,$(BENCH_THANOS)),,tools-thanos) ## rule pack in the real Prometheus on 10k and 100k input series and the profile bridge's function rows, against the pack of BENCH_BEFORE_REF; writes tests/bench/RESULTS-rules.md
	@cd tests && BENCH_OUT=$(ROOT)/tests/bench/RESULTS-rules.md BENCH_BEFORE_REF='$(BENCH_BEFORE_REF)' go test -tags bench -count=1 -timeout 180m -run TestBenchRules -v ./bench/rules

.PHONY: bench-rules-shipped
bench-rules-shipped: tools ## today's pack against BENCH_BEFORE_REF's at the shipped intervals, side by side on the 10k fleet (the rule-cost goal's measure); writes tests/bench/RESULTS-rules-shipped.md
	@cd tests && BENCH_OUT=$(ROOT)/tests/bench/RESULTS-rules-shipped.md BENCH_BEFORE_REF='$(BENCH_BEFORE_REF)' go test -tags bench -count=1 -timeout 90m -run TestShippedIntervals -v ./bench/rules

# The test command (README, .ci/run). Each part is also a target of its own.
TEST_TARGETS := lint test-generated test-rules test-go test-demo-units test-plugin test-browser test-pprof test-notify test-deploy test-matrix demo-test

.PHONY: test
# One target after the other, each one's wall clock printed (the CI log shows where the time goes).
test: ## run every test
	@for t in $(TEST_TARGETS); do \
	  s=$$(date +%s); $(MAKE) --no-print-directory $$t || { echo "test: $$t FAILED after $$(( $$(date +%s) - s ))s"; exit 1; }; \
	  echo "test: $$t passed in $$(( $$(date +%s) - s ))s"; \
	done
	@echo "all tests passed: $(TEST_TARGETS)"
