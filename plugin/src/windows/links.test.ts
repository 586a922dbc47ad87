import { drilldownUrl, exploreUrl, LinkQuery, parseLabelSelector } from './links';

const q: LinkQuery = {
  refId: 'C',
  datasource: { type: 'grafana-pyroscope-datasource', uid: 'pyro-uid' },
  queryType: 'profile',
  profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
  labelSelector: '{service_name="api", namespace=~"prod|staging"}',
  groupBy: [],
};
const comparison = { from: 1767000000000, to: 1767000600000 };
const baseline = { from: 1766999400000, to: 1767000000000 };

function params(url: string) {
  return new URL(url, 'http://grafana.local').searchParams;
}

describe('links out', () => {
  it('Explore: one pane per window, baseline first, the same query', () => {
    const url = exploreUrl(q, comparison, baseline, { appSubUrl: '/grafana', orgId: 1 });
    expect(url.startsWith('/grafana/explore?')).toBe(true);
    const p = params(url);
    expect(p.get('schemaVersion')).toBe('1');
    expect(p.get('orgId')).toBe('1');
    const panes = JSON.parse(p.get('panes')!);
    expect(Object.keys(panes)).toEqual(['baseline', 'comparison']);
    expect(panes.comparison).toEqual({
      datasource: 'pyro-uid',
      queries: [{ ...q, queryType: 'both' }],
      range: { from: '1767000000000', to: '1767000600000' },
    });
    expect(panes.baseline.range).toEqual({ from: '1766999400000', to: '1767000000000' });
  });

  it('Explore without a baseline: one pane', () => {
    expect(Object.keys(JSON.parse(params(exploreUrl(q, comparison)).get('panes')!))).toEqual(['comparison']);
  });

  it('Profiles Drilldown: diff flame graph with both ranges', () => {
    const p = params(drilldownUrl(q, comparison, baseline)!);
    expect(p.get('explorationType')).toBe('diff-flame-graph');
    expect(p.get('var-serviceName')).toBe('api');
    expect(p.get('var-profileMetricId')).toBe('process_cpu:cpu:nanoseconds:cpu:nanoseconds');
    expect(p.get('var-dataSource')).toBe('pyro-uid');
    expect(p.getAll('var-filters')).toEqual(['namespace|=~|prod|staging']);
    expect(p.get('diffFrom')).toBe('2025-12-29T09:10:00.000Z');
    expect(p.get('diffTo')).toBe('2025-12-29T09:20:00.000Z');
    expect(p.get('diffFrom-2')).toBe('2025-12-29T09:20:00.000Z');
    expect(p.get('diffTo-2')).toBe('2025-12-29T09:30:00.000Z');
    expect(p.get('from')).toBe(String(baseline.from));
    expect(p.get('to')).toBe(String(comparison.to));
  });

  it('Profiles Drilldown: one window is a flame graph', () => {
    const p = params(drilldownUrl(q, comparison)!);
    expect(p.get('explorationType')).toBe('flame-graph');
    expect(p.get('diffFrom')).toBeNull();
  });

  it('Profiles Drilldown needs a service', () => {
    expect(drilldownUrl({ ...q, labelSelector: '{}' }, comparison)).toBeUndefined();
  });

  it('parses label selectors, escaped quotes included', () => {
    expect(parseLabelSelector('{service_name="a\\"b", x!="y"}')).toEqual([
      { label: 'service_name', op: '=', value: 'a"b' },
      { label: 'x', op: '!=', value: 'y' },
    ]);
    expect(parseLabelSelector(undefined)).toEqual([]);
  });
});
