// Request rate, CPU and allocations per service and instance, and their ratios:
// the inputs of every other group and the first panels of the dashboards.
// Its knobs: config/requests-cpu.libsonnet.
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local cm = (import '../lib/baseline-model.libsonnet')(cfg),
    local models = (import '../lib/cost-models.libsonnet')(cfg),

    // The labels of a service's instance and the pod it runs in.
    local podInstance = p.instance + [cfg.podLabel],

    // CPU seconds per second per instance, from the process's own counter or
    // from cAdvisor (cpuSource). cAdvisor knows pods, not services: each
    // container's CPU is summed per pod and given the service and instance of
    // the requests counted in that pod. The pod side is unique per pod by
    // construction, so a pod that serves two jobs counts for both instead of
    // breaking the join.
    local processCpu = p.sumBy(p.instance, p.rate(cfg.processCpuMetric, [cfg.cpuSelector])),
    local cadvisorCpu = |||
      sum by (%(instance)s) (
        group by (%(podInstance)s) (%(podRequests)s)
        * on (%(pod)s) group_left ()
        sum by (%(pod)s) (rate(%(cpu)s[%(window)s]))
      )
    ||| % {
      instance: p.list(p.instance),
      podInstance: p.list(podInstance),
      podRequests: series.podRequests,
      pod: p.list(p.pod),
      cpu: p.containerSelector(cfg.containerCpuMetric, [cfg.cpuSelector]),
      window: cfg.rateWindow,
    },
    local instanceCpu =
      if cfg.cpuSource == 'process' then processCpu
      else if cfg.cpuSource == 'cadvisor' then cadvisorCpu
      // One source per service, never both added: its process's counter
      // where it has one, its pods' containers otherwise.
      else if cfg.cpuSource == 'auto' then '%s\nor on (%s)\n%s' % [processCpu, p.list(p.service), std.rstripChars(cadvisorCpu, '\n')]
      else error 'cpuSource must be "auto", "process" or "cadvisor", not %s' % cfg.cpuSource,

    groups+: [
      {
        name: 'hotpath-requests-cpu',
        interval: cfg.evaluationInterval,
        rules: [
                 {
                   // Requests per second per pod and instance: every
                   // work-unit counter (requestSources) in the pack's labels,
                   // a service counted from the first source that has it.
                   record: series.podRequests,
                   expr: p.firstSource(function(src) p.sumBy(podInstance, p.asService(src, p.rate(src.metric, [src.selector])))),
                 },
                 {
                   // Requests per second per instance.
                   record: series.instanceRequests,
                   expr: p.sumBy(p.instance, series.podRequests),
                 },
                 {
                   // Requests per second per service.
                   record: series.requests,
                   expr: p.sumBy(p.service, series.instanceRequests),
                 },
                 {
                   // CPU cores per instance.
                   record: series.instanceCpu,
                   expr: instanceCpu,
                 },
                 {
                   // CPU cores per service.
                   record: series.cpu,
                   expr: p.sumBy(p.service, series.instanceCpu),
                 },
                 {
                   // CPU seconds per request per instance (the outlier alert's input).
                   record: series.instanceCpuPerRequest,
                   expr: p.ratio(series.instanceCpu, series.instanceRequests, p.instance),
                 },
                 {
                   // CPU seconds per request per service.
                   record: series.cpuPerRequest,
                   expr: p.ratio(series.cpu, series.requests, p.service),
                 },
                 // The products behind the recent fit of CPU on req/s (load-fit.libsonnet),
                 // recorded here with c and r of the same evaluation: its averages then
                 // all read samples at the same timestamps, whichever group reads them.
                 {
                   record: series.cpuTimesRequests,
                   expr: '%s * on (%s) %s' % [series.cpu, p.list(p.service), series.requests],
                 },
                 {
                   // (req/s)^2, where the service has a CPU series.
                   record: series.requestsSquared,
                   expr: p.and('%s ^ 2' % series.requests, series.cpu, p.service),
                 },
                 {
                   // Bytes allocated per second per service.
                   record: series.alloc,
                   expr: p.sumBy(p.service, p.rate(cfg.allocMetric, [cfg.allocSelector])),
                 },
                 {
                   // Bytes allocated per request per service.
                   record: series.allocPerRequest,
                   expr: p.ratio(series.alloc, series.requests, p.service),
                 },
               ]
               // What each cost model (baseline.libsonnet) predicts at the current
               // traffic, recorded in the same evaluation as the rates: the alerts
               // divide CPU and allocations by it, and a prediction from another
               // group's evaluation lags the request rate by up to one interval,
               // enough for 1.3-1.5x on a steep traffic ramp by itself.
               + cm.model(models.cpu).fast
               + cm.model(models.alloc).fast,
      },
    ],
  },
}
