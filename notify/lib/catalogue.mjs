// The hotpath alerts as the catalogue lists them (catalogue/catalogue.json, generated from
// jsonnet/catalogue.libsonnet): what each one's message compares and reads. The receiver never
// spells an alert name of its own, so a renamed or added alert needs no change here.
import { readFileSync } from 'node:fs';

const CATALOGUE = JSON.parse(readFileSync(new URL('../../catalogue/catalogue.json', import.meta.url), 'utf8'));
const ALERTS = new Map(CATALOGUE.alerts.map((a) => [a.name, a]));

/** The prices the rule pack was generated with ({ perCoreHour, currency, hoursPerMonth }), null when money is off. */
export function cataloguePrices() {
  return CATALOGUE.money ?? null;
}

/**
 * What the rule pack says of endpoints: { profileLabels (most specific first), routePattern,
 * serviceLabel, costs: { [profile type]: queries } } (jsonnet/lib/endpoint-costs.libsonnet).
 */
export function catalogueEndpoints() {
  return CATALOGUE.endpoints;
}

/** The catalogue's entry of an alert, or undefined for an alert of another rule pack. */
export function catalogueAlert(alertname) {
  return ALERTS.get(alertname);
}

/**
 * Which profile an alert is about (undefined: no code path to show, e.g. a CPU quota). An alert
 * outside the catalogue (another rule pack's, routed here too) is diffed on CPU.
 */
export function profileKind(alertname) {
  const alert = ALERTS.get(alertname);
  return alert ? (alert.profile ?? undefined) : 'cpu';
}

/**
 * What an alert's firing window is compared with: 'previous' (the service before), 'siblings'
 * (the other instances) or 'dayEarlier' (the same window a day earlier: a fixed cost whose onset
 * can predate the alert by hours).
 */
export function baselineOf(alertname) {
  return ALERTS.get(alertname)?.baseline ?? 'previous';
}
