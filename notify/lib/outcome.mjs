// How a self-baseline regression ended, read from Prometheus when its alert resolves:
//   recovered    the cost per request came back under the ratio the alert fired on, judged
//                against the cost model as it stood when the alert fired, at today's traffic;
//   newNormal    still that high, after the rule pack's acceptance horizon: the baseline has
//                learnt the change and judges the next one against it;
//   notJudged    still that high before the horizon: the alert ended with its data (traffic under
//                the alert's floor, a missing series), not with the regression.
// The PromQL comes from the catalogue, generated with the rule pack's own cost model, so the
// receiver never restates the model.
import { catalogueAlert } from './catalogue.mjs';
import { inMessageUnits } from './change-text.mjs';
import { alertSelector, queryInstant } from './prometheus.mjs';

/** The catalogue's outcome queries of an alert, or undefined for an alert without a cost model. */
export function outcomeQueries(alert) {
  const a = catalogueAlert(alert.labels?.alertname);
  if (!a?.outcome) {
    return undefined;
  }
  const o = a.outcome;
  // each query keeps only the alert's service: its identity labels, as the alert carries them
  const only = (expr) => `(${expr}) and on (${a.labels.join(', ')}) ${a.requests}${alertSelector(alert.labels, a.labels)}`;
  return {
    outcome: o,
    before: (atS) => only(o.before.replaceAll('{{at}}', String(atS))),
    now: only(o.now),
    threshold: (atS) => only(o.threshold.replaceAll('{{at}}', String(atS))),
  };
}

/** The alert's outcome from the three values, or the reason there is none. Pure. */
export function judgeOutcome({ before, now, threshold, factor, firedAtMs, endedAtMs, acceptAfterMs, unit }) {
  if (!(before > 0) || !(now >= 0)) {
    return { why: 'Prometheus has no cost per request before and now for this service' };
  }
  const ratio = now / before;
  const limit = Math.min(factor, threshold > 0 ? threshold : factor);
  const base = { since: new Date(firedAtMs).toISOString(), ...inMessageUnits({ before, now }, unit), ratio, limit };
  if (ratio < limit) {
    return { kind: 'recovered', ...base };
  }
  return { kind: endedAtMs - firedAtMs >= acceptAfterMs ? 'newNormal' : 'notJudged', ...base };
}

/**
 * Reads and judges a resolved regression alert's outcome; undefined for an alert without a cost
 * model, { why } when Prometheus cannot say.
 */
export async function regressionOutcome(baseUrl, alert, { timeoutMs = 10_000 } = {}) {
  const q = outcomeQueries(alert);
  if (!q) {
    return undefined;
  }
  if (!baseUrl) {
    return { why: 'no Prometheus (--prometheus) to compare the cost per request before and now' };
  }
  const firedAtMs = Date.parse(alert.startsAt);
  const endedAtMs = Date.parse(alert.endsAt) || Date.now();
  const atS = Math.round(firedAtMs / 1000);
  const opts = { timeMs: endedAtMs, timeoutMs };
  const [before, now, threshold] = await Promise.all([queryInstant(baseUrl, q.before(atS), opts), queryInstant(baseUrl, q.now, opts), queryInstant(baseUrl, q.threshold(atS), opts)]);
  return judgeOutcome({ before, now, threshold, factor: q.outcome.factor, firedAtMs, endedAtMs, acceptAfterMs: q.outcome.acceptAfterSeconds * 1000, unit: q.outcome.unit });
}
