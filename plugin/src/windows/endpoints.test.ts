import { FieldType, toDataFrame } from '@grafana/data';

import { DEFAULT_ENDPOINT_LABELS, splitByEndpoint } from '@hotpath/profile-core';

import { endpointLabels, endpointRequest, endpointShare, frameGroups } from './endpoints';

describe('the panel split by endpoint', () => {
  it('reads the endpoint labels of the option, most specific first; the defaults when empty', () => {
    expect(endpointLabels(' http.route , span_name,')).toEqual(['http.route', 'span_name']);
    expect(endpointLabels('')).toEqual([...DEFAULT_ENDPOINT_LABELS]);
  });

  it('asks the profile target as time series grouped by the labels, over the range', () => {
    const target = { refId: 'C', queryType: 'profile', labelSelector: '{service_name="api"}', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds' };
    const r = endpointRequest({ target, key: 'k' }, { from: 1000, to: 61_000 }, ['http.route', 'span_name']);
    expect(r.targets).toEqual([{ ...target, queryType: 'metrics', groupBy: ['http.route', 'span_name'] }]);
    expect([r.range.from.valueOf(), r.range.to.valueOf()]).toEqual([1000, 61_000]);
  });

  it("reads Grafana's grouped frames (one per set of label values) into the core's split", () => {
    const frame = (labels: Record<string, string>, values: number[]) =>
      toDataFrame({ fields: [{ name: 'time', type: FieldType.time, values: values.map((_, i) => i * 60_000) }, { name: 'value', type: FieldType.number, values, labels }] });
    const groups = frameGroups([frame({ 'http.route': '/search' }, [2, 3, Number.NaN]), frame({ span_name: 'GET /healthz' }, [4]), frame({}, [1])]);
    expect(groups).toEqual([
      { labels: { 'http.route': '/search' }, value: 5 },
      { labels: { span_name: 'GET /healthz' }, value: 4 },
      { labels: {}, value: 1 },
    ]);
    const split = splitByEndpoint(groups);
    expect(split.endpoints.map((e) => e.endpoint)).toEqual(['/search', '/healthz']);
    expect(split.unlabelledShare).toBeCloseTo(0.1);
    expect(endpointShare(split, '/healthz')).toBeCloseTo(0.4);
    expect(endpointShare(split, '/none')).toBe(0);
  });
});
