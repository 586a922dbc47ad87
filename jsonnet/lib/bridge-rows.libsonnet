// What every bridge row (a service's function or endpoint, from
// hotpath-profile-metrics' counters) is judged and labelled with. Its noise
// model, around lib/baseline-model.libsonnet's lagged reference: a sampled series' median and upper end over
// baselineWindow, read as they were regressionAcceptAfter ago once the row
// had been sampled long enough then, else as they are now for a younger row.
// A change younger than regressionAcceptAfter cannot move its own reference.
//
// Usage: local rows = (import 'lib/bridge-rows.libsonnet')(cfg, [cfg.serviceLabel, 'endpoint']);
//        rows.laggedOrCurrent(sampled, function(read) read(median))
local durations = import 'durations.libsonnet';
local series = import 'series.libsonnet';

function(cfg, key) {
  local p = (import 'promql.libsonnet')(cfg),
  local cm = (import 'baseline-model.libsonnet')(cfg),
  local k = p.list(key),

  // How long ago a row must have had its first sample for its lagged read:
  // the lag, plus the history a median and spread need.
  referenceSince:: durations.format(durations.seconds(cfg.regressionAcceptAfter) + durations.seconds(cfg.regressionNoiseMinHistory)),

  // expr read through `read` (as recorded regressionAcceptAfter ago, else
  // now), once the sampled series had a sample `armedAfter` before: a median
  // and spread of a few samples would be too narrow. `current`, when given,
  // replaces expr's current read.
  laggedOrCurrent(sampled, expr, current=null)::
    local armed(after) = '\nand on (%s)\nlast_over_time(%s[%s] offset %s)' % [k, sampled, cm.lastOfNoiseWindow, after];
    '(\n%(lagged)s)\nor\n(\n%(current)s)\n' % {
      lagged: expr(function(s) cm.lagged(s, cm.lastOfNoiseWindow)) + armed($.referenceSince),
      current: (if current == null then expr(cm.lastOfNoise) else current) + armed(cfg.regressionNoiseMinHistory),
    },

  // The upper end of a series' range over baselineWindow (ending `offset`
  // ago): its highest sample plus regressionNoiseK * its spread (median minus
  // lower quartile), so that the day's sampling noise, met again, stays
  // under it.
  ceiling(s, offset=''):: std.rstripChars(|||
    max_over_time(%(s)s[%(w)s]%(o)s)
    + %(k)s * (quantile_over_time(0.5, %(s)s[%(w)s]%(o)s) - quantile_over_time(0.25, %(s)s[%(w)s]%(o)s))
  ||| % { s: s, w: cfg.baselineWindow, o: offset, k: p.num(cfg.regressionNoiseK) }, '\n'),

  // expr (keyed by the service label) with its service's scope labels
  // (cluster, namespace) taken from the service's request rate: the bridge
  // does not know them. One series per service label (a service label in two
  // namespaces is one service to the bridge): topk picks one.
  withScope(expr):: '(\n%s\n)\n+ on (%s) group_left (%s)\ntopk by (%s) (1, 0 * %s)' % [expr, cfg.serviceLabel, p.list(p.scope), cfg.serviceLabel, series.requests],
}
