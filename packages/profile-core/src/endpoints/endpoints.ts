/**
 * A profile split by endpoint: the one reader the panel, hotpath-notify and the bridge share.
 * Pure: no fetch, no DOM.
 *
 * Profilers tag samples with the request they serve: Go's pprof labels (inherited by the
 * goroutines a handler starts; grpc-go sets `grpc.method` on every handler), Pyroscope's span
 * profiles (`span_name`), a router middleware's `http.route`. Pyroscope turns each distinct set of
 * sample labels into a series of its own, so a profile's cost by endpoint is its series grouped by
 * those labels (SelectSeries with group_by, or a Grafana Pyroscope query grouped the same way):
 * one value per combination of label values, the samples that carry none in the group without
 * them. This file reads such groups.
 *
 * Route names are normalised to one template on both sides: the profile's label values here,
 * the request counters' route labels in the rule pack (the same pattern, `ROUTE_PATTERN`, in a
 * label_replace), so `GET /search/` (a span name) and `/search` (a route label) are one endpoint.
 * Every normalised route starts with `/`; the rows that are not an endpoint (`other`,
 * `unlabelled`) never do, so no route can take their names.
 */

/**
 * The profile labels that name a sample's endpoint, most specific first: a sample that carries
 * several is counted under the first (a router's route over a span's name).
 */
export const DEFAULT_ENDPOINT_LABELS = ['http.route', 'grpc.method', 'span_name'] as const;

/**
 * The route template, as a whole-string pattern (RE2 and JavaScript read it alike): blanks, an
 * HTTP method before the path (OpenTelemetry's span names, `GET /search`) and slashes at either end
 * are dropped; `$1` is what stays, and the endpoint is `/` + `$1`. A gRPC full method
 * (`/pkg.Service/Method`) keeps its form; a counter that splits it in two labels
 * (`grpc_service`, `grpc_method`) is joined with `/` before the pattern.
 */
export const ROUTE_PATTERN = '\\s*(?:(?:GET|HEAD|POST|PUT|DELETE|CONNECT|OPTIONS|TRACE|PATCH)\\s+)?/*(.*?)/*\\s*';
const ROUTE_RE = new RegExp(`^${ROUTE_PATTERN}$`, 's');

/** The row of everything outside the top endpoints. */
export const OTHER_ENDPOINT = 'other';
/** The row of the samples that carry no endpoint label. */
export const UNLABELLED_ENDPOINT = 'unlabelled';

/** A route name in the template both sides use: `/` + the path without method or edge slashes. */
export function normaliseRoute(raw: string): string {
  const m = ROUTE_RE.exec(raw);
  return `/${m ? m[1] : raw}`;
}

/** One group of a profile: the label values its samples share, and their cost (the profile's unit). */
export interface LabelledCost {
  labels: Readonly<Record<string, string>>;
  value: number;
}

/** An endpoint's raw label values, by label: what a profile query selects it by. */
export interface EndpointSource {
  label: string;
  values: string[];
  value: number;
}

export interface EndpointCost {
  /** the normalised route */
  endpoint: string;
  value: number;
  /** the labels and raw values it was read from, the costliest first */
  sources: EndpointSource[];
}

export interface EndpointSplit {
  /** every group's cost, unlabelled included */
  total: number;
  /** the endpoints, the costliest first (ties by name) */
  endpoints: EndpointCost[];
  /** the cost of the samples without any endpoint label */
  unlabelled: number;
  /** unlabelled / total (0 for an empty profile): how much of the profile no endpoint explains */
  unlabelledShare: number;
}

/**
 * Splits a profile's groups by endpoint: each group goes to the first of `labelNames` it carries
 * with a non-empty value (normalised), else to the unlabelled part. Values that are not finite or
 * not above 0 count for nothing.
 */
export function splitByEndpoint(groups: Iterable<LabelledCost>, labelNames: readonly string[] = DEFAULT_ENDPOINT_LABELS): EndpointSplit {
  const byEndpoint = new Map<string, { value: number; sources: Map<string, { values: Set<string>; value: number }> }>();
  let total = 0;
  let unlabelled = 0;
  for (const g of groups) {
    const v = Number.isFinite(g.value) && g.value > 0 ? g.value : 0;
    total += v;
    const label = labelNames.find((l) => (g.labels[l] ?? '') !== '');
    if (label === undefined) {
      unlabelled += v;
      continue;
    }
    const raw = g.labels[label];
    const endpoint = normaliseRoute(raw);
    let e = byEndpoint.get(endpoint);
    if (!e) {
      e = { value: 0, sources: new Map() };
      byEndpoint.set(endpoint, e);
    }
    e.value += v;
    let s = e.sources.get(label);
    if (!s) {
      s = { values: new Set(), value: 0 };
      e.sources.set(label, s);
    }
    s.values.add(raw);
    s.value += v;
  }
  const endpoints = [...byEndpoint]
    .map(([endpoint, e]) => ({
      endpoint,
      value: e.value,
      sources: [...e.sources]
        .map(([label, s]) => ({ label, values: [...s.values].sort(), value: s.value }))
        .sort((a, b) => b.value - a.value || (a.label < b.label ? -1 : 1)),
    }))
    .sort((a, b) => b.value - a.value || (a.endpoint < b.endpoint ? -1 : 1));
  return { total, endpoints, unlabelled, unlabelledShare: total > 0 ? unlabelled / total : 0 };
}

/** A label name as a Pyroscope selector writes it: quoted when it is not a plain identifier (`"http.route"`). */
export function selectorLabelName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : JSON.stringify(name);
}

/** A regular expression that matches exactly these strings (RE2 and JavaScript alike). */
function exactAlternatives(values: readonly string[]): string {
  return values.map((v) => v.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')).join('|');
}

/**
 * The label matcher that selects one endpoint's samples in a profile query, from its costliest
 * source (a selector cannot OR two labels; a second source, rare, is the caller's to merge):
 * `"http.route"="/search"`, or `=~` over the raw values that normalise to it. Undefined for a
 * row that is not an endpoint (`other`, `unlabelled`).
 */
export function endpointMatcher(e: Pick<EndpointCost, 'sources'>): string | undefined {
  const s = e.sources[0];
  if (!s || !s.values.length) {
    return undefined;
  }
  const name = selectorLabelName(s.label);
  return s.values.length === 1 ? `${name}=${JSON.stringify(s.values[0])}` : `${name}=~${JSON.stringify(exactAlternatives(s.values))}`;
}

/**
 * A Pyroscope label selector with more matchers: `{service_name="api"}` + `instance!="a"` is
 * `{service_name="api", instance!="a"}` (the panel's siblings baseline and endpoint filter, the
 * receiver's endpoint profile). An empty matcher leaves the selector as it is.
 */
export function withMatcher(selector: string | undefined, matcher: string): string {
  if (!matcher) {
    return selector ?? '{}';
  }
  const s = (selector ?? '').trim();
  const inner = s.startsWith('{') && s.endsWith('}') ? s.slice(1, -1).trim() : s;
  return `{${inner ? `${inner}, ` : ''}${matcher}}`;
}

/** Pyroscope's SelectSeries answer (protojson): series of labels and points. */
export interface SeriesAnswer {
  series?: Array<{ labels?: Array<{ name: string; value: string }>; points?: Array<{ value?: number | string; timestamp?: number | string }> }>;
}

/**
 * The groups of a SelectSeries answer: each series' labels and the sum of its points (a step as
 * long as the window gives one point; shorter steps add up to the same).
 */
export function seriesGroups(answer: SeriesAnswer): LabelledCost[] {
  return (answer.series ?? []).map((s) => ({
    labels: Object.fromEntries((s.labels ?? []).map((l) => [l.name, l.value])),
    value: (s.points ?? []).reduce((a, p) => a + (Number(p.value) || 0), 0),
  }));
}
