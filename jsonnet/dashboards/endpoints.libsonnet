// The service dashboard's endpoint panels: each endpoint's cost per request
// of its own route (lib/endpoint-costs.libsonnet) over days, the request mix,
// the split of the service's change between the endpoints and the mix, the
// share of the profile no endpoint label explains, and the endpoint an
// EndpointCostPerRequestRegression names (the `endpoint` variable, which that
// alert's dashboard link sets). A service without endpoint rows or per-route
// counters shows empty panels ("No data"): nothing else depends on them.
//
// Usage: local e = (import 'endpoints.libsonnet')(cfg, $.hotpathQueries.endpoints);
//        [...] + e.panels, d.variables(...) + [e.variable]
local dashboard = import '../lib/dashboard.libsonnet';
local p = import '../lib/panel.libsonnet';

function(cfg, q)
  local d = dashboard(cfg);
  // An endpoint's cost is judged against the day before: the panels look
  // back this far whatever the dashboard's range.
  local days = { timeFrom: '3d' };
  local named(title, unit, what, value, rate) = p.timeseries(
    title,
    unit,
    'The endpoint in the variable `endpoint` (the link of an endpoint alert sets it): its %s per request of its own route, the median of the last %s (solid), beside the 5m ratio it smooths (dashed). The alert judges it against the highest value of its day as it was %s earlier, and fires only when its rise adds %s to the whole service (docs/runbook.md). Empty: no endpoint picked, or no endpoint rows or per-route counter for it.' % [what, cfg.regressionResidualWindow, cfg.regressionAcceptAfter, d.percent(cfg.endpointRegressionMinShare)],
    [d.prom(value, 'now'), d.prom(rate, 'per 5m')],
    min=0,
  ) + days + {
    fieldConfig+: { overrides+: [p.byRefId('B', { 'custom.lineStyle': { fill: 'dash', dash: [10, 10] } })] },
  };
  {
    panels: [
      p.row('6. Which endpoint?'),
      p.timeseries(
        'Endpoints: CPU per request (top %d)' % cfg.dashboardTopN,
        's',
        "CPU seconds per request of each of the service's %d costliest routes, over that route's own requests (hotpath-profile-metrics' endpoint rows over the per-route counters), over three days. One route stepping up is that route's code; the service's average can hide it when traffic moves to a cheaper route. Empty: no endpoint labels in the profiles, or no per-route request counter (endpointRequestSources)." % cfg.dashboardTopN,
        [d.prom(q.cpuTop, '{{endpoint}}')],
        min=0,
      ) + days,
      p.timeseries(
        'Endpoints: the request mix',
        'percentunit',
        "Each route's share of the service's requests, over three days. A share that moves changes the service's CPU per request with no code changed: a cheap route that grows lowers it, an expensive one raises it.",
        [d.prom(q.mix, '{{endpoint}}')],
        min=0,
      ) + days,
      p.timeseries(
        'Endpoints or mix?',
        's',
        "The endpoints' CPU per request together (their cost over their requests), beside what the current mix would cost with each endpoint at its reference cost (dashed). Apart: the endpoints' own code changed. Together while the service's CPU per request moves: the mix did. Right axis: the share of the CPU profile that carries no endpoint label; the larger it is, the more of the service the endpoint panels leave out.",
        [d.prom(q.endpointsCpu, 'endpoints'), d.prom(q.endpointsCpuAtReference, 'same mix, reference costs'), d.prom(q.unlabelledCpu, 'unlabelled share')],
        min=0,
      ) + days + {
        fieldConfig+: { overrides+: [
          p.byRefId('B', { 'custom.lineStyle': { fill: 'dash', dash: [10, 10] } }),
          p.byRefId('C', { unit: 'percentunit', 'custom.axisPlacement': 'right', max: 1 }),
        ] },
      },
      p.timeseries(
        'Endpoints: bytes allocated per request (top %d)' % cfg.dashboardTopN,
        'bytes',
        "Bytes allocated per request of each of the service's %d most allocating routes, over that route's own requests, over three days." % cfg.dashboardTopN,
        [d.prom(q.allocTop, '{{endpoint}}')],
        min=0,
      ) + days,
      named('The named endpoint: CPU per request', 's', 'CPU seconds', q.cpuNamed, q.cpuNamedRate),
      named('The named endpoint: bytes allocated per request', 'bytes', 'allocated bytes', q.allocNamed, q.allocNamedRate),
    ],
    // One endpoint of the picked service, none by default; an endpoint
    // alert's link picks its endpoint.
    variable: {
      name: 'endpoint',
      label: 'endpoint',
      type: 'query',
      datasource: d.promDs,
      query: { query: q.endpoints, refId: 'PrometheusVariableQueryEditor-VariableQuery', qryType: 1 },
      definition: q.endpoints,
      refresh: 2,
      sort: 1,
      hide: 0,
      regex: '',
      multi: false,
      includeAll: false,
      current: {},
      options: [],
    },
  }
