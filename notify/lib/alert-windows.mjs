// Which windows a message compares, and why: from the alert's own recorded series when
// Prometheus is given (--prometheus), else from the alert's times, marked approximate.
import { baselineOf, catalogueAlert } from './catalogue.mjs';
import { sinceDeploy } from './deploy-windows.mjs';
import { findOnset } from './changepoint.mjs';
import { alertSeries, PrometheusError, queryRange } from './prometheus.mjs';
import { alertSpan, approximateWindows, asSiblings, DAY, newRowWindows, onsetWindows, sameHourWindows, WEEK } from './windows.mjs';

/**
 * Where the onset is searched, finest first: the last 2h at 15s (an alert fires minutes after its
 * onset, and a shortened for: leaves only a few minutes of the new level), the last day at 2m,
 * then the last week at 15m (a series high all day: an onset older than a day compares with the
 * same window a week earlier). The first search that finds a step wins.
 */
export const SEARCHES = [
  { ms: 2 * 3600_000, stepS: 15 },
  { ms: DAY, stepS: 120 },
  { ms: WEEK, stepS: 900 },
];

/**
 * @param {object} alert Alertmanager's alert (labels, startsAt, endsAt, generatorURL)
 * @param {object} cfg { prometheusUrl?, pendingMs, minWindowMs, maxWindowMs, fetchTimeoutMs }
 * @param {number} now unix ms
 * @returns {Promise<object>} { incident, baseline, anomaly, reason, method, approximate?, onset?, series?, deploy? }
 * (deploy-windows.mjs: after a deploy the alert carries, the baseline is the previous version's)
 */
export async function chooseWindows(alert, cfg, now) {
  return sinceDeploy(alert, await windowsFromData(alert, cfg, now));
}

/** The windows of chooseWindows before a deploy the alert carries is taken into account. */
async function windowsFromData(alert, cfg, now) {
  const a = alertSpan(alert);
  const name = alert.labels?.alertname;
  const opts = { ...cfg, now };
  const siblings = baselineOf(name) === 'siblings' && Boolean(alert.labels?.instance);
  const fixedCost = baselineOf(name) === 'dayEarlier';
  const done = (w) => (siblings ? asSiblings(w) : w);
  const s = alertSeries(alert);
  if (!cfg.prometheusUrl || !s) {
    const why = !cfg.prometheusUrl ? 'no Prometheus (--prometheus) to find the onset in' : 'no recorded series of its own for this alert';
    if (fixedCost) {
      return { ...sameHourWindows(a, opts), approximate: !cfg.prometheusUrl, ...(cfg.prometheusUrl ? {} : { note: why }), fallback: [approximateWindows(a, opts, why)] };
    }
    return done(approximateWindows(a, opts, why));
  }
  const seriesName = s.series.slice(0, s.series.indexOf('{'));
  let onset;
  try {
    for (const { ms, stepS } of SEARCHES) {
      const values = await queryRange(cfg.prometheusUrl, s.series, { start: now - ms, end: now, stepS }, { timeoutMs: cfg.fetchTimeoutMs });
      const found = findOnset(values, { notAfter: a.startsAt });
      onset = onset && !found.found ? onset : found;
      if (found.found) {
        break;
      }
    }
  } catch (e) {
    if (!(e instanceof PrometheusError)) {
      throw e;
    }
    return fixedCost ? { ...sameHourWindows(a, opts), approximate: true, note: e.message, fallback: [approximateWindows(a, opts, e.message)] } : done(approximateWindows(a, opts, e.message));
  }
  if (fixedCost) {
    // the same hour a day earlier, else (a profile source that keeps less than a day) the time
    // right before the onset, else the approximate rule
    const fallback = [...(onset.found ? [onsetWindows(a, opts, onset, seriesName, { earlier: false })] : []), approximateWindows(a, opts, `${onset.found ? 'no profiles before the onset either' : onset.why} (${seriesName})`)];
    return { ...sameHourWindows(a, opts, onset), series: seriesName, fallback };
  }
  // a function alert's series that begins inside the finest search (past its first steps): the
  // function is new among its service's rows, and its first point is the onset
  const first = SEARCHES[0];
  if (!onset.found && catalogueAlert(name)?.functionCost && onset.firstAt > now - first.ms + 2 * first.stepS * 1000) {
    return done({ ...newRowWindows(a, opts, onset.firstAt, seriesName), series: seriesName });
  }
  if (!onset.found) {
    return done({ ...approximateWindows(a, opts, `${onset.why} (${seriesName})`), series: seriesName });
  }
  return done({ ...onsetWindows(a, opts, onset, seriesName), series: seriesName });
}
