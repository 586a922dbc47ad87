// Every knob of the hotpath mixin. Override any of them the kubernetes-mixin way:
//
//   (import 'hotpath/mixin.libsonnet') + { _config+:: { serviceLabel: 'service' } }
//
// Each knob says why you would change it and gives an example. Rules, alerts and
// dashboards read only from here, so one override changes all three consistently
// (tests/mixin proves that for the label names).
local catalogue = import 'catalogue.libsonnet';

{
  _config+:: {
    // ---- Identity -------------------------------------------------------------

    // The label that names a service. Every recording rule aggregates to it and
    // every alert carries it. Change it when your scrape config puts the service
    // name elsewhere, e.g. `serviceLabel: 'service'` or `'app'`.
    serviceLabel: 'job',

    // The label that tells sibling instances of a service apart (the outlier
    // alert compares them). Change it when instances are pods, e.g. `'pod'`.
    instanceLabel: 'instance',

    // Kept in every aggregation when present, dropped cleanly when absent. Set
    // to '' when you have no such label; set it to your name for it otherwise,
    // e.g. `clusterLabel: 'k8s_cluster'` on a multi-cluster Thanos or Mimir.
    clusterLabel: 'cluster',
    namespaceLabel: 'namespace',

    // Labels of cAdvisor's per-container series. Change them only if your
    // kubelet relabels them (old kubelets used `pod_name`, `container_name`).
    podLabel: 'pod',
    containerLabel: 'container',

    // ---- Input metrics and selectors -------------------------------------------

    // Extra matchers added to every input selector, to narrow hotpath to some
    // services or to drop a noisy exporter. Example: `'env="prod"'`. Empty means
    // "every series of that name".
    requestsSelector: '',
    cpuSelector: '',
    allocSelector: '',

    // The service's own counter of handled requests (requestsFrom's `app`); all
    // its labels but the identity ones are summed away. Change it when your
    // services count requests under another name, e.g.
    // `requestsMetric: 'myapp_http_requests_total'`.
    requestsMetric: 'http_requests_total',

    // Where request counts come from, by tool: each one a line to turn on or
    // off, e.g. `requestsFrom+: { istio: true }`. The shapes of each (which
    // series, which labels name the service) are in
    // jsonnet/lib/request-sources.libsonnet. On by default: the counters a
    // service exports itself (app: requestsMetric; OpenTelemetry's HTTP and
    // RPC server histograms; Micrometer; gRPC), each naming the service by
    // the scrape's job. Off by default: the ones that name services by labels
    // of their own and count at a proxy (istio: the canonical service of
    // istio_requests_total{reporter="destination"}; linkerd: the deployment,
    // statefulset or daemonset of request_total{direction="inbound"};
    // ingressNginx: the backend Service of nginx_ingress_controller_requests,
    // requests from outside the cluster only). Turn one on where your
    // services export no counter of their own. A service that several of them
    // see is counted once, from the first in this order: app, opentelemetry,
    // micrometer, grpc, istio, linkerd, ingressNginx (docs/runbook.md, "Where
    // request counts and CPU come from"); the same service must then carry
    // the same name in each (the scrape's job and the mesh's canonical
    // service), or it shows twice.
    requestsFrom: {
      app: true,
      opentelemetry: true,
      micrometer: true,
      grpc: true,
      istio: false,
      linkerd: false,
      ingressNginx: false,
    },

    // Every counter of a unit of work, as a list of sources, a service counted
    // from the first source in the list that has it. The default is the
    // sources requestsFrom turns on, in its order; set it to count work in
    // other counters too (log records, messages), or to change the order.
    // A source is { metric, selector, serviceLabel, namespaceLabel,
    // instanceLabel, podLabel, relayLabels }, all but metric optional:
    // serviceLabel (and namespaceLabel, instanceLabel) is the label of that
    // source, or a list of them, whose first non-empty value is copied into
    // serviceLabel (namespaceLabel, instanceLabel), the series' own kept
    // where none is set; podLabel likewise names the pod that served the
    // requests, which CPU from cAdvisor is joined through, and relayLabels are
    // labels that mark a series relayed by another pod (a Collector, an
    // ingress controller): there the scrape's own pod is the relay's and is
    // dropped. Example:
    //   requestSources: super.requestSources + [
    //     { metric: 'fluentd_output_status_emit_records', selector: 'type!="stdout"' },
    //   ],
    requestSources: std.flattenArrays([
      $._config.requestSourceShapes[name]
      for name in $._config.requestSourceShapes.precedence
      if std.get($._config.requestsFrom, name, false)
    ]),
    requestSourceShapes:: (import 'lib/request-sources.libsonnet')($._config),

    // Where each service's running version comes from: the version the
    // efficiency alerts carry, the deploys the service dashboard marks, and
    // the baseline hotpath-notify takes from the previous version's last
    // hours (jsonnet/rules/versions.libsonnet). A list of { metric, selector,
    // versionLabel, versionRegex, serviceLabel, joinOnPod }, all but metric
    // optional: versionLabel (default 'version') holds the version, and
    // versionRegex (default '(.+)') keeps a series only where that label
    // matches, its first group being the version; serviceLabel as in
    // requestSources; joinOnPod: the series names a pod, not a service (as
    // kube-state-metrics does): it gets the service of the requests series
    // scraped from that pod. A service found in several sources takes its
    // version from the first that has it.
    //
    // On by default with kube-state-metrics' kube_pod_container_info, which
    // kube-prometheus-stack ships: the tag of the image each pod runs (an
    // image pinned by digest keeps its tag; an image without a tag gives no
    // version), joined to the service through (namespace, pod), the sidecars
    // of sidecarContainers left out. Without kube-state-metrics, or where
    // services are not pods, the group records nothing and the annotations
    // stay empty. Put your own source first when the image tag is not the
    // version (a `latest` tag, one tag per branch), or turn versions off
    // with `versionSources: []`. Example:
    //   versionSources: [
    //     { metric: 'target_info', versionLabel: 'service_version' },  // OpenTelemetry
    //     { metric: 'shop_build_info' },                                // a *_build_info{version} gauge
    //   ] + super.versionSources,  // then the image tag
    versionSources: [
      {
        metric: 'kube_pod_container_info',
        selector: '%s!~"%s"' % [$._config.containerLabel, std.join('|', $._config.sidecarContainers)],
        versionLabel: 'image',
        versionRegex: '[^@]+:([^:/@]+)(@.+)?',
        joinOnPod: true,
      },
    ],

    // Containers that run beside the service in its pods and whose image is
    // not its version: service-mesh proxies, secret agents, SQL and auth
    // proxies, config reloaders, tracing agents. Their tags would count as
    // versions of the service, and a mesh upgrade as its deploy. Regular
    // expressions, each matched against the whole container name. Log
    // shippers and collectors (fluentd, fluent-bit, vector, an OpenTelemetry
    // collector) are not listed: they are services of their own as often as
    // sidecars. Add the sidecars your pods run, e.g.
    // `sidecarContainers+: ['fluent-bit', 'audit-shipper']`.
    sidecarContainers: [
      'istio-proxy',
      'istio-validation',
      'linkerd-proxy',
      'envoy-sidecar',
      'consul-dataplane',
      'consul-connect-.+',
      'kuma-sidecar',
      'daprd',
      'vault-agent',
      'cloud-sql-proxy',
      'cloudsql-proxy',
      'oauth2-proxy',
      'kube-rbac-proxy',
      '.*config-reloader',
      'git-sync',
      'otc-container',
      'jaeger-agent',
      'xray-daemon',
    ],

    // A version missing from its source for less than this (a failed scrape,
    // a restart of Prometheus) still runs; its series lingers this long after
    // the last instance running it is gone, and a version that comes back
    // after a longer absence (a rollback) is a new deploy. Raise it (e.g.
    // '30m') when scrapes of the version series fail for longer.
    versionHold: '10m',

    // The efficiency alerts carry the previous version and the rollout time
    // (annotations previous_version, rollout_time) when the last deploy is at
    // most this old at the evaluation; hotpath-notify then takes its baseline
    // from before the rollout when the incident began after it. An alert fires
    // its `for:` (15m) to about 45 minutes after the change began, so 2h
    // covers a change that began up to about an hour after a rollout. Raise it
    // (e.g. '6h') for changes that show only at the next traffic peak.
    deployWindow: '2h',

    // Where per-service CPU comes from. 'auto' (the default) takes each
    // service's process_cpu_seconds_total where it exports one, and
    // cAdvisor's container_cpu_usage_seconds_total of its pods where it does
    // not (most JVMs, Python and Node services, behind a mesh or not): the
    // containers of every pod a request source counts the service in,
    // sidecars included, joined through (namespace, pod). A service that has
    // both gets one, its process's, never their sum. 'process' and
    // 'cadvisor' force one source for every service: 'cadvisor' when your
    // process counters do not measure the service (a wrapper process, a
    // sidecar exporter that counts its own CPU under the service's job).
    cpuSource: 'auto',
    processCpuMetric: 'process_cpu_seconds_total',
    containerCpuMetric: 'container_cpu_usage_seconds_total',

    // Go allocations, from client_golang's Go collector. Change it for a runtime
    // that exports a similar counter, e.g. `'jvm_gc_memory_allocated_bytes_total'`.
    allocMetric: 'go_memstats_alloc_bytes_total',

    // cAdvisor's CFS series exist only for containers with a CPU limit: absence
    // means "no limit", not "0% throttled". No job selector by default
    // (kube-prometheus scrapes them as job="kubelet", others as job="cadvisor";
    // the names are unique to cAdvisor). Narrow them with e.g. `'job="kubelet"'`.
    cadvisorSelector: '',

    // The service-graph edge counter from Tempo's metrics generator or Alloy.
    // `client` and `server` carry the same values as the service label.
    serviceGraphMetric: 'traces_service_graph_request_total',
    serviceGraphSelector: '',
    // The labels of an edge's two ends, for a service graph that names them
    // otherwise (e.g. Alloy with a prefix: 'client_service', 'server_service').
    serviceGraphClientLabel: 'client',
    serviceGraphServerLabel: 'server',

    // Upstreams the service graph does not see (no tracing, a cache behind a
    // client library): service -> the services it calls, added to the edges.
    // Example: `staticUpstreams: { api: ['cache', 'facebox'] }`.
    staticUpstreams: {},

    // cAdvisor's CFS counters. Change them only for a kubelet that renames them.
    cfsPeriodsMetric: 'container_cpu_cfs_periods_total',
    cfsThrottledPeriodsMetric: 'container_cpu_cfs_throttled_periods_total',
    cfsThrottledSecondsMetric: 'container_cpu_cfs_throttled_seconds_total',

    // cAdvisor's CPU limit of a container is quota / period (both exist only
    // when a limit is set); recorded in cores for the usage-vs-limit panels.
    containerCpuQuotaMetric: 'container_spec_cpu_quota',
    containerCpuPeriodMetric: 'container_spec_cpu_period',

    // kube-prometheus-stack's default kubelet ServiceMonitor drops cAdvisor's
    // throttled seconds and every container_spec_* series. Where a container
    // has no throttled seconds, the pack records throttled periods x cfsPeriod
    // instead: an upper bound of the wall-clock time it was throttled (cAdvisor's
    // own figure sums over CPUs, so it can be higher on multi-core containers).
    // 100ms is the kubelet's default --cpu-cfs-quota-period; change it with that
    // flag. Where a container has no quota series, its limit comes from
    // kube-state-metrics (in cores); narrow it with the selector, e.g. add
    // `job="kube-state-metrics"`.
    cfsPeriod: '100ms',
    kubeStateMetricsLimitMetric: 'kube_pod_container_resource_limits',
    kubeStateMetricsLimitSelector: 'resource="cpu", unit="core"',
    // The CPU request per container (cores), from kube-state-metrics, for the
    // throttling answer: a container whose request covers its mean usage can
    // do without a limit. Narrow it like the limit, e.g. add
    // `job="kube-state-metrics"`.
    kubeStateMetricsRequestMetric: 'kube_pod_container_resource_requests',
    kubeStateMetricsRequestSelector: 'resource="cpu", unit="core"',

    // ---- Windows and evaluation -----------------------------------------------

    // The rate window of every recorded series. 5m keeps at least 4 scrapes at a
    // 1m scrape interval; raise it (e.g. '10m') with a 2m+ scrape interval. The
    // recorded names keep their `rate5m` suffix: they are public API.
    rateWindow: '5m',

    // How often the recording groups evaluate. Baseline groups evaluate less often
    // (see the rules files); raise both on very large fleets, e.g. '2m'.
    evaluationInterval: '1m',

    // ---- Rules and alerts: traffic floor --------------------------------------

    // Below this many requests per second, CPU per request is noise (a health
    // check, a cron): the efficiency alerts stay silent and the upstream ratio is
    // not recorded. Lower it for small internal services, e.g. 0.2.
    minRequestRate: 1,

    // ---- Rules and alerts: the self baseline (cost model) ----------------------
    // CPUPerRequestRegression and AllocationsPerRequestRegression judge a service
    // against its own cost model, CPU = fixed + marginal * req/s, fitted on its
    // history (jsonnet/rules/baseline.libsonnet explains the method).

    // The history the model is fitted on. 1d sees a whole day and night. An
    // incident longer than about half of a traffic half (roughly 6h at the daily
    // peak with 1d) starts to become the new normal; '3d' tolerates longer ones
    // but costs 3x the baseline group's time and keeps yesterday's regime longer
    // after a deliberate change.
    baselineWindow: '1d',

    // How often the model is refitted. Its inputs change slowly; 5m keeps the
    // pack cheap. Raise it on a very large fleet, e.g. '10m' (the alerts read the
    // last fit for up to two intervals).
    baselineInterval: '5m',

    // No model, no fallback and so no regression alert until a service has this
    // much history in the window: a new service is silent rather than judged
    // against a morning. Example: '12h' to wait for a day and a night.
    baselineMinHistory: '6h',

    // The model is fitted only when traffic varied enough: the two halves' typical
    // req/s must differ by this share of the median. Below it the plain median
    // CPU/request is used; 0.25 bounds that fallback's error from fixed costs
    // below the 1.5x threshold. Raise it (e.g. 0.5) if fits look noisy.
    baselineMinTrafficSpread: 0.25,

    // The line goes through this quantile of each traffic half (the same quantile
    // of req/s and of CPU). A healthy service's points all lie on its cost curve,
    // so any quantile finds it; a low one ignores an incident that pushes CPU up
    // in up to (1 - q) of a half. 0.5 is the textbook resistant line.
    baselineHalfQuantile: 0.25,

    // CPUPerRequestRegression fires at CPU >= this multiple of the prediction;
    // AllocationsPerRequestRegression at allocation bytes/s >= its multiple.
    cpuRegressionFactor: 1.5,
    allocRegressionFactor: 2,

    // ---- Rules and alerts: the noise model of the self baseline ----------------
    // The fixed factors above catch big changes at once. Smaller, lasting ones
    // (+30% CPU per request after a deploy) are caught against each service's
    // own noise: the residual, measured / predicted by the cost model, its
    // median over regressionResidualWindow, is sampled every
    // regressionNoiseInterval once the model is fitted on a whole
    // baselineWindow, and its median and spread (median minus lower quartile,
    // the MAD of a symmetric noise) over baselineWindow are recorded
    // (rules/noise.libsonnet). The alerts also fire when that residual stays
    // above max(median * (1 + floor), median + k * spread) for their `for:`.

    // How far above its typical residual a service must be, in spreads. 3 is
    // the usual robust band (median + 3 MAD): on a noise that looks normal it
    // is about 2 standard deviations of the smoothed residual, and `for:` asks
    // for it to hold 15 minutes. Raise it (e.g. 5) for a service whose noise has
    // long runs (batch jobs, cache warm-ups) that page you; lower it (e.g. 2)
    // only with a floor that keeps the alert material.
    regressionNoiseK: 3,

    // The materiality floors: a change smaller than this share of the typical
    // residual never fires, however quiet the service. 25% of CPU per request
    // and 40% of allocated bytes per request (allocations are noisier and cost
    // less per byte than CPU) are what is worth someone's afternoon. Lower them
    // (e.g. 0.1) on a large, steady fleet where 10% is real money; raise them on
    // a fleet of small services where only big changes matter.
    cpuRegressionFloor: 0.25,
    allocRegressionFloor: 0.4,

    // The residual the noise path compares is the median of the minute's
    // residual (CPU or allocations over the prediction) over this window: the
    // median ignores anything that raises fewer than half of the window's
    // minutes, so a restart's warm-up of up to about 8 minutes (10 minutes
    // above the floor once the 5m rate has smeared it) or a blip never moves
    // it, and it smooths minute-to-minute noise about as well as a 13m mean.
    // With `for:` 15m a lasting change fires about 30 minutes after its onset.
    // Raise it (e.g. '30m') for services whose warm-ups last longer, or very
    // noisy, quiet ones, at the price of later alerts.
    regressionResidualWindow: '20m',

    // How often the residual is sampled for its median and spread (their own
    // group, hotpath-noise). They describe a whole day and move slowly, and
    // each refit reads a day of samples: three baseline intervals (15m) by
    // default, 96 samples a day. Lower it (e.g. '5m') to let a new service's
    // band settle sooner; raise it (e.g. '30m') on a very large fleet.
    regressionNoiseInterval: local d = import 'lib/durations.libsonnet'; d.format(3 * d.seconds($._config.baselineInterval)),

    // The noise path waits until the residual has been sampled for this long:
    // a spread from a few samples would be too narrow. Sampling itself starts
    // once the cost model is fitted on a whole baselineWindow (residuals of a
    // model still growing into its window sit at another level), so a new
    // service gets the noise threshold baselineWindow + this after its first
    // scrape (30h by default); until then only the fixed factors apply.
    // Example: '12h' to see a night and a day of noise first.
    regressionNoiseMinHistory: '6h',

    // When a lasting change of a service's cost becomes its new normal. The
    // regression alerts judge the present against the cost model and the
    // noise band as they were recorded this long ago, so a change younger
    // than this is judged against data from before it and cannot teach the
    // baseline that it is normal: the alert fires within the hour whatever
    // the hour it begins, and holds while the change lasts. After this long
    // the reference model starts to learn the change (a few hours more for
    // it to fill a traffic half), the alert resolves, and the new cost is the
    // normal the next regression is judged against. 1d gives on-call a whole
    // day and night to fix or accept a change and costs two lookups a day
    // back per service. Longer (e.g. '3d') keeps a weekend's regression
    // firing until Monday, at the price of judging against an older model
    // (a deliberate cost change pages for as long). Shorter (e.g. '12h')
    // accepts sooner. A service younger than baselineWindow +
    // regressionNoiseMinHistory + this (54h) is judged against its current
    // model and band, which learn a change within hours.
    regressionAcceptAfter: '1d',

    // Hysteresis of CPUPerRequestRegression and AllocationsPerRequestRegression:
    // they fire when the smoothed residual crosses the noise threshold, and
    // once firing they hold while it stays at or above the hold level, this
    // share of the way from the typical residual (the band's median) to the
    // threshold (job:..._residual_hold). A +30% change on a service with
    // 10-20% noise a minute sits a few percent above its threshold and its
    // 20m median dips under it for longer than regressionKeepFiringFor; it
    // rarely falls halfway back to normal, while a fix brings it all the
    // way back (the alert resolves as before). 1 turns the hysteresis off;
    // lower (e.g. 0.3) holds a noisier service's change more surely, at the
    // price of holding a change that shrinks to a third of the threshold's
    // distance. It never makes an alert fire: only the threshold does.
    regressionHoldShare: 0.5,

    // How long CPUPerRequestRegression and AllocationsPerRequestRegression
    // stay firing after their condition last held (Prometheus's
    // keep_firing_for). Once firing, a change holds at the hold level
    // (regressionHoldShare); this rides out the rarer dips of the noise under
    // that level, so the alert neither resolves nor waits its `for:` again
    // while the change lasts. A fix is still told within the hour: the
    // smoothed residual falls under the hold level about 10 minutes after
    // it, the alert resolves this long later. Raise it (e.g. '45m') for very
    // noisy services whose dips last longer; '0s' resolves at the first dip.
    regressionKeepFiringFor: '30m',

    // ---- Rules and alerts: functions (hotpath-profile-metrics) ------------------

    // The counters hotpath-profile-metrics exports, one row per service and
    // function (seconds of CPU; bytes allocated). Change them only if you
    // renamed them on the way in (a recording rule, a remote-write rename).
    functionCpuMetric: 'hotpath_profile_cpu_seconds_total',
    functionAllocMetric: 'hotpath_profile_alloc_bytes_total',

    // A selector for those counters, when more than one bridge exports them
    // into the same Prometheus, e.g. 'cluster="eu1"'; '' reads them all.
    // A service without them simply has no function series and no function alert.
    profileMetricsSelector: '',

    // FunctionCostPerRequestRegression's materiality floor: a function's cost
    // per request must have risen by at least this share of its service's
    // whole cost per request (the sum of its functions' references, `other`
    // included) besides rising beyond its own noise (median + regressionNoiseK
    // spreads, as recorded regressionAcceptAfter ago), while its share of the
    // service's profile is above that day's range. 0.03: a function that
    // adds 3% to its service pages, one going from 0.01% to 0.02% of it never
    // does, however quiet its noise. Raise it (e.g. 0.1) on a fleet where only
    // larger changes are worth an afternoon; lower it (e.g. 0.01) on large
    // services where 1% is real money and the profiles sample densely.
    functionRegressionMinShare: 0.03,

    // The share of its service's profile under which hotpath-profile-metrics
    // keeps a function in `other` (its --entry-share; keep the two equal).
    // A function the bridge admitted lately, in a service whose rows are old
    // enough to be judged, has no reference of its own: it is new code, or
    // it grew past this share. FunctionCostPerRequestRegression judges it
    // against "under this share before": its share of the profile must now
    // exceed this plus functionRegressionMinShare, and its cost per request
    // that much of the service's whole. 0.01 lets a new function that adds
    // 5% to its service page within the hour while a steady 0.9% function
    // whose share doubles at night does not. Raise both (e.g. 0.02, the
    // bridge too) on services whose functions' shares swing widely.
    functionEntryShare: 0.01,

    // ---- Rules and alerts: CPU that does not track load -------------------------

    // The recent window of the least-squares fit behind CPUNotTrackingLoad. Short
    // windows see a busy loop within minutes, but only when traffic swings inside
    // the window (bursty or batch traffic, load tests); a service whose traffic
    // only follows the slow daily curve has too little swing in 30m and the
    // alert stays silent there. For such services raise it (e.g. '3h'): it then
    // sees the daily swing, at the price of firing hours rather than minutes
    // after the onset.
    loadFitWindow: '30m',

    // The second, slow path of CPUNotTrackingLoad, for services whose traffic
    // moves only with hours-long swings (a daily curve, a batch cycle): the
    // same fit over this window, refitted every baselineInterval wherever
    // traffic swung, and the marginal cost taken as the median of those fits
    // over baselineWindow. A busy loop adds a constant, so it leaves every
    // slope but the few whose window holds its onset or its fix; the median
    // ignores those, so the alert fires soon after the onset, stays firing
    // through plateaus where nothing swings, and resolves minutes after the
    // fix. Raise it (e.g. '6h') when your swings are slower than a few hours;
    // a longer window costs more per refit.
    loadFitLongWindow: '3h',

    // Traffic "swung" when req/s varied by at least this coefficient of
    // variation (stddev / mean) within the window. Below it the fit is noise.
    loadFitMinVariation: 0.25,

    // CPUNotTrackingLoad fires when the fixed part is at least this share of the
    // CPU at the window's mean traffic, and the service uses at least
    // notTrackingLoadMinCores. Lower the share (e.g. 0.6) to catch smaller loops;
    // raise the cores for fleets of big, mostly idle JVMs.
    notTrackingLoadFixedShare: 0.8,
    notTrackingLoadMinCores: 0.25,

    // ---- Rules and alerts: siblings and upstreams ------------------------------

    // CPUPerRequestOutlier: an instance at >= outlierFactor times the median
    // CPU/request of its service's instances, counted only when at least
    // outlierMinInstances instances (itself included) serve >= minRequestRate.
    outlierFactor: 1.5,
    outlierMinInstances: 3,

    // CPUPerRequestAboveUpstream: CPU/request relative to an upstream at >=
    // upstreamBaselineFactor times its own median over the baseline window, or
    // >= upstreamAbsoluteFactor whatever the history. Services that are heavy by
    // design next to a cheap cache (templating, auth) may sit above 5x: raise the
    // absolute factor (e.g. 50) rather than silence the alert.
    upstreamBaselineFactor: 2,
    upstreamAbsoluteFactor: 5,

    // The edges of one service are expanded one "slot" at a time (PromQL cannot
    // pair every namespace of a service with every upstream in one join); a
    // service with more upstreams than this has the rest ignored. Raise it for
    // fan-out services, e.g. 16 (each slot is one more join).
    maxUpstreamsPerService: 8,

    // ---- Rules and alerts: CFS throttling -------------------------------------

    // CPUThrottlingSustained needs both: the share of CFS periods throttled and
    // the throttled time per second. The time keeps an idle container with a
    // high ratio silent (kubernetes-mixin #108, #515). Lower the seconds for
    // latency-critical services, e.g. 0.05.
    throttledPeriodsThreshold: 0.25,
    throttledSecondsThreshold: 0.1,

    // The throttling answer (hotpath-notify's CPUThrottlingSustained message,
    // docs/runbook.md). throttlingBurstWindow is the short rate window whose
    // peak over the incident is set against the 5m mean: keep at least two
    // scrapes in it, e.g. '2m' at a 1m scrape interval. A peak of
    // throttlingBurstyRatio times the mean or more is bursty. The suggested
    // limit is the demand (peak, or mean usage plus throttled time) times
    // throttlingLimitHeadroom, rounded up to throttlingLimitStep cores; raise
    // the headroom for latency-critical services, e.g. 1.5.
    throttlingBurstWindow: '1m',
    throttlingBurstyRatio: 2,
    throttlingLimitHeadroom: 1.25,
    throttlingLimitStep: 0.1,

    // ---- Rules and alerts: for, severity, links --------------------------------

    // How long a condition must hold before the alert fires. 15m outlasts a
    // restart's warm-up and a 5m rate window's echo of a blip. The playground's
    // demo overlay shortens these (and nothing else).
    // The defaults of both are in jsonnet/catalogue.libsonnet, with each alert.
    alertFor: { [a.name]: a['for'] for a in catalogue.alerts },

    // The severity label of each alert; route them in Alertmanager. All are
    // efficiency problems rather than outages: 'warning'. Example override:
    // `alertSeverity+: { CPUThrottlingSustained: 'critical' }`.
    alertSeverity: { [a.name]: a.severity for a in catalogue.alerts },

    // Labels added to every alert (never to a recording rule), for routing and
    // ownership your Alertmanager already keys on: a team, a tier, a tenant.
    // They must not name a label the pack sets or keeps (severity, the label
    // knobs above, upstream): change those with their own knobs. Example:
    // `alertExtraLabels: { team: 'platform', page: 'false' }`.
    alertExtraLabels: {},

    // Annotations added to every alert, for what your receivers show or link:
    // a Slack channel, a dashboard of your own, a playbook index. A Go
    // template, like the pack's own (`{{ $labels.job }}` expands). They must
    // not name the pack's annotations (summary, description, runbook_url,
    // dashboard_url, profile_url): set runbookURL, grafanaURL or profileURL
    // instead. Example:
    // `alertExtraAnnotations: { slack_channel: '#perf-{{ $labels.namespace }}' }`.
    alertExtraAnnotations: {},

    // ---- Links in alerts ------------------------------------------------------

    // Where docs/runbook.md is published; alerts link to `<runbookURL>#<alertname>`
    // (lower-cased, as GitHub makes its heading anchors).
    // Point it at your fork or wiki, e.g. 'https://wiki.example.com/hotpath'.
    runbookURL: 'https://github.com/hotpath/hotpath/blob/main/docs/runbook.md',

    // Your Grafana's base URL, for the alerts' dashboard_url. Example:
    // 'https://grafana.example.com'.
    grafanaURL: 'http://localhost:3000',

    // A link to the service's profiles, added to every alert that names a
    // service as `profile_url`; empty adds none. A Go template: `{{ $labels.<l> }}`
    // expands the alert's labels. Example for Grafana's Explore Profiles app:
    // 'https://grafana.example.com/a/grafana-pyroscope-app/explore?var-serviceName={{ $labels.job }}'.
    profileURL: '',

    // Times in the service alerts' links, taken from the rule evaluation that
    // renders the annotation (a `query "time()"` in the template). dashboard_url
    // opens the service dashboard from `before` to `after` around that moment,
    // with the overlay panel on the anomaly at that moment (hotpath-at; the panel
    // selects the alert's window on its strip and diffs it against the window
    // before) in its diff view; profile_url (when set) gets from/to of the last
    // `profile`. Alertmanager re-sends the latest annotations, so a link opened
    // later still points at the firing. Set it to null for a ruler whose
    // templates cannot run queries; the links then carry no times. Example:
    // `alertLinkTimes: { before: '6h', after: '1h', profile: '30m' }`.
    alertLinkTimes: { before: '3h', after: '30m', profile: '15m' },

    // ---- Money -----------------------------------------------------------------
    // List prices that turn cores and memory into money: the dashboards show
    // each service's cost a month at its current rate and per million
    // requests, and every efficiency alert's message what its change costs a
    // month at the current traffic, always beside the cores and per-request
    // figures they come from. The defaults are AWS Fargate's on-demand list
    // prices for Linux/x86 in US East (N. Virginia), per vCPU-hour and per
    // GB-hour of memory (https://aws.amazon.com/fargate/pricing/, read
    // 2026-03): a public price that bills CPU and memory apart. They are list
    // prices, not your bill: set what a core-hour costs you (a node's price
    // divided by its cores, after discounts), e.g. `costPerCoreHour: 0.031611`
    // for GCP N2 in us-central1. 0 turns money off everywhere: no cost series,
    // no money columns or panels, no money line in messages.
    costPerCoreHour: 0.04048,

    // The price of a GiB of memory for an hour; 0 leaves memory out (the
    // money is then CPU only, as the alerts' always is: an efficiency change
    // is a change of CPU). Example: `costPerGiBHour: 0.004237` (GCP N2).
    costPerGiBHour: 0.004445,

    // The ISO 4217 code the prices are in; dashboards and messages format
    // money with it (USD shows as $, EUR as €). Example: `currency: 'EUR'`.
    currency: 'USD',

    // The resident memory of a service's processes, summed per service, that
    // costPerGiBHour prices. Change it for a runtime that exports another
    // gauge, e.g. `'jvm_memory_used_bytes'` with `memorySelector: 'area="heap"'`.
    memoryMetric: 'process_resident_memory_bytes',
    memorySelector: '',

    // ---- Dashboards -----------------------------------------------------------

    // Tags, uids and the default time range of the generated dashboards. Change
    // the uids only if they collide with dashboards you already have: alerts link
    // to them.
    dashboardTags: ['hotpath'],
    dashboardUIDs: {
      overview: 'hotpath-overview',
      service: 'hotpath-service',
      throttling: 'hotpath-throttling',
    },

    // The time range and refresh a dashboard opens with. 3h shows an incident
    // and the hour before it; widen it (e.g. 'now-24h') to see the nightly low
    // the cost model accounts for.
    dashboardTimeFrom: 'now-3h',
    dashboardRefresh: '1m',

    // Names of the dashboards' datasource variables. They appear in URLs
    // (`var-datasource=...`); change them to match dashboards you link from,
    // e.g. `prometheusDatasourceVariable: 'prometheus'`. The service, cluster and
    // namespace variables are named after their labels (serviceLabel, ...), so an
    // alert can link with `var-<label>={{ $labels.<label> }}`.
    prometheusDatasourceVariable: 'datasource',
    profilesDatasourceVariable: 'profiles',

    // The Pyroscope profile the service dashboard shows, as a profile type id
    // (`<name>:<sample type>:<sample unit>:<period type>:<period unit>`). The
    // default is the CPU profile of the Go SDK and of Alloy's pprof scraping.
    // Change it when your profiler sends another type: copy the id Grafana's
    // Pyroscope query editor shows, e.g. 'wall:wall:nanoseconds:wall:nanoseconds'.
    profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
    // The allocation profile next to the allocation panels ("what allocates"):
    // bytes allocated, as Go's alloc_space. Set it to
    // 'memory:alloc_objects:count:space:bytes' to count objects instead.
    allocProfileTypeId: 'memory:alloc_space:bytes:space:bytes',

    // How a service's profiles are found in Pyroscope, as a label selector.
    // `%(serviceLabel)s` and the other knobs are substituted, so `$%(serviceLabel)s`
    // is the dashboard's service variable. Change it when your profiles name the
    // service differently, e.g. '{service_name="$%(namespaceLabel)s/$%(serviceLabel)s"}'
    // for Alloy's Kubernetes discovery, or '{app="$%(serviceLabel)s"}'.
    profileLabelSelector: '{service_name="$%(serviceLabel)s"}',

    // Go runtime series the dashboards read (client_golang's Go collector); the
    // GOMAXPROCS gauge needs client_golang >= 1.12 (absent: that panel is empty).
    // Change them for another runtime, e.g. `gcDurationMetric: 'jvm_gc_pause_seconds'`.
    gcDurationMetric: 'go_gc_duration_seconds',
    heapMetric: 'go_memstats_heap_inuse_bytes',
    gomaxprocsMetric: 'go_sched_gomaxprocs_threads',

    // How many rows the "top" tables, movers and fleet heatmaps show. Raise it on
    // a large fleet with a tall screen, e.g. 25.
    dashboardTopN: 10,

    // ---- Kubernetes bundle (deploy/kubernetes) --------------------------------
    // `make generate` renders deploy/kubernetes/ from these knobs and the ones
    // above: the PrometheusRule and AlertmanagerConfig for prometheus-operator,
    // the dashboards for Grafana's sidecar and for grafana-operator, and
    // hotpath-notify (Deployment, PersistentVolumeClaim, Service, NetworkPolicy,
    // Ingress); deploy/alertmanager/ the routing for Alertmanager itself.
    kubernetes: {
      // Where the PrometheusRule, the AlertmanagerConfig and hotpath-notify go.
      // The AlertmanagerConfig's webhook URL names it
      // (http://hotpath-notify.<namespace>.svc:9095/webhook). Change it to keep
      // hotpath with your other monitoring, e.g. `namespace: 'monitoring'`.
      namespace: 'hotpath',

      // Where the dashboard ConfigMaps and GrafanaDashboards go: Grafana's own
      // namespace, because kube-prometheus-stack's dashboard sidecar looks only
      // there unless its `searchNamespace` is ALL. Example: 'grafana'.
      grafanaNamespace: 'monitoring',

      // Labels every manifest carries, e.g. to select the bundle with kubectl
      // (`kubectl get all -l app.kubernetes.io/part-of=hotpath -A`).
      commonLabels: { 'app.kubernetes.io/part-of': 'hotpath' },

      // Labels that prometheus-operator's ruleSelector picks the PrometheusRule
      // by. kube-prometheus-stack selects `release: <its Helm release name>`
      // unless ruleSelectorNilUsesHelmValues is false; set your release's name,
      // e.g. `{ release: 'prometheus' }`, or {} when your ruleSelector is empty.
      ruleLabels: { release: 'kube-prometheus-stack' },

      // Labels that the Alertmanager's alertmanagerConfigSelector picks the
      // AlertmanagerConfig by. kube-prometheus-stack's is empty by default and
      // picks every AlertmanagerConfig in every namespace; set the labels your
      // selector wants, e.g. `{ alertmanagerConfig: 'enabled' }`.
      alertmanagerConfigLabels: {},

      // The label (and value) that kube-prometheus-stack's Grafana sidecar finds
      // dashboard ConfigMaps by (its `sidecar.dashboards.label` and `labelValue`).
      // Change it to match a sidecar configured otherwise, e.g.
      // `{ grafana_dashboard: 'hotpath' }`.
      dashboardSidecarLabels: { grafana_dashboard: '1' },

      // The Grafana folder the dashboards land in: an annotation on the
      // ConfigMaps (the sidecar reads it when its `folderAnnotation` names
      // dashboardFolderAnnotation; deploy/grafana's values set that) and the
      // folder of the GrafanaDashboards. Example: `dashboardFolder: 'SRE / CPU'`;
      // `dashboardFolderAnnotation: 'k8s-sidecar-target-directory'` for a
      // sidecar configured with that annotation already.
      dashboardFolder: 'hotpath',
      dashboardFolderAnnotation: 'grafana_folder',

      // Which Grafana instances of grafana-operator import the GrafanaDashboards
      // (their instanceSelector); label your Grafana resource with it. Example:
      // `{ matchLabels: { team: 'platform' } }`.
      grafanaInstanceSelector: { matchLabels: { dashboards: 'grafana' } },

      // Pyroscope's URL from inside the cluster: hotpath-notify queries it and
      // the Grafana snippets add it as a datasource. Example for Pyroscope's
      // Helm chart in microservices mode, namespace pyroscope:
      // 'http://pyroscope-query-frontend.pyroscope.svc:4040'.
      pyroscopeURL: 'http://pyroscope.pyroscope.svc:4040',

      // Prometheus's URL from inside the cluster (or Thanos Query's): with it
      // hotpath-notify finds where an incident started in the alert's own
      // recorded series and gives each change per request; empty leaves the
      // receiver on windows from the alert's times, marked approximate in
      // every message. Example for kube-prometheus-stack released as `kps`
      // in namespace monitoring: 'http://kps-prometheus.monitoring.svc:9090'.
      prometheusURL: 'http://prometheus-operated.monitoring.svc:9090',

      // Grafana's side (deploy/grafana: values for Grafana's Helm chart and
      // kube-prometheus-stack, and a Grafana resource for grafana-operator).
      grafana: {
        // Where Grafana downloads the panel plugin's zip (`make plugin` builds
        // plugin/hotpath-overlay-panel-<version>.zip); the version is the
        // plugin's own. Point it at your artifact store when Grafana cannot
        // reach GitHub, e.g.
        // 'https://artifacts.example.com/hotpath-overlay-panel-0.2.0.zip'.
        pluginZipURL: 'https://github.com/hotpath/hotpath/releases/download/v%(version)s/hotpath-overlay-panel-%(version)s.zip',

        // The Pyroscope datasource the snippets add. The dashboards pick
        // profiles through their `profiles` variable, so the name is free;
        // keep the uid stable if you link to Explore with it. Example:
        // `pyroscopeDatasource: { name: 'Profiles', uid: 'profiles' }`.
        pyroscopeDatasource: { name: 'Pyroscope', uid: 'pyroscope' },
      },

      // hotpath-notify, the Alertmanager receiver (notify/README.md).
      notify: {
        // The image built from deploy/notify/Dockerfile. Pin your registry's
        // copy by digest, e.g. 'registry.example.com/hotpath-notify@sha256:...'.
        image: 'ghcr.io/hotpath/hotpath-notify:0.2.0',

        // Keep one (or 0 to stop it): the receiver keeps its journal and what
        // it announced on its claim (see stateVolumeSize), which one pod at a
        // time may mount, so a second replica would only wait for the first. Its
        // queue keeps one busy replica from blocking Alertmanager
        // (notify/README.md).
        replicas: 1,

        // The port it listens on, and the Service's. Change it only if 9095
        // is taken by policy, e.g. 8080.
        port: 9095,

        // How Slack's image fetcher reaches the receiver: the diff pictures'
        // links start with it. The Ingress routes only /images/ of this host to
        // the receiver; empty renders no Ingress (messages then carry no
        // fetchable picture). Example: 'https://hotpath-notify.example.com'.
        publicURL: 'https://hotpath-notify.example.com',
        // The IngressClass of the Ingress, and the namespace of its controller
        // (the NetworkPolicy lets only that controller's pods fetch images).
        // Example for ingress-nginx: 'nginx' and 'ingress-nginx'.
        ingressClassName: 'nginx',
        ingressControllerNamespace: 'ingress-nginx',
        // The TLS Secret of an https publicURL's host, in the receiver's
        // namespace. Nothing in the bundle creates it: cert-manager does when
        // certManagerIssuer is set, or you do (`kubectl create secret tls`).
        // Without it the ingress controller serves its own default certificate,
        // which Slack's image fetcher refuses: messages arrive without their
        // picture. Example: 'wildcard-example-com'.
        ingressTLSSecretName: 'hotpath-notify-tls',
        // The cert-manager issuer that fills ingressTLSSecretName: the Ingress
        // gets `cert-manager.io/cluster-issuer: <name>` (kind ClusterIssuer) or
        // `cert-manager.io/issuer: <name>` (kind Issuer, in the receiver's
        // namespace), and cert-manager's ingress-shim requests the certificate
        // for publicURL's host. Empty name: no annotation (bring the Secret
        // yourself). Example: `{ kind: 'ClusterIssuer', name: 'letsencrypt-prod' }`.
        certManagerIssuer: { kind: 'ClusterIssuer', name: '' },

        // The Secret (created by you, never rendered) that holds the bearer
        // token Alertmanager sends (key `token`) and the Slack incoming webhook
        // URL (key `slack-webhook-url`; optional: without it messages go only
        // to the out-dir). Change it to follow your Secret naming, e.g.
        // 'hotpath-notify-credentials' (the AlertmanagerConfig reads the
        // token from the same Secret, in the same namespace).
        secretName: 'hotpath-notify',

        // The Alertmanager pods allowed to post to the webhook: their namespace
        // and their labels (kube-prometheus-stack's, for an Alertmanager named
        // alertmanager in namespace monitoring). Example for another release:
        // `alertmanagerPodLabels: { 'alertmanager': 'main' }`.
        alertmanagerNamespace: 'monitoring',
        alertmanagerPodLabels: { 'app.kubernetes.io/name': 'alertmanager' },

        // The name of your prometheus-operator `Alertmanager` resource (in
        // alertmanagerNamespace): deploy/alertmanager's snippet is a merge patch
        // for it that sets the matcher strategy the AlertmanagerConfig needs.
        // kube-prometheus names it main; kube-prometheus-stack sets the same
        // fields through its values instead. Example: 'alertmanager'.
        alertmanagerName: 'main',

        // The largest webhook Alertmanager may send; it truncates at this and
        // says how many it dropped. The receiver queues up to 1000 alerts on
        // disk (queueMax in notify/lib/notifier.mjs) and refuses the rest with
        // a 503 so Alertmanager sends them again. Lower it to bound a storm's
        // renders, e.g. 50; keep it within the receiver's queue.
        maxAlerts: 200,

        // One render is one headless Chromium (about 300 MB and a core for a
        // few seconds); the receiver renders --concurrency (2) at once. Raise the
        // limits with the concurrency, e.g. `concurrency: 4` and 2Gi.
        concurrency: 2,
        resources: {
          requests: { cpu: '250m', memory: '512Mi' },
          limits: { memory: '1536Mi' },
        },

        // The size of the receiver's PersistentVolumeClaim `hotpath-notify`:
        // the journal (accepted alerts not yet delivered, Slack deliveries
        // waiting for a retry, what was announced), messages.jsonl and each
        // alert's folder (message and picture, a few hundred KB, removed after
        // the receiver's --retention of 14 days). 2Gi holds thousands of
        // alerts. Raise it for a noisy fleet, e.g. '10Gi'; a bound claim grows
        // only where its StorageClass allows volume expansion.
        stateVolumeSize: '2Gi',

        // The claim's StorageClass. null leaves it to the cluster's default
        // class; '' asks for a pre-provisioned volume with no class. A claim's
        // class cannot change once it is bound (delete the claim to move, and
        // its state with it). Example: 'gp3' on EKS, 'premium-rwo' on GKE.
        stateStorageClassName: null,

        // How the claim may be mounted. ReadWriteOncePod (Kubernetes 1.29+,
        // CSI volumes) lets one pod use it, cluster-wide: a second receiver
        // waits Pending until the first is gone, during a rollout (the new pod
        // is created while the old one shuts down) and while an evicted or
        // drained pod is still shutting down. Use 'ReadWriteOnce' only where
        // the volume plugin is not CSI: one node at a time, not one pod, so a
        // new pod on the same node can start beside the old one for the old
        // one's shutdown (up to 60s).
        stateAccessMode: 'ReadWriteOncePod',
      },
    },
  },
}
