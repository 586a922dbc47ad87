// CPU per request relative to each upstream the service calls (the println
// story: the API spent 10x the CPU per request of the cache it streams from).
//
// Edges come from the service graph (client -> server) and the static map in
// the config; they carry only the service names, as the service graph does. An
// edge becomes a ratio when both ends have a CPU-per-request series with traffic
// >= minRequestRate; an edge to a server without one (a database, an external
// API) is skipped.
//
// Two joins here could hit "many-to-many" errors, which would fail the whole
// rule for every service, so both are built to be unique on their "one" side:
//
// - The client side: a service may run in several namespaces or clusters and
//   call several upstreams, and PromQL cannot pair each of its namespaces with
//   each upstream in one join (a join yields at most one output per element of
//   its larger side). So the edges are taken one slot at a time: slot k is, per
//   service, one edge not among the first k-1 (topk by service keeps one per
//   service, so the join is many-to-one), up to maxUpstreamsPerService slots.
// - The upstream side: an upstream name is looked up in the client's own
//   namespace first, else anywhere in its cluster when that name is unique
//   there. A name in two other namespaces is ambiguous and skipped.
//
// Edges keep the cluster label when the service graph carries one (on
// Thanos the cluster is each Prometheus's external label, so a global
// ruler sees every cluster's edges at once): an edge recorded in a cluster
// joins only that cluster's services, so a service is compared only with
// upstreams it calls in its own cluster. Edges without a cluster (a service
// graph that carries none, the static map) apply in every cluster, as before.
// Its knobs: config/upstream.libsonnet.
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local svc = cfg.serviceLabel,
    local key = p.list(p.service),

    // label_replace(label_replace(...)): the service graph's client/server as
    // the service label and `upstream`.
    local serviceGraphEdges =
      'label_replace(label_replace(%(edges)s, "%(service)s", "$1", "%(client)s", "(.+)"), "upstream", "$1", "%(server)s", "(.+)")' % {
        edges: p.selector(cfg.serviceGraphMetric, [cfg.serviceGraphSelector]),
        service: svc,
        client: cfg.serviceGraphClientLabel,
        server: cfg.serviceGraphServerLabel,
      },
    local staticEdges = [
      p.setLabel(p.setLabel('vector(1)', svc, client), 'upstream', upstream)
      for client in std.objectFields(cfg.staticUpstreams)
      for upstream in cfg.staticUpstreams[client]
    ],

    local cluster = cfg.clusterLabel,
    // The edge's own key: (cluster, service), or the service alone.
    local edgeKey = p.list([l for l in [cluster, svc] if l != '']),
    // slot(k, by, edges): per `by`, the k-th edge of `edges`.
    local slot(k, by, edges) =
      if k == 1 then 'topk by (%(by)s) (1, %(edges)s)' % { by: by, edges: edges }
      else 'topk by (%(by)s) (1, %(edges)s unless on (%(by)s, upstream) topk by (%(by)s) (%(before)d, %(edges)s))' % { by: by, edges: edges, before: k - 1 },
    // The client's CPU per request once per edge of slot k: edges within the
    // client's cluster, then edges without a cluster (any cluster's client).
    local perEdge(on, edges) = '%(perRequest)s * on (%(on)s) group_left (upstream)\n  %(edges)s' % {
      perRequest: series.cpuPerRequest,
      on: on,
      edges: edges,
    },
    local clientSlot(k) = std.join('\nor\n', [
      perEdge(edgeKey, slot(k, edgeKey, series.upstreamEdges)),
    ] + if cluster == '' then [] else [
      perEdge(svc, slot(k, svc, p.selector(series.upstreamEdges, ['%s=""' % cluster]))),
    ]),

    // The upstream's CPU per request under the label `upstream`, while it
    // serves >= minRequestRate and is not 0 (a divisor), per namespace and,
    // where the name is unique, per cluster.
    local asUpstream = 'label_replace(%(perRequest)s > 0 and on (%(key)s) %(requests)s >= %(minRate)s, "upstream", "$1", "%(service)s", "(.+)")' % {
      perRequest: series.cpuPerRequest,
      key: key,
      requests: series.requests,
      minRate: p.num(cfg.minRequestRate),
      service: svc,
    },
    local nsKey = p.list(p.scope + ['upstream']),
    local clusterKey = p.list([l for l in p.scope if l != cfg.namespaceLabel] + ['upstream']),

    groups+: [
      {
        name: 'hotpath-upstream',
        interval: cfg.evaluationInterval,
        rules: [
          {
            // One series per edge (service, upstream): the service graph and the static map.
            record: series.upstreamEdges,
            expr: 'group by (%(edgeKey)s, upstream) (\n  %(edges)s\n)' % {
              edgeKey: edgeKey,
              edges: std.join('\n  or\n  ', [serviceGraphEdges] + staticEdges),
            },
          },
          {
            // The client's own CPU per request, once per edge.
            record: series.upstreamClientCpuPerRequest,
            expr: std.join('\nor\n', [clientSlot(k) for k in std.range(1, cfg.maxUpstreamsPerService)]),
          },
          {
            // The service's CPU per request over its upstream's, per edge.
            record: series.cpuPerRequestToUpstream,
            expr: |||
              (
                (
                  %(client)s
                  / on (%(nsKey)s) group_left ()
                  max by (%(nsKey)s) (%(upstream)s)
                )
                or
                (
                  %(client)s
                  / on (%(clusterKey)s) group_left ()
                  (
                    max by (%(clusterKey)s) (%(upstream)s)
                    and on (%(clusterKey)s)
                    count by (%(clusterKey)s) (%(upstream)s) == 1
                  )
                )
              )
              and on (%(key)s)
              %(requests)s >= %(floor)s
            ||| % {
              key: key,
              requests: series.requests,
              floor: p.num(cfg.minRequestRate),
              client: series.upstreamClientCpuPerRequest,
              upstream: asUpstream,
              nsKey: nsKey,
              clusterKey: clusterKey,
            },
          },
        ],
      },
    ],
  },
}
