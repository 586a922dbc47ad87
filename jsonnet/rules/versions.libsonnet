// Which version each service runs, and its last deploy, from the
// versionSources of the config (kube-state-metrics' image tags by default;
// none at all with `versionSources: []`: then no group).
//
// A deploy is a change of the set of versions a service runs. During a
// rollout the old and the new version run at once: the new one is the one
// that began to run last, so the whole rollout is one deploy, dated when the
// new version first ran, whatever the number of steps. A rollback is a deploy
// too: the version it returns to had stopped running (for longer than
// versionHold) and begins to run again.
// Its knobs: config/versions.libsonnet.
local durations = import '../lib/durations.libsonnet';
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local svc = p.list(p.service),
    local svcVersion = p.list(p.service + ['version']),
    local sources = [
      { selector: '', versionLabel: 'version', versionRegex: '(.+)', serviceLabel: cfg.serviceLabel, joinOnPod: false } + s
      for s in cfg.versionSources
    ],

    // A source's series that carry a version, held for versionHold (a failed
    // scrape does not end a version), with the version in label `version`.
    local versioned(src) =
      local matched = p.selector(src.metric, [src.selector, '%s=~"%s"' % [src.versionLabel, src.versionRegex]]);
      'label_replace(last_over_time(%s[%s]), "version", "$1", "%s", "%s")' % [matched, cfg.versionHold, src.versionLabel, src.versionRegex],
    // One source's versions per service. A per-pod source gets the service of
    // the requests counted in the pod (every request source's raw series, in
    // the pack's labels: a new pod counts from its first scrape on); a
    // pod that serves two services is given one of them, so the join never
    // fails on many-to-many.
    local versions(src) =
      if src.joinOnPod then
        |||
          group by (%(svcVersion)s) (
            group by (%(podVersion)s) (%(versioned)s)
            * on (%(pod)s) group_left (%(service)s)
            topk by (%(pod)s) (1, group by (%(podService)s) (%(requests)s))
          )
        ||| % {
          svcVersion: svcVersion,
          podVersion: p.list(p.pod + ['version']),
          versioned: versioned(src),
          pod: p.list(p.pod),
          service: cfg.serviceLabel,
          podService: p.list(p.pod + [cfg.serviceLabel]),
          requests: p.allSources(),
        }
      else 'group by (%s) (%s)' % [svcVersion, p.asService(src, versioned(src))],

    // The versions started most recently per service, and the one before
    // them (topk: exactly one per service, so the join below cannot fail).
    local newest = '%(start)s == on (%(svc)s) group_left () max by (%(svc)s) (%(start)s)' % { start: series.versionStart, svc: svc },
    local older = '%(start)s < on (%(svc)s) group_left () max by (%(svc)s) (%(start)s)' % { start: series.versionStart, svc: svc },
    local previous = 'max by (%(svc)s, previous_version) (label_replace(topk by (%(svc)s) (1, %(older)s), "previous_version", "$1", "version", "(.+)"))' % { svc: svc, older: older },

    groups+: if sources == [] then [] else [
      {
        name: 'hotpath-versions',
        interval: cfg.evaluationInterval,
        rules: [
          {
            // One series per version a service runs (value 1, label version):
            // two while a rollout or a canary runs both.
            record: series.versionInfo,
            expr: std.join('\nor on (%s)\n' % svc, [versions(src) for src in sources]),
          },
          {
            // When each running version began to run (unix seconds): its own
            // last value while the version runs on, the evaluation's time
            // when it is new. Kept through one missed evaluation; a longer
            // gap of Prometheus restarts every version at once, which is no
            // deploy (none is newer than another).
            record: series.versionStart,
            expr: |||
              (
                last_over_time(%(start)s[%(gap)s])
                and on (%(svcVersion)s)
                %(info)s
              )
              or on (%(svcVersion)s)
              (%(info)s * 0 + time())
            ||| % {
              start: series.versionStart,
              info: series.versionInfo,
              gap: durations.format(2 * durations.seconds(cfg.evaluationInterval)),
              svcVersion: svcVersion,
            },
          },
          {
            // The service's last deploy: the newest version (label version),
            // the one that ran before it (previous_version), valued at when
            // the newest began to run. Seen while both run; then held (the
            // latest one, through a gap of versionHold) while its version
            // runs, so a rollout is one deploy and a rollback a new one.
            record: series.versionRollout,
            expr: |||
              (
                (%(newest)s)
                + on (%(svc)s) group_left (previous_version)
                (0 * %(previous)s)
              )
              or on (%(svc)s)
              (
                topk by (%(svc)s) (1, last_over_time(%(rollout)s[%(hold)s]))
                and on (%(svcVersion)s)
                %(info)s
              )
            ||| % {
              newest: newest,
              previous: previous,
              rollout: series.versionRollout,
              info: series.versionInfo,
              hold: cfg.versionHold,
              svc: svc,
              svcVersion: svcVersion,
            },
          },
        ],
      },
    ],
  },
}
