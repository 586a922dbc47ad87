// What an alert on one part of a service names (a function: FunctionCostPerRequestRegression; an
// endpoint: EndpointCostPerRequestRegression) and that part's cost per request before and now,
// from the catalogue's queries of it (`functionCost`, `endpointCost`, generated with the rule
// pack), so the receiver never restates the rules. The function and endpoint leads word it.
import { catalogueAlert } from './catalogue.mjs';
import { inMessageUnits } from './change-text.mjs';
import { alertSelector, queryAtAlert } from './prometheus.mjs';

/**
 * The part `alert` names by `label` and the catalogue's queries of its cost (`costs`: the alert's
 * catalogue field), by its profile_type: { name, kind, unit, before(atS), now }, or undefined for
 * any other alert (or one without that label or a known profile_type).
 */
export function costSubject(alert, costs, label) {
  const l = alert.labels ?? {};
  const a = catalogueAlert(l.alertname);
  const q = a?.[costs]?.[l.profile_type];
  if (!q || !l[label]) {
    return undefined;
  }
  const fill = (expr, atS) => expr.replaceAll('{{selector}}', alertSelector(l, a.seriesLabels)).replaceAll('{{at}}', String(atS));
  return { name: l[label], kind: l.profile_type, unit: q.unit, before: (atS) => fill(q.before, atS), now: fill(q.now, 0) };
}

/**
 * A firing alert's part cost per request before (its reference as the alert started) and now, in
 * the messages' units: undefined without a subject, { why } when Prometheus cannot say. A reference
 * of 0 counts as a figure where `zeroBefore` (the rules' mark of a function new among its
 * service's rows), as none otherwise.
 */
export async function subjectCost(baseUrl, alert, subject, { zeroBefore = false, ...opts } = {}) {
  const read = await queryAtAlert(baseUrl, alert, subject && ((atS) => [subject.before(atS), subject.now]), 'no Prometheus (--prometheus) to read its cost per request', opts);
  if (!read?.values) {
    return read;
  }
  const [before, now] = read.values;
  if (!(zeroBefore ? before >= 0 : before > 0) || !(now >= 0)) {
    return { why: `Prometheus has no cost per request of ${subject.name} before and now` };
  }
  return inMessageUnits({ before, now }, subject.unit);
}
