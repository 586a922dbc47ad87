// The self baseline's cost model, one builder for every cost a service has
// (CPU seconds, allocated bytes): value = fixed + marginal * req/s, fitted per
// service by a two-group resistant line (Wald, Tukey) over baselineWindow.
//
// Why this and not least squares or a plain median: CPU per request rises by
// itself when traffic drops 10x at night (fixed costs spread over fewer
// requests), so a plain "CPU/request vs its median" alert pages every night; and
// least squares over a day is dragged by the incident itself, so the alert
// resolves while the incident goes on. The resistant line uses only quantiles:
//
//   1. split the window's points at the median req/s into an upper and a lower
//      half (gated series, label half="upper"|"lower", recorded every
//      baselineInterval by comparing the current req/s with that median);
//   2. take the same low quantile q (baselineHalfQuantile) of req/s and of the
//      cost in each half: two points (x_lo, y_lo), (x_hi, y_hi). A healthy
//      service's points lie on its increasing cost curve, so the pair found by
//      one quantile is a point of that curve; an incident pushes the cost up in
//      some of a half's points and moves the pair only when it covers more than
//      (1 - q) of that half;
//   3. marginal = (y_hi - y_lo) / (x_hi - x_lo), clamped at >= 0;
//      fixed = mean over the halves of (y - marginal * x), clamped at >= 0;
//   4. the model exists only when traffic varied enough, (x_hi - x_lo) / median
//      >= baselineMinTrafficSpread, and the service has baselineMinHistory.
//
// The prediction at the current req/s, fixed + marginal * req/s, falls back to
// the plain cost per request of those points, (y_hi + y_lo) / (x_hi + x_lo)
// (or of the one half there is), times req/s when no model exists (flat
// traffic): as robust as the line, and no day-long read of its own. Without
// enough history there is no prediction: no baseline, no alert.
//
// The prediction the alerts judge uses the model as it was fitted
// regressionAcceptAfter ago (the reference), once the service had a whole
// baselineWindow of history then: a lasting regression moves the line once it
// covers most of a traffic half, within an hour or two when it begins at
// night, and judged against a model that has learnt it the alert resolves
// while it goes on. The reference was fitted on a day that ended before any
// change younger than regressionAcceptAfter, so such a change is held; after
// that it is learnt, and is the new normal. A lagged read, not a fit that
// leaves out the minutes above the threshold: that fit would read the
// residual it produces (a rule that depends on itself), which a backfill
// evaluating one dependency level per pass cannot evaluate, and a lag is two
// lookups a day back per service. Younger services are judged against the
// current model.
local durations = import 'durations.libsonnet';
local series = import 'series.libsonnet';

function(cfg) {
  local p = (import 'promql.libsonnet')(cfg),
  local key = p.list(p.service),
  local window = cfg.baselineWindow,
  local minHistory = durations.seconds(cfg.baselineMinHistory),
  local hasHistory = '%s >= %d' % [series.requestsBaselineHistory, minHistory],
  local half(s, h) = 'sum by (%s) (%s{half="%s"})' % [key, s, h],

  // The history check counts, at steps of a twelfth of baselineMinHistory, the
  // steps at which the service had a request rate: interval-independent (the
  // same in promtool at 1m as on a ruler at 5m) and cheap.
  local historyStep = minHistory / 12,
  historySeconds(s):: 'count_over_time(%s[%s:%s]) * %d' % [s, window, durations.format(historyStep), historyStep],
  // A cheaper, coarser check for many series (upstream edges): the series
  // existed baselineMinHistory ago, one lookup instead of a day's steps.
  existedMinHistoryAgo(s):: '%s offset %s' % [s, cfg.baselineMinHistory],

  // Seconds of request history in the baseline window.
  history:: {
    record: series.requestsBaselineHistory,
    expr: $.historySeconds(series.requests),
  },

  // Day-long medians read a copy of their input recorded by the baseline group
  // itself, every baselineInterval: a fifth of the samples of the 1m series to
  // decode and sort, the same median. (A subquery, x[1d:5m], would be dearer
  // still: the engine re-reads a chunk at every step.)
  // A copy of s recorded by the group itself (the `...sampled` series).
  sampled(record, s):: { record: record, expr: s },
  // Two noise-group intervals: the latest of its samples is always inside.
  lastOfNoiseWindow:: durations.format(2 * durations.seconds(cfg.regressionNoiseInterval)),
  lastOfNoise(s):: 'last_over_time(%s[%s])' % [s, $.lastOfNoiseWindow],
  // The latest sample of a series as it was regressionAcceptAfter ago (of a
  // baseline-group series by default; of a noise-group one with
  // window=lastOfNoiseWindow): what the alerts judge against, recorded before
  // a change that began less than regressionAcceptAfter ago. `at` (' @ T')
  // reads it as it was at time T instead of now.
  lagged(s, window=durations.format(2 * durations.seconds(cfg.baselineInterval)), at=''):: 'last_over_time(%s[%s]%s offset %s)' % [s, window, at, cfg.regressionAcceptAfter],
  median(s):: 'quantile_over_time(0.5, %s[%s])' % [s, window],

  requestsMedian:: [
    $.sampled(series.requestsSampled, series.requests),
    {
      // The median req/s over the baseline window: where the halves split.
      record: series.requestsBaselineMedian,
      expr: $.median(series.requestsSampled),
    },
  ],

  // `value` (a job-level rate) recorded under `record` with half="upper" when
  // the current req/s is at or above the window's median, "lower" below it
  // (the `..._by_half` series).
  gate(record, value):: {
    local when(op, h) = p.setLabel(
      '%s and on (%s) (%s %s on (%s) %s)' % [value, key, series.requests, op, key, series.requestsBaselineMedian], 'half', h
    ),
    record: record,
    expr: '%s\nor\n%s' % [when('>=', 'upper'), when('<', 'lower')],
  },

  // A low quantile of a gated series over the window, per half.
  halfQuantile(record, byHalf):: {
    record: record,
    expr: 'quantile_over_time(%s, %s[%s])' % [p.num(cfg.baselineHalfQuantile), byHalf, window],
  },

  // A cost's model. `m` names its series:
  //   value, perRequest          the job-level rate and its per-request ratio
  //   byHalf, halfQuantile       the gated rate and its per-half quantile
  //   perRequestRatio            the fallback
  //   marginal, fixed            the fitted parts
  //   predicted, perRequestPredicted   the prediction at the current traffic
  model(m):: {
    local xHi = half(series.requestsHalfQuantile, 'upper'),
    local xLo = half(series.requestsHalfQuantile, 'lower'),
    local yHi = half(m.halfQuantile, 'upper'),
    local yLo = half(m.halfQuantile, 'lower'),
    local dx = '(%s - on (%s) %s)' % [xHi, key, xLo],
    local referenceSince = durations.format(durations.seconds(cfg.regressionAcceptAfter) + durations.seconds(cfg.regressionNoiseMinHistory)),
    // fixed + marginal * req/s, or the fallback ratio * req/s, each part
    // read through `read` (the last fit, or the fit regressionAcceptAfter ago).
    local predictAt(read) = |||
      (
        %(fixed)s
        + on (%(key)s)
        (%(marginal)s * on (%(key)s) %(requests)s)
      )
      or
      (%(ratio)s * on (%(key)s) %(requests)s)
    ||| % {
      fixed: read(m.fixed),
      marginal: read(m.marginal),
      ratio: read(m.perRequestRatio),
      requests: series.requests,
      key: key,
    },
    // What the reference model predicts at the current req/s (or its
    // fallback times req/s): the model as fitted regressionAcceptAfter ago,
    // once the service's noise band of then is armed too (it had a whole
    // baselineWindow of history regressionAcceptAfter +
    // regressionNoiseMinHistory ago: one lookup), so that the model and the
    // band the alerts judge against switch to the reference together; else
    // (a younger service) the model fitted now. Each part read as of `at`
    // (' @ T': the reference at time T, at today's traffic), or now.
    local reference(at='') = '(\n%(lagged)s)\nand on (%(key)s)\n%(laggedHistory)s >= %(window)d\nor\n(\n%(current)s)\n' % {
      lagged: predictAt(function(s) $.lagged(s, at=at)),
      current: predictAt(function(s) p.lastOfSlow(s, at)),
      laggedHistory: 'last_over_time(%s[%s]%s offset %s)' % [series.requestsBaselineHistory, durations.format(2 * durations.seconds(cfg.baselineInterval)), at, referenceSince],
      window: durations.seconds(window),
      key: key,
    },

    // Recorded by the baseline group (every baselineInterval), in this order.
    slow:: [
      $.gate(m.byHalf, m.value),
      $.halfQuantile(m.halfQuantile, m.byHalf),
      {
        // The fallback: the plain cost per request of the two points.
        record: m.perRequestRatio,
        expr: p.and(
          p.ratio('sum by (%s) (%s)' % [key, m.halfQuantile], 'sum by (%s) (%s)' % [key, series.requestsHalfQuantile], p.service),
          hasHistory,
          p.service,
        ),
      },
      {
        // The line's slope: the marginal cost per request, where traffic varied enough.
        record: m.marginal,
        expr: |||
          clamp_min(
            (%(yHi)s - on (%(key)s) %(yLo)s)
            / on (%(key)s)
            %(dx)s,
            0
          )
          and on (%(key)s)
          (%(dx)s / on (%(key)s) (%(median)s > 0) >= %(spread)s)
          and on (%(key)s)
          %(historyOK)s
        ||| % {
          yHi: yHi,
          yLo: yLo,
          dx: dx,
          key: key,
          median: series.requestsBaselineMedian,
          spread: p.num(cfg.baselineMinTrafficSpread),
          historyOK: hasHistory,
        },
      },
      {
        // The line's intercept, averaged over the two points.
        record: m.fixed,
        expr: |||
          clamp_min(
            (
              (%(yHi)s - on (%(key)s) (%(marginal)s * on (%(key)s) %(xHi)s))
              + on (%(key)s)
              (%(yLo)s - on (%(key)s) (%(marginal)s * on (%(key)s) %(xLo)s))
            ) / 2,
            0
          )
        ||| % { yHi: yHi, yLo: yLo, xHi: xHi, xLo: xLo, key: key, marginal: m.marginal },
      },
    ],

    // Recorded every evaluationInterval: the prediction follows the traffic.
    fast:: [
      {
        // The cost the reference model predicts at the current req/s (or its
        // fallback times req/s).
        record: m.predicted,
        expr: reference(),
      },
      {
        // The same per request: the baseline band of the dashboards.
        record: m.perRequestPredicted,
        expr: p.ratio(m.predicted, series.requests, p.service),
      },
      {
        // The residual: the cost over the prediction, now (what the fixed
        // factors judge) ...
        record: m.residual,
        expr: p.ratio(m.value, m.predicted, p.service),
      },
      {
        // ... and its median over regressionResidualWindow (what the noise
        // path judges): the minutes that had a prediction, no others. The
        // median, not the mean: a restart's warm-up or a blip raises fewer
        // than half of the window's minutes and so does not move it, while
        // a lasting change raises all of them.
        record: m.residualSmoothed,
        expr: 'quantile_over_time(0.5, %s[%s])' % [m.residual, cfg.regressionResidualWindow],
      },
    ],

    // What hotpath-notify reads when a regression alert resolves (through
    // catalogue/catalogue.json), to tell "recovered" from "the new normal":
    // `before`, the cost per request the reference model as of the alert's
    // start ({{at}}, filled by the receiver) predicts at the current traffic;
    // `now`, the measured cost per request over regressionResidualWindow;
    // `threshold`, the noise path's ratio as of the alert's start, beside
    // the fixed `factor`. The model's own expressions, so that the receiver
    // never restates it.
    outcome(factor):: {
      before: p.ratio('(\n%s)' % reference(' @ {{at}}'), series.requests, p.service),
      now: 'quantile_over_time(0.5, %s[%s])' % [m.perRequest, cfg.regressionResidualWindow],
      threshold: 'last_over_time(%s[%s] @ {{at}})' % [m.residualThreshold, $.lastOfNoiseWindow],
      factor: factor,
      acceptAfterSeconds: durations.seconds(cfg.regressionAcceptAfter),
      unit: m.unit,
    },

    // The threshold of a median and spread read through `read`, armed once
    // the residual was sampled `armedAfter` before; with share < 1, the
    // level that share of the way from the median to it (median + share *
    // max(median * floor, k * spread): both terms scaled alike).
    local threshold(read, armedAfter, share=1) = |||
      %(median)s * %(onePlusFloor)s
      + on (%(key)s)
      clamp_min(%(k)s * %(spread)s - on (%(key)s) %(median)s * %(floor)s, 0)
      and on (%(key)s)
      last_over_time(%(sampled)s[%(lookback)s] offset %(armedAfter)s)
    ||| % {
      median: read(m.residualMedian),
      spread: read(m.residualSpread),
      sampled: m.residualSampled,
      lookback: $.lastOfNoiseWindow,
      onePlusFloor: p.num(1 + share * m.floor),
      floor: p.num(share * m.floor),
      k: p.num(share * cfg.regressionNoiseK),
      armedAfter: armedAfter,
      key: key,
    },

    // The threshold (share 1) or the hold level of the median and spread as
    // they were regressionAcceptAfter ago, else of the current ones.
    local bandLevel(share) = '(\n%(lagged)s)\nor\n(\n%(current)s)\n' % {
      lagged: threshold(function(s) $.lagged(s, $.lastOfNoiseWindow), referenceSince, share),
      current: threshold($.lastOfNoise, cfg.regressionNoiseMinHistory, share),
    },

    // The noise model, recorded by its own group every regressionNoiseInterval:
    // the residual's day-long median and spread, and the residual above which
    // the regression alerts fire (see rules/noise.libsonnet).
    noise:: [
      {
        // The smoothed residual, sampled only once the cost model is fitted
        // on a whole baselineWindow of history: the residuals of a model
        // still growing into its window (a new service's first day) sit at
        // another level, often far below the mature model's, and would set
        // the median and spread the mature residuals are judged against.
        record: m.residualSampled,
        expr: '%(smoothed)s\nand on (%(key)s)\n%(history)s >= %(window)d' % {
          smoothed: m.residualSmoothed,
          history: p.lastOfSlow(series.requestsBaselineHistory),
          window: durations.seconds(window),
          key: key,
        },
      },
      {
        // The smoothed residual's median over the baseline window.
        record: m.residualMedian,
        expr: $.median(m.residualSampled),
      },
      {
        // (The noise group's own series are read as their last sample: a
        // backfill that records them in separate passes evaluates each at
        // its own offset, further apart than an instant lookup reaches.)
        // The median minus the lower quartile: the median absolute deviation
        // of a symmetric noise, and blind to a regression, which only adds
        // residuals above the median.
        record: m.residualSpread,
        expr: '%(median)s\n- on (%(key)s)\nquantile_over_time(0.25, %(sampled)s[%(window)s])' % {
          median: $.lastOfNoise(m.residualMedian),
          sampled: m.residualSampled,
          window: window,
          key: key,
        },
      },
      {
        // max(median * (1 + floor), median + k * spread), written as
        // a + clamp_min(b - a, 0), of the median and spread as they were
        // regressionAcceptAfter ago (a day of residuals from before any
        // change younger than that: a lasting regression would raise the
        // current median once it covers half of the window, and the alert
        // would resolve while it goes on), or of the current ones while the
        // lagged are missing (a service younger than baselineWindow +
        // regressionNoiseMinHistory + regressionAcceptAfter). Either only
        // once the residual had been sampled for regressionNoiseMinHistory
        // (a sample that long before: one lookup, not a count of the day's
        // samples): a spread of a few samples would be too narrow.
        record: m.residualThreshold,
        expr: bandLevel(1),
      },
      {
        // The hold level: regressionHoldShare of the way from the same
        // median to the threshold. A regression alert that is firing keeps
        // its condition while the smoothed residual stays at or above it
        // (hysteresis: a change near the threshold on a noisy service dips
        // under the threshold, rarely under this), and fires only when the
        // threshold itself is crossed.
        record: m.residualHold,
        expr: bandLevel(cfg.regressionHoldShare),
      },
    ],
  },
}
