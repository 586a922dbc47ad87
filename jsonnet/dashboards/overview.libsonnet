// hotpath-overview.json: the fleet at a glance. Which services burn the most
// CPU, which got less efficient, and where to click next: each table row
// opens the service dashboard for that service.
local dashboard = import '../lib/dashboard.libsonnet';
local p = import '../lib/panel.libsonnet';
local series = import '../lib/series.libsonnet';

{
  grafanaDashboards+:: {
    'hotpath-overview.json':
      local cfg = $._config;
      local q = $.hotpathQueries.overview;
      local d = dashboard(cfg);
      local prom = d.prom;
      local column = d.column;
      // The service's scope and name, without the separators of absent labels
      // (queries/common.libsonnet: withServiceName).
      local svc = '{{%s}}' % $.hotpathQueries.overview.serviceNameLabel;
      local money = (import 'money.libsonnet')(cfg, $.hotpathQueries.money);

      d.dashboard(
        'overview',
        'hotpath: fleet',
        'Every service: load, CPU, CPU per request against its own baseline and its upstreams, throttling and firing hotpath alerts. Click a service to investigate it.',
        [
          p.row('Fleet'),
          p.table(
            'Services by CPU',
            'One row per service, most CPU first. "vs baseline" is CPU against what its own cost model predicts at its current traffic (1× as usual, %s is a regression); "fixed share" is the part of CPU that does not scale with requests; "throttled" sums its containers\' CFS-throttled seconds per second; "vs upstream" is its highest CPU-per-request ratio to an upstream. Click a service name for its dashboard.' % d.times(cfg.cpuRegressionFactor),
            [
              column(q.requests),
              column(q.cpu),
              column(q.cpuPerRequest),
              column(q.vsBaseline),
              column(q.fixedShare),
              column(q.throttled),
              column(q.toUpstream),
              column(q.alerts),
            ] + money.fleetColumns,
            {
              A: { name: 'req/s', unit: 'reqps' },
              B: { name: 'CPU cores', unit: 'short' },
              C: { name: 'CPU/request', unit: 's' },
              D: { name: 'vs baseline', unit: 'suffix:×' },
              E: { name: 'fixed share', unit: 'percentunit' },
              F: { name: 'throttled', unit: 's' },
              G: { name: 'vs upstream', unit: 'suffix:×' },
              H: { name: 'alerts firing', unit: 'none' },
            } + money.fleetUnits,
            sortBy='CPU cores',
            h=12,
          ) {
            fieldConfig+: {
              overrides+: [{
                matcher: { id: 'byName', options: cfg.serviceLabel },
                properties: [{ id: 'links', value: [d.serviceLink('Investigate ${__data.fields.%s}' % cfg.serviceLabel)] }],
              }],
            },
          },

          p.row('Movers'),
          p.timeseries(
            'CPU vs baseline: top %d' % cfg.dashboardTopN,
            'suffix:×',
            'The services furthest above what their cost model predicts at their traffic, over time. A line that steps up and stays is a regression (CPUPerRequestRegression fires at %s for %s); a brief spike is a deploy or a restart.' % [d.times(cfg.cpuRegressionFactor), cfg.alertFor.CPUPerRequestRegression],
            [prom(q.topVsBaseline, svc)],
            w=8,
          ),
          p.timeseries(
            'CPU: top %d' % cfg.dashboardTopN,
            'short',
            'The services using the most CPU cores. High here is not wrong by itself: compare with their row in the table (CPU per request, vs baseline).',
            [prom(q.topCpu, svc)],
            w=8,
          ),
          p.timeseries(
            'CPU per request vs upstream: top %d' % cfg.dashboardTopN,
            'suffix:×',
            "The highest ratios of a service's CPU per request to an upstream's. A service far above the peers it streams from spends its CPU on its own work.",
            [prom(q.topToUpstream, svc + ' vs {{upstream}}')],
            w=8,
          ),
        ],
        d.variables(series.requests, multiService=true),
        [d.annotation('hotpath alerts', q.annotations)],
      ),
  },
}
