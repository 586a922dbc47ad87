// hotpath-service.json: one service, read top to bottom as the investigation
// of "why is this service burning CPU?". Each row answers one question and
// rules out one cause before the next: load, one instance, an upstream, CFS
// throttling, allocations, which endpoint, and finally where in the code.
local dashboard = import '../lib/dashboard.libsonnet';
local p = import '../lib/panel.libsonnet';
local series = import '../lib/series.libsonnet';

{
  grafanaDashboards+:: {
    'hotpath-service.json':
      local cfg = $._config;
      local q = $.hotpathQueries.service;
      local d = dashboard(cfg);
      local prom = d.prom;
      local svc = '{{%s}}' % cfg.serviceLabel;
      local container = '{{%s}}/{{%s}}' % [cfg.podLabel, cfg.containerLabel];
      local selector = cfg.profileLabelSelector % cfg;
      local money = (import 'money.libsonnet')(cfg, $.hotpathQueries.money);
      local functions = (import 'functions.libsonnet')(cfg, $.hotpathQueries.functions);
      local endpoints = (import 'endpoints.libsonnet')(cfg, $.hotpathQueries.endpoints);

      d.dashboard(
        'service',
        'hotpath: service',
        'Why is this service burning CPU? Top to bottom: load or efficiency, one instance or all, upstream, throttling, allocations, which endpoint, where in the code.',
        [
          p.row('1. Load or efficiency?'),
          p.timeseries(
            'Request rate and CPU',
            'reqps',
            'Requests per second (left axis) and CPU cores used (right axis) on one time axis. If CPU rises with requests, it is load: scale out. If CPU rises while requests stay flat (or CPU stays high and flat while requests swing: a busy loop), it is efficiency: read on.',
            [prom(q.requests, 'requests/s'), prom(q.cpu, 'CPU cores')],
            w=6,
          ) {
            fieldConfig+: { overrides+: [p.byRefId('B', { unit: 'short', 'custom.axisPlacement': 'right', 'custom.axisLabel': 'CPU cores' })] },
          },
          p.timeseries(
            'CPU per request vs its baseline band',
            's',
            'CPU seconds spent per request, against the band from what its own cost model (fixed + marginal per request, fitted on %s of history up to %s ago, so that a change is judged against the days before it) predicts at the current traffic (dashed) up to where CPUPerRequestRegression starts (%s the prediction). Above the band: every request got more expensive (a regression). A rise at night inside the band is the fixed cost spread over fewer requests, not a regression.' % [cfg.baselineWindow, cfg.regressionAcceptAfter, d.times(cfg.cpuRegressionFactor)],
            [
              prom(q.cpuPerRequest, 'CPU per request'),
              prom(q.cpuPerRequestPredicted, 'baseline'),
              prom(q.cpuPerRequestRegression, 'regression threshold'),
            ],
            w=6,
          ) {
            fieldConfig+: {
              overrides+: [
                p.byRefId('B', { 'custom.lineWidth': 1, 'custom.fillOpacity': 0, 'custom.lineStyle': { fill: 'dash', dash: [10, 10] }, color: { mode: 'fixed', fixedColor: 'green' } }),
                p.byRefId('C', { 'custom.lineWidth': 0, 'custom.fillOpacity': 15, 'custom.fillBelowTo': 'baseline', color: { mode: 'fixed', fixedColor: 'green' } }),
              ],
            },
          },
          p.timeseries(
            'Fixed + marginal CPU vs measured',
            'short',
            'Stacked: the fixed CPU the service burns with no traffic and the marginal CPU of the current requests, as fitted on its history; their top is the CPU the cost model predicts. The line is the CPU measured. Measured above the stack: a regression. A fixed part that dominates: a cost that does not scale with load (polling, a busy loop).',
            [prom(q.cpuFixed, 'fixed'), prom(q.cpuMarginal, 'marginal'), prom(q.cpu, 'measured')],
            w=6,
            stack=true,
            min=0,
          ) {
            fieldConfig+: { overrides+: [p.byRefId('C', { 'custom.stacking': { mode: 'none' }, 'custom.fillOpacity': 0, 'custom.lineWidth': 2 })] },
          },
          p.timeseries(
            'Does CPU track load?',
            'percentunit',
            'From a fit of CPU on requests over the last %s: the share of CPU that does not follow requests (fixed share), and how much requests swung (coefficient of variation); and the fixed share from the median of the last %s of %s fits, which CPUNotTrackingLoad uses once a service has it (traffic that swings only over hours). A high fixed share (CPUNotTrackingLoad fires from %s) while requests swing: CPU stuck high whatever the load, a busy loop or polling (e.g. epoll_wait with timeout 0).' % [cfg.loadFitWindow, cfg.baselineWindow, cfg.loadFitLongWindow, d.percent(cfg.notTrackingLoadFixedShare)],
            [prom(q.recentFixedShare, 'fixed share of CPU'), prom(q.requestsVariation, 'requests variation'), prom(q.longFixedShare, 'fixed share (day of 3h fits)')],
            w=6,
            min=0,
            softMax=1,
          ),

        ] + money.servicePanels + [
          p.row('2. One instance or all?'),
          p.heatmap(
            'CPU per request by instance',
            's',
            'One row per instance, colour = CPU seconds per request. One hot row: that instance (a bad node, a noisy neighbour, a skewed shard); every row hot: the service as a whole, so look upstream and further down.',
            [prom(q.instanceCpuPerRequest, '{{%s}}' % cfg.instanceLabel)],
          ),
          p.timeseries(
            'Instances vs the sibling median',
            'suffix:×',
            "Each instance's CPU per request divided by the median of its siblings. 1× is typical; CPUPerRequestOutlier fires when one instance stays at %s or more for %s (with at least %d instances serving traffic, itself included)." % [d.times(cfg.outlierFactor), cfg.alertFor.CPUPerRequestOutlier, cfg.outlierMinInstances],
            [prom(q.instanceToSiblings, '{{%s}}' % cfg.instanceLabel)],
          ),

          p.row('3. Upstream?'),
          p.timeseries(
            'CPU per request relative to each upstream',
            'suffix:×',
            "This service's CPU per request divided by each upstream's (from the service graph). A ratio that jumps while the upstream stays flat: the cost is in this service (e.g. an API at 10× the CPU per request of the cache it streams from).",
            [prom(q.toUpstream, 'vs {{upstream}}'), prom(q.toUpstreamBaseline, 'vs {{upstream}}: usual')],
          ) {
            fieldConfig+: { overrides+: [p.byRefId('B', { 'custom.lineStyle': { fill: 'dash', dash: [10, 10] } })] },
          },
          p.timeseries(
            'CPU per request: this service and its upstreams',
            's',
            'Both sides of the ratio above: this service and every upstream it calls, each on its own line. If every line rose together, the cause is shared (a deploy, the nodes), not this service.',
            [prom(q.withUpstreams, svc)],
          ),

          p.row('4. Throttling?'),
          p.heatmap(
            'Throttled seconds by container',
            's',
            "One row per container of this service, colour = seconds per second it was throttled by its CFS CPU limit. Throttling raises latency while CPU usage looks low. No rows: no container has a CPU limit (cAdvisor's CFS series exist only with one), not \"no throttling\".",
            [prom(q.throttledSeconds, container)],
          ),
          p.heatmap(
            'Throttled periods by container',
            'percentunit',
            'Share of CFS periods in which each container hit its limit. A high share with few throttled seconds: short bursts; CPUThrottlingSustained needs both at least %s of periods and %s s/s.' % [d.percent(cfg.throttledPeriodsThreshold), d.num(cfg.throttledSecondsThreshold)],
            [prom(q.throttledPeriods, container)],
          ),
          p.timeseries(
            'CPU usage vs limit',
            'short',
            'CPU cores used by each container (solid) against its limit (dashed). Throttling while usage is well below the limit is CFS quota exhaustion within %s periods: bursts of many threads. Raise the limit or lower parallelism.' % cfg.cfsPeriod,
            [prom(q.containerUsage, container + ' used'), prom(q.containerLimit, container + ' limit')],
          ) {
            fieldConfig+: { overrides+: [p.byRefId('B', { 'custom.lineStyle': { fill: 'dash', dash: [10, 10] } })] },
          },
          p.timeseries(
            'GOMAXPROCS vs CPU limit',
            'short',
            "Go's GOMAXPROCS per pod (solid) against the pod's CPU limit in cores (dashed). GOMAXPROCS far above the limit lets the Go scheduler run more threads than the quota allows: throttling in bursts (set GOMAXPROCS to the limit, e.g. automaxprocs). Empty: not a Go service, not in Kubernetes, or client_golang < 1.12.",
            [prom(q.gomaxprocs, '{{%s}} GOMAXPROCS' % cfg.podLabel), prom(q.podLimit, '{{%s}} limit' % cfg.podLabel)],
          ) {
            fieldConfig+: { overrides+: [p.byRefId('B', { 'custom.lineStyle': { fill: 'dash', dash: [10, 10] } })] },
          },

          p.row('5. Allocations?'),
          p.timeseries(
            'Bytes allocated per request vs baseline',
            'bytes',
            'Heap bytes allocated per request against its own baseline. A step up after a deploy is new work allocated on every request (e.g. a compression writer per response); AllocationsPerRequestRegression fires at %s the baseline.' % d.times(cfg.allocRegressionFactor),
            [prom(q.allocPerRequest, 'allocated per request'), prom(q.allocPerRequestBaseline, 'baseline')],
          ),
          p.timeseries(
            'Allocation rate',
            'Bps',
            'Bytes allocated per second by the whole service. It drives GC work: compare its shape with CPU above.',
            [prom(q.alloc, 'allocated/s')],
          ),
          p.timeseries(
            'Heap in use',
            'bytes',
            'Heap in use per instance. A steep saw-tooth (fast growth, sharp drops) is GC chasing allocations; a flat line with high allocation rate means short-lived garbage.',
            [prom(q.heap, '{{%s}}' % cfg.instanceLabel)],
            w=8,
          ),
          p.timeseries(
            'GC cycles',
            'ops',
            'Garbage collections per second across the service. It rises with the allocation rate; many cycles at a small heap point at GOGC or a memory limit set too low.',
            [prom(q.gcCycles, 'GC/s')],
            w=8,
          ),
          p.timeseries(
            'GC stop-the-world pause',
            'percentunit',
            'Share of wall time the service spent in GC stop-the-world pauses. Above a few percent, GC is a CPU and latency cost of its own.',
            [prom(q.gcPause, 'paused')],
            w=8,
          ),

        ] + endpoints.panels + [
          p.row('7. Where in the code?'),
          p.plugin(
            'hotpath-overlay-panel',
            'CPU per request with its flame graph',
            's',
            "Drag across the strip to select a window (or click a shaded alert window): the flame graph shows where CPU went in it, and the diff against its baseline (by default the same length before the alert started; Shift-drag picks one by hand) shows what changed. The windows live in the URL, so a link reproduces the view. Needs the hotpath-overlay-panel plugin; without it, open the last row: Grafana's own flame graph panels.",
            [
              prom(q.cpuPerRequest, 'CPU per request'),
              prom(q.anomalies, '{{alertname}}'),
              p.profile(d.profilesDs, cfg.profileTypeId, selector),
              prom(q.requests, 'requests/s'),
              prom(q.cpu, 'CPU cores'),
              prom(q.instanceRequests, '{{%s}} requests/s' % cfg.instanceLabel),
              prom(q.endpointRequests, '{{endpoint}} requests/s'),
            ],
            // Which query feeds which part (plugin/src/options.ts): the strip draws A, D
            // and E, shades the windows where B (the hotpath alerts) is on, and the
            // panel re-runs C for each selected window. D counts each window's requests
            // (values per request); F, one rate per instance, counts them for the
            // siblings baseline (an instance against the others); G, one rate per
            // endpoint, for the endpoint filter (the profile labels of
            // endpointProfileLabels narrow both windows to one endpoint's samples).
            {
              profileRefId: 'C',
              seriesRefIds: ['A', 'D', 'E'],
              anomalyRefId: 'B',
              baselineMode: 'auto',
              requestsRefId: 'D',
              instanceRequestsRefId: 'F',
              siblingLabel: cfg.instanceLabel,
              endpointLabels: std.join(',', cfg.endpointProfileLabels),
              endpointRequestsRefId: 'G',
            },
            h=22,
          ) {
            fieldConfig+: { overrides+: [p.byRefId('D', { unit: 'reqps' }), p.byRefId('E', { unit: 'short' }), p.byRefId('F', { unit: 'reqps' }), p.byRefId('G', { unit: 'reqps' })] },
          },
        ] + functions.panels + [
          // Grafana's own flame graph panels, for a Grafana without the
          // overlay plugin. Closed by default: without a Pyroscope datasource
          // their queries fail ("Datasource was not found"), and a cluster
          // without profiles should look healthy; the overlay panel above
          // says what is missing, and this row's title what they need.
          p.collapsedRow("Grafana's own flame graphs (without the plugin; they need a Pyroscope datasource)", [
            p.flamegraph(
              'CPU flame graph',
              'ns',
              "Where CPU time went over the dashboard time range (Grafana's built-in flame graph, no plugin needed). Wide frames are hot; narrow the time range to the incident to focus it (e.g. fmt.Println -> protobuf text marshalling).",
              [p.profile(d.profilesDs, cfg.profileTypeId, selector)],
            ),
            p.flamegraph(
              'Allocation flame graph',
              'bytes',
              'Where bytes were allocated over the time range. Pair it with the allocation row: a wide frame here under an allocation regression is the culprit (e.g. flate.NewWriter per response).',
              [p.profile(d.profilesDs, cfg.allocProfileTypeId, selector)],
            ),
          ]),
        ],
        d.variables(series.requests, multiService=false) + [functions.variable, endpoints.variable],
        [
          d.annotation('hotpath alerts', q.alerts),
          d.annotation('CFS throttling of this service', q.throttlingAlerts, 'orange'),
        ] + (if cfg.versionSources != [] then [d.deployAnnotation(q.deploys)] else []),
      ),
  },
}
