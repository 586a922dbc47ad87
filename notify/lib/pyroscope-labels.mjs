// Which services Pyroscope holds: its querier's LabelValues over the Connect protocol with the JSON
// codec (api/querier/v1/querier.proto, types.v1.LabelValuesRequest { name, matchers, start, end }
// -> LabelValuesResponse { names }), the call Grafana's Pyroscope datasource makes to list
// `service_name`. JSON rather than protobuf: the answer is a list of strings, and Connect servers
// accept both codecs on the same path.
import { SourceError } from './pyroscope.mjs';

export const LABEL_VALUES = '/querier.v1.QuerierService/LabelValues';

/**
 * The values of label `name` seen between start and end (unix ms), sorted. Throws SourceError in
 * one line when the source is down, slow (timeoutMs), answers an error or more than maxBytes.
 */
export async function labelValues(baseUrl, { name, start, end, matchers = [] }, { timeoutMs = 20_000, maxBytes = 16 << 20, headers = {} } = {}) {
  const url = baseUrl.replace(/\/$/, '') + LABEL_VALUES;
  let res;
  let text;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'connect-protocol-version': '1', 'connect-timeout-ms': String(timeoutMs), ...headers },
      // int64 fields as JSON strings, as protojson writes them
      body: JSON.stringify({ name, matchers, start: String(start), end: String(end) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await res.text();
  } catch (e) {
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new SourceError(`profile source ${baseUrl} unreachable: ${why}`);
  }
  if (text.length > maxBytes) {
    throw new SourceError(`label values answer exceeds the ${maxBytes}-byte limit`);
  }
  if (!res.ok) {
    throw new SourceError(`profile source answered ${res.status} to LabelValues: ${text.slice(0, 300).replace(/\s+/g, ' ').trim()}`);
  }
  let names;
  try {
    names = JSON.parse(text).names ?? [];
  } catch {
    throw new SourceError(`profile source answered LabelValues with something that is not JSON: ${text.slice(0, 100)}`);
  }
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    throw new SourceError('profile source answered LabelValues without a list of names');
  }
  return [...new Set(names)].sort();
}
