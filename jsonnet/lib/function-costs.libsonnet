// Each function's cost per request of its service, from the counters of
// hotpath-profile-metrics (labels: the service label and `function`; the top
// functions of each service plus function="other", the rest of its profile),
// and the cost model FunctionCostPerRequestRegression judges them by.
//
// The join: the bridge names a service by its service label only (Pyroscope's
// service_name), and a scrape adds its own target labels (instance, and
// namespace under a ServiceMonitor: the bridge's, not the service's), so both
// sides are summed by the service label and the function before dividing.
//
// Why a cost model per function, as the services have one
// (lib/baseline-model.libsonnet): a function's cost is a fixed part (a timer,
// a cache refresh, its share of the GC) plus a part per request, and the two
// move apart with traffic. At the nightly trough the fixed parts dominate a
// profile: a fixed-cost function's cost per request rises by itself, and a
// function paid per request holds a small share of the profile even after it
// regresses. Judged by its cost per request alone, the first pages every
// night; judged by its share of the profile, the second waits for the next
// peak. Each function's cost is instead predicted at the current traffic by
// a line fitted on its own history, fixed + marginal * req/s, and what is
// judged is its excess: its share of its service's profile now above the
// share that prediction makes of the profile, the same measure at any hour,
// whatever the traffic does. The predicted share divides the function's
// prediction by the smaller of two profiles: the profile now, and the one
// that every row's model (`other`'s too) predicts at this traffic. The
// second makes the excess blind to what moves the whole profile: a
// service's cost swings by 10-20% from minute to minute and hour to hour
// (its inputs, the node's load, the GC), every function with it, and
// measured against the profile now that swing was each large function's
// excess, the noise the band had to absorb. The first keeps an improvement
// elsewhere (a smaller profile) from raising everyone else's share. A
// traffic change that the function follows leaves no excess; a regression
// of one function adds its extra cost less the share of it the function
// already held: a function that doubles from 10% of its service to 20% of
// 110% has an excess of 8.2%. The excess is also judged against the
// materiality floor: functionRegressionMinShare of the service at least.
//
// The fit: the service's traffic halves (split at its day's median req/s,
// as the service model splits them), a quantile (functionFitQuantile: the
// median) of the function's cost in each half against the same quantile of
// the service's req/s in it; the
// slope clamped at >= 0 and the intercept at >= 0. Where the service's
// traffic did not vary enough to fit a line, the plain cost per request of
// those points, all of it per request. The fit runs every
// regressionNoiseInterval over baselineWindow, and the prediction reads it as
// it was regressionAcceptAfter ago (the service alerts' lagged reference: a
// change younger than that cannot move its own reference), else the current
// fit for a younger function.
//
// The noise band: the excess's median over regressionResidualWindow,
// sampled every regressionNoiseInterval, has a median and a spread (median
// minus the lower quartile) over baselineWindow; the threshold is that median
// plus the larger of regressionNoiseK spreads and the materiality floor, as
// recorded regressionAcceptAfter ago.
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
      // a busy node makes CPU dearer; the bytes a request allocates stay
      contends: true,
      counter: cfg.functionCpuMetric,
      newMinProfile: cfg.functionNewMinCores,
      perSample: cfg.functionCpuSampleSeconds,
      rate: series.functionCpu,
      perRequest: series.functionCpuPerRequest,
      smoothed: series.functionCpuPerRequestSmoothed,
      byHalf: series.functionCpuByHalf,
      halfQuantile: series.functionCpuHalfQuantile,
      halvesSum: series.functionCpuHalvesSum,
      halvesRequests: series.functionCpuHalvesRequests,
      marginal: series.functionCpuMarginal,
      fixed: series.functionCpuFixed,
      referenceMarginal: series.functionCpuReferenceMarginal,
      referenceFixed: series.functionCpuReferenceFixed,
      admittedLately: series.functionCpuAdmittedLately,
      referencePredicted: series.functionCpuReferencePredicted,
      excess: series.functionCpuExcess,
      excessSmoothed: series.functionCpuExcessSmoothed,
      excessSampled: series.functionCpuExcessSampled,
      excessMedian: series.functionCpuExcessMedian,
      excessSpread: series.functionCpuExcessSpread,
      threshold: series.functionCpuExcessThreshold,
      hold: series.functionCpuExcessHold,
    },
    alloc: {
      profileType: 'alloc_space',
      unit: 'bytes',
      contends: false,
      counter: cfg.functionAllocMetric,
      newMinProfile: cfg.functionNewMinAllocBytes,
      perSample: cfg.functionAllocSampleBytes,
      rate: series.functionAlloc,
      perRequest: series.functionAllocPerRequest,
      smoothed: series.functionAllocPerRequestSmoothed,
      byHalf: series.functionAllocByHalf,
      halfQuantile: series.functionAllocHalfQuantile,
      halvesSum: series.functionAllocHalvesSum,
      halvesRequests: series.functionAllocHalvesRequests,
      marginal: series.functionAllocMarginal,
      fixed: series.functionAllocFixed,
      referenceMarginal: series.functionAllocReferenceMarginal,
      referenceFixed: series.functionAllocReferenceFixed,
      admittedLately: series.functionAllocAdmittedLately,
      referencePredicted: series.functionAllocReferencePredicted,
      excess: series.functionAllocExcess,
      excessSmoothed: series.functionAllocExcessSmoothed,
      excessSampled: series.functionAllocExcessSampled,
      excessMedian: series.functionAllocExcessMedian,
      excessSpread: series.functionAllocExcessSpread,
      threshold: series.functionAllocExcessThreshold,
      hold: series.functionAllocExcessHold,
    },
  },

  // The service's request rate by its service label alone (the bridge's key).
  local requests = 'sum by (%s) (%s)' % [skey, series.requests],
  // A series of the service model's baseline group, by the service label
  // alone, as of its last evaluation.
  local byService(s, matchers='') = 'sum by (%s) (%s)' % [skey, p.lastOfSlow(s + matchers)],
  // The rows that are judged: every one but `other` (the rest of a
  // profile, which has a model only for the profile's prediction).
  local named(s) = '%s{function!="other"}' % s,
  local referenceSince = durations.format(durations.seconds(cfg.regressionAcceptAfter) + durations.seconds(cfg.regressionNoiseMinHistory)),
  // expr read through `read`: as recorded regressionAcceptAfter ago, once
  // `witness` (a series of the noise group: the fit's points, the band's
  // samples) had then had a sample for `mature` (a fit on a whole
  // baselineWindow of points; a band on regressionNoiseMinHistory of
  // samples); else as recorded now, once `witness` had a sample
  // regressionNoiseMinHistory before: a fit or a median and spread of a few
  // samples would be too unsteady. `young`, when given, is read as 0
  // between the two.
  local laggedOrCurrent(witness, expr, mature, young=null) = '(\n%(lagged)s)\nor\n%(young)s(\n%(current)s)\n' % {
    local armed(after) = '\nand on (%s)\nlast_over_time(%s[%s] offset %s)' % [fkey, witness, cm.lastOfNoiseWindow, after],
    lagged: expr(function(s) cm.lagged(s, cm.lastOfNoiseWindow)) + armed(durations.format(durations.seconds(cfg.regressionAcceptAfter) + durations.seconds(mature))),
    young: if young == null then '' else '(\n0 * (\n%s\n)\n)\nor\n' % young,
    current: expr(cm.lastOfNoise) + armed(cfg.regressionNoiseMinHistory),
  },
  // The functions of k the bridge admitted lately in a service it has read
  // long enough to judge: no point of their own fit from referenceSince ago
  // while their service's `other` row has one (the same group's series:
  // no race between a minute's series and a 15m one at the boundary), or, in a service read for
  // less than that, none from regressionNoiseMinHistory ago while `other`
  // has one (a function older than that there has its current reference).
  // Each one is new code, or grew past the bridge's entry share: before it
  // entered, it cost under functionEntryShare of its service (it was in
  // `other`). Its four windows reach persisted blocks, the dearest reads of
  // the pack, so the model's group asks them once a round
  // (k.admittedLately) and the rest read its answer.
  local young(k) = std.join('\nor\n', [
    std.rstripChars(|||
      %(now)s
      unless on (%(fkey)s)
      last_over_time(%(s)s[%(w)s] offset %(since)s)
      and on (%(skey)s)
      last_over_time(%(o)s[%(w)s] offset %(since)s)
    ||| % { now: named(k.rate), s: k.byHalf, o: '%s{function="other"}' % k.byHalf, w: cm.lastOfNoiseWindow, since: since, fkey: fkey, skey: skey }, '\n')
    for since in [referenceSince, cfg.regressionNoiseMinHistory]
  ]),
  // The named rows of k with no cost of their own in the
  // regressionNoiseInterval before the last one while their service's
  // `other` row had one: admitted since the model's last round, which has
  // not yet recorded them in k.admittedLately nor given them a reference.
  local sinceModelRound(k) = '%s\nunless on (%s)\n%s\nand on (%s)\n%s' % [
    named(k.rate),
    fkey,
    beforeModelRound(k.rate),
    skey,
    beforeModelRound('%s{function="other"}' % k.rate),
  ],
  // The rows of k admitted lately, as of this minute: the model's last
  // round's set and the rows admitted since, those without a fit of their
  // own (a row back from a gap has its points of the day, and its set
  // value from the next round).
  local admitted(k) = '%s == 1\nor\n(\n%s\nunless on (%s)\n%s\n)' % [cm.lastOfNoise(k.admittedLately), sinceModelRound(k), fkey, cm.lastOfNoise(k.marginal)],
  // k's rows whose `origin` (the bridge's label) matches `matcher`, over as
  // long as a row's smoothed excess outlives its counter (a scrape gap, the
  // bridge's restart).
  local byOrigin(k, matcher) = 'last_over_time(%s[%s])' % [
    p.selector(k.counter, [cfg.profileMetricsSelector, matcher]),
    durations.format(durations.seconds(cfg.regressionResidualWindow) + durations.seconds(cfg.rateWindow)),
  ],
  // k's rows that are not the service's own code.
  local notOwnCode(k) = byOrigin(k, 'origin!=""'),
  // k's rows of the runtime's own work.
  local runtimeRows(k) = byOrigin(k, 'origin="runtime"'),
  // A busy node, for k's service: the runtime's own rows (labelled `origin`
  // "runtime" by the bridge: the scheduler, lock spinning, GC workers) rose
  // together by functionContentionShare of the service or more above their
  // day's median excess. On a node short of CPU every runtime pays for it in
  // its own work (a descheduled lock holder makes the others spin, threads
  // wake more often) as the service's syscall-heavy code does.
  local busyNode(k) = |||
    sum by (%(skey)s) (
      (
        %(smoothed)s
        - on (%(fkey)s)
        %(median)s
      )
      and on (%(fkey)s)
      %(runtime)s
    ) >= %(share)s
  ||| % {
    smoothed: k.excessSmoothed,
    median: cm.lastOfNoise(k.excessMedian),
    runtime: runtimeRows(k),
    share: p.num(cfg.functionContentionShare),
    fkey: fkey,
    skey: skey,
  },
  // Each row's predicted share of its service's profile this minute: its
  // share less its excess (both of the same sum of rows).
  local predictedShare(k) = '(%(rate)s / on (%(skey)s) group_left () sum by (%(skey)s) (%(rate)s)) - on (%(fkey)s) %(excess)s' % {
    rate: k.rate,
    excess: k.excess,
    fkey: fkey,
    skey: skey,
  },
  // The rows of k a busy node explains: in a service whose node is busy
  // (busyNode), a row that has a prediction and grew this minute by no more
  // than functionContentionRatio times as much, relative to its prediction,
  // as the runtime's rows together did. A node short of CPU makes the
  // runtime and the code that waits on the kernel dearer by one factor; a
  // code change that also makes the runtime work (the GC for its
  // allocations, the locks it takes) grows its own function by more, and
  // new code (a function predicted 0) grows from nothing.
  local contended(k) = |||
    %(excess)s
    / on (%(fkey)s)
    (%(predicted)s > 0)
    <= on (%(skey)s) group_left ()
    %(ratio)s * (
      sum by (%(skey)s) (%(excess)s and on (%(fkey)s) %(runtime)s)
      / on (%(skey)s)
      (sum by (%(skey)s) ((%(predicted)s) and on (%(fkey)s) %(runtime)s) > 0)
    )
    and on (%(skey)s)
    (
    %(busy)s)
  ||| % {
    excess: k.excess,
    predicted: predictedShare(k),
    runtime: runtimeRows(k),
    ratio: p.num(cfg.functionContentionRatio),
    busy: std.rstripChars(busyNode(k), '\n'),
    fkey: fkey,
    skey: skey,
  },
  // The function's half quantile (yHalf) or its service's req/s one (xHalf)
  // in the upper or lower traffic half, the half label summed away. (The
  // noise group's own series are read as their last sample: a backfill that
  // records them in separate passes evaluates each at its own offset, further
  // apart than an instant lookup reaches.)
  local point(s, key, h) = 'sum by (%s) (%s)' % [key, cm.lastOfNoise('%s{half="%s"}' % [s, h])],
  local yHalf(k, h) = point(k.halfQuantile, fkey, h),
  local xHalf(h) = point(series.functionRequestsHalfQuantile, skey, h),
  // The sums of the function's points over the halves both it and its
  // service have, and of its service's req/s points over the same halves.
  // The service's points are quantiles of the halves another group records
  // (requestsByHalf, the baseline's, every baselineInterval): a row can enter
  // a half (the traffic just crossed the day's median) a round before its
  // service's half exists, and a point without its req/s would double the
  // plain ratio until the next round.
  local ySum(k) = 'sum by (%(fkey)s) (\n  %(y)s\n  and on (%(skey)s, half)\n  %(x)s\n)' % {
    x: cm.lastOfNoise(series.functionRequestsHalfQuantile),
    y: cm.lastOfNoise(k.halfQuantile),
    fkey: fkey,
    skey: skey,
  },
  local xSum(k) = 'sum by (%(fkey)s) (\n  sum by (%(skey)s, half) (%(x)s)\n  * on (%(skey)s, half) group_right ()\n  (0 * %(y)s + 1)\n)' % {
    x: cm.lastOfNoise(series.functionRequestsHalfQuantile),
    y: cm.lastOfNoise(k.halfQuantile),
    fkey: fkey,
    skey: skey,
  },
  // The counting noise of a row's share of its service's profile, in the
  // samples its smoothed excess reads (regressionResidualWindow and the rate
  // window before it): a profile is a count of samples, k.perSample seconds
  // or bytes each, and a row of n of them reads +-sqrt(n). Its band was
  // learnt on its reference day's profile; on a quieter night than any it
  // learnt from (a holiday's, a small service's) a share moves by more than
  // that band on chance alone, and a row must rise by
  // functionSampleNoiseK of this besides.
  local samplingNoise(k) = 'sqrt(%(rate)s * %(perWindow)s)\n/ on (%(skey)s) group_left ()\nsum by (%(skey)s) (%(rate)s)' % {
    rate: k.rate,
    perWindow: p.num(k.perSample / (durations.seconds(cfg.regressionResidualWindow) + durations.seconds(cfg.rateWindow))),
    skey: skey,
  },
  // The threshold's or the hold level's distance above the median: the
  // larger of regressionNoiseK spreads and the materiality floor, scaled by
  // share (1 for the threshold).
  local above(read, k, share) = 'clamp_min(%s * %s, %s)' % [p.num(share * cfg.regressionNoiseK), read(k.excessSpread), p.num(share * cfg.functionRegressionMinShare)],
  // The level itself is never under that share of the floor: a median
  // below 0 is a day on which the model over-predicted the function (most
  // often a day on which the function got cheaper, its model not yet
  // learnt), and a threshold under the floor would name a function that
  // costs no more than its model predicts once the model has learnt it.
  local band(k, share) = 'clamp_min(\n%s, %s)' % [
    laggedOrCurrent(k.excessSampled, function(read) '%s\n+ on (%s)\n%s' % [read(k.excessMedian), fkey, above(read, k, share)], cfg.regressionNoiseMinHistory),
    p.num(share * cfg.functionRegressionMinShare),
  ],

  // s as it was in the regressionNoiseInterval before the last one: a row
  // present then has had a round of the model's group since.
  local beforeModelRound(s) = 'last_over_time(%s[%s] offset %s)' % [s, cfg.regressionNoiseInterval, cfg.regressionNoiseInterval],

  // Recorded every functionEvaluationInterval (group hotpath-functions).
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
      // Its median over regressionResidualWindow: the cost per request the
      // alert's message and the dashboards show.
      record: k.smoothed,
      expr: 'quantile_over_time(0.5, %s[%s])' % [k.perRequest, cfg.regressionResidualWindow],
    },
    {
      // What the row's reference model predicts at its service's current
      // req/s (`other`'s too): the excess reads it three times.
      record: k.referencePredicted,
      expr: '%s\n+ on (%s)\n%s * on (%s) group_left ()\n%s' % [cm.lastOfNoise(k.referenceFixed), fkey, cm.lastOfNoise(k.referenceMarginal), skey, requests],
    },
    {
      // The excess: the function's share of its service's profile now (the
      // sum of its rows, `other` included) less its predicted share: what
      // its reference model predicts at the service's current req/s, over
      // the smaller of the profile now and the profile that the reference
      // models of all its rows predict (the profile now where none has a
      // model); none while the profile is empty. A function admitted lately predicts 0: its excess
      // is its share, from its first minute. The model's group records that
      // reference of 0 only at its next round (every
      // regressionNoiseInterval), so until then a row with no cost of its
      // own from before that interval, in a service whose `other` row had
      // one, predicts 0 here; an older row without a reference (its model
      // not yet fitted, or the model's group behind after a restart), and
      // every row of a service new to the rules, has no excess.
      record: k.excess,
      // the named row's prediction: its reference, or 0 for a row admitted
      // since the model's last round (above)
      local prediction = '(\n%s\nor on (%s)\n(\n0 * %s\n)\n)\n' % [k.referencePredicted, fkey, sinceModelRound(k)],
      // every row's reference prediction, `other`'s too, summed: the
      // profile the service's traffic predicts
      local predictedTotal = 'sum by (%s) (%s)' % [skey, k.referencePredicted],
      // the profile now, and the smaller of it and the predicted one
      local total = 'sum by (%s) (%s)' % [skey, k.rate],
      local predicted = '(\n%s\n> 0)' % predictedTotal,
      local smaller = '(\n%s\n<= on (%s)\n%s\nor on (%s)\n%s\nor on (%s)\n%s\n)' % [total, skey, predicted, skey, predicted, skey, total],
      expr: '%s\n/ on (%s) group_left ()\n(%s > 0)\n- on (%s)\n%s/ on (%s) group_left ()\n(%s > 0)' % [named(k.rate), skey, total, fkey, prediction, skey, smaller],
    },
    {
      // Its median over regressionResidualWindow (what the alert compares):
      // blind to a warm-up or a blip that raises fewer than half the minutes.
      record: k.excessSmoothed,
      expr: 'quantile_over_time(0.5, %s[%s])' % [k.excess, cfg.regressionResidualWindow],
    },
  ],

  // Recorded every regressionNoiseInterval, first in the model's group: the
  // service's req/s at functionFitQuantile of each traffic half over
  // baselineWindow, the x of every function model's points (the service
  // model's own points, at baselineHalfQuantile, are another quantile).
  requestsModel:: [
    {
      record: series.functionRequestsHalfQuantile,
      expr: 'quantile_over_time(%s, %s[%s])' % [p.num(cfg.functionFitQuantile), series.requestsByHalf, cfg.baselineWindow],
    },
  ],

  // Recorded every regressionNoiseInterval (group hotpath-functions-model).
  // The model: each function's points by traffic half over baselineWindow,
  // the fit through them and the lagged reference read from it.
  model(k):: [
    {
      // The function's cost now, labelled with the service's traffic half
      // (half="upper" at or above its day's median req/s, "lower" below):
      // the points of the fit (`other`'s too: the witness that its service
      // was read when a function was not).
      record: k.byHalf,
      local when(op, h) = p.setLabel(
        '%s\nand on (%s)\n(%s %s on (%s) %s)' % [k.rate, skey, requests, op, skey, byService(series.requestsBaselineMedian)], 'half', h
      ),
      expr: '%s\nor\n%s' % [when('>=', 'upper'), when('<', 'lower')],
    },
    {
      // Its functionFitQuantile over baselineWindow, per half; `other`'s
      // too, never judged: the profile a service's traffic predicts sums
      // every row's model.
      record: k.halfQuantile,
      expr: 'quantile_over_time(%s, %s[%s])' % [p.num(cfg.functionFitQuantile), k.byHalf, cfg.baselineWindow],
    },
    {
      // The sum of the function's points over the traffic halves its
      // service has points in too (ySum), read by the plain ratio and the
      // intercept below.
      record: k.halvesSum,
      expr: ySum(k),
    },
    {
      // The sum of its service's req/s points over the same halves.
      record: k.halvesRequests,
      expr: xSum(k),
    },
    {
      // The slope between the halves' points: the function's cost per
      // request, where the service's traffic varied enough; else the plain
      // cost per request of its points (of the one half there is, with a
      // traffic that never left it).
      record: k.marginal,
      expr: |||
        clamp_min(
          (%(yHi)s - on (%(fkey)s) %(yLo)s)
          / on (%(skey)s) group_left ()
          (%(xHi)s - on (%(skey)s) %(xLo)s),
          0
        )
        and on (%(skey)s)
        (%(xHi)s - on (%(skey)s) %(xLo)s) / on (%(skey)s) (%(median)s > 0) >= %(spread)s
        or
        %(ySum)s
        / on (%(fkey)s)
        (%(xSum)s > 0)
      ||| % {
        yHi: yHalf(k, 'upper'),
        yLo: yHalf(k, 'lower'),
        xHi: xHalf('upper'),
        xLo: xHalf('lower'),
        ySum: cm.lastOfNoise(k.halvesSum),
        xSum: cm.lastOfNoise(k.halvesRequests),
        median: byService(series.requestsBaselineMedian),
        spread: p.num(cfg.baselineMinTrafficSpread),
        fkey: fkey,
        skey: skey,
      },
    },
    {
      // The intercept through the halves' points at that slope: the
      // function's fixed cost (0 where the slope is the plain ratio).
      record: k.fixed,
      expr: |||
        clamp_min(
          (
            %(ySum)s
            - on (%(fkey)s)
            %(marginal)s * on (%(fkey)s) %(xSum)s
          ) / 2,
          0
        )
      ||| % {
        ySum: cm.lastOfNoise(k.halvesSum),
        xSum: cm.lastOfNoise(k.halvesRequests),
        marginal: cm.lastOfNoise(k.marginal),
        fkey: fkey,
      },
    },
    {
      // 1 for a function the bridge admitted lately (young, above), 0 for
      // the other named rows: what the reference rules below and the alert
      // read, from the head, in place of young's four lagged windows. A
      // row admitted since this round is caught by sinceModelRound until
      // the next one records it.
      record: k.admittedLately,
      expr: '(\n0 * (\n%s\n) + 1\n)\nor\n0 * %s' % [young(k), named(k.rate)],
    },
    {
      // The reference model's slope: as fitted regressionAcceptAfter ago, on
      // a whole baselineWindow of the function's points; 0 for a function
      // admitted lately in a service read for long (it had no row of its
      // own); else the current fit, for a younger one.
      record: k.referenceMarginal,
      expr: laggedOrCurrent(k.byHalf, function(read) read(k.marginal), cfg.baselineWindow, '%s\nand on (%s)\n%s == 1' % [cm.lastOfNoise(k.marginal), fkey, cm.lastOfNoise(k.admittedLately)]),
    },
    {
      // Its intercept, read alike.
      record: k.referenceFixed,
      expr: laggedOrCurrent(k.byHalf, function(read) read(k.fixed), cfg.baselineWindow, '%s\nand on (%s)\n%s == 1' % [cm.lastOfNoise(k.fixed), fkey, cm.lastOfNoise(k.admittedLately)]),
    },
  ],

  // Recorded every regressionNoiseInterval (group hotpath-functions-noise).
  // The noise band of the excess over that model: its median and spread
  // over baselineWindow, the threshold and the hold level.
  noise(k):: [
    {
      // A copy of the smoothed excess, the input of the day-long quantiles,
      // once the function's row is a baselineWindow old: the excess of a
      // model still growing into its window (the fit of a few hours, all of
      // them night) sits at another level than a mature model's, and would
      // set the band the mature excess is judged against.
      record: k.excessSampled,
      expr: '%s\nand on (%s)\nlast_over_time(%s[%s] offset %s)' % [k.excessSmoothed, fkey, k.byHalf, cm.lastOfNoiseWindow, cfg.baselineWindow],
    },
    {
      // Its median over baselineWindow.
      record: k.excessMedian,
      expr: cm.median(k.excessSampled),
    },
    {
      // Its spread: the median minus the lower quartile, blind to a
      // regression, which only adds values above the median.
      record: k.excessSpread,
      expr: '%s\n- on (%s)\nquantile_over_time(0.25, %s[%s])' % [cm.lastOfNoise(k.excessMedian), fkey, k.excessSampled, cfg.baselineWindow],
    },
    {
      // The threshold: median + max(regressionNoiseK * spread,
      // functionRegressionMinShare), of the day that ended
      // regressionAcceptAfter ago, else of the current day.
      record: k.threshold,
      expr: band(k, 1),
    },
    {
      // The hold level: regressionHoldShare of the way from the same median
      // to the threshold. A firing alert holds while the smoothed excess
      // stays at or above it (hysteresis, as the service alerts hold).
      record: k.hold,
      expr: band(k, cfg.regressionHoldShare),
    },
  ],

  // The alert's condition for one cost. A page starts on the smoothed
  // excess at or above the function's threshold and functionSampleNoiseK
  // times the counting noise of its share in the profile now
  // (samplingNoise); or on the excess of the evaluation (unsmoothed) at or
  // above both its threshold and functionStepShare: a step that large needs
  // no median to tell it from noise, and `for:` holds it as the service
  // alerts' step path is held (the median crosses only once the step fills
  // half its window, 10 minutes later); or, for a function admitted lately
  // (admitted, above: it has no band of its own and predicts 0, so its excess
  // is its share of the profile), on an excess above functionEntryShare +
  // functionRegressionMinShare (it cost under the entry share before, so
  // its share rose by the floor at least), in a profile of
  // functionNewMinCores (functionNewMinAllocBytes) at least: a smaller one
  // holds too few samples to tell a 4% share from a 1% one, and the set a
  // young bridge measured in it, which is what "admitted lately" rests on,
  // is as uncertain. Those start while the service serves at all, not only
  // at minRequestRate: the excess is a share of the profile, whose noise is
  // its sample count (guarded above), not a ratio to the request count, and
  // a service whose nights fall under 1 req/s would otherwise name a
  // night's regression only in the morning. Once the alert fires for it
  // (its ALERTS series of the last evaluation) it holds while the smoothed
  // excess stays at or above its hold level, whatever the traffic: a
  // function paid per request that still costs more at the nightly low
  // keeps its page, and one whose service stops serving loses its excess
  // with its requests. Never the `other` row. The value is the excess, a
  // share of the service; labelled with the profile type.
  //
  // Not for a CPU row a busy node explains (contended): a function that got
  // dearer with everything else that waits for the kernel or the scheduler,
  // and by no more, is no code change; it waits until the node is calm.
  //
  // Never a row the bridge labels with an `origin`: the runtime's own work
  // (GC workers, the scheduler: no calling code to charge) or the
  // profiler's. Their cost follows the load's shape, the machine's
  // contention and the profile's size, which the service alerts judge, and
  // they name no code of the service to change.
  condition(k, alertName)::
    local newShare = p.num(cfg.functionEntryShare + cfg.functionRegressionMinShare);
    p.setLabel(|||
      (
        (
          %(smoothed)s
          >= on (%(fkey)s)
          %(threshold)s
          >= on (%(fkey)s)
          %(sampleK)s * %(sampling)s
          or
          %(raw)s
          >= on (%(fkey)s)
          clamp_min(%(threshold)s, %(step)s)
          or
          (%(smoothed)s > %(newShare)s or %(raw)s >= %(step)s)
          and on (%(fkey)s)
          (
            %(young)s
          )
          and on (%(skey)s)
          sum by (%(skey)s) (%(rate)s) >= %(newMin)s
        )
        and on (%(skey)s)
        %(requests)s > 0
        or
        (
          %(smoothed)s
          >= on (%(fkey)s)
          %(hold)s
          and on (%(fkey)s)
          ALERTS{alertname="%(name)s", alertstate="firing", profile_type="%(type)s"}
        )
      )
    ||| % {
      name: alertName,
      type: k.profileType,
      newShare: newShare,
      sampleK: p.num(cfg.functionSampleNoiseK),
      sampling: std.strReplace(samplingNoise(k), '\n', '\n    '),
      rate: k.rate,
      newMin: p.num(k.newMinProfile),
      young: std.strReplace(admitted(k), '\n', '\n      '),
      smoothed: k.excessSmoothed,
      raw: k.excess,
      step: p.num(cfg.functionStepShare),
      threshold: cm.lastOfNoise(k.threshold),
      hold: cm.lastOfNoise(k.hold),
      requests: requests,
      fkey: fkey,
      skey: skey,
    }, 'profile_type', k.profileType)
    + '\nunless on (%s)\n%s' % [fkey, notOwnCode(k)]
    + (if k.contends then '\nunless on (%s)\n(\n%s)' % [fkey, std.rstripChars(contended(k), '\n')] else ''),

  // What hotpath-notify reads for a function alert's message, by profile
  // type (catalogue/catalogue.json): `before`, what the function's reference
  // model as of the alert's start ({{at}}, filled by the receiver) predicts
  // per request at the service's current traffic (0 for a function admitted
  // lately: it predicts nothing; only such a function fires without a
  // reference); `now`, its smoothed cost per request. {{selector}} is the
  // alert's service label and function, filled by the receiver.
  catalogue:: {
    [k.profileType]: {
      local at(s) = 'last_over_time(%s{{selector}}[%s] @ {{at}})' % [s, cm.lastOfNoiseWindow],
      before: '(\n%s\n/ on (%s) group_left ()\n(%s > 0)\n+ on (%s)\n%s\n)\nor 0 * last_over_time(%s{{selector}}[%s] @ {{at}})' % [
        at(k.referenceFixed),
        skey,
        requests,
        fkey,
        at(k.referenceMarginal),
        k.smoothed,
        cm.lastOfNoiseWindow,
      ],
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
