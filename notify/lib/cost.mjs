// What an efficiency alert's change costs a month at the current traffic: "+0.62 cores ≈
// +$18/month". The change in cores comes from Prometheus, through the catalogue's `change` query
// of the alert (generated with the rule pack, lib/money.libsonnet, which says what "the change"
// is for each alert); the price from the catalogue's `money`, the rule pack's price knobs. A pack
// generated with costPerCoreHour 0 has no `money`: no money line at all.
import { catalogueAlert, cataloguePrices } from './catalogue.mjs';
import { alertSelector, alertSeries, queryAtAlert } from './prometheus.mjs';

/** The queries that price an alert's change, or undefined for an alert without one (or money off). */
export function changeQueries(alert, prices = cataloguePrices()) {
  const a = catalogueAlert(alert.labels?.alertname);
  const s = alertSeries(alert);
  if (!prices || !a?.change || !s) {
    return undefined;
  }
  // only the alert's own service (instance, upstream): its identity labels, as the alert carries them
  const only = `${a.change.only}${alertSelector(alert.labels, a.labels)}`;
  return {
    change: a.change,
    cores: (atS) => `sum((${a.change.cores.replaceAll('{{at}}', String(atS))}) and on (${a.labels.join(', ')}) ${only})`,
    requests: s.requests,
  };
}

/**
 * The change priced, from its cores and the request rate now, or { why } when there is no figure.
 * Pure. A change that is a cost of requests costs nothing without traffic, and says so.
 */
export function priceChange({ cores, rate, change, prices }) {
  if (change.perRequest && !(rate > 0)) {
    return { why: `no traffic now (${rate === undefined ? 'no request rate' : '0 req/s'}): the change costs nothing at the current traffic` };
  }
  if (!Number.isFinite(cores)) {
    return { why: `Prometheus has no figure for ${change.what}` };
  }
  const perMonth = cores * prices.perCoreHour * prices.hoursPerMonth;
  return { cores, perMonth, currency: prices.currency, perCoreHour: prices.perCoreHour, rate, what: change.what };
}

/**
 * Reads and prices a firing alert's change at `nowMs`; undefined for an alert without one (or
 * money off), { why } when Prometheus cannot say.
 */
export async function changeCost(baseUrl, alert, { prices = cataloguePrices(), ...opts } = {}) {
  const q = changeQueries(alert, prices);
  const read = await queryAtAlert(baseUrl, alert, q && ((atS) => [q.cores(atS), q.requests]), 'no Prometheus (--prometheus) to price the change', opts);
  if (!read?.values) {
    return read;
  }
  const [cores, rate] = read.values;
  return priceChange({ cores, rate, change: q.change, prices });
}

/** "+$18" / "−$3": two decimals under 10, whole units above; the currency's own symbol. */
export function formatMoney(v, currency) {
  const digits = Math.abs(v) < 10 ? 2 : 0;
  const s = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(Math.abs(v));
  return `${v < 0 ? '−' : '+'}${s}`;
}

/** The message's money line: the cores beside the money, the traffic and what was counted. */
export function costText(c) {
  if (c.why) {
    return `_What it costs: ${c.why}._`;
  }
  const cores = `${c.cores < 0 ? '−' : '+'}${Math.abs(c.cores).toFixed(2)} cores`;
  const rate = c.rate === undefined ? '' : ` at the current ${c.rate.toFixed(c.rate >= 10 ? 0 : 1)} req/s`;
  const price = new Intl.NumberFormat('en-US', { style: 'currency', currency: c.currency, maximumSignificantDigits: 4 }).format(c.perCoreHour);
  return `*What it costs:* ${cores} ≈ ${formatMoney(c.perMonth, c.currency)}/month${rate} (${c.what}; at a list price of ${price} a core-hour)`;
}
