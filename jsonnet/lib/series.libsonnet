// The names of every recorded series, in one place: the rules record them, the
// dashboards and alerts read them. The ones in DESIGN.md's output contract are
// public API and never change; the rest may grow, never silently rename.
{
  // Per service (job, plus cluster/namespace when present) and per instance.
  requests: 'job:requests:rate5m',
  instanceRequests: 'instance:requests:rate5m',
  cpu: 'job:cpu_seconds:rate5m',
  instanceCpu: 'instance:cpu_seconds:rate5m',
  cpuPerRequest: 'job:cpu_seconds_per_request:ratio_rate5m',
  instanceCpuPerRequest: 'instance:cpu_seconds_per_request:ratio_rate5m',
  alloc: 'job:alloc_bytes:rate5m',
  allocPerRequest: 'job:alloc_bytes_per_request:ratio_rate5m',

  // CPU per request against each upstream peer (extra label `upstream`).
  cpuPerRequestToUpstream: 'job:cpu_seconds_per_request:ratio_to_upstream',

  // CFS throttling per container (namespace, pod, container).
  throttledPeriodsRatio: 'container:cpu_cfs_throttled_periods:ratio_rate5m',
  throttledSeconds: 'container:cpu_cfs_throttled_seconds:rate5m',
}
