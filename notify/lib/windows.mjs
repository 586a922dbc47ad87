// Which two windows an alert's message compares, derived from the alert alone.
//
// The panel's rule (the profile core's windows.ts: packages/profile-core), applied to what a webhook knows:
// - the anomaly is the alert's pending and firing time: from startsAt minus the rule's `for:`
//   (Alertmanager only sees an alert once it fires, `for:` after its condition first held) to
//   now (or endsAt, once resolved);
// - the incident window is the window an alert link selects (windowAt: the anomaly around that
//   moment), at least minWindowMs long (a profile source keeps profiles of some seconds each) and
//   at most maxWindowMs (a long-firing alert is judged on its recent past);
// - the baseline is what the panel's "auto" mode picks (baselineFor): the same length, ending
//   where the anomaly started, or where the incident window starts when the anomaly starts inside it.
//
// CPUPerRequestOutlier names one instance: like the panel's `siblings` baseline, which that alert's
// dashboard link opens, its message compares the instance with every other instance of the
// service over the same window (siblingWindows; the notifier selects instance!="<it>" for the
// baseline). The diff compares each side's shares, so a sibling set with three times the traffic
// compares fairly.
//
// That rule is the fallback. With Prometheus, onsetWindows() starts from where the alert's own
// series stepped up (changepoint.mjs): the rule's `for:` says when the alert fired, not when the
// incident started, and an alert can fire hours after its onset (a busy loop is seen only once
// traffic swings) or reach a receiver restarted mid-incident.
import { dataLayer } from '@hotpath/headless/data-node.mjs';

// loaded, not linked: a checkout whose core is not built gets lib/core-ready.mjs's one line
const pw = await dataLayer();

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
export const WEEK = 7 * DAY;
/** The recorded series are rate5m: a step shows in them over 5m, so windows keep that far from it. */
export const RATE_WINDOW_MS = 5 * MINUTE;

/** "14:02": the UTC hour and minute of unix ms. */
export const hhmm = (ms) => new Date(ms).toISOString().slice(11, 16);

/** An Alertmanager alert's times as alertWindows takes them: unix ms, endsAt only once resolved. */
export function alertSpan(alert) {
  const endsAt = alert.status === 'resolved' ? Date.parse(alert.endsAt) : NaN;
  return { startsAt: Date.parse(alert.startsAt), ...(endsAt ? { endsAt } : {}) };
}

/**
 * @param {{ startsAt: number, endsAt?: number }} alert times in unix ms (endsAt only when resolved)
 * @param {{ now: number, pendingMs: number, minWindowMs: number, maxWindowMs: number }} opts
 * @returns {{ incident: {from,to}, baseline: {from,to}, anomaly: {from,to}, reason: string }}
 */
export function alertWindows(alert, { now, pendingMs, minWindowMs, maxWindowMs }) {
  const at = Math.min(now, alert.endsAt ?? now);
  const anomaly = { from: Math.min(alert.startsAt - pendingMs, at - pw.MIN_WINDOW_MS), to: at };
  const hit = pw.windowAt(at, [anomaly], { from: 0, to: at });
  let incident = hit ? hit.window : { from: at - minWindowMs, to: at };
  if (incident.to - incident.from < minWindowMs) {
    incident = { from: at - minWindowMs, to: at };
  }
  if (incident.to - incident.from > maxWindowMs) {
    incident = { from: at - maxWindowMs, to: at };
  }
  const b = pw.baselineFor(incident, 'auto', [anomaly]);
  return { incident, baseline: b.window, anomaly, reason: b.reason, method: 'for' };
}

/**
 * The rule above, marked approximate and saying why, its baseline ending a rate window before the
 * anomaly: the rules judge 5m rates, so a step's onset lies up to RATE_WINDOW_MS before its
 * condition first held, and a baseline ending at that moment would hold the incident's first
 * minutes (and diff the incident against itself).
 */
export function approximateWindows(alert, opts, why) {
  const w = alertWindows(alert, opts);
  const to = Math.min(w.baseline.to, w.anomaly.from - RATE_WINDOW_MS);
  const baseline = { from: to - (w.baseline.to - w.baseline.from), to };
  return {
    ...w,
    baseline,
    approximate: true,
    reason: `${w.reason}; approximate: ${why}, so the anomaly is taken to start ${pw.formatDuration(opts.pendingMs)} (the rules' for:) before the alert fired, and the baseline ends ${pw.formatDuration(RATE_WINDOW_MS)} (the rate window) before that`,
  };
}

/**
 * The same window a day earlier, or a week earlier when a day earlier is not clear of the
 * onset (a fixed cost that started more than a day ago); undefined when neither is.
 */
function earlier(incident, clearBefore) {
  for (const [ms, name] of [[DAY, 'a day'], [WEEK, 'a week']]) {
    const b = { from: incident.from - ms, to: incident.to - ms };
    if (clearBefore === undefined || b.to <= clearBefore) {
      return { baseline: b, name };
    }
  }
  return undefined;
}

/**
 * The windows of a fixed cost that can predate its alert by hours: the last maxWindow, against
 * the same window a day (else a week) earlier, at the same hour, so at the same traffic.
 * @param {{found: boolean, at?: number}} [onset] where the series stepped up, when known
 */
export function sameHourWindows(alert, { now, maxWindowMs }, onset) {
  const at = Math.min(now, alert.endsAt ?? now);
  const incident = { from: at - maxWindowMs, to: at };
  const e = earlier(incident, onset?.found ? onset.at - RATE_WINDOW_MS : undefined) ?? { baseline: { from: incident.from - WEEK, to: incident.to - WEEK }, name: 'a week' };
  const since = onset?.found ? `; the fixed cost stepped up at ${hhmm(onset.at)} UTC` : '';
  return { incident, baseline: e.baseline, anomaly: incident, method: 'same hour', reason: `the same hour ${e.name} earlier: a fixed cost can start hours before its alert fires${since}` };
}

/**
 * Windows from the onset of the alert's series:
 * - the incident window starts RATE_WINDOW_MS after the onset and ends now (endsAt once
 *   resolved), at least minWindowMs and at most maxWindowMs long;
 * - the baseline has the same length and ends RATE_WINDOW_MS before the onset;
 * - when the onset is older than maxWindowMs, the incident window is the last maxWindowMs and the
 *   baseline the same window a day (else a week) earlier, clear of the onset: the hours right
 *   before the onset are another time of day, with another traffic.
 * @param {{ at: number, before: number, after: number, firstAt: number }} onset a found onset
 * @param {string} what the series' name, for the reason
 * @param {{ earlier?: boolean }} [o] earlier: false keeps the baseline right before the onset
 *   (the profile source has nothing a day earlier)
 */
export function onsetWindows(alert, { now, minWindowMs, maxWindowMs }, onset, what, { earlier: dayOrWeek = true } = {}) {
  const at = Math.min(now, alert.endsAt ?? now);
  const step = `${what} stepped up at ${hhmm(onset.at)} UTC (${fmt(onset.before)} → ${fmt(onset.after)})`;
  const start = onset.at + RATE_WINDOW_MS;
  if (dayOrWeek && at - start > maxWindowMs) {
    const incident = { from: at - maxWindowMs, to: at };
    const e = earlier(incident, onset.at - RATE_WINDOW_MS);
    if (e) {
      return { incident, baseline: e.baseline, anomaly: { from: onset.at, to: at }, method: 'change point', onset: onset.at, reason: `${step}, more than ${pw.formatDuration(maxWindowMs)} ago: the same window ${e.name} earlier` };
    }
  }
  const len = Math.min(maxWindowMs, Math.max(minWindowMs, at - start));
  const incident = { from: at - len, to: at };
  const baseline = { from: onset.at - RATE_WINDOW_MS - len, to: onset.at - RATE_WINDOW_MS };
  const clipped = baseline.from < onset.firstAt && baseline.to - onset.firstAt >= minWindowMs;
  return {
    incident,
    baseline: clipped ? { from: onset.firstAt, to: baseline.to } : baseline,
    anomaly: { from: onset.at, to: at },
    method: 'change point',
    onset: onset.at,
    reason: `${step}: the incident after it against ${clipped ? 'the time before it since the series began' : 'the same length before it'}, ${pw.formatDuration(RATE_WINDOW_MS)} (the rate window) clear of the step`,
  };
}

/**
 * The windows of a function alert whose function is new among its service's rows: its series
 * begins at `firstAt`, when the bridge admitted it (its cost was in `other` before, so the series
 * has no level before to step up from). The onset is that first point; the baseline the same
 * length before it, clear of the rate window, as for a step.
 */
export function newRowWindows(alert, opts, firstAt, what) {
  const w = onsetWindows(alert, opts, { at: firstAt, firstAt, before: 0, after: 0 }, what, { earlier: false });
  return { ...w, reason: `${what} begins at ${hhmm(firstAt)} UTC: the function is new among its service's rows (its cost was in the service's other row before); the incident after it against the same length before it, ${pw.formatDuration(RATE_WINDOW_MS)} (the rate window) clear of it` };
}

/** A value of a per-request series in few digits: 0.000812 -> 0.000812, 1234.5 -> 1235. */
function fmt(v) {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString();
}

/** The same windows for the `siblings` baseline: the incident window is also the baseline's. */
export function siblingWindows(alert, opts) {
  const w = alertWindows(alert, opts);
  return { ...w, baseline: w.incident, reason: 'the other instances of the service over the same window' };
}

/** Any windows turned into the `siblings` comparison: the baseline is the incident window. */
export function asSiblings(w) {
  return { ...w, baseline: w.incident, reason: `the other instances of the service over the same window (${w.reason})` };
}

export const formatDuration = pw.formatDuration;
