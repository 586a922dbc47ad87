/**
 * The panel's profile split by endpoint: its own profile query asked as time series grouped by the
 * endpoint labels (Grafana's Pyroscope query type `metrics` with `groupBy`, one series per set of
 * label values, the samples without any in the series without them), read by the profile core's
 * splitByEndpoint (the reader hotpath-notify and the bridge use). The split gives the endpoints to
 * pick, the share of the profile no endpoint label explains, and the label matcher that narrows
 * the windows' profile queries to one endpoint.
 */
import { DataFrame, DataQueryRequest, FieldType } from '@grafana/data';
import type { DataQuery } from '@grafana/schema';

import { DEFAULT_ENDPOINT_LABELS, EndpointSplit, LabelledCost, TimeWindow } from '@hotpath/profile-core';

import { ProfileQuery, requestFor } from './fetcher';

/** The endpoint labels of the option (comma-separated), most specific first; the core's defaults when empty. */
export function endpointLabels(option: string | undefined): string[] {
  const labels = (option ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return labels.length ? labels : [...DEFAULT_ENDPOINT_LABELS];
}

/** The request for the split over `range`: the panel's profile target as time series grouped by the labels. */
export function endpointRequest(q: ProfileQuery, range: TimeWindow, labels: string[]): DataQueryRequest {
  return requestFor(q, range, { ...q.target, queryType: 'metrics', groupBy: labels } as DataQuery, `hotpath-endpoints-${range.from}-${range.to}`);
}

/**
 * The groups of a grouped time-series answer: each number field's labels and the sum of its
 * values (a frame per series, as Grafana's Pyroscope datasource returns them, or several value
 * fields in one frame).
 */
export function frameGroups(frames: DataFrame[]): LabelledCost[] {
  const out: LabelledCost[] = [];
  for (const f of frames) {
    for (const field of f.fields) {
      if (field.type !== FieldType.number) {
        continue;
      }
      let sum = 0;
      for (let i = 0; i < field.values.length; i++) {
        const v = Number(field.values[i]);
        sum += Number.isFinite(v) ? v : 0;
      }
      out.push({ labels: { ...(field.labels ?? {}) }, value: sum });
    }
  }
  return out;
}

/** An endpoint's share of the split's total, as the picker lists it (0 for an empty profile). */
export function endpointShare(split: EndpointSplit, endpoint: string): number {
  const e = split.endpoints.find((x) => x.endpoint === endpoint);
  return e && split.total > 0 ? e.value / split.total : 0;
}
