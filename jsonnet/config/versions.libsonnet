// Knobs of versions: where a service's running version comes from, which
// containers do not count, and how long a deploy stays recent. They steer
// rules/versions.libsonnet, the efficiency alerts' version annotations
// (lib/alert-versions.libsonnet) and the service dashboard's deploy marks.

{
  _config+:: {
    // Where each service's running version comes from: the version the
    // efficiency alerts carry, the deploys the service dashboard marks, and
    // the baseline hotpath-notify takes from the previous version's last
    // hours (jsonnet/rules/versions.libsonnet). A list of { metric, selector,
    // versionLabel, versionRegex, serviceLabel, joinOnPod }, all but metric
    // optional: versionLabel (default 'version') holds the version, and
    // versionRegex (default '(.+)') keeps a series only where that label
    // matches, its first group being the version; serviceLabel as in
    // requestSources; joinOnPod: the series names a pod, not a service (as
    // kube-state-metrics does): it gets the service of the requests series
    // scraped from that pod. A service found in several sources takes its
    // version from the first that has it.
    //
    // On by default with kube-state-metrics' kube_pod_container_info, which
    // kube-prometheus-stack ships: the tag of the image each pod runs (an
    // image pinned by digest keeps its tag; an image without a tag gives no
    // version), joined to the service through (namespace, pod), the sidecars
    // of sidecarContainers left out. Without kube-state-metrics, or where
    // services are not pods, the group records nothing and the annotations
    // stay empty. Put your own source first when the image tag is not the
    // version (a `latest` tag, one tag per branch), or turn versions off
    // with `versionSources: []`. Example:
    //   versionSources: [
    //     { metric: 'target_info', versionLabel: 'service_version' },  // OpenTelemetry
    //     { metric: 'shop_build_info' },                                // a *_build_info{version} gauge
    //   ] + super.versionSources,  // then the image tag
    versionSources: [
      {
        metric: 'kube_pod_container_info',
        selector: '%s!~"%s"' % [$._config.containerLabel, std.join('|', $._config.sidecarContainers)],
        versionLabel: 'image',
        versionRegex: '[^@]+:([^:/@]+)(@.+)?',
        joinOnPod: true,
      },
    ],

    // Containers that run beside the service in its pods and whose image is
    // not its version: service-mesh proxies, secret agents, SQL and auth
    // proxies, config reloaders, tracing agents. Their tags would count as
    // versions of the service, and a mesh upgrade as its deploy. Regular
    // expressions, each matched against the whole container name. Log
    // shippers and collectors (fluentd, fluent-bit, vector, an OpenTelemetry
    // collector) are not listed: they are services of their own as often as
    // sidecars. Add the sidecars your pods run, e.g.
    // `sidecarContainers+: ['fluent-bit', 'audit-shipper']`.
    sidecarContainers: [
      'istio-proxy',
      'istio-validation',
      'linkerd-proxy',
      'envoy-sidecar',
      'consul-dataplane',
      'consul-connect-.+',
      'kuma-sidecar',
      'daprd',
      'vault-agent',
      'cloud-sql-proxy',
      'cloudsql-proxy',
      'oauth2-proxy',
      'kube-rbac-proxy',
      '.*config-reloader',
      'git-sync',
      'otc-container',
      'jaeger-agent',
      'xray-daemon',
    ],

    // A version missing from its source for less than this (a failed scrape,
    // a restart of Prometheus) still runs; its series lingers this long after
    // the last instance running it is gone, and a version that comes back
    // after a longer absence (a rollback) is a new deploy. Raise it (e.g.
    // '30m') when scrapes of the version series fail for longer.
    versionHold: '10m',

    // The efficiency alerts carry the previous version and the rollout time
    // (annotations previous_version, rollout_time) when the last deploy is at
    // most this old at the evaluation; hotpath-notify then takes its baseline
    // from before the rollout when the incident began after it. An alert fires
    // its `for:` (15m) to about 45 minutes after the change began, so 2h
    // covers a change that began up to about an hour after a rollout. Raise it
    // (e.g. '6h') for changes that show only at the next traffic peak.
    deployWindow: '2h',
  },
}
