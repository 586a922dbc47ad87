// A function alert's lead (FunctionCostPerRequestRegression: the catalogue's identity 'function'):
// the function it names, its cost per request before and now from Prometheus, and its callers and
// callees in the two windows' profiles. The PromQL comes from the catalogue's `functionCost`
// (generated with the rule pack), so the receiver never restates the rules; the callers and
// callees are the profile core's sandwich, the panel's own view.
import { dataLayer } from '@hotpath/headless/data-node.mjs';

import { formatAmount, shortName } from './change-text.mjs';
import { escape } from './mrkdwn.mjs';
import { rowCost, rowSubject } from './row-cost.mjs';

const d = await dataLayer();
// how many callers and callees the lead names
export const NEIGHBOURS = 3;

/**
 * The function an alert names and the catalogue's queries of its cost, or undefined for any other
 * alert (or a function alert without a function or a known profile_type label).
 */
export function functionSubject(alert) {
  return rowSubject(alert, 'function', 'functionCost');
}

/**
 * The profile type to diff: a function alert's own (its profile_type label), else `fallback` (the
 * catalogue's profile of the alert).
 */
export function functionProfileKind(alert, fallback) {
  return functionSubject(alert)?.kind ?? fallback;
}

/**
 * A firing function alert's cost per request before (its reference as the alert started) and now,
 * in the message's units; undefined for other alerts, { why } when Prometheus cannot say.
 */
export function functionCost(baseUrl, alert, opts) {
  return rowCost(baseUrl, alert, functionSubject(alert), opts);
}

/** The direct children of a sandwich side's root (its callers or callees): name -> value. */
function firstLevel(tree) {
  const out = new Map();
  for (const c of d.childrenOf(tree, 0)) {
    const name = d.nodeName(tree, c);
    out.set(name, (out.get(name) ?? 0) + tree.total[c]);
  }
  return out;
}

/**
 * The function's direct callers and callees in both windows, each side's value per request when
 * the windows' request counts are known (else the window's total), the NEIGHBOURS largest now
 * (or before, for one that went away). Pure; undefined when the incident's profile does not have
 * the function.
 * @param {string} name the function
 * @param {object} incident, baseline decoded trees (decode.mjs's read.tree)
 * @param {object} [requests] { incident, baseline } request counts (diff-compute.mjs's)
 */
export function functionNeighbours(name, incident, baseline, requests) {
  const now = incident && d.sandwich(incident, name);
  if (!now) {
    return undefined;
  }
  const before = baseline && d.sandwich(baseline, name);
  const per = (v, n) => (n > 0 ? v / n : v);
  const side = (pick) => {
    const a = firstLevel(pick(now));
    const b = before ? firstLevel(pick(before)) : new Map();
    return [...new Set([...a.keys(), ...b.keys()])]
      .map((n) => ({ name: n, now: per(a.get(n) ?? 0, requests?.incident), before: per(b.get(n) ?? 0, requests?.baseline) }))
      .sort((x, y) => y.now - x.now || y.before - x.before)
      .slice(0, NEIGHBOURS);
  };
  // in the profile's own unit (nanoseconds of CPU, bytes): the trees', not the recorded series'
  return { perRequest: Boolean(requests), unit: incident.unit, callers: side((s) => s.callers), callees: side((s) => s.callees) };
}

/** The lead's lines: the function and its cost before and now, then its callers and callees. */
export function functionLeadLines({ name, kind, cost, neighbours }) {
  const what = kind === 'alloc_space' ? 'allocated bytes' : 'CPU';
  const fn = `\`${escape(shortName(name))}\``;
  const lines = [];
  if (cost && !cost.why) {
    const pct = cost.before > 0 ? Math.round((cost.now / cost.before - 1) * 100) : undefined;
    const change = pct === undefined ? '' : ` (${pct >= 0 ? '+' : '−'}${Math.abs(pct)}%)`;
    // a reference of 0 is the rules' mark of a function new among its service's rows: it cost
    // under the bridge's entry share before, inside `other`
    const before = cost.before > 0 ? `${formatAmount(cost.before, cost.unit)} before${change}` : 'new among its service\'s top functions (before, it was in `other`)';
    lines.push(`*Function ${fn}: ${formatAmount(cost.now, cost.unit)} ${what} per request now, ${before}.*`);
  } else {
    lines.push(`*Function ${fn}* (${what} per request)${cost?.why ? `: _${escape(cost.why)}._` : '.'}`);
  }
  if (neighbours) {
    const u = neighbours.unit ?? (kind === 'alloc_space' ? 'bytes' : 'ns');
    const list = (rows) => rows.map((r) => `\`${escape(shortName(r.name))}\` ${formatAmount(r.now, u)} (was ${formatAmount(r.before, u)})`).join(', ') || 'none';
    const per = neighbours.perRequest ? ' per request' : ' in the window';
    lines.push(`Called by${per}: ${list(neighbours.callers)}.`, `Calls${per}: ${list(neighbours.callees)}.`);
  }
  return lines;
}
