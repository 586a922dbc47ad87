// The endpoint answer of a message: how the service's change splits into its endpoints' own costs
// and its traffic mix, and for an endpoint alert (EndpointCostPerRequestRegression: the
// catalogue's identity 'endpoint') the endpoint's cost per request before and now. The PromQL
// comes from the catalogue's `endpointCost` (generated with the rule pack), so the receiver never
// restates the rules:
//
//   endpoints = the endpoints' cost per request together now / the same mix at their reference costs
//   mix       = the same mix at their reference costs / the endpoints' cost per request before
//
// Their product is the endpoints' change in cost per request together. The rules count the same
// endpoints in both: a route too young for a reference at its current cost (a new route is mix). `before` is the mean of
// the hour that ended an hour before the alert started: the rules' smoothing and `for` put the
// change's onset less than an hour before the start.
import { catalogueAlert, catalogueEndpoints, PROFILE_TYPES } from './catalogue.mjs';
import { formatAmount } from './change-text.mjs';
import { costSubject, subjectCost } from './cost-subject.mjs';
import { escape } from './mrkdwn.mjs';
import { alertSelector, queryInstant, queryVector } from './prometheus.mjs';

// a factor within this of 1 is no change: the noise of a 5-minute ratio
export const SPLIT_NOISE = 0.05;
// one endpoint is "the" endpoint when it carries at least this share of the endpoints' rise
export const ONE_ENDPOINT_SHARE = 0.7;

/**
 * The endpoint an alert names and the catalogue's queries of its cost, or undefined for any other
 * alert (or one without an endpoint or a known profile_type label).
 */
export function endpointSubject(alert) {
  return costSubject(alert, 'endpointCost', 'endpoint');
}

/**
 * How a service's change splits (pure): { endpoints, mix } factors, `verdict` ('one', 'all',
 * 'mix', 'none') and the endpoints that rose, the costliest rise first, from the endpoints' cost
 * per request together now and before, the same mix at reference costs, and each endpoint's rise
 * in cost (rise per request x its requests).
 */
export function splitChange({ now, before, atReference, rises }) {
  if (!(now > 0) || !(before > 0) || !(atReference > 0)) {
    return undefined;
  }
  const endpoints = now / atReference;
  const mix = atReference / before;
  const up = [...rises].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  const total = up.reduce((s, [, v]) => s + v, 0);
  const moved = (f) => Math.abs(f - 1) > SPLIT_NOISE;
  let verdict = 'none';
  if (moved(endpoints) && up.length) {
    verdict = up[0][1] >= ONE_ENDPOINT_SHARE * total ? 'one' : 'all';
  } else if (moved(mix)) {
    verdict = 'mix';
  }
  return { endpoints, mix, verdict, rose: up.map(([e]) => e) };
}

/**
 * The split of the service's change for a firing alert that names a service (its endpoint series
 * by its profile_type, else the catalogue profile's), undefined where the service has no endpoint
 * series, { why } when Prometheus cannot say.
 */
export async function endpointSplit(baseUrl, alert, { timeoutMs = 10_000, nowMs = Date.now() } = {}) {
  const l = alert.labels ?? {};
  const a = catalogueAlert(l.alertname);
  const e = catalogueEndpoints();
  const q = e?.costs?.[l.profile_type ?? a?.profile ?? 'cpu'];
  if (!q || !l[e.serviceLabel] || !baseUrl) {
    return undefined;
  }
  const sel = alertSelector(l, [e.serviceLabel]);
  const atS = Math.round((Date.parse(alert.startsAt) || nowMs) / 1000);
  const opts = { timeMs: nowMs, timeoutMs };
  const [now, atReference, before, rises] = await Promise.all([
    queryInstant(baseUrl, `${q.mix}${sel}`, opts),
    queryInstant(baseUrl, `${q.mixAtReference}${sel}`, opts),
    queryInstant(baseUrl, `avg_over_time(${q.mix}${sel}[1h] @ ${atS - 3600})`, opts),
    queryVector(baseUrl, q.rise.replaceAll('{{selector}}', sel), opts),
  ]);
  if (!(now >= 0)) {
    return undefined; // no endpoint rows for this service: nothing to split
  }
  const split = splitChange({ now, before, atReference, rises: new Map(rises.map((r) => [r.metric.endpoint, Number(r.value?.[1])])) });
  return split ? { ...split, unit: q.unit } : { why: 'Prometheus has no endpoint cost per request of the service before and now' };
}

/**
 * A firing endpoint alert's cost per request before (its reference as the alert started) and now,
 * in the message's units; undefined for other alerts, { why } when Prometheus cannot say.
 */
export async function endpointCost(baseUrl, alert, opts = {}) {
  return subjectCost(baseUrl, alert, endpointSubject(alert), opts);
}

const factor = (f) => `${f >= 1 ? '+' : '−'}${Math.round(Math.abs(f - 1) * 100)}%`;

/** The split's line: one endpoint, all of them, or the mix; nothing when the service has no endpoint series. */
export function splitLines(split) {
  if (!split || split.why) {
    return [];
  }
  const names = (list) => list.slice(0, 3).map((e) => `\`${escape(e)}\``).join(', ');
  const parts = `endpoints' own cost ${factor(split.endpoints)}, traffic mix ${factor(split.mix)}`;
  switch (split.verdict) {
    case 'one':
      return [`*One endpoint: ${names(split.rose.slice(0, 1))}* (${parts}).`];
    case 'all':
      return [`*All endpoints: ${names(split.rose)}${split.rose.length > 3 ? ` and ${split.rose.length - 3} more` : ''} rose* (${parts}).`];
    case 'mix':
      return [`*The traffic mix, not the code:* every endpoint kept its cost per request; the requests moved between endpoints of different cost (${parts}).`];
    default:
      return [`Endpoints: ${parts}.`];
  }
}

/** An endpoint alert's lines: the endpoint and its cost per request before and now. */
export function endpointLeadLines({ name, kind, cost }) {
  // what the profile measures, as the catalogue names it
  const what = PROFILE_TYPES[kind]?.cost ?? kind;
  const ep = `\`${escape(name)}\``;
  if (cost && !cost.why) {
    const pct = Math.round((cost.now / cost.before - 1) * 100);
    return [`*Endpoint ${ep}: ${formatAmount(cost.now, cost.unit)} ${what} per request of that route now, ${formatAmount(cost.before, cost.unit)} before (${pct >= 0 ? '+' : '−'}${Math.abs(pct)}%).*`];
  }
  return [`*Endpoint ${ep}* (${what} per request)${cost?.why ? `: _${escape(cost.why)}._` : '.'}`];
}
