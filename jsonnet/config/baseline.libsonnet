// Knobs of the self baseline and its noise model: the cost model's history
// and fit, the fixed factors, and the noise band with its floors, hysteresis
// and acceptance. They steer rules/baseline.libsonnet, rules/noise.libsonnet
// (lib/baseline-model.libsonnet), CPUPerRequestRegression and
// AllocationsPerRequestRegression, and the function alert's noise.

{
  _config+:: {
    // ---- Rules and alerts: the self baseline (cost model) ----------------------
    // CPUPerRequestRegression and AllocationsPerRequestRegression judge a service
    // against its own cost model, CPU = fixed + marginal * req/s, fitted on its
    // history (jsonnet/rules/baseline.libsonnet explains the method).

    // The history the model is fitted on. 1d sees a whole day and night. An
    // incident longer than about half of a traffic half (roughly 6h at the daily
    // peak with 1d) starts to become the new normal; '3d' tolerates longer ones
    // but costs 3x the baseline group's time and keeps yesterday's regime longer
    // after a deliberate change.
    baselineWindow: '1d',

    // How often the model is refitted. Its inputs change slowly; 5m keeps the
    // pack cheap. Raise it on a very large fleet, e.g. '10m' (the alerts read the
    // last fit for up to two intervals).
    baselineInterval: '5m',

    // No model, no fallback and so no regression alert until a service has this
    // much history in the window: a new service is silent rather than judged
    // against a morning. Example: '12h' to wait for a day and a night.
    baselineMinHistory: '6h',

    // The model is fitted only when traffic varied enough: the two halves' typical
    // req/s must differ by this share of the median. Below it the plain median
    // CPU/request is used; 0.25 bounds that fallback's error from fixed costs
    // below the 1.5x threshold. Raise it (e.g. 0.5) if fits look noisy.
    baselineMinTrafficSpread: 0.25,

    // The line goes through this quantile of each traffic half (the same quantile
    // of req/s and of CPU). A healthy service's points all lie on its cost curve,
    // so any quantile finds it; a low one ignores an incident that pushes CPU up
    // in up to (1 - q) of a half. 0.5 is the textbook resistant line.
    baselineHalfQuantile: 0.25,

    // CPUPerRequestRegression fires at CPU >= this multiple of the prediction;
    // AllocationsPerRequestRegression at allocation bytes/s >= its multiple.
    cpuRegressionFactor: 1.5,
    allocRegressionFactor: 2,

    // ---- Rules and alerts: the noise model of the self baseline ----------------
    // The fixed factors above catch big changes at once. Smaller, lasting ones
    // (+30% CPU per request after a deploy) are caught against each service's
    // own noise: the residual, measured / predicted by the cost model, its
    // median over regressionResidualWindow, is sampled every
    // regressionNoiseInterval once the model is fitted on a whole
    // baselineWindow, and its median and spread (median minus lower quartile,
    // the MAD of a symmetric noise) over baselineWindow are recorded
    // (rules/noise.libsonnet). The alerts also fire when that residual stays
    // above max(median * (1 + floor), median + k * spread) for their `for:`.

    // How far above its typical residual a service must be, in spreads. 3 is
    // the usual robust band (median + 3 MAD): on a noise that looks normal it
    // is about 2 standard deviations of the smoothed residual, and `for:` asks
    // for it to hold 15 minutes. Raise it (e.g. 5) for a service whose noise has
    // long runs (batch jobs, cache warm-ups) that page you; lower it (e.g. 2)
    // only with a floor that keeps the alert material.
    regressionNoiseK: 3,

    // The materiality floors: a change smaller than this share of the typical
    // residual never fires, however quiet the service. 25% of CPU per request
    // and 40% of allocated bytes per request (allocations are noisier and cost
    // less per byte than CPU) are what is worth someone's afternoon. Lower them
    // (e.g. 0.1) on a large, steady fleet where 10% is real money; raise them on
    // a fleet of small services where only big changes matter.
    cpuRegressionFloor: 0.25,
    allocRegressionFloor: 0.4,

    // The materiality floor in cores: CPUPerRequestRegression starts to fire
    // only when the CPU above the prediction is at least this much (the
    // smoothed residual's excess for the noise path). A service of a few
    // thousandths of a core (a sidecar, a cache hit served from memory) can
    // be 20-60% dearer per request while its node is busy, with no code
    // changed; a page for 0.005 cores costs more than the cores. Once firing,
    // the hold does not need it: a change that paged at peak is held through
    // the night. 0 turns it off; raise it (e.g. 0.05) on a fleet of
    // mostly large services.
    cpuRegressionMinCores: 0.01,

    // The residual the noise path compares is the median of the minute's
    // residual (CPU or allocations over the prediction) over this window: the
    // median ignores anything that raises fewer than half of the window's
    // minutes, so a restart's warm-up of up to about 8 minutes (10 minutes
    // above the floor once the 5m rate has smeared it) or a blip never moves
    // it, and it smooths minute-to-minute noise about as well as a 13m mean.
    // With `for:` 15m a lasting change fires about 30 minutes after its onset.
    // Raise it (e.g. '30m') for services whose warm-ups last longer, or very
    // noisy, quiet ones, at the price of later alerts.
    regressionResidualWindow: '20m',

    // How often the residual is sampled for its median and spread (their own
    // group, hotpath-noise). They describe a whole day and move slowly, and
    // each refit reads a day of samples: three baseline intervals (15m) by
    // default, 96 samples a day. Lower it (e.g. '5m') to let a new service's
    // band settle sooner; raise it (e.g. '30m') on a very large fleet.
    regressionNoiseInterval: local d = import '../lib/durations.libsonnet'; d.format(3 * d.seconds($._config.baselineInterval)),

    // The noise path waits until the residual has been sampled for this long:
    // a spread from a few samples would be too narrow. Sampling itself starts
    // once the cost model is fitted on a whole baselineWindow (residuals of a
    // model still growing into its window sit at another level), so a new
    // service gets the noise threshold baselineWindow + this after its first
    // scrape (30h by default); until then only the fixed factors apply.
    // Example: '12h' to see a night and a day of noise first.
    regressionNoiseMinHistory: '6h',

    // When a lasting change of a service's cost becomes its new normal. The
    // regression alerts judge the present against the cost model and the
    // noise band as they were recorded this long ago, so a change younger
    // than this is judged against data from before it and cannot teach the
    // baseline that it is normal: the alert fires within the hour whatever
    // the hour it begins, and holds while the change lasts. After this long
    // the reference model starts to learn the change (a few hours more for
    // it to fill a traffic half), the alert resolves, and the new cost is the
    // normal the next regression is judged against. 1d gives on-call a whole
    // day and night to fix or accept a change and costs two lookups a day
    // back per service. Longer (e.g. '3d') keeps a weekend's regression
    // firing until Monday, at the price of judging against an older model
    // (a deliberate cost change pages for as long). Shorter (e.g. '12h')
    // accepts sooner. A service younger than baselineWindow +
    // regressionNoiseMinHistory + this (54h) is judged against its current
    // model and band, which learn a change within hours.
    regressionAcceptAfter: '1d',

    // Hysteresis of CPUPerRequestRegression and AllocationsPerRequestRegression:
    // they fire when the smoothed residual crosses the noise threshold, and
    // once firing they hold while it stays at or above the hold level, this
    // share of the way from the typical residual (the band's median) to the
    // threshold (job:..._residual_hold). A +30% change on a service with
    // 10-20% noise a minute sits a few percent above its threshold and its
    // 20m median dips under it for longer than regressionKeepFiringFor; it
    // rarely falls halfway back to normal, while a fix brings it all the
    // way back (the alert resolves as before). 1 turns the hysteresis off;
    // lower (e.g. 0.3) holds a noisier service's change more surely, at the
    // price of holding a change that shrinks to a third of the threshold's
    // distance. It never makes an alert fire: only the threshold does.
    regressionHoldShare: 0.5,

    // How long CPUPerRequestRegression and AllocationsPerRequestRegression
    // stay firing after their condition last held (Prometheus's
    // keep_firing_for). Once firing, a change holds at the hold level
    // (regressionHoldShare); this rides out the rarer dips of the noise under
    // that level, so the alert neither resolves nor waits its `for:` again
    // while the change lasts. A fix is still told within the hour: the
    // smoothed residual falls under the hold level about 10 minutes after
    // it, the alert resolves this long later. Raise it (e.g. '45m') for very
    // noisy services whose dips last longer; '0s' resolves at the first dip.
    regressionKeepFiringFor: '30m',
  },
}
