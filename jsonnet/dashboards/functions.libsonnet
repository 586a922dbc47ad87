// The service dashboard's function panels: each function's cost per request
// from hotpath-profile-metrics' rows (lib/function-costs.libsonnet), the top
// functions over days, and the one a FunctionCostPerRequestRegression names
// (the `function` variable, which that alert's dashboard link sets). A service
// without the bridge's rows shows empty panels ("No data") and an empty
// variable: nothing in the rest of the dashboard depends on them.
//
// Usage: local f = (import 'functions.libsonnet')(cfg, $.hotpathQueries.functions);
//        [...] + f.panels, d.variables(...) + [f.variable]
local dashboard = import '../lib/dashboard.libsonnet';
local p = import '../lib/panel.libsonnet';

function(cfg, q)
  local d = dashboard(cfg);
  // The panels look back this far whatever the dashboard's range: a
  // function's cost is judged against the day before.
  local days = { timeFrom: '3d' };
  // Two lines only: the reference and threshold the alert reads exist once
  // a function has regressionNoiseMinHistory of samples (a young cluster's
  // panel would look broken); the day's median exists within the hour.
  local named(title, unit, what, value, median) = p.timeseries(
    title,
    unit,
    "The function in the variable `function` (the link of a function alert sets it): its %s per request, the median of the last %s (solid), beside the 5m ratio it smooths (dashed, over %s of history: a step is a change, a wobble noise). The alert judges it against its median over a day as it was %s earlier, plus its noise, and fires only when it rose by %s of the service's whole cost per request too (docs/runbook.md). Empty: no function picked, or no hotpath-profile-metrics rows for this service." % [what, cfg.regressionResidualWindow, cfg.baselineWindow, cfg.regressionAcceptAfter, d.percent(cfg.functionRegressionMinShare)],
    [d.prom(value, 'now'), d.prom(median, 'per 5m')],
    min=0,
  ) + days + {
    fieldConfig+: { overrides+: [p.byRefId('B', { 'custom.lineStyle': { fill: 'dash', dash: [10, 10] } })] },
  };
  {
    // At the end of the last row, "Where in the code?", after the flame graphs.
    panels: [
      p.timeseries(
        'Functions: CPU per request (top %d)' % cfg.dashboardTopN,
        's',
        "CPU seconds per request of the service's %d costliest functions, from hotpath-profile-metrics (runtime, libc and allocator time charged to the calling code), over three days. A function that steps up while the others stay flat is the regression; all of them rising together is the service, not one function. Empty: hotpath-profile-metrics is not scraped (or not with honor_labels) for this service." % cfg.dashboardTopN,
        [d.prom(q.cpuTop, '{{function}}')],
        min=0,
      ) + days,
      p.timeseries(
        'Functions: bytes allocated per request (top %d)' % cfg.dashboardTopN,
        'bytes',
        "Bytes allocated per request by the service's %d most allocating functions, from hotpath-profile-metrics, over three days. Empty: no allocation profiles for this service, or the bridge is not scraped." % cfg.dashboardTopN,
        [d.prom(q.allocTop, '{{function}}')],
        min=0,
      ) + days,
      named('The named function: CPU per request', 's', 'CPU seconds', q.cpuNamed, q.cpuNamedRate),
      named('The named function: bytes allocated per request', 'bytes', 'allocated bytes', q.allocNamed, q.allocNamedRate),
    ],
    // One function of the picked service, none by default (the panels above
    // then show "No data"); a function alert's link picks its function.
    variable: {
      name: 'function',
      label: 'function',
      type: 'query',
      datasource: d.promDs,
      query: { query: q.functions, refId: 'PrometheusVariableQueryEditor-VariableQuery', qryType: 1 },
      definition: q.functions,
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
