// Each function's cost per request of its service, from the counters of
// hotpath-profile-metrics (labels: the service label and `function`; the top
// functions of each service plus function="other", the rest of its profile),
// and the noise model FunctionCostPerRequestRegression judges them by.
//
// The join: the bridge names a service by its service label only (Pyroscope's
// service_name), and a scrape adds its own target labels (instance, and
// namespace under a ServiceMonitor: the bridge's, not the service's), so both
// sides are summed by the service label and the function before dividing.
//
// The noise model follows the service regressions' lagged reference
// (lib/baseline-model.libsonnet): the smoothed cost per request, sampled every
// regressionNoiseInterval, has a median and a spread (median minus the lower
// quartile) over baselineWindow; the alert judges the present against them as
// they were recorded regressionAcceptAfter ago, so a change younger than that
// cannot move its own reference. Against the cost per request, not a cost
// model: the profile cannot tell a function's fixed part from its marginal
// one, and the materiality floor (a share of the whole service's cost per
// request) keeps a function's nightly rise, small beside its service, quiet.
//
// The cost per request alone pages every night on a service with a fixed
// cost: spread over fewer requests, it raises every large function's cost per
// request beyond its day's noise and the floor. So the alert also asks the
// function's share of its service's profile to be above the upper end of its
// own range over the reference day. A traffic-driven rise (a fixed cost over
// fewer requests, a function whose share swings with the day) stays within
// the day's range of shares; an improvement elsewhere, or a traffic doubling
// that raises marginal functions' shares, leaves the function's cost per
// request where it was; a regression of one function raises both.
local durations = import 'durations.libsonnet';
local series = import 'series.libsonnet';

function(cfg) {
  local p = (import 'promql.libsonnet')(cfg),
  local cm = (import 'baseline-model.libsonnet')(cfg),
  local fn = [cfg.serviceLabel, 'function'],
  local fkey = p.list(fn),
  local skey = cfg.serviceLabel,

  // The two costs, each with the profile type its counter is read from (the
  // alert's `profile_type` label: the profile hotpath-notify diffs).
  kinds:: {
    cpu: {
      profileType: 'cpu',
      unit: 'seconds',
      counter: cfg.functionCpuMetric,
      rate: series.functionCpu,
      perRequest: series.functionCpuPerRequest,
      smoothed: series.functionCpuPerRequestSmoothed,
      sampled: series.functionCpuPerRequestSampled,
      median: series.functionCpuPerRequestMedian,
      spread: series.functionCpuPerRequestSpread,
      reference: series.functionCpuPerRequestReference,
      threshold: series.functionCpuPerRequestThreshold,
      share: series.functionCpuShare,
      shareSmoothed: series.functionCpuShareSmoothed,
      shareSampled: series.functionCpuShareSampled,
      shareCeiling: series.functionCpuShareCeiling,
      shareThreshold: series.functionCpuShareThreshold,
    },
    alloc: {
      profileType: 'alloc_space',
      unit: 'bytes',
      counter: cfg.functionAllocMetric,
      rate: series.functionAlloc,
      perRequest: series.functionAllocPerRequest,
      smoothed: series.functionAllocPerRequestSmoothed,
      sampled: series.functionAllocPerRequestSampled,
      median: series.functionAllocPerRequestMedian,
      spread: series.functionAllocPerRequestSpread,
      reference: series.functionAllocPerRequestReference,
      threshold: series.functionAllocPerRequestThreshold,
      share: series.functionAllocShare,
      shareSmoothed: series.functionAllocShareSmoothed,
      shareSampled: series.functionAllocShareSampled,
      shareCeiling: series.functionAllocShareCeiling,
      shareThreshold: series.functionAllocShareThreshold,
    },
  },

  // The service's request rate by its service label alone (the bridge's key).
  local requests = 'sum by (%s) (%s)' % [skey, series.requests],
  local referenceSince = durations.format(durations.seconds(cfg.regressionAcceptAfter) + durations.seconds(cfg.regressionNoiseMinHistory)),
  // expr read through `read` (as recorded regressionAcceptAfter ago, else
  // now), once the sampled series had a sample `armedAfter` before: a median
  // and spread of a few samples would be too narrow. `current`, when given,
  // replaces expr's current read; `young`, when given, is read as 0 between
  // the two.
  local laggedOrCurrent(sampled, expr, current=null, young=null) = '(\n%(lagged)s)\nor\n%(young)s(\n%(current)s)\n' % {
    local armed(after) = '\nand on (%s)\nlast_over_time(%s[%s] offset %s)' % [fkey, sampled, cm.lastOfNoiseWindow, after],
    lagged: expr(function(s) cm.lagged(s, cm.lastOfNoiseWindow)) + armed(referenceSince),
    young: if young == null then '' else '(\n0 * (\n%s\n)\n)\nor\n' % young,
    current: (if current == null then expr(cm.lastOfNoise) else current) + armed(cfg.regressionNoiseMinHistory),
  },
  // The functions of k the bridge admitted lately in a service it has read
  // long enough to judge: no sample of their own from referenceSince ago
  // while their service's `other` row has one, or, in a service read for
  // less than that, none from regressionNoiseMinHistory ago while `other`
  // has one (a function older than that there has its current reference).
  // Each one is new code, or grew past the bridge's entry share: before it
  // entered, it cost under functionEntryShare of its service (it was in
  // `other`). `now` is the series whose present rows are asked.
  local young(k, now) = std.join('\nor\n', [
    std.rstripChars(|||
      %(now)s
      unless on (%(fkey)s)
      last_over_time(%(s)s[%(w)s] offset %(since)s)
      and on (%(skey)s)
      last_over_time(%(s)s{function="other"}[%(w)s] offset %(since)s)
    ||| % { now: now, s: k.sampled, w: cm.lastOfNoiseWindow, since: since, fkey: fkey, skey: skey }, '\n')
    for since in [referenceSince, cfg.regressionNoiseMinHistory]
  ]),
  // k's rows that are not the service's own code (labelled `origin` by the
  // bridge), over as long as a row's smoothed cost per request outlives its
  // counter (a scrape gap, the bridge's restart).
  local notOwnCode(k) = 'last_over_time(%s[%s])' % [
    p.selector(k.counter, [cfg.profileMetricsSelector, 'origin!=""']),
    durations.format(durations.seconds(cfg.regressionResidualWindow) + durations.seconds(cfg.rateWindow)),
  ],
  // The upper end of a share's range over baselineWindow (ending `offset`
  // ago): its highest sample plus k * its spread (median minus lower
  // quartile), so that the day's sampling noise, met again, stays under it.
  local shareCeiling(s, offset='') = std.rstripChars(|||
    max_over_time(%(s)s[%(w)s]%(o)s)
    + %(k)s * (quantile_over_time(0.5, %(s)s[%(w)s]%(o)s) - quantile_over_time(0.25, %(s)s[%(w)s]%(o)s))
  ||| % { s: s, w: cfg.baselineWindow, o: offset, k: p.num(cfg.regressionNoiseK) }, '\n'),

  // Recorded every evaluationInterval (group hotpath-functions).
  fast(k):: [
    {
      // The function's cost per second (cores; bytes/s), its rows summed over
      // the bridge's instances and target labels.
      record: k.rate,
      expr: 'sum by (%s) (%s)' % [fkey, p.rate(k.counter, [cfg.profileMetricsSelector])],
    },
    {
      // The same per request of its service; none while the service serves nothing.
      record: k.perRequest,
      expr: '%s\n/ on (%s) group_left ()\n(%s > 0)' % [k.rate, skey, requests],
    },
    {
      // Its median over regressionResidualWindow: what the alert compares,
      // blind to a warm-up or a blip that raises fewer than half the minutes.
      record: k.smoothed,
      expr: 'quantile_over_time(0.5, %s[%s])' % [k.perRequest, cfg.regressionResidualWindow],
    },
    {
      // The function's share of its service's profile total: its rate over
      // the sum of its service's rows (`other` included); none while the
      // profile is empty.
      record: k.share,
      expr: '%s\n/ on (%s) group_left ()\n(sum by (%s) (%s) > 0)' % [k.rate, skey, skey, k.rate],
    },
    {
      // Its median over regressionResidualWindow, smoothed as the cost per
      // request is.
      record: k.shareSmoothed,
      expr: 'quantile_over_time(0.5, %s[%s])' % [k.share, cfg.regressionResidualWindow],
    },
  ],

  // Recorded every regressionNoiseInterval (group hotpath-functions-noise).
  noise(k):: [
    // A copy of the smoothed cost per request, the input of the day-long quantiles.
    cm.sampled(k.sampled, k.smoothed),
    {
      // Its median over baselineWindow.
      record: k.median,
      expr: cm.median(k.sampled),
    },
    {
      // Its spread: the median minus the lower quartile, blind to a
      // regression, which only adds values above the median.
      record: k.spread,
      expr: '%s\n- on (%s)\nquantile_over_time(0.25, %s[%s])' % [cm.lastOfNoise(k.median), fkey, k.sampled, cfg.baselineWindow],
    },
    {
      // The reference: the median as recorded regressionAcceptAfter ago;
      // 0 for a function admitted lately in a service read for long (it had
      // no row of its own); else the current median, for a younger service.
      record: k.reference,
      expr: laggedOrCurrent(k.sampled, function(read) read(k.median), young=young(k, cm.lastOfNoise(k.sampled))),
    },
    {
      // The noise threshold: median + k * spread of the same reference day.
      record: k.threshold,
      expr: laggedOrCurrent(k.sampled, function(read) '%s\n+ on (%s)\n%s * %s' % [read(k.median), fkey, p.num(cfg.regressionNoiseK), read(k.spread)]),
    },
    // A copy of the smoothed share, the input of the share's day-long range.
    cm.sampled(k.shareSampled, k.shareSmoothed),
    {
      // The upper end of the share's own range over baselineWindow.
      record: k.shareCeiling,
      expr: shareCeiling(k.shareSampled),
    },
    {
      // The share threshold: that upper end as recorded
      // regressionAcceptAfter ago, read as the cost per request's reference
      // is; for a younger function, the range of the day that ended
      // regressionResidualWindow ago: a maximum, unlike a median, would
      // take in the present change at once and never let it fire.
      record: k.shareThreshold,
      expr: laggedOrCurrent(k.shareSampled, function(read) read(k.shareCeiling), shareCeiling(k.shareSampled, ' offset ' + cfg.regressionResidualWindow)),
    },
  ],

  // The alert's condition for one cost: the smoothed cost per request at or
  // above the function's noise threshold, and risen over its reference by
  // at least functionRegressionMinShare of the service's whole cost per
  // request (the sum of its rows' references, `other` included), and the
  // function's smoothed share of its service's profile above its share
  // threshold, while the service serves >= minRequestRate; never the
  // `other` row. The value is the rise over the reference; labelled with
  // the profile type.
  //
  // A function admitted lately (young, above; its reference is 0) has no
  // noise or share range of its own: it fires when its smoothed share of the
  // profile exceeds functionEntryShare + functionRegressionMinShare (it cost
  // under the entry share before, so its share rose by the floor at least)
  // and its smoothed cost per request that much of the service's whole
  // reference cost per request. A function that only grew past the entry
  // share, or moved from `other` at night as its service's fixed costs
  // gained share, stays under that.
  //
  // Never a row the bridge labels with an `origin`: the runtime's own work
  // (GC workers, the scheduler: no calling code to charge) or the
  // profiler's. Their cost per request follows the load's shape, the
  // machine's contention and the profile's size, which the service alerts
  // judge, and they name no code of the service to change.
  condition(k)::
    local smoothed = '%s{function!="other"}' % k.smoothed;
    local newShare = p.num(cfg.functionEntryShare + cfg.functionRegressionMinShare);
    p.setLabel(|||
      (
        %(smoothed)s
        - on (%(fkey)s)
        %(reference)s
        >= on (%(skey)s) group_left ()
        %(share)s * sum by (%(skey)s) (%(reference)s)
      )
      and on (%(fkey)s)
      (
        %(smoothed)s
        >= on (%(fkey)s)
        %(threshold)s
      )
      and on (%(fkey)s)
      (
        %(shareSmoothed)s
        > on (%(fkey)s)
        %(shareThreshold)s
      )
      and on (%(skey)s)
      %(requests)s >= %(minRate)s
      or
      (
        %(smoothed)s
        >= on (%(skey)s) group_left ()
        %(newShare)s * sum by (%(skey)s) (%(reference)s)
      )
      and on (%(fkey)s)
      %(shareSmoothed)s > %(newShare)s
      and on (%(fkey)s)
      (
        %(young)s
      )
      and on (%(skey)s)
      %(requests)s >= %(minRate)s
    ||| % {
      newShare: newShare,
      young: std.strReplace(young(k, k.smoothed), '\n', '\n  '),
      smoothed: smoothed,
      threshold: cm.lastOfNoise(k.threshold),
      shareSmoothed: k.shareSmoothed,
      shareThreshold: cm.lastOfNoise(k.shareThreshold),
      reference: cm.lastOfNoise(k.reference),
      share: p.num(cfg.functionRegressionMinShare),
      requests: requests,
      minRate: p.num(cfg.minRequestRate),
      fkey: fkey,
      skey: skey,
    }, 'profile_type', k.profileType)
    + '\nunless on (%s)\n%s' % [fkey, notOwnCode(k)],

  // What hotpath-notify reads for a function alert's message, by profile
  // type (catalogue/catalogue.json): `before`, the function's reference cost
  // per request as of the alert's start ({{at}}, filled by the receiver),
  // 0 for a function that had none yet (only a function new to its
  // service's rows fires without one: the reference is recorded every
  // regressionNoiseInterval, the alert may be faster); `now`, its smoothed
  // cost per request. {{selector}} is the alert's service label and
  // function, filled by the receiver.
  catalogue:: {
    [k.profileType]: {
      before: 'last_over_time(%s{{selector}}[%s] @ {{at}}) or 0 * last_over_time(%s{{selector}}[%s] @ {{at}})' % [k.reference, cm.lastOfNoiseWindow, k.smoothed, cm.lastOfNoiseWindow],
      now: '%s{{selector}}' % k.smoothed,
      unit: k.unit,
      // the series whose onset the windows look for
      series: k.perRequest,
    }
    for k in std.objectValues($.kinds)
  },

  // expr (keyed by the service label) with its service's scope labels
  // (cluster, namespace) taken from the service's request rate: the bridge
  // does not know them. One series per service label (a service label in two
  // namespaces is one service to the bridge): topk picks one.
  withScope(expr):: '(\n%s\n)\n+ on (%s) group_left (%s)\ntopk by (%s) (1, 0 * %s)' % [expr, skey, p.list(p.scope), skey, series.requests],
}
