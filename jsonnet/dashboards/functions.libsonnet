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
  // Three lines: the smoothed cost per request, the 5m ratio it smooths,
  // and what the function's own model predicts per request at the current
  // traffic (it exists once the function's row is 6h old: before that the
  // panel shows the first two).
  local named(title, unit, what, value, rate, predicted) = p.timeseries(
    title,
    unit,
    'The function in the variable `function` (the link of a function alert sets it): its %s per request, the median of the last %s (solid), the 5m ratio it smooths (dashed: a step is a change, a wobble noise), and what its own cost model predicts per request at the current traffic (dotted: fixed + marginal per request, fitted on %s of its history as it was %s earlier; at night its fixed part weighs more per request; where the whole profile grew past what the models of its functions predict, grown with it). The alert fires when the function costs more than that line by more than its own noise and %s of the service (docs/runbook.md). Empty: no function picked, or no hotpath-profile-metrics rows for this service.' % [what, cfg.regressionResidualWindow, cfg.baselineWindow, cfg.regressionAcceptAfter, d.percent(cfg.functionRegressionMinShare)],
    [d.prom(value, 'now'), d.prom(rate, 'per 5m'), d.prom(predicted, 'its model')],
    min=0,
  ) + days + {
    fieldConfig+: { overrides+: [
      p.byRefId('B', { 'custom.lineStyle': { fill: 'dash', dash: [10, 10] } }),
      p.byRefId('C', { 'custom.lineStyle': { fill: 'dot', dash: [0, 10] } }),
    ] },
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
      named('The named function: CPU per request', 's', 'CPU seconds', q.cpuNamed, q.cpuNamedRate, q.cpuNamedPredicted),
      named('The named function: bytes allocated per request', 'bytes', 'allocated bytes', q.allocNamed, q.allocNamedRate, q.allocNamedPredicted),
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
