// An alert on one row of the profile bridge (a function, an endpoint: the catalogue's identities
// 'function' and 'endpoint'): the row it names, and its cost per request before (its reference as
// the alert started) and now, read from Prometheus with the catalogue's queries of that identity
// (`functionCost`, `endpointCost`: generated with the rule pack, so the receiver never restates the
// rules), in the message's units.
import { catalogueAlert } from './catalogue.mjs';
import { alertSelector, queryInstant } from './prometheus.mjs';

// the recorded series' units as the messages print them (formatAmount's)
const UNITS = { seconds: { unit: 'ns', scale: 1e9 }, bytes: { unit: 'bytes', scale: 1 } };

/**
 * The row an alert names by `label` and the catalogue's queries of its cost (the alert's
 * catalogue entry's `field`, by profile type), or undefined for any other alert (or one without
 * that label or a known profile_type label).
 */
export function rowSubject(alert, label, field) {
  const l = alert.labels ?? {};
  const a = catalogueAlert(l.alertname);
  const q = a?.[field]?.[l.profile_type];
  if (!q || !l[label]) {
    return undefined;
  }
  const fill = (expr, atS) => expr.replaceAll('{{selector}}', alertSelector(l, a.seriesLabels)).replaceAll('{{at}}', String(atS));
  return { name: l[label], kind: l.profile_type, unit: q.unit, before: (atS) => fill(q.before, atS), now: fill(q.now, 0) };
}

/**
 * A firing alert's row cost per request before and now ({ before, now, unit }), in the message's
 * units; undefined without a subject (rowSubject's), { why } when Prometheus cannot say.
 */
export async function rowCost(baseUrl, alert, subject, { timeoutMs = 10_000, nowMs = Date.now() } = {}) {
  if (!subject) {
    return undefined;
  }
  if (!baseUrl) {
    return { why: 'no Prometheus (--prometheus) to read its cost per request' };
  }
  const atS = Math.round((Date.parse(alert.startsAt) || nowMs) / 1000);
  const opts = { timeMs: nowMs, timeoutMs };
  const [before, now] = await Promise.all([queryInstant(baseUrl, subject.before(atS), opts), queryInstant(baseUrl, subject.now, opts)]);
  if (!(before >= 0) || !(now >= 0)) {
    return { why: `Prometheus has no cost per request of ${subject.name} before and now` };
  }
  const u = UNITS[subject.unit] ?? { unit: subject.unit, scale: 1 };
  return { before: before * u.scale, now: now * u.scale, unit: u.unit };
}
