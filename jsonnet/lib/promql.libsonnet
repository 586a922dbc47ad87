// Small PromQL builders for the rules and alerts. Every label name comes from
// the config, so an overlay that renames a label renames it everywhere, and an
// empty label knob ('' for no cluster label) simply drops out of every list.
local durations = import 'durations.libsonnet';

function(cfg) {
  local p = self,

  // ---- label lists ----------------------------------------------------------

  local nonEmpty(labels) = [l for l in labels if l != ''],
  // Kept in every aggregation when present: cluster, namespace.
  scope:: nonEmpty([cfg.clusterLabel, cfg.namespaceLabel]),
  // One service (job) and one instance of it.
  service:: p.scope + [cfg.serviceLabel],
  instance:: p.service + [cfg.instanceLabel],
  // One container (cAdvisor) and the pod it runs in.
  pod:: p.scope + [cfg.podLabel],
  container:: p.pod + [cfg.containerLabel],

  list(labels):: std.join(', ', labels),
  // Matchers joined, empty ones (a knob set to '') dropped: a="1", b="2".
  matchers(ms):: p.list(nonEmpty(ms)),

  // A knob's number as PromQL text: 0.8, not 0.80000000000000004.
  num(x):: '%.15g' % x,

  // ---- selectors --------------------------------------------------------------

  // metric{m1, m2}: the non-empty matchers joined; bare metric when none.
  selector(metric, matchers=[])::
    local ms = p.matchers(matchers);
    if ms == '' then metric else '%s{%s}' % [metric, ms],

  // cAdvisor's per-container series: the pod-level cgroup (container="") and
  // the pause container (container="POD", dockershim and cri-dockerd) dropped.
  containerSelector(metric, extra=[])::
    p.selector(metric, ['%s!~"|POD"' % cfg.containerLabel, cfg.cadvisorSelector] + extra),

  rate(metric, matchers=[]):: 'rate(%s[%s])' % [p.selector(metric, matchers), cfg.rateWindow],

  // ---- work-unit counters (requestSources) ----------------------------------

  // Each source with its defaults filled in.
  requestSources:: [
    { selector: '', serviceLabel: cfg.serviceLabel } + s
    for s in cfg.requestSources
  ],
  // expr with the source's service label copied into serviceLabel.
  asService(src, expr)::
    if src.serviceLabel == cfg.serviceLabel then expr
    else 'label_replace(%s, "%s", "$1", "%s", "(.+)")' % [expr, cfg.serviceLabel, src.serviceLabel],
  // One expression per source, f(src), each service taken from the first
  // source that has it: `or on (service)` adds a source's services only where
  // no earlier source has them.
  firstSource(f)::
    std.join('\nor on (%s)\n' % p.list(p.service), [f(src) for src in p.requestSources]),
  // Every source's raw series, for label joins (group by ...).
  allSources(extra=[])::
    std.join(' or ', [p.asService(src, p.selector(src.metric, [src.selector] + extra)) for src in p.requestSources]),

  sumBy(labels, expr):: 'sum by (%s) (%s)' % [p.list(labels), expr],

  // ---- joins ----------------------------------------------------------------

  // num / den, matched on `labels`, with no sample where den is 0: aggregate
  // both first, then divide (never average ratios); never NaN or Inf.
  ratio(num, den, labels):: '%s\n/ on (%s)\n(%s > 0)' % [num, p.list(labels), den],

  // expr kept only where `cond` (a filter expression) has a sample.
  and(expr, cond, labels):: '%s\nand on (%s)\n%s' % [expr, p.list(labels), cond],

  // The latest sample of a series recorded by a slower group: a plain selector
  // could miss it between that group's evaluations.
  lastOfSlow(series, at=''):: 'last_over_time(%s[%s]%s)' % [series, durations.format(2 * durations.seconds(cfg.baselineInterval)), at],

  // Sets label `name` to a constant on every series of expr, without an empty
  // source label: the service label always matches ".*" (absent = "").
  setLabel(expr, name, value):: 'label_replace(%s, "%s", "%s", "%s", ".*")' % [expr, name, value, cfg.serviceLabel],
}
