// Pyroscope's querier calls over the Connect protocol with the JSON codec, the calls Grafana's
// Pyroscope datasource makes: which services Pyroscope holds (LabelValues, api/querier/v1/
// querier.proto, types.v1.LabelValuesRequest { name, matchers, start, end } -> LabelValuesResponse
// { names }), and a profile's cost grouped by labels (SelectSeries: SelectSeriesRequest {
// profileTypeID, labelSelector, start, end, groupBy, step, aggregation } -> SelectSeriesResponse {
// series: [{ labels: [{ name, value }], points: [{ value, timestamp }] }] }). JSON rather than
// protobuf: the answers are lists of strings and numbers, and Connect servers accept both codecs
// on the same path. Pyroscope keeps each distinct set of pprof sample labels as a series of its
// own, so grouping by the endpoint labels splits a profile by endpoint; the samples without any
// come back as one group without them.
import { SourceError } from './pyroscope.mjs';

export const LABEL_VALUES = '/querier.v1.QuerierService/LabelValues';
export const SELECT_SERIES = '/querier.v1.QuerierService/SelectSeries';

/**
 * POSTs `body` as JSON to `path` and returns the answer parsed. Throws SourceError in one line
 * when the source is down, slow (timeoutMs), answers an error, more than maxBytes or not JSON;
 * `call` names the call in those lines.
 */
async function connectJSON(baseUrl, path, call, body, { timeoutMs, maxBytes, headers }) {
  const url = baseUrl.replace(/\/$/, '') + path;
  let res;
  let text;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'connect-protocol-version': '1', 'connect-timeout-ms': String(timeoutMs), ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await res.text();
  } catch (e) {
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new SourceError(`profile source ${baseUrl} unreachable: ${why}`);
  }
  if (text.length > maxBytes) {
    throw new SourceError(`${call} answer exceeds the ${maxBytes}-byte limit`);
  }
  if (!res.ok) {
    throw new SourceError(`profile source answered ${res.status} to ${call}: ${text.slice(0, 300).replace(/\s+/g, ' ').trim()}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceError(`profile source answered ${call} with something that is not JSON: ${text.slice(0, 100)}`);
  }
}

/**
 * The values of label `name` seen between start and end (unix ms), sorted. Throws SourceError in
 * one line when the source is down, slow (timeoutMs), answers an error or more than maxBytes.
 */
export async function labelValues(baseUrl, { name, start, end, matchers = [] }, { timeoutMs = 20_000, maxBytes = 16 << 20, headers = {} } = {}) {
  // int64 fields as JSON strings, as protojson writes them
  const answer = await connectJSON(baseUrl, LABEL_VALUES, 'LabelValues', { name, matchers, start: String(start), end: String(end) }, { timeoutMs, maxBytes, headers });
  const names = answer?.names ?? [];
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    throw new SourceError('profile source answered LabelValues without a list of names');
  }
  return [...new Set(names)].sort();
}

/**
 * The profile's series grouped by `groupBy` between start and end (unix ms), each step of `stepS`
 * seconds the sum of its samples (the profile core's seriesGroups reads it). Throws SourceError
 * as labelValues does.
 */
export async function selectSeries(baseUrl, { profileTypeID, labelSelector, start, end, groupBy, stepS }, { timeoutMs = 20_000, maxBytes = 16 << 20, headers = {} } = {}) {
  const body = { profileTypeID, labelSelector, start: String(start), end: String(end), groupBy, step: stepS, aggregation: 'TIME_SERIES_AGGREGATION_TYPE_SUM' };
  const answer = await connectJSON(baseUrl, SELECT_SERIES, 'SelectSeries', body, { timeoutMs, maxBytes, headers });
  if (answer === null || typeof answer !== 'object' || (answer.series !== undefined && !Array.isArray(answer.series))) {
    throw new SourceError('profile source answered SelectSeries without a list of series');
  }
  return answer;
}
