// One profile's cost by endpoint, read by the profile core's splitByEndpoint (the reader the
// panel and hotpath-notify use) from Pyroscope's series grouped by the endpoint labels: each
// endpoint's cost (its route normalised to the rule pack's template) and the unlabelled rest;
// grouped by the instance label too, each instance's cost (which instances were profiled).
import { dataLayer } from '@hotpath/headless/data-node.mjs';

import { catalogueEndpoints } from './catalogue.mjs';

const d = await dataLayer();

/** The profile labels that name an endpoint, as the rule pack was generated with (catalogue/catalogue.json). */
export const ENDPOINT_LABELS = catalogueEndpoints().profileLabels;

/**
 * The profile label that names the instance a sample came from (the rule pack's
 * profileInstanceLabel), and the label the bridge's instance rows carry its values in (the rule
 * pack's instanceLabel: the request counters' label for the same instance).
 */
export const INSTANCE_LABEL = catalogueEndpoints().profileInstanceLabel;
export const INSTANCE_ROW_LABEL = catalogueEndpoints().instanceLabel;

/**
 * @param {object} answer SelectSeries' answer (pyroscope.mjs)
 * @param {string[]} labels the endpoint labels, most specific first
 * @param {string} [instanceLabel] the instance label the answer is also grouped by
 * @returns {{ total: number, byEndpoint: Map<string, number>, unlabelled: number, byInstance: Map<string, number> }}
 *   byInstance: each instance's cost (samples without the label count in none)
 */
export function endpointCosts(answer, labels, instanceLabel) {
  const groups = d.seriesGroups(answer);
  const s = d.splitByEndpoint(groups, labels);
  const byInstance = new Map();
  for (const g of instanceLabel ? groups : []) {
    const instance = g.labels[instanceLabel];
    if (instance && g.value > 0) {
      byInstance.set(instance, (byInstance.get(instance) ?? 0) + g.value);
    }
  }
  return { total: s.total, byEndpoint: new Map(s.endpoints.map((e) => [e.endpoint, e.value])), unlabelled: s.unlabelled, byInstance };
}

/** The rows that are not an endpoint: everything outside the top set, and the unlabelled samples. */
export const OTHER_ENDPOINT = d.OTHER_ENDPOINT;
export const UNLABELLED_ENDPOINT = d.UNLABELLED_ENDPOINT;
