// Each endpoint's cost per request of that endpoint: the bridge's endpoint
// counters (hotpath-profile-metrics; labels: the service label and
// `endpoint`; the top endpoints of each service plus endpoint="other", the
// rest, and endpoint="unlabelled", the samples without an endpoint label)
// over the route's own request rate (endpointRequestSources) on the
// instances that were profiled, and the noise model
// EndpointCostPerRequestRegression judges them by.
//
// Why per endpoint: a service that serves a cheap and an expensive route can
// hold its CPU per request flat while the expensive one doubles, hidden by a
// mix that moved toward the cheap one; and a mix that moves alone changes the
// service's CPU per request with no code changed. An endpoint's cost over its
// own requests moves with neither: the alert fires on one route's code, never
// on the mix. `other` (its members change with the mix) and `unlabelled` are
// never judged: neither has a request count of its own.
//
// Route names: both sides are normalised to one template, the route label
// here by endpointRoutePattern in a label_replace, the profile's label
// values by the same pattern in the bridge (the profile core's
// ROUTE_PATTERN), so `GET /search/` in a span name and `/search` in a
// counter are one endpoint. Every endpoint starts with `/`; the bridge's
// rows that are no endpoint never do.
//
// The join: the bridge names a service by its service label only, and a
// scrape adds its own target labels, so both sides are summed by the service
// label and the endpoint before dividing (as lib/function-costs.libsonnet
// does).
//
// Profiled instances: a profile holds the cost of the instances it was taken
// on, which need not be all of a service's (a profiler on some nodes, a
// canary, sampling). The bridge counts each profile type's cost by instance
// (profileInstanceLabel in the profile, exported under instanceLabel), and a
// route's requests are summed over the instances with cost in the rate
// window only, per profile type; a service without such rows (profiles
// without the label) is counted on all its instances.
//
// Restarts: an instance whose request counter restarted (a reset, or a new
// instance) within endpointWarmUp and the rate window is left out, its
// requests and its share of the profile's cost (the bridge's instance rows);
// a service without instance rows has no cost per request meanwhile. A
// restart reads as every route costing more per request at once: the
// counter loses the requests served since its last scrape while the profile
// keeps their cost, and the new process runs slower while it warms up.
// Counted, each restart lifted every endpoint's smoothed cost per request by
// half for a quarter of an hour in the endpoint benchmark, and the day's
// ceiling, sampled every regressionNoiseInterval, caught such a peak at a
// random phase or not at all (a young endpoint's none): restarts, not the
// traffic mix, were its false alarms.
//
// The noise model is the function rows' (lib/bridge-rows.libsonnet around the
// service regressions' lagged reference): the smoothed cost per request,
// sampled every regressionNoiseInterval, has a median and a ceiling (its
// highest value plus regressionNoiseK spreads) over baselineWindow, read as
// recorded regressionAcceptAfter ago. The ceiling rather than median + k *
// spread: a route's cost per request rises at night as a service's does
// (fixed work in the handler spread over fewer requests); the day's own
// highest value has seen that night.
local durations = import 'durations.libsonnet';
local series = import 'series.libsonnet';

function(cfg) {
  local p = (import 'promql.libsonnet')(cfg),
  local cm = (import 'baseline-model.libsonnet')(cfg),
  local ep = [cfg.serviceLabel, 'endpoint'],
  local ekey = p.list(ep),
  local skey = cfg.serviceLabel,
  local rn = (import 'bridge-rows.libsonnet')(cfg, ep),

  // The two costs, each with the profile type its counter is read from (the
  // alert's `profile_type` label: the profile hotpath-notify diffs).
  kinds:: {
    cpu: {
      profileType: 'cpu',
      unit: 'seconds',
      countedShare: series.endpointCpuCountedShare,
      counter: cfg.endpointCpuMetric,
      instances: cfg.endpointInstanceCpuMetric,
      requests: series.endpointCpuProfiledRequests,
      rate: series.endpointCpu,
      perRequest: series.endpointCpuPerRequest,
      smoothed: series.endpointCpuPerRequestSmoothed,
      sampled: series.endpointCpuPerRequestSampled,
      median: series.endpointCpuPerRequestMedian,
      ceiling: series.endpointCpuPerRequestCeiling,
      reference: series.endpointCpuPerRequestReference,
      threshold: series.endpointCpuPerRequestThreshold,
      unlabelledShare: series.cpuUnlabelledShare,
      mix: series.endpointsCpuPerRequest,
      mixAtReference: series.endpointsCpuPerRequestAtReference,
    },
    alloc: {
      profileType: 'alloc_space',
      unit: 'bytes',
      countedShare: series.endpointAllocCountedShare,
      counter: cfg.endpointAllocMetric,
      instances: cfg.endpointInstanceAllocMetric,
      requests: series.endpointAllocProfiledRequests,
      rate: series.endpointAlloc,
      perRequest: series.endpointAllocPerRequest,
      smoothed: series.endpointAllocPerRequestSmoothed,
      sampled: series.endpointAllocPerRequestSampled,
      median: series.endpointAllocPerRequestMedian,
      ceiling: series.endpointAllocPerRequestCeiling,
      reference: series.endpointAllocPerRequestReference,
      threshold: series.endpointAllocPerRequestThreshold,
      unlabelledShare: series.allocUnlabelledShare,
      mix: series.endpointsAllocPerRequest,
      mixAtReference: series.endpointsAllocPerRequestAtReference,
    },
  },

  // The bridge's rows that are endpoints (a normalised route starts with
  // `/`; `other` and `unlabelled` do not).
  local routes(s) = '%s{endpoint=~"/.*"}' % s,

  // Each source with its defaults filled in, its route labels a list.
  sources:: [
    { selector: '', serviceLabel: cfg.serviceLabel } + s + {
      routeLabels: if std.isArray(s.routeLabel) then s.routeLabel else [s.routeLabel],
    }
    for s in cfg.endpointRequestSources
  ],

  local inst = [skey, cfg.instanceLabel],

  // One source's request rate by scope, service, instance and endpoint: its
  // series without a route dropped (a 404 has none in OpenTelemetry), its
  // route labels joined with `/`, normalised into `endpoint`.
  local sourceRate(src) =
    local rate = p.asService(src, p.rate(src.metric, [src.selector] + ['%s!=""' % l for l in src.routeLabels]));
    local joined =
      if std.length(src.routeLabels) == 1 then { expr: rate, from: src.routeLabels[0] }
      else { expr: 'label_join(%s, "endpoint", "/", %s)' % [rate, std.join(', ', ['"%s"' % l for l in src.routeLabels])], from: 'endpoint' };
    p.sumBy(p.service + [cfg.instanceLabel, 'endpoint'], 'label_replace(%s, "endpoint", "/$1", "%s", "%s")' % [joined.expr, joined.from, std.strReplace(cfg.endpointRoutePattern, '\\', '\\\\')]),

  // How far back a restart of an instance's request counter keeps it out.
  local restartLookback = durations.format(durations.seconds(cfg.endpointWarmUp) + durations.seconds(cfg.rateWindow)),

  // One source's instances whose route counters restarted within
  // restartLookback: a counter reset, or no counter restartLookback ago.
  local sourceRestarts(src) =
    local sel(offset='') = p.asService(src, p.selector(src.metric, [src.selector] + ['%s!=""' % l for l in src.routeLabels]) + offset);
    local by = p.list(p.instance);
    std.rstripChars(|||
      group by (%(by)s) (resets(%(counter)s[%(lookback)s]) > 0)
      or
      (
        group by (%(by)s) (%(counter)s)
        unless
        group by (%(by)s) (%(before)s)
      )
    ||| % { by: by, counter: sel(), before: sel(' offset ' + restartLookback), lookback: restartLookback }, '\n'),

  // Recorded every evaluationInterval (group hotpath-endpoints).
  requests:: [
    {
      // Requests per second per instance and endpoint, each service's
      // routes from the first source (endpointRequestSources) that has the
      // service.
      record: series.endpointInstanceRequests,
      expr: std.join('\nor on (%s)\n' % p.list(p.service), [sourceRate(src) for src in $.sources]),
    },
    {
      // The same per endpoint, over all the service's instances.
      record: series.endpointRequests,
      expr: p.sumBy(p.service + ['endpoint'], series.endpointInstanceRequests),
    },
    {
      // 1 for each instance whose route counters restarted (a reset, or a
      // new instance) within endpointWarmUp and the rate window: it is left
      // out of its service's endpoint costs meanwhile.
      record: series.routeRequestsRestarted,
      expr: std.join('\nor\n', [sourceRestarts(src) for src in $.sources]),
    },
  ],

  // The instances each service's endpoint costs of k are counted on: those
  // whose profile of k had samples in the rate window (the bridge's instance
  // rows) and whose route counters did not restart lately; and the services
  // that have instance rows.
  local instanceCost(k) = p.rate(k.instances, [cfg.profileMetricsSelector]),
  local counted(k) = '(sum by (%s) (%s) > 0)\nunless on (%s)\n%s' % [p.list(inst), instanceCost(k), p.list(inst), series.routeRequestsRestarted],
  local withInstanceRows(k) = 'sum by (%s) (%s)' % [skey, instanceCost(k)],

  // The route's request rate on the counted instances, by the bridge's key.
  local routeRequests(k) = 'sum by (%s) (%s)' % [ekey, k.requests],
  // A cost per request of each endpoint, weighed by its route's requests,
  // over the requests of the endpoints with a cost per request now.
  local weighedByRequests(k, cost) = 'sum by (%(s)s) (%(cost)s * on (%(e)s) %(req)s)\n/ on (%(s)s)\n(sum by (%(s)s) (%(req)s and on (%(e)s) %(pr)s) > 0)' % {
    s: skey,
    e: ekey,
    cost: cost,
    pr: k.perRequest,
    req: routeRequests(k),
  },

  // Recorded every evaluationInterval (group hotpath-endpoints).
  fast(k):: [
    {
      // Each route's requests per second on the counted instances: those
      // whose profile of this type the bridge read in the rate window, but
      // for an instance that restarted lately; on all of them for a service
      // without the bridge's instance rows.
      record: k.requests,
      expr: |||
        sum by (%(by)s) (
          %(byInstance)s
          and on (%(inst)s)
          (
            %(counted)s
          )
        )
        or
        (
          %(all)s
          unless on (%(skey)s)
          %(rows)s
        )
      ||| % {
        by: p.list(p.service + ['endpoint']),
        byInstance: series.endpointInstanceRequests,
        inst: p.list(inst),
        counted: std.strReplace(counted(k), '\n', '\n    '),
        all: series.endpointRequests,
        rows: withInstanceRows(k),
        skey: skey,
      },
    },
    {
      // The share of the service's profile of this type that comes from the
      // counted instances (none while it is 0); for a service without the
      // bridge's instance rows, 1 while none of its instances restarted
      // lately, none otherwise: what the endpoints' costs are scaled by.
      record: k.countedShare,
      expr: |||
        sum by (%(skey)s) (
          %(cost)s
          and on (%(inst)s)
          (
            %(counted)s
          )
        )
        / on (%(skey)s)
        (%(rows)s > 0)
        > 0
        or
        (
          group by (%(skey)s) (%(requests)s)
          unless on (%(skey)s)
          %(rows)s
          unless on (%(skey)s)
          %(restarted)s
        )
      ||| % {
        cost: instanceCost(k),
        inst: p.list(inst),
        counted: std.strReplace(counted(k), '\n', '\n    '),
        rows: withInstanceRows(k),
        requests: series.endpointRequests,
        restarted: series.routeRequestsRestarted,
        skey: skey,
      },
    },
    {
      // The endpoint's cost per second (cores; bytes/s), its rows summed
      // over the bridge's instances and target labels.
      record: k.rate,
      expr: 'sum by (%s) (%s)' % [ekey, p.rate(k.counter, [cfg.profileMetricsSelector])],
    },
    {
      // The same per request of that route on the counted instances: the
      // endpoint's cost times the counted instances' share of the profile,
      // over their requests of the route; none for a row without requests of
      // its own (`other`, `unlabelled`, a route no counter has), nor while
      // the service has no counted share.
      record: k.perRequest,
      expr: '%s\n* on (%s) group_left ()\n%s\n/ on (%s)\n(%s > 0)' % [k.rate, skey, k.countedShare, ekey, routeRequests(k)],
    },
    {
      // Its median over regressionResidualWindow: what the alert compares,
      // blind to a warm-up or a blip that raises fewer than half the minutes.
      record: k.smoothed,
      expr: 'quantile_over_time(0.5, %s[%s])' % [k.perRequest, cfg.regressionResidualWindow],
    },
    {
      // The share of the service's profile that carries no endpoint label:
      // what no endpoint explains. None while the profile is empty.
      record: k.unlabelledShare,
      expr: 'sum by (%s) (%s{endpoint="unlabelled"})\n/ on (%s)\n(sum by (%s) (%s) > 0)' % [skey, k.rate, skey, skey, k.rate],
    },
    {
      // The endpoints' cost per request together: each one's cost per
      // request weighed by its requests (on the counted instances), over
      // their requests. It moves with the mix.
      record: k.mix,
      expr: weighedByRequests(k, k.perRequest),
    },
    {
      // What it would be at the current mix with every endpoint at its
      // reference cost per request: it moves with the mix alone. The
      // endpoints' own change is the first over this. The same endpoints
      // as the first: an endpoint without a reference yet (a route new
      // within regressionNoiseMinHistory) at its current cost, so a new
      // route moves the mix and not the endpoints' own cost, and an
      // endpoint with no cost per request now (too few requests) in
      // neither.
      record: k.mixAtReference,
      expr: weighedByRequests(k, '(\n  (%(ref)s or on (%(e)s) %(pr)s)\n  and on (%(e)s)\n  %(pr)s\n)' % { ref: cm.lastOfNoise(k.reference), pr: k.perRequest, e: ekey }),
    },
  ],

  // Recorded every regressionNoiseInterval (group hotpath-endpoints-noise).
  noise(k):: [
    // A copy of the smoothed cost per request, the input of the day-long reads.
    cm.sampled(k.sampled, routes(k.smoothed)),
    {
      // Its median over baselineWindow.
      record: k.median,
      expr: cm.median(k.sampled),
    },
    {
      // Its ceiling: its highest value over baselineWindow plus
      // regressionNoiseK spreads (median minus lower quartile).
      record: k.ceiling,
      expr: rn.ceiling(k.sampled),
    },
    {
      // The reference: the median as recorded regressionAcceptAfter ago,
      // else the current median, for a younger endpoint.
      record: k.reference,
      expr: rn.laggedOrCurrent(k.sampled, function(read) read(k.median)),
    },
    {
      // The threshold: the ceiling as recorded regressionAcceptAfter ago;
      // for a younger endpoint, the ceiling of the day that ended
      // regressionResidualWindow ago (a maximum would take in the present
      // change at once and never let it fire).
      record: k.threshold,
      expr: rn.laggedOrCurrent(k.sampled, function(read) read(k.ceiling), rn.ceiling(k.sampled, ' offset ' + cfg.regressionResidualWindow)),
    },
  ],

  // The alert's condition for one cost: an endpoint's smoothed cost per
  // request above its threshold, and its rise over its reference, times the
  // route's request rate, at least endpointRegressionMinShare of its
  // service's whole cost (every row of the bridge), while the route serves
  // >= endpointMinRequestRate. The value is the rise over the reference;
  // labelled with the profile type.
  condition(k)::
    p.setLabel(|||
      (
        %(smoothed)s
        - on (%(ekey)s)
        %(reference)s
      )
      and on (%(ekey)s)
      (
        %(smoothed)s
        > on (%(ekey)s)
        %(threshold)s
      )
      and on (%(ekey)s)
      (
        (%(smoothed)s - on (%(ekey)s) %(reference)s)
        * on (%(ekey)s)
        %(requests)s
        >= on (%(skey)s) group_left ()
        %(share)s * sum by (%(skey)s) (%(rate)s)
      )
      and on (%(ekey)s)
      %(requests)s >= %(minRate)s
    ||| % {
      smoothed: routes(k.smoothed),
      reference: cm.lastOfNoise(k.reference),
      threshold: cm.lastOfNoise(k.threshold),
      requests: routeRequests(k),
      rate: k.rate,
      share: p.num(cfg.endpointRegressionMinShare),
      minRate: p.num(cfg.endpointMinRequestRate),
      ekey: ekey,
      skey: skey,
    }, 'profile_type', k.profileType),

  // What the panel, hotpath-notify and the bridge read of the endpoints
  // (catalogue/catalogue.json): the profile labels, the route template and
  // the label that names a service in the endpoint series; by profile type
  // an endpoint alert's `before` (its reference cost per request as of the
  // alert's start, {{at}}), `now` (its smoothed cost per request) and the
  // series whose onset the windows look for ({{selector}}: the alert's
  // service label and endpoint); and for any alert of a service ({{selector}}:
  // its service label) the mix series and each endpoint's `rise`, its rise
  // in cost per request times its requests (the change it adds to the
  // service).
  catalogue:: {
    profileLabels: cfg.endpointProfileLabels,
    routePattern: cfg.endpointRoutePattern,
    serviceLabel: cfg.serviceLabel,
    // the profile label of the instance a sample came from, and the label
    // the bridge's instance rows carry its values in
    profileInstanceLabel: cfg.profileInstanceLabel,
    instanceLabel: cfg.instanceLabel,
    costs: {
      [k.profileType]: {
        before: 'last_over_time(%s{{selector}}[%s] @ {{at}})' % [k.reference, cm.lastOfNoiseWindow],
        now: '%s{{selector}}' % k.smoothed,
        unit: k.unit,
        series: k.perRequest,
        unlabelledShare: k.unlabelledShare,
        mix: k.mix,
        mixAtReference: k.mixAtReference,
        // (`other` and `unlabelled` have no requests: the product drops them)
        rise: '(%(s)s{{selector}} - on (%(e)s) %(ref)s) * on (%(e)s) sum by (%(e)s) (%(req)s{{selector}})' % {
          s: k.smoothed,
          e: ekey,
          ref: cm.lastOfNoise(k.reference),
          req: k.requests,
        },
      }
      for k in std.objectValues($.kinds)
    },
  },

  withScope:: rn.withScope,
}
