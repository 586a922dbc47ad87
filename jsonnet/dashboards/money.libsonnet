// The money columns of the fleet table and the money row of the service
// dashboard, at the list prices of config/money.libsonnet (lib/money.libsonnet).
// None of them when costPerCoreHour is 0. Money never stands alone: each
// column sits beside the table's cores and CPU per request, each panel draws
// the cores or CPU per request it comes from on its right axis.
//
// Usage: local m = (import 'money.libsonnet')(cfg, $.hotpathQueries.money);
//        [...] + m.fleetColumns, {...} + m.fleetUnits, [...] + m.servicePanels
local dashboard = import '../lib/dashboard.libsonnet';
local p = import '../lib/panel.libsonnet';

function(cfg, q)
  local money = (import '../lib/money.libsonnet')(cfg);
  local d = dashboard(cfg);
  local price = '%s %s a core-hour%s' % [
    d.num(cfg.costPerCoreHour),
    cfg.currency,
    if money.memoryOn then ' and %s a GiB-hour' % d.num(cfg.costPerGiBHour) else '',
  ];
  local rightAxis(refId, unit, label) = p.byRefId(refId, { unit: unit, 'custom.axisPlacement': 'right', 'custom.axisLabel': label, 'custom.lineStyle': { fill: 'dash', dash: [10, 10] } });
  if !money.on then { fleetColumns: [], fleetUnits: {}, servicePanels: [] } else {
    // After the table's eight columns (A-H), so theirs keep their refIds.
    fleetColumns: [d.column(q.fleetCpuCostPerMonth), d.column(q.fleetCostPerMillionRequests)],
    fleetUnits: {
      I: { name: 'CPU cost/month', unit: money.grafanaUnit },
      J: { name: 'CPU cost/1M req', unit: money.grafanaUnit },
    },
    servicePanels: [
      p.row('What does it cost?'),
      p.timeseries(
        'Cost a month at the current rate',
        money.grafanaUnit,
        'What the service would cost in a month (730 hours) if it kept its current rate: its CPU cores and, where its processes export %s, its memory, at the list prices %s (config knobs costPerCoreHour, costPerGiBHour: list prices, not your bill). The dashed line (right axis) is the cores the CPU cost comes from.' % [cfg.memoryMetric, price],
        [d.prom(q.cpuCostPerMonth, 'CPU'), d.prom(q.memoryCostPerMonth, 'memory'), d.prom(q.cpu, 'CPU cores')],
        min=0,
      ) {
        fieldConfig+: { overrides+: [rightAxis('C', 'short', 'CPU cores')] },
      },
      p.timeseries(
        'CPU cost per million requests',
        money.grafanaUnit,
        'The CPU a million requests cost at the current CPU per request (dashed, right axis), at %s a core-hour. It moves with CPU per request: a regression raises it, a night of low traffic raises it too (fixed costs spread over fewer requests).' % d.num(cfg.costPerCoreHour),
        [d.prom(q.costPerMillionRequests, 'per million requests'), d.prom(q.cpuPerRequest, 'CPU per request')],
        min=0,
      ) {
        fieldConfig+: { overrides+: [rightAxis('B', 's', 'CPU per request')] },
      },
    ],
  }
