import { readFileSync } from 'fs';
import { join } from 'path';

import {
  endpointMatcher,
  LabelledCost,
  normaliseRoute,
  OTHER_ENDPOINT,
  ROUTE_PATTERN,
  seriesGroups,
  splitByEndpoint,
  UNLABELLED_ENDPOINT,
  withMatcher,
} from './endpoints';

describe('normaliseRoute', () => {
  it.each([
    ['/search', '/search'],
    ['/search/', '/search'],
    ['GET /search', '/search'],
    ['POST  /api/v1/orders/{id}/', '/api/v1/orders/{id}'],
    [' /healthz ', '/healthz'],
    ['/', '/'],
    ['/shop.Catalog/Search', '/shop.Catalog/Search'],
    ['shop.Catalog/Search', '/shop.Catalog/Search'],
    ['GETTER/x', '/GETTER/x'],
  ])('%j is %j', (raw, want) => {
    expect(normaliseRoute(raw)).toBe(want);
  });

  it('no route can take the name of a row that is not an endpoint', () => {
    for (const raw of [OTHER_ENDPOINT, UNLABELLED_ENDPOINT, 'GET other']) {
      expect(normaliseRoute(raw)).not.toBe(OTHER_ENDPOINT);
      expect(normaliseRoute(raw)).not.toBe(UNLABELLED_ENDPOINT);
    }
  });

  it('the pattern is the one the rule pack writes in its label_replace (catalogue/catalogue.json)', () => {
    const catalogue = JSON.parse(readFileSync(join(__dirname, '../../../../catalogue/catalogue.json'), 'utf8'));
    expect(catalogue.endpoints.routePattern).toBe(ROUTE_PATTERN);
  });
});

describe('splitByEndpoint', () => {
  const groups: LabelledCost[] = [
    { labels: { service_name: 'api', 'http.route': '/search' }, value: 600 },
    { labels: { service_name: 'api', span_name: 'GET /search/' }, value: 100 },
    { labels: { service_name: 'api', 'http.route': '/healthz', span_name: 'GET /healthz' }, value: 50 },
    { labels: { service_name: 'api', 'grpc.method': '/shop.Catalog/Get' }, value: 150 },
    { labels: { service_name: 'api' }, value: 100 },
    { labels: { service_name: 'api', span_name: '' }, value: 0 },
  ];

  it('each group goes to its first endpoint label, normalised; the rest is unlabelled', () => {
    const s = splitByEndpoint(groups);
    expect(s.total).toBe(1000);
    expect(s.endpoints.map((e) => [e.endpoint, e.value])).toEqual([
      ['/search', 700],
      ['/shop.Catalog/Get', 150],
      ['/healthz', 50],
    ]);
    expect(s.unlabelled).toBe(100);
    expect(s.unlabelledShare).toBeCloseTo(0.1);
  });

  it('a group with both a route and a span name counts once, under the route', () => {
    const s = splitByEndpoint(groups);
    const healthz = s.endpoints.find((e) => e.endpoint === '/healthz');
    expect(healthz?.sources).toEqual([{ label: 'http.route', values: ['/healthz'], value: 50 }]);
  });

  it('an endpoint keeps every label and raw value it was read from, the costliest first', () => {
    const search = splitByEndpoint(groups).endpoints[0];
    expect(search.sources).toEqual([
      { label: 'http.route', values: ['/search'], value: 600 },
      { label: 'span_name', values: ['GET /search/'], value: 100 },
    ]);
  });

  it('the label order is the caller\'s: span names first', () => {
    const s = splitByEndpoint(groups, ['span_name']);
    expect(s.endpoints.map((e) => e.endpoint)).toEqual(['/search', '/healthz']);
    expect(s.unlabelled).toBe(850);
    expect(s.unlabelledShare).toBeCloseTo(0.85);
  });

  it('an empty profile has no endpoints and no unlabelled share (not NaN)', () => {
    expect(splitByEndpoint([])).toEqual({ total: 0, endpoints: [], unlabelled: 0, unlabelledShare: 0 });
  });

  it('values that are not finite or not positive count for nothing', () => {
    const s = splitByEndpoint([
      { labels: { span_name: '/a' }, value: Number.NaN },
      { labels: { span_name: '/a' }, value: -5 },
      { labels: { span_name: '/a' }, value: 3 },
    ]);
    expect(s.total).toBe(3);
    expect(s.endpoints[0].value).toBe(3);
  });
});

describe('endpointMatcher', () => {
  it('one raw value: an equality on its label, quoted when the name has a dot', () => {
    expect(endpointMatcher({ sources: [{ label: 'http.route', values: ['/search'], value: 1 }] })).toBe('"http.route"="/search"');
    expect(endpointMatcher({ sources: [{ label: 'span_name', values: ['GET /search'], value: 1 }] })).toBe('span_name="GET /search"');
  });

  it('several raw values: an exact alternation, its metacharacters escaped', () => {
    const m = endpointMatcher({ sources: [{ label: 'span_name', values: ['GET /a/{id}', 'POST /a/{id}/'], value: 1 }] });
    expect(m).toBe('span_name=~"GET /a/\\\\{id\\\\}|POST /a/\\\\{id\\\\}/"');
    const re = new RegExp(`^(?:${JSON.parse(m!.slice('span_name=~'.length))})$`);
    expect(re.test('GET /a/{id}')).toBe(true);
    expect(re.test('GET /a/xid}')).toBe(false);
  });

  it('a row that is not an endpoint has none', () => {
    expect(endpointMatcher({ sources: [] })).toBeUndefined();
  });

  it('withMatcher adds it to a selector', () => {
    expect(withMatcher('{service_name="api"}', 'span_name="x"')).toBe('{service_name="api", span_name="x"}');
    expect(withMatcher('{}', 'span_name="x"')).toBe('{span_name="x"}');
  });
});

describe('seriesGroups', () => {
  it("reads Pyroscope's SelectSeries answer (protojson: int64 as strings), points summed", () => {
    const g = seriesGroups({
      series: [
        { labels: [{ name: 'span_name', value: '/a' }], points: [{ value: 2, timestamp: '1' }, { value: 3, timestamp: '2' }] },
        { labels: [], points: [{ value: '4', timestamp: '1' }] },
      ],
    });
    expect(g).toEqual([
      { labels: { span_name: '/a' }, value: 5 },
      { labels: {}, value: 4 },
    ]);
    expect(seriesGroups({})).toEqual([]);
  });
});
