// Which two windows an alert's message compares, derived from the alert alone.
//
// The panel's rule (plugin/src/overlay/windows.ts), applied to what a webhook knows:
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
import { panelWindows as pw } from './panel-windows.mjs';

export const MINUTE = 60_000;

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
  return { incident, baseline: b.window, anomaly, reason: b.reason };
}

/** The same windows for the `siblings` baseline: the incident window is also the baseline's. */
export function siblingWindows(alert, opts) {
  const w = alertWindows(alert, opts);
  return { ...w, baseline: w.incident, reason: 'the other instances of the service over the same window' };
}

export const formatDuration = pw.formatDuration;
