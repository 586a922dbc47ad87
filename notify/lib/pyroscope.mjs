// The one client of Pyroscope's querier API, over the Connect protocol (unary POST), as Pyroscope's
// own clients and Grafana's Pyroscope datasource call it (api/querier/v1/querier.proto):
//
//   POST <base>/querier.v1.QuerierService/SelectMergeProfile
//   Content-Type: application/proto, Connect-Protocol-Version: 1
//   body: SelectMergeProfileRequest { 1: profile_typeID, 2: label_selector, 3: start, 4: end (unix ms) }
//   200: google.v1.Profile, the pprof message (not gzipped); an error: JSON { code, message }.
//
//   POST <base>/querier.v1.QuerierService/LabelValues and .../SelectSeries
//   Content-Type: application/json (the JSON codec: the answers are lists of strings and numbers,
//   and Connect servers accept both codecs on the same path)
//   LabelValues: types.v1.LabelValuesRequest { name, matchers, start, end } -> { names }
//   SelectSeries: { profileTypeID, labelSelector, start, end, groupBy, step, aggregation } ->
//     { series: [{ labels: [{ name, value }], points: [{ value, timestamp }] }] }: a profile's
//     cost grouped by labels. Pyroscope keeps each distinct set of pprof sample labels as a series
//     of its own, so grouping by the endpoint labels splits a profile by endpoint; the samples
//     without any come back as one group without them.
//
// Both calls go one way (call()): the same headers, one timeout over the headers and the whole
// body (a source that stalls after its headers is as down as one that never answers), every body
// read as it streams in and cancelled at its size bound (a source never makes the receiver buffer
// more than the bound), and failures as a SourceError of one line, which the message shows in the
// picture's place. The playground's profile-store answers both (demo/profilestore/querier.go).
import { decodeProfile } from './decode.mjs';

export const SELECT_MERGE_PROFILE = '/querier.v1.QuerierService/SelectMergeProfile';
export const LABEL_VALUES = '/querier.v1.QuerierService/LabelValues';
export const SELECT_SERIES = '/querier.v1.QuerierService/SelectSeries';

/** The most of an error answer read for its message (a proxy's page can be large). */
const ERROR_BYTES = 64 << 10;

/** A failure the message states in one line (the picture's place). */
export class SourceError extends Error {}

// The request has four scalar fields: its protobuf encoding is written here (a tag byte, then a
// varint or a length-prefixed UTF-8 string), rather than adding a protobuf runtime for it.
function varint(n) {
  const out = [];
  let v = BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) {
      b |= 0x80;
    }
    out.push(b);
  } while (v > 0n);
  return out;
}

function stringField(num, s) {
  const bytes = Buffer.from(s, 'utf8');
  return [(num << 3) | 2, ...varint(bytes.length), ...bytes];
}

/** The binary encoding of querier.v1.SelectMergeProfileRequest. */
export function encodeSelectMergeProfile({ profileTypeID, labelSelector, start, end }) {
  return Uint8Array.from([...stringField(1, profileTypeID), ...stringField(2, labelSelector), 3 << 3, ...varint(start), 4 << 3, ...varint(end)]);
}

/** A PromQL/Pyroscope label value in double quotes. */
export function quote(v) {
  return JSON.stringify(String(v));
}

/** {service_name="api", namespace="shop"}: the selector of a set of labels, in a stable order. */
export function labelSelector(labels, notEqual = {}) {
  return `{${[...Object.entries(labels).map(([k, v]) => `${k}=${quote(v)}`), ...Object.entries(notEqual).map(([k, v]) => `${k}!=${quote(v)}`)].join(', ')}}`;
}

/**
 * Reads a response body as it streams in, up to maxBytes: { bytes, whole }. A longer body is
 * cancelled at the bound, `whole` false and `bytes` what arrived up to it (an error answer's start
 * is still worth quoting); one that declares a longer length is cancelled before a byte is read,
 * unless `keepStart` asks for its start.
 */
export async function readBounded(res, maxBytes, { keepStart = false } = {}) {
  const declared = Number(res.headers.get('content-length'));
  const chunks = [];
  let size = 0;
  if (keepStart || !(declared > maxBytes)) {
    for await (const c of res.body ?? []) {
      chunks.push(c);
      size += c.length;
      if (size > maxBytes) {
        break;
      }
    }
  }
  const whole = size <= maxBytes && !(declared > maxBytes);
  if (!whole) {
    await res.body?.cancel().catch(() => {});
  }
  return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), whole };
}

/** An error answer in one line: a Connect error's code and message, else the body's start. */
function answerError(status, bytes, call) {
  let detail = bytes.toString('utf8', 0, 300);
  try {
    const err = JSON.parse(bytes.toString('utf8'));
    if (err.code || err.message) {
      detail = `${err.code}: ${err.message}`;
    }
  } catch {
    // not a Connect error body (a proxy's page): keep its start
  }
  return new SourceError(`profile source answered ${status}${call ? ` to ${call}` : ''}: ${detail.replace(/\s+/g, ' ').trim()}`);
}

/**
 * One Connect call: POSTs `body` to `path` and reads the answer within maxBytes, all within
 * timeoutMs. Returns the answer's bytes; throws SourceError when the source is down or slow, answers
 * an error, or more than maxBytes (`what` names the answer there).
 */
async function call(baseUrl, path, { contentType, body, timeoutMs, maxBytes, headers, what, callName }) {
  let res;
  let read;
  try {
    res = await fetch(baseUrl.replace(/\/$/, '') + path, {
      method: 'POST',
      headers: { 'content-type': contentType, 'connect-protocol-version': '1', 'connect-timeout-ms': String(timeoutMs), ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // the same timeout covers the body
    read = res.ok ? await readBounded(res, maxBytes) : await readBounded(res, ERROR_BYTES, { keepStart: true });
  } catch (e) {
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new SourceError(`profile source ${baseUrl} unreachable: ${why}`);
  }
  if (!res.ok) {
    throw answerError(res.status, read.bytes, callName);
  }
  if (!read.whole) {
    throw new SourceError(`${what} exceeds the ${maxBytes}-byte limit`);
  }
  return read.bytes;
}

/**
 * Fetches the merged profile; returns decode.mjs's { bytes, samples, total, read } (read: the
 * tree of `sampleType`). Throws SourceError with a one-line reason for everything the message
 * should say instead of a picture: the source is down or slow (before or after its headers), it
 * answered an error, too much (maxBytes, on the wire and inflated), something that takes longer
 * than decodeTimeoutMs to decode, or the window holds no samples. The answer is inflated and
 * decoded in a worker thread (decode.mjs).
 */
export async function selectMergeProfile(baseUrl, { profileTypeID, labelSelector, start, end }, { sampleType, timeoutMs = 20_000, maxBytes = 64 << 20, decodeTimeoutMs = 20_000, headers = {} } = {}) {
  const body = await call(baseUrl, SELECT_MERGE_PROFILE, {
    contentType: 'application/proto',
    body: encodeSelectMergeProfile({ profileTypeID, labelSelector, start, end }),
    timeoutMs,
    maxBytes,
    headers,
    what: 'profile answer',
  });
  try {
    return await decodeProfile(body, { sampleType, maxBytes, timeoutMs: decodeTimeoutMs });
  } catch (e) {
    throw new SourceError(`profile source answered something unusable: ${e.message}`);
  }
}

/**
 * A call with the JSON codec: `body` as JSON, the answer parsed. Throws SourceError as call()
 * does, and when the answer is not JSON; `callName` names the call in those lines.
 */
async function callJSON(baseUrl, path, callName, body, { timeoutMs, maxBytes, headers }) {
  const bytes = await call(baseUrl, path, { contentType: 'application/json', body: JSON.stringify(body), timeoutMs, maxBytes, headers, what: `${callName} answer`, callName });
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceError(`profile source answered ${callName} with something that is not JSON: ${text.slice(0, 100)}`);
  }
}

/**
 * The values of label `name` seen between start and end (unix ms), sorted and distinct. Throws
 * SourceError in one line when the source is down, slow (timeoutMs, headers and body), answers an
 * error, more than maxBytes or not a list of names.
 */
export async function labelValues(baseUrl, { name, start, end, matchers = [] }, { timeoutMs = 20_000, maxBytes = 16 << 20, headers = {} } = {}) {
  // int64 fields as JSON strings, as protojson writes them
  const answer = await callJSON(baseUrl, LABEL_VALUES, 'LabelValues', { name, matchers, start: String(start), end: String(end) }, { timeoutMs, maxBytes, headers });
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
  const answer = await callJSON(baseUrl, SELECT_SERIES, 'SelectSeries', body, { timeoutMs, maxBytes, headers });
  if (answer === null || typeof answer !== 'object' || (answer.series !== undefined && !Array.isArray(answer.series))) {
    throw new SourceError('profile source answered SelectSeries without a list of series');
  }
  return answer;
}
