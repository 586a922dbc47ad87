// hotpath-throttling.json: the fleet's CFS throttling (the cfs story). Which
// workloads their CPU limit throttles, how hard, whether they were even near
// the limit on average, and which services they belong to.
local dashboard = import '../lib/dashboard.libsonnet';
local p = import '../lib/panel.libsonnet';
local series = import '../lib/series.libsonnet';

{
  grafanaDashboards+:: {
    'hotpath-throttling.json':
      local cfg = $._config;
      local q = $.hotpathQueries.throttling;
      local d = dashboard(cfg);
      local prom = d.prom;
      local column = d.column;
      local ns = '{{%s}}' % cfg.namespaceLabel;
      local container = '%s/{{%s}}/{{%s}}' % [ns, cfg.podLabel, cfg.containerLabel];
      local top = cfg.dashboardTopN;

      d.dashboard(
        'throttling',
        'hotpath: CFS throttling',
        'CFS throttling across the fleet: throttled seconds, not just throttled periods, and CPU usage against the limit. Containers without a CPU limit have no CFS series and do not appear.',
        [
          p.row('Who is throttled?'),
          p.heatmap(
            'Throttled seconds per workload: top %d' % top,
            's',
            "One row per workload (its pods' name without the ReplicaSet hash or StatefulSet ordinal), colour = seconds per second its most throttled pod was held back by its CPU limit. A row that lights up 1-3 s/s is CFS throttling at work: latency up while CPU usage looks low.",
            [prom(q.workloadSeconds, '%s/{{workload}}/{{%s}}' % [ns, cfg.containerLabel])],
          ),
          p.heatmap(
            'Throttled periods per workload: top %d' % top,
            'percentunit',
            'Share of CFS periods in which the workload hit its limit. Read it with the seconds on the left: many periods and few seconds are short bursts; many seconds is lost work.',
            [prom(q.workloadPeriods, '%s/{{workload}}/{{%s}}' % [ns, cfg.containerLabel])],
          ),
          p.heatmap(
            'Throttled seconds: distribution over all containers',
            's',
            'Every throttled container bucketed by its throttled seconds per second; colour = how many containers. A band along the bottom is healthy background; cells high up are the containers to find in the table below.',
            [prom(q.allSeconds, container)],
            calculate=true,
          ),
          p.timeseries(
            'Throttled seconds by service',
            's',
            "The same throttled seconds summed per service (through the service's pods). Follow a service here to its dashboard: throttling explains latency, not CPU per request.",
            [prom(q.perService, '{{%s}}' % cfg.serviceLabel)],
          ),
          p.timeseries(
            'Throttled time per request: top %d' % top,
            's',
            "Throttled seconds per second divided by the requests per second of the container's pod: the most latency the CPU limit adds to a request, on average. Only pods whose requests hotpath counts appear.",
            [prom(q.perRequest, container)],
            min=0,
          ),

          p.row('How close to the limit?'),
          p.table(
            'Top %d throttled containers' % top,
            'The most throttled containers now: throttled seconds per second, the share of throttled periods, CPU used and the limit in cores, and the throttled time per request of the pod. Throttled while "used" is far below "limit" means the quota runs out within %s periods (bursty, many threads): raise the limit or cap parallelism (GOMAXPROCS).' % cfg.cfsPeriod,
            [column(q.topSeconds), column(q.topPeriods), column(q.topUsage), column(q.topLimit), column(q.topPerRequest)],
            {
              A: { name: 'throttled', unit: 's' },
              E: { name: 'throttled per request', unit: 's' },
              B: { name: 'throttled periods', unit: 'percentunit' },
              C: { name: 'used', unit: 'short' },
              D: { name: 'limit', unit: 'short' },
            },
            sortBy='throttled',
            w=12,
          ),
          p.timeseries(
            'CPU usage as a share of the limit: top %d throttled' % top,
            'percentunit',
            'CPU used divided by the CPU limit for the most throttled containers. Throttling at 30% average usage is the CFS trap: the average hides bursts that exhaust the quota.',
            [prom(q.topUsageOfLimit, container)],
            min=0,
            softMax=1,
          ),
        ],
        d.variables(series.requests, multiService=true, scopeSeries=series.throttledSeconds),
        [d.annotation('CFS throttling alerts', q.annotations, 'orange')],
      ),
  },
}
