// One profile's cost by endpoint, read by the profile core's splitByEndpoint (the reader the
// panel and hotpath-notify use) from Pyroscope's series grouped by the endpoint labels: each
// endpoint's cost (its route normalised to the rule pack's template) and the unlabelled rest.
import { dataLayer } from '@hotpath/headless/data-node.mjs';

import { catalogueEndpoints } from './catalogue.mjs';

const d = await dataLayer();

/** The profile labels that name an endpoint, as the rule pack was generated with (catalogue/catalogue.json). */
export const ENDPOINT_LABELS = catalogueEndpoints().profileLabels;

/**
 * @param {object} answer SelectSeries' answer (pyroscope-labels.mjs)
 * @param {string[]} labels the endpoint labels, most specific first
 * @returns {{ total: number, byEndpoint: Map<string, number>, unlabelled: number }}
 */
export function endpointCosts(answer, labels) {
  const s = d.splitByEndpoint(d.seriesGroups(answer), labels);
  return { total: s.total, byEndpoint: new Map(s.endpoints.map((e) => [e.endpoint, e.value])), unlabelled: s.unlabelled };
}

/** The rows that are not an endpoint: everything outside the top set, and the unlabelled samples. */
export const OTHER_ENDPOINT = d.OTHER_ENDPOINT;
export const UNLABELLED_ENDPOINT = d.UNLABELLED_ENDPOINT;
