// Knobs of CFS throttling: cAdvisor's series, the CPU limit and request of a
// container, CPUThrottlingSustained's thresholds and the throttling answer.
// They steer rules/throttling.libsonnet, alerts/throttling.libsonnet,
// lib/throttling-answer.libsonnet and the throttling panels.

{
  _config+:: {
    // cAdvisor's CFS series exist only for containers with a CPU limit: absence
    // means "no limit", not "0% throttled". No job selector by default
    // (kube-prometheus scrapes them as job="kubelet", others as job="cadvisor";
    // the names are unique to cAdvisor). Narrow them with e.g. `'job="kubelet"'`.
    cadvisorSelector: '',

    // cAdvisor's CFS counters. Change them only for a kubelet that renames them.
    cfsPeriodsMetric: 'container_cpu_cfs_periods_total',
    cfsThrottledPeriodsMetric: 'container_cpu_cfs_throttled_periods_total',
    cfsThrottledSecondsMetric: 'container_cpu_cfs_throttled_seconds_total',

    // cAdvisor's CPU limit of a container is quota / period (both exist only
    // when a limit is set); recorded in cores for the usage-vs-limit panels.
    containerCpuQuotaMetric: 'container_spec_cpu_quota',
    containerCpuPeriodMetric: 'container_spec_cpu_period',

    // kube-prometheus-stack's default kubelet ServiceMonitor drops cAdvisor's
    // throttled seconds and every container_spec_* series. Where a container
    // has no throttled seconds, the pack records throttled periods x cfsPeriod
    // instead: an upper bound of the wall-clock time it was throttled (cAdvisor's
    // own figure sums over CPUs, so it can be higher on multi-core containers).
    // 100ms is the kubelet's default --cpu-cfs-quota-period; change it with that
    // flag. Where a container has no quota series, its limit comes from
    // kube-state-metrics (in cores); narrow it with the selector, e.g. add
    // `job="kube-state-metrics"`.
    cfsPeriod: '100ms',
    kubeStateMetricsLimitMetric: 'kube_pod_container_resource_limits',
    kubeStateMetricsLimitSelector: 'resource="cpu", unit="core"',
    // The CPU request per container (cores), from kube-state-metrics, for the
    // throttling answer: a container whose request covers its mean usage can
    // do without a limit. Narrow it like the limit, e.g. add
    // `job="kube-state-metrics"`.
    kubeStateMetricsRequestMetric: 'kube_pod_container_resource_requests',
    kubeStateMetricsRequestSelector: 'resource="cpu", unit="core"',

    // ---- Rules and alerts: CFS throttling -------------------------------------

    // CPUThrottlingSustained needs both: the share of CFS periods throttled and
    // the throttled time per second. The time keeps an idle container with a
    // high ratio silent (kubernetes-mixin #108, #515). Lower the seconds for
    // latency-critical services, e.g. 0.05.
    throttledPeriodsThreshold: 0.25,
    throttledSecondsThreshold: 0.1,

    // The throttling answer (hotpath-notify's CPUThrottlingSustained message,
    // docs/runbook.md). throttlingBurstWindow is the short rate window whose
    // peak over the incident is set against the 5m mean: keep at least two
    // scrapes in it, e.g. '2m' at a 1m scrape interval. A peak of
    // throttlingBurstyRatio times the mean or more is bursty. The suggested
    // limit is the demand (peak, or mean usage plus throttled time) times
    // throttlingLimitHeadroom, rounded up to throttlingLimitStep cores; raise
    // the headroom for latency-critical services, e.g. 1.5.
    throttlingBurstWindow: '1m',
    throttlingBurstyRatio: 2,
    throttlingLimitHeadroom: 1.25,
    throttlingLimitStep: 0.1,
  },
}
