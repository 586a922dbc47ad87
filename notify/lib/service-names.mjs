// How each profiler names the service a profile belongs to, and the Prometheus service (the
// `job`) that name is. hotpath's alerts and the bridge's counters speak of jobs; a profile store
// fed by eBPF profilers speaks of containers. The shapes, with where each was read:
// - The Pyroscope SDKs, and the OpenTelemetry eBPF profiler into Pyroscope with `service.name`
//   set: `service_name` is the application's name, taken to be the job.
// - Alloy's `pyroscope.ebpf` fed by `discovery.kubernetes`, with no `service_name` of its own:
//   "ebpf/<namespace>/<container>", or the pod's `pyroscope.io/service_name` annotation when it
//   has one (grafana/alloy, internal/component/pyroscope/ebpf/discovery/target.go,
//   inferServiceName; the rest of the target's labels are dropped with their `__meta_` prefix).
// - The same with the relabelling of Grafana's Kubernetes examples: "<namespace>/<container>".
// - Pyroscope's OTLP ingest of a profile without `service.name` (the OpenTelemetry eBPF
//   profiler's own default): "unknown_service:<process.executable.name>" (grafana/pyroscope,
//   pkg/ingester/otlp/ingest_handler.go, getServiceNameFromAttributes), no service at all: the
//   bridge is then pointed at another label (--service-label k8s.deployment.name, which the
//   collector's k8sattributes processor sets).
// The container is taken to be the job: a Kubernetes workload's container and its scrape job
// (a ServiceMonitor's service, a mesh's workload) are usually one name.

const EBPF = /^(?:ebpf\/)?([^/]+)\/([^/]+)$/;

/** Pyroscope's name for a profile without `service.name`: no service to charge it to. */
export const UNKNOWN_SERVICE = /^unknown_service(:|$)/;

/**
 * The job and namespace a `service_name` value stands for; undefined for a name that is no
 * service (Pyroscope's unknown_service). "ebpf/shop/api" and "shop/api" are { job: "api",
 * namespace: "shop" }; anything else is its own job.
 */
export function serviceOfName(name) {
  if (!name || UNKNOWN_SERVICE.test(name)) {
    return undefined;
  }
  const m = EBPF.exec(name);
  return m ? { job: m[2], namespace: m[1] } : { job: name };
}

/** A value as a literal inside a Pyroscope/PromQL regular expression. */
const literal = (s) => String(s).replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * The selector of an alert's service under the eBPF profilers' naming, for when its job has no
 * profiles under its own name: "ebpf/<namespace>/<job>" or "<namespace>/<job>" when the alert
 * names its namespace, any namespace's otherwise (as the job spans namespaces).
 */
export function ebpfSelector(job, namespace) {
  const ns = namespace ? literal(namespace) : '[^/]+';
  return `{service_name=~${JSON.stringify(`(ebpf/)?${ns}/${literal(job)}`)}}`;
}

/**
 * A label matcher for any label name: a name that is not a Prometheus identifier (OpenTelemetry's
 * "k8s.deployment.name") is quoted, as Pyroscope's UTF-8 label names are written.
 */
export function matcher(name, value) {
  const n = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : JSON.stringify(name);
  return `${n}=${JSON.stringify(String(value))}`;
}
