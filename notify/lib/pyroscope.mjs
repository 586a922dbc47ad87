// A client of Pyroscope's querier API: SelectMergeProfile over the Connect protocol (unary POST,
// binary protobuf both ways), as Pyroscope's own clients call it (api/querier/v1/querier.proto):
//
//   POST <base>/querier.v1.QuerierService/SelectMergeProfile
//   Content-Type: application/proto, Connect-Protocol-Version: 1
//   body: SelectMergeProfileRequest { 1: profile_typeID, 2: label_selector, 3: start, 4: end (unix ms) }
//   200: google.v1.Profile, the pprof message (not gzipped); an error: JSON { code, message }.
//
// The playground's profile-store answers the same endpoint (demo/profilestore/querier.go).
import { decodeProfile } from './decode.mjs';

export const SELECT_MERGE_PROFILE = '/querier.v1.QuerierService/SelectMergeProfile';

/** Pyroscope's profile type IDs for what hotpath alerts are about. */
export const PROFILE_TYPES = {
  cpu: { id: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', sampleType: 'cpu' },
  alloc_space: { id: 'memory:alloc_space:bytes:space:bytes', sampleType: 'alloc_space' },
};

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

/** Reads a response body of at most maxBytes (a longer one is cancelled, not buffered). */
async function readBounded(res, maxBytes) {
  const declared = Number(res.headers.get('content-length'));
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    return undefined;
  }
  const chunks = [];
  let size = 0;
  for await (const c of res.body ?? []) {
    size += c.length;
    if (size > maxBytes) {
      await res.body.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

/**
 * Fetches the merged profile; returns decode.mjs's { bytes, samples, total, read } (read: the
 * tree of `sampleType`). Throws SourceError with a
 * one-line reason for everything the message should say instead of a picture: the source is
 * down or slow (before or after its headers), it answered an error, too much (maxBytes, on the
 * wire and inflated), something that takes longer than decodeTimeoutMs to decode, or the window
 * holds no samples. The answer is inflated and decoded in a worker thread (decode.mjs).
 */
export async function selectMergeProfile(baseUrl, { profileTypeID, labelSelector, start, end }, { sampleType, timeoutMs = 20_000, maxBytes = 64 << 20, decodeTimeoutMs = 20_000, headers = {} } = {}) {
  const url = baseUrl.replace(/\/$/, '') + SELECT_MERGE_PROFILE;
  const unreachable = (e) => {
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return new SourceError(`profile source ${baseUrl} unreachable: ${why}`);
  };
  let res;
  let body;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/proto', 'connect-protocol-version': '1', 'connect-timeout-ms': String(timeoutMs), ...headers },
      body: encodeSelectMergeProfile({ profileTypeID, labelSelector, start, end }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // the same timeout covers the body: a source that stalls after its headers is as down as one that never answers
    body = await readBounded(res, maxBytes);
  } catch (e) {
    throw unreachable(e);
  }
  if (!res.ok) {
    let detail = (body ?? Buffer.alloc(0)).toString('utf8', 0, 300);
    try {
      const err = JSON.parse(detail);
      detail = `${err.code}: ${err.message}`;
    } catch {
      // not a Connect error body (a proxy's page): keep its start
    }
    throw new SourceError(`profile source answered ${res.status}: ${detail.replace(/\s+/g, ' ').trim()}`);
  }
  if (body === undefined) {
    throw new SourceError(`profile answer exceeds the ${maxBytes}-byte limit`);
  }
  try {
    return await decodeProfile(body, { sampleType, maxBytes, timeoutMs: decodeTimeoutMs });
  } catch (e) {
    throw new SourceError(`profile source answered something unusable: ${e.message}`);
  }
}
