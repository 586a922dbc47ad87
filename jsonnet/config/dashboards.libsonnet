// Knobs of the dashboards: tags, uids, time range, the datasource variables,
// the profiles the service dashboard shows, the Go runtime series and the
// size of the top tables. They steer dashboards/*.libsonnet
// (lib/dashboard.libsonnet, lib/panel.libsonnet).

{
  _config+:: {
    // ---- Dashboards -----------------------------------------------------------

    // Tags, uids and the default time range of the generated dashboards. Change
    // the uids only if they collide with dashboards you already have: alerts link
    // to them.
    dashboardTags: ['hotpath'],
    dashboardUIDs: {
      overview: 'hotpath-overview',
      service: 'hotpath-service',
      throttling: 'hotpath-throttling',
    },

    // The time range and refresh a dashboard opens with. 3h shows an incident
    // and the hour before it; widen it (e.g. 'now-24h') to see the nightly low
    // the cost model accounts for.
    dashboardTimeFrom: 'now-3h',
    dashboardRefresh: '1m',

    // Names of the dashboards' datasource variables. They appear in URLs
    // (`var-datasource=...`); change them to match dashboards you link from,
    // e.g. `prometheusDatasourceVariable: 'prometheus'`. The service, cluster and
    // namespace variables are named after their labels (serviceLabel, ...), so an
    // alert can link with `var-<label>={{ $labels.<label> }}`.
    prometheusDatasourceVariable: 'datasource',
    profilesDatasourceVariable: 'profiles',

    // The Pyroscope profile the service dashboard shows, as a profile type id
    // (`<name>:<sample type>:<sample unit>:<period type>:<period unit>`). The
    // default is the CPU profile of the Go SDK and of Alloy's pprof scraping.
    // Change it when your profiler sends another type: copy the id Grafana's
    // Pyroscope query editor shows, e.g. 'wall:wall:nanoseconds:wall:nanoseconds'.
    profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
    // The allocation profile next to the allocation panels ("what allocates"):
    // bytes allocated, as Go's alloc_space. Set it to
    // 'memory:alloc_objects:count:space:bytes' to count objects instead.
    allocProfileTypeId: 'memory:alloc_space:bytes:space:bytes',

    // How a service's profiles are found in Pyroscope, as a label selector.
    // `%(serviceLabel)s` and the other knobs are substituted, so `$%(serviceLabel)s`
    // is the dashboard's service variable. Change it when your profiles name the
    // service differently, e.g. '{service_name="$%(namespaceLabel)s/$%(serviceLabel)s"}'
    // for Alloy's Kubernetes discovery, or '{app="$%(serviceLabel)s"}'.
    profileLabelSelector: '{service_name="$%(serviceLabel)s"}',

    // Go runtime series the dashboards read (client_golang's Go collector); the
    // GOMAXPROCS gauge needs client_golang >= 1.12 (absent: that panel is empty).
    // Change them for another runtime, e.g. `gcDurationMetric: 'jvm_gc_pause_seconds'`.
    gcDurationMetric: 'go_gc_duration_seconds',
    heapMetric: 'go_memstats_heap_inuse_bytes',
    gomaxprocsMetric: 'go_sched_gomaxprocs_threads',

    // How many rows the "top" tables, movers and fleet heatmaps show. Raise it on
    // a large fleet with a tall screen, e.g. 25.
    dashboardTopN: 10,
  },
}
