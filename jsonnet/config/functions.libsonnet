// Knobs of functions: hotpath-profile-metrics' counters and
// FunctionCostPerRequestRegression's floors. They steer rules/functions.libsonnet
// (lib/function-costs.libsonnet), alerts/functions.libsonnet and the
// functions dashboard.

{
  _config+:: {
    // ---- Rules and alerts: functions (hotpath-profile-metrics) ------------------

    // The counters hotpath-profile-metrics exports, one row per service and
    // function (seconds of CPU; bytes allocated). Change them only if you
    // renamed them on the way in (a recording rule, a remote-write rename).
    functionCpuMetric: 'hotpath_profile_cpu_seconds_total',
    functionAllocMetric: 'hotpath_profile_alloc_bytes_total',

    // A selector for those counters, when more than one bridge exports them
    // into the same Prometheus, e.g. 'cluster="eu1"'; '' reads them all.
    // A service without them simply has no function series and no function alert.
    profileMetricsSelector: '',

    // FunctionCostPerRequestRegression's materiality floor: a function's cost
    // must exceed what its own cost model (fixed + marginal per request,
    // fitted on its history as recorded regressionAcceptAfter ago) predicts
    // at the current traffic by at least this share of its service's profile,
    // besides rising beyond its own noise (regressionNoiseK spreads of that
    // excess). 0.03: a function that adds 3% to its service pages at any
    // hour, one going from 0.01% to 0.02% of it never does, however quiet its
    // noise. Raise it (e.g. 0.1) on a fleet where only larger changes are
    // worth an afternoon; lower it (e.g. 0.01) on large services where 1% is
    // real money and the profiles sample densely.
    functionRegressionMinShare: 0.03,

    // A step no noise makes: a function whose excess over its cost model is
    // this share of its service's profile or more, at every evaluation of the
    // alert's `for:` (and beyond its threshold), pages without waiting for
    // the excess's median over regressionResidualWindow to cross, which takes
    // half that window. Also for a function new to its service (whose excess
    // is its share). 0.1: a tenth of the service's profile, at every
    // evaluation for a `for:`, is a step a function's minute-to-minute noise
    // does not keep up; smaller steps take the median's path.
    functionStepShare: 0.1,

    // A busy node: while a service's runtime rows (the bridge's
    // origin="runtime": scheduler, lock spinning, GC workers) together rose
    // by this share of the service or more above their usual excess, a
    // function of its CPU profile that grew, relative to its own cost
    // model, by no more than functionContentionRatio times what those rows
    // grew together is not named by FunctionCostPerRequestRegression. On a
    // node short of CPU, syscalls, wake-ups and spinning get dearer for
    // every process on it, by one factor for the runtime and the
    // syscall-heavy code; a code change that makes the runtime work too
    // (the GC for its allocations, the locks it takes) grows its own
    // function by more, and a new function grows from nothing. Lower it
    // (e.g. 0.02) where a noisy neighbour still pages; 1 turns the guard off.
    functionContentionShare: 0.03,

    // How much more than the runtime's rows a function must have grown, each
    // relative to its own cost model, to be named while its node is busy
    // (functionContentionShare). 2: a busy node's factors, one per row
    // within about 10% of each other, stay under it; a function that doubled
    // while the runtime grew by a third does not.
    functionContentionRatio: 2,

    // The quantile of each traffic half a function's cost model goes
    // through, of its cost and of its service's req/s alike (the service
    // model's baselineHalfQuantile is lower). A function is judged by its
    // share against the shares the other rows' models predict, so every
    // row's points must sit at the same level of its own noise. A low
    // quantile puts a fixed-cost row (a timer, a cache refresh: its points
    // vary by the service's noise alone) further under its typical cost than
    // a row paid per request (whose points vary with the traffic too). The
    // band absorbs that gap at the reference day's traffic, and a day far
    // outside it shows it again: on a holiday's night, when the fixed rows
    // hold most of a profile, the largest of them rose past its threshold
    // at 0.25. The median sits at every row's typical cost. A regression
    // enters the reference only regressionAcceptAfter after its start, and
    // the median ignores one that covers less than half a traffic half.
    functionFitQuantile: 0.5,

    // The share of its service's profile under which hotpath-profile-metrics
    // keeps a function in `other` (its --entry-share; keep the two equal).
    // A function the bridge admitted lately, in a service whose rows are old
    // enough to be judged, has no reference of its own: it is new code, or
    // it grew past this share. FunctionCostPerRequestRegression judges it
    // against "under this share before": its share of the profile must now
    // exceed this plus functionRegressionMinShare, and its cost per request
    // that much of the service's whole. 0.01 lets a new function that adds
    // 5% to its service page within the hour while a steady 0.9% function
    // whose share doubles at night does not. Raise both (e.g. 0.02, the
    // bridge too) on services whose functions' shares swing widely.
    functionEntryShare: 0.01,

    // The smallest profile in which FunctionCostPerRequestRegression judges
    // a function the bridge admitted lately (by its share alone: it has no
    // band of its own), per profile type: its service's profile must cost at
    // least this many cores of CPU, and allocate this many bytes a second.
    // Both are about 600 samples over the 5m rate window (100 Hz CPU
    // samples, Go's one allocation sample per 512 KiB), where a share is
    // known to within about 1% of the service; under them a function at 2-3%
    // reads 5% in some windows, and the bridge's set (which function was
    // admitted lately) is as uncertain. A new function in a smaller service
    // still shows in its service's own alerts. Lower them (e.g. 0.005 and
    // 262144) for a profiler that samples faster.
    functionNewMinCores: 0.02,
    functionNewMinAllocBytes: 1048576,

    // What one sample of a profile weighs: CPU seconds (0.01: 100 Hz, Go's
    // pprof, async-profiler's and py-spy's default; Pyroscope's eBPF agent
    // samples at 97 Hz) and allocated bytes (Go's one sample per 512 KiB).
    // They tell FunctionCostPerRequestRegression how many samples a share
    // rests on. Set them to your profiler's rate: one that samples slower
    // than they say makes a small service's functions look steadier than
    // they are.
    functionCpuSampleSeconds: 0.01,
    functionAllocSampleBytes: 524288,

    // How far beyond the counting noise of its samples (above: a row of n
    // samples reads +-sqrt(n)) a function's excess must rise before
    // FunctionCostPerRequestRegression names it, besides its own band. A
    // band is learnt on the reference day's profile; a night quieter than
    // any it held (a holiday, a service of a few hundredths of a core) has
    // fewer samples, and a share then moves past that band on chance alone.
    // 4: in a service of 0.1 cores at its nightly low, a function that adds
    // 10% is still named within the hour; in one of 0.02 cores on a holiday
    // night, a function's share swinging by 5% is not.
    functionSampleNoiseK: 4,

    // How often the function groups evaluate: hotpath-functions (each row's
    // cost per request and its excess over its cost model) and
    // hotpath-function-alerts. The function rows are most of the pack's
    // series (21 per service and profile type by default, against one for
    // the service), and the alert judges a 20m median of the excess
    // (regressionResidualWindow) held for a 15m `for:`: every 2m the median
    // still reads 10 samples, and a page comes at most a minute later than
    // every minute, for half the evaluations. '1m' for the earliest page;
    // at most '2m30s': the groups of 15m and the alert's hold read these
    // series as their last sample within Prometheus's 5m lookback.
    functionEvaluationInterval: '2m',
  },
}
