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

  local asList(x) = if std.isArray(x) then x else if x == '' then [] else [x],
  // Each source with its defaults filled in, every label field a list.
  requestSources:: [
    local full = { selector: '', serviceLabel: cfg.serviceLabel, namespaceLabel: cfg.namespaceLabel, instanceLabel: cfg.instanceLabel, podLabel: cfg.podLabel, relayLabels: [] } + s;
    full {
      serviceLabel: asList(full.serviceLabel),
      namespaceLabel: asList(full.namespaceLabel),
      instanceLabel: asList(full.instanceLabel),
      podLabel: asList(full.podLabel),
      relayLabels: asList(full.relayLabels),
    }
    for s in cfg.requestSources
  ],

  // expr with `target` set to the first non-empty of the labels `from`
  // (label_replace copies only a non-empty value, so the last copy applied
  // is the first label's), its own value kept where none is set.
  local copyFirst(expr, target, from) =
    std.foldl(
      function(e, l) 'label_replace(%s, "%s", "$1", "%s", "(.+)")' % [e, target, l],
      std.reverse([l for l in from if l != target]),
      expr,
    ),

  // expr (a source's series) in the pack's labels: the source's service,
  // namespace and instance labels copied into serviceLabel, namespaceLabel
  // and instanceLabel, and its pod into podLabel. A relayed series (one of
  // relayLabels set) loses the scrape's pod first: it is the relay's. A
  // source (as versionSources') may set serviceLabel only.
  asService(src, expr)::
    local get(field, default) = asList(std.get(src, field, default));
    local relayed = std.foldl(
      function(e, l) 'label_replace(%s, "%s", "", "%s", ".+")' % [e, cfg.podLabel, l],
      get('relayLabels', []),
      expr,
    );
    local podFrom = get('podLabel', cfg.podLabel);
    // The scrape's own pod is the last resort only where the source lists
    // it: a source whose series never name the pod that served them (an
    // ingress controller's) drops it.
    local ownPod = if std.member(podFrom, cfg.podLabel) then relayed
    else 'label_replace(%s, "%s", "", "%s", ".*")' % [relayed, cfg.podLabel, cfg.podLabel];
    local withPod = copyFirst(ownPod, cfg.podLabel, podFrom);
    local withNamespace = if cfg.namespaceLabel == '' then withPod else copyFirst(withPod, cfg.namespaceLabel, get('namespaceLabel', cfg.namespaceLabel));
    local withInstance = copyFirst(withNamespace, cfg.instanceLabel, get('instanceLabel', cfg.instanceLabel));
    copyFirst(withInstance, cfg.serviceLabel, get('serviceLabel', cfg.serviceLabel)),

  // One expression per source, f(src), each service taken from the first
  // source that has it: `or on (service)` adds a source's services only where
  // no earlier source has them.
  firstSource(f)::
    std.join('\nor on (%s)\n' % p.list(p.service), [f(src) for src in p.requestSources]),
  // A source's raw series in the pack's labels, narrowed by extra matchers.
  sourceSeries(src, extra=[]):: p.asService(src, p.selector(src.metric, [src.selector] + extra)),
  // Every source's raw series, for label joins (group by ...).
  allSources(extra=[])::
    std.join(' or ', [p.sourceSeries(src, extra) for src in p.requestSources]),

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
