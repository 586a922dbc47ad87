// The catalogue: every hotpath alert and every playground incident, once.
// Everything else that needs these facts derives them from here (the Mimir
// mixin's derived-table style): the config's alertFor and alertSeverity
// defaults, the dashboards' alert lists and regexes, the alert links, and,
// through the generated catalogue/catalogue.json, hotpath-notify, the
// playground and its browser check. tools/lint-catalogue.mjs fails when one
// of them spells an alert name itself; docs/reference.md is generated from it.
//
// An alert:
//   name      the alertname label (public: routes and silences match it)
//   for       the default `for` (config knob alertFor)
//   severity  the default severity label (config knob alertSeverity)
//   identity  the labels that tell one firing apart, as a label set of
//             lib/promql.libsonnet: 'service' (scope + service label),
//             'instance' (+ instance label), 'upstream' (service + upstream),
//             'container' (scope + pod + container: cAdvisor's series carry
//             no service label, so such an alert reaches a service only
//             through its pod), 'function' (service + function; the alert's
//             profile_type label says which cost), 'endpoint' (service +
//             endpoint, a normalised route; likewise)
//   profile   the profile that shows its cause, as a sample type of the
//             Pyroscope profiles hotpath-notify reads ('cpu', 'alloc_space'),
//             or null where the cause is no code path (the CPU quota)
//   baseline  what the firing window is compared with: 'previous' (the same
//             service before), 'siblings' (the other instances at the same
//             time), 'dayEarlier' (the same window a day earlier: a fixed cost
//             can start hours before a fit that needs a traffic swing sees it,
//             so the alert's own series has no onset to split at; its message
//             leads with the fixed cost) or null (no profile to compare)
//   series    the recorded series (lib/series.libsonnet names) the alert
//             judges, where hotpath-notify looks for the incident's onset; of
//             several, the one the alert's expression names first, else the
//             first listed; [] for none
//   link      the dashboard its dashboard_url opens: 'service' or 'throttling'
//   costModel the cost model (lib/cost-models.libsonnet) it judges against,
//             'cpu' or 'alloc', or null; such an alert's resolve message says
//             whether the cost recovered or became the new normal, from the
//             queries the model gives (the generated `outcome`)
//
// An incident (the playground's services, demo/playground/world.go):
//   story     the name `make demo-incident NAME=` takes, in the order `make
//             demo` switches them on
//   service   the job the incident is switched on
//   alert     the alert it must fire (demo-test asserts it)
//   profile   the profile type its cause shows in, or null
//   culprit   a regex of the frames the incident adds, as the panel's diff
//             shows them, or null
//   answer    a regex of the code hotpath-notify's message must name first:
//             the culprit once runtime, libc and syscall time is charged to
//             the code that called it, or null
//   alsoAnswers  other alerts the incident's service fires whose messages
//             must name the same code (a regression that raises both
//             allocations and CPU per request)
//   driver    what the panel's diff headline must blame ('per request' or
//             'load'), or null when the check does not look at it
local series = import 'lib/series.libsonnet';

{
  alerts: [
    {
      name: 'CPUPerRequestRegression',
      'for': '15m',
      severity: 'warning',
      identity: 'service',
      profile: 'cpu',
      baseline: 'previous',
      link: 'service',
      series: [series.cpuPerRequest],
      costModel: 'cpu',
    },
    {
      name: 'CPUPerRequestAboveUpstream',
      'for': '15m',
      severity: 'warning',
      identity: 'upstream',
      profile: 'cpu',
      baseline: 'previous',
      link: 'service',
      series: [series.cpuPerRequestToUpstream],
      costModel: null,
    },
    {
      name: 'CPUPerRequestOutlier',
      'for': '15m',
      severity: 'warning',
      identity: 'instance',
      profile: 'cpu',
      baseline: 'siblings',
      link: 'service',
      series: [series.instanceCpuPerRequest],
      costModel: null,
    },
    {
      name: 'CPUNotTrackingLoad',
      'for': '15m',
      severity: 'warning',
      identity: 'service',
      profile: 'cpu',
      baseline: 'dayEarlier',
      link: 'service',
      series: [series.cpuLongFixedShare, series.cpuRecentFixedShare],
      costModel: null,
    },
    {
      name: 'CPUThrottlingSustained',
      'for': '15m',
      severity: 'warning',
      identity: 'container',
      profile: null,
      baseline: null,
      link: 'throttling',
      series: [],
      costModel: null,
    },
    {
      name: 'AllocationsPerRequestRegression',
      'for': '15m',
      severity: 'warning',
      identity: 'service',
      profile: 'alloc_space',
      baseline: 'previous',
      link: 'service',
      series: [series.allocPerRequest],
      costModel: 'alloc',
    },
    {
      // One alert for CPU and allocations: its profile_type label
      // (cpu, alloc_space) names the profile, `profile` the first.
      name: 'FunctionCostPerRequestRegression',
      'for': '15m',
      severity: 'warning',
      identity: 'function',
      profile: 'cpu',
      baseline: 'previous',
      link: 'service',
      series: [series.functionCpuPerRequest, series.functionAllocPerRequest],
      costModel: null,
    },
    {
      // One alert for CPU and allocations, as the function alert: its
      // profile_type label names the profile; the endpoint label the
      // route, whose profile label selects the endpoint's samples.
      name: 'EndpointCostPerRequestRegression',
      'for': '15m',
      severity: 'warning',
      identity: 'endpoint',
      profile: 'cpu',
      baseline: 'previous',
      link: 'service',
      series: [series.endpointCpuPerRequest, series.endpointAllocPerRequest],
      costModel: null,
    },
  ],

  incidents: [
    {
      story: 'println',
      service: 'api',
      alert: 'CPUPerRequestAboveUpstream',
      profile: 'cpu',
      // fmt printing a protobuf message through its text marshalling
      culprit: 'internal/encoding/text|prototext|protobuf|fmt\\.',
      // the load is unchanged: the cost per request grew
      driver: 'per request',
      answer: self.culprit,
      alsoAnswers: ['CPUPerRequestRegression'],
    },
    {
      story: 'epoll',
      service: 'poller',
      alert: 'CPUNotTrackingLoad',
      profile: 'cpu',
      culprit: 'EpollWait|epoll|Syscall6',
      driver: null,
      answer: '\\(\\*EventLoop\\)\\.Run$|unix\\.EpollWait$',
      alsoAnswers: ['CPUPerRequestRegression'],
    },
    {
      story: 'cfs',
      service: 'worker',
      alert: 'CPUThrottlingSustained',
      // throttling is a property of the cgroup's quota, not of a code path
      profile: null,
      culprit: null,
      driver: null,
      answer: null,
      alsoAnswers: [],
    },
    {
      story: 'gzip',
      service: 'gzipper',
      alert: 'AllocationsPerRequestRegression',
      profile: 'alloc_space',
      culprit: 'compress/flate',
      driver: null,
      answer: '^compress/(flate|gzip)\\.',
      alsoAnswers: ['CPUPerRequestRegression'],
    },
    {
      story: 'outlier',
      service: 'catalog',
      alert: 'CPUPerRequestOutlier',
      // one instance burns CPU hashing (demo/service/extracpu.go); the
      // service's profile merges its instances, so the hashing grows in it
      profile: 'cpu',
      culprit: 'sha256|burnCPU',
      driver: null,
      answer: '\\.burnCPU$|ExtraCPU|sha256\\.block',
      alsoAnswers: ['CPUPerRequestRegression'],
    },
  ],

  // ---- derived ----------------------------------------------------------------

  local cat = self,
  alertNames:: [a.name for a in cat.alerts],
  alert:: { [a.name]: a for a in cat.alerts },
  // Alerts whose series carry the service label, and those that reach a
  // service only through its pod.
  serviceAlerts:: [a.name for a in cat.alerts if a.identity != 'container'],
  podAlerts:: [a.name for a in cat.alerts if a.identity == 'container'],
  regex(names):: std.join('|', names),

  // The labels of an identity under a config (lib/promql.libsonnet's sets).
  labels(cfg, identity)::
    local p = (import 'lib/promql.libsonnet')(cfg);
    {
      service: p.service,
      instance: p.instance,
      upstream: p.service + ['upstream'],
      container: p.container,
      'function': p.service + ['function'],
      endpoint: p.service + ['endpoint'],
    }[identity],

  // Closed sets, checked so that a typo fails `make generate`, not a reader.
  local oneOf(what, v, set) = std.member(set, v) || error '%s: %s is not one of %s' % [what, std.toString(v), std.toString(set)],
  assert std.length(std.set(cat.alertNames)) == std.length(cat.alertNames) : 'catalogue: an alert is listed twice',
  assert std.all([
    oneOf(a.name + '.identity', a.identity, ['service', 'instance', 'upstream', 'container', 'function', 'endpoint'])
    && oneOf(a.name + '.profile', a.profile, ['cpu', 'alloc_space', null])
    && oneOf(a.name + '.baseline', a.baseline, ['previous', 'siblings', 'dayEarlier', null])
    && oneOf(a.name + '.link', a.link, ['service', 'throttling'])
    && oneOf(a.name + '.costModel', a.costModel, ['cpu', 'alloc', null])
    && ((a.profile == null) == (a.baseline == null) || error '%s: a baseline needs a profile and back' % a.name)
    for a in cat.alerts
  ]),
  assert std.all([
    oneOf(i.story + '.alert', i.alert, cat.alertNames)
    && (i.profile == cat.alert[i.alert].profile || error '%s: profile %s, its alert %s shows %s' % [i.story, i.profile, i.alert, cat.alert[i.alert].profile])
    && ((i.profile == null) == (i.culprit == null) || error '%s: a culprit needs a profile and back' % i.story)
    && oneOf(i.story + '.driver', i.driver, ['per request', 'load', null])
    && ((i.culprit == null) == (i.answer == null) || error '%s: an answer needs a culprit and back' % i.story)
    && std.all([oneOf(i.story + '.alsoAnswers', a, cat.alertNames) for a in i.alsoAnswers])
    for i in cat.incidents
  ]),

  // The generated catalogue/catalogue.json: the tables with each identity's
  // labels under `cfg` spelled out, for readers outside jsonnet.
  render(cfg):: {
    generated: 'from jsonnet/catalogue.libsonnet by `make generate`: do not edit',
    alerts: [
      a {
        labels: cat.labels(cfg, a.identity),
        // the labels its recorded series carry: the identity's, but the
        // profile bridge's series name a service by its service label only
        seriesLabels: if std.member(['function', 'endpoint'], a.identity) then [cfg.serviceLabel, a.identity] else cat.labels(cfg, a.identity),
        hasServiceLabel: a.identity != 'container',
        // the request rate beside its series (per-request units), at the
        // alert's level, and for a fixed cost the CPU it is a share of
        // (an endpoint's: its route's)
        requests: if a.series == [] then null else if a.identity == 'instance' then series.instanceRequests else if a.identity == 'endpoint' then series.endpointRequests else series.requests,
        cores: if a.baseline == 'dayEarlier' then series.cpu else null,
        // an alert on a container's quota: what its throttling answer reads
        throttling: if a.identity == 'container' then (import 'lib/throttling-answer.libsonnet')(cfg) else null,
        outcome: if a.costModel == null then null else
          local m = (import 'lib/cost-models.libsonnet')(cfg)[a.costModel];
          (import 'lib/baseline-model.libsonnet')(cfg).model(m).outcome(m.factor),
        // "the change" in cores at the current traffic, which the firing
        // message prices (lib/money.libsonnet), or null
        change: (import 'lib/money.libsonnet')(cfg).changeCores(a),
        // a function alert's cost per request before and now, by profile type
        functionCost: if a.identity == 'function' then (import 'lib/function-costs.libsonnet')(cfg).catalogue else null,
        // an endpoint alert's cost per request before and now, by profile type
        endpointCost: if a.identity == 'endpoint' then (import 'lib/endpoint-costs.libsonnet')(cfg).catalogue.costs else null,
      }
      for a in cat.alerts
    ],
    // the prices of the money line, null when money is off
    money: (import 'lib/money.libsonnet')(cfg).catalogue,
    incidents: cat.incidents,
    // the profile labels that name an endpoint, the route template both
    // sides are normalised to (the profile core's ROUTE_PATTERN), the label
    // that names a service in the endpoint series,
    // and the queries of the split of a service's change into its
    // endpoints and its mix, by profile type
    endpoints: (import 'lib/endpoint-costs.libsonnet')(cfg).catalogue,
  },
}
