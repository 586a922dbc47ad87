// Knobs of CPU that does not track load: the least-squares fits behind
// CPUNotTrackingLoad. They steer rules/load-fit.libsonnet and that alert
// (alerts/efficiency.libsonnet).

{
  _config+:: {
    // ---- Rules and alerts: CPU that does not track load -------------------------

    // The recent window of the least-squares fit behind CPUNotTrackingLoad. Short
    // windows see a busy loop within minutes, but only when traffic swings inside
    // the window (bursty or batch traffic, load tests); a service whose traffic
    // only follows the slow daily curve has too little swing in 30m and the
    // alert stays silent there. For such services raise it (e.g. '3h'): it then
    // sees the daily swing, at the price of firing hours rather than minutes
    // after the onset.
    loadFitWindow: '30m',

    // The second, slow path of CPUNotTrackingLoad, for services whose traffic
    // moves only with hours-long swings (a daily curve, a batch cycle): the
    // same fit over this window, refitted every baselineInterval wherever
    // traffic swung, and the marginal cost taken as the median of those fits
    // over baselineWindow. A busy loop adds a constant, so it leaves every
    // slope but the few whose window holds its onset or its fix; the median
    // ignores those, so the alert fires soon after the onset, stays firing
    // through plateaus where nothing swings, and resolves minutes after the
    // fix. Raise it (e.g. '6h') when your swings are slower than a few hours;
    // a longer window costs more per refit.
    loadFitLongWindow: '3h',

    // Traffic "swung" when req/s varied by at least this coefficient of
    // variation (stddev / mean) within the window. Below it the fit is noise.
    loadFitMinVariation: 0.25,

    // CPUNotTrackingLoad fires when the fixed part is at least this share of the
    // CPU at the window's mean traffic, and the service uses at least
    // notTrackingLoadMinCores. Lower the share (e.g. 0.6) to catch smaller loops;
    // raise the cores for fleets of big, mostly idle JVMs.
    notTrackingLoadFixedShare: 0.8,
    notTrackingLoadMinCores: 0.25,
  },
}
