// The baseline of a change that began after a deploy: the previous version's last hours.
//
// With versionSources set, the efficiency alerts carry the version they run (annotation `version`)
// and, while the last deploy is recent (the rule pack's deployWindow), the version before it
// (`previous_version`) and when the new version began to run (`rollout_time`, unix seconds). When
// the anomaly began at or after the rollout (the rate window's echo allowed), the version before is
// the natural baseline: the same length as the incident window, ending where the rollout began
// (during a rollout both versions run, so the time after its start is mixed).
import { baselineOf } from './catalogue.mjs';
import { formatDuration, hhmm, RATE_WINDOW_MS } from './windows.mjs';

/**
 * The deploy an alert carries, or undefined when it carries none (no version source, an old
 * deploy, or annotations that do not parse).
 * @param {object} alert Alertmanager's alert (labels, annotations)
 * @returns {{ service: string, version: string, previous: string, at: number } | undefined} at: unix ms
 */
export function deployOf(alert) {
  const a = alert.annotations ?? {};
  const l = alert.labels ?? {};
  const seconds = Number(a.rollout_time);
  if (!a.version || !a.previous_version || !a.rollout_time || !Number.isFinite(seconds) || seconds <= 0 || !l.job) {
    return undefined;
  }
  return { service: l.namespace ? `${l.namespace}/${l.job}` : l.job, version: a.version, previous: a.previous_version, at: seconds * 1000 };
}

/**
 * "Since the rollout of `shop/api:1.42` at 14:02 UTC (previously `1.41`)", each value passed
 * through `esc` (the message's escape: a value cannot close its code span).
 */
export function deployText(d, esc = String) {
  return `Since the rollout of \`${esc(`${d.service}:${d.version}`)}\` at ${hhmm(d.at)} UTC (previously \`${esc(d.previous)}\`)`;
}

/**
 * The windows chosen from the data, with the baseline moved to the previous version's last hours
 * when the alert carries a deploy and its anomaly began after it. Unchanged otherwise, and for the
 * `siblings` comparison (instances of the same version, same window).
 * @param {object} alert Alertmanager's alert
 * @param {object} w the windows chooseWindows found ({ incident, baseline, anomaly, reason, ... })
 */
export function sinceDeploy(alert, w) {
  const d = deployOf(alert);
  // where the change began: the onset found in the data, else the anomaly's start
  const began = w.onset ?? w.anomaly?.from;
  if (!d || baselineOf(alert.labels?.alertname) === 'siblings' || began === undefined || began < d.at - RATE_WINDOW_MS) {
    return w;
  }
  const len = w.incident.to - w.incident.from;
  return {
    ...w,
    baseline: { from: d.at - len, to: d.at },
    method: 'deploy',
    deploy: { service: d.service, version: d.version, previous: d.previous, at: d.at },
    reason: `the last ${formatDuration(len)} of version ${d.previous} before the rollout of ${d.version} at ${hhmm(d.at)} UTC (${w.reason})`,
  };
}
