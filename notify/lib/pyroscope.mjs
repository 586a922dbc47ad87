// A client of Pyroscope's querier API: SelectMergeProfile over the Connect protocol (unary POST,
// binary protobuf both ways), as Pyroscope's own clients call it (api/querier/v1/querier.proto):
//
//   POST <base>/querier.v1.QuerierService/SelectMergeProfile
//   Content-Type: application/proto, Connect-Protocol-Version: 1
//   body: SelectMergeProfileRequest { 1: profile_typeID, 2: label_selector, 3: start, 4: end (unix ms) }
//   200: google.v1.Profile, the pprof message (not gzipped); an error: JSON { code, message }.
//
// The playground's profile-store answers the same endpoint (demo/profilestore/querier.go).
import { gunzipSync } from 'node:zlib';

import { requirePlugin } from '../../plugin/scripts/headless/env.mjs';

const { Profile } = requirePlugin('pprof-format');

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

/**
 * Fetches the merged profile; returns { bytes, samples, total }. Throws SourceError with a
 * one-line reason for everything the message should say instead of a picture: the source is
 * down or slow, it answered an error, or the window holds no samples.
 */
export async function selectMergeProfile(baseUrl, { profileTypeID, labelSelector, start, end }, { timeoutMs = 20_000, maxBytes = 64 << 20, headers = {} } = {}) {
  const url = baseUrl.replace(/\/$/, '') + SELECT_MERGE_PROFILE;
  let res;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/proto', 'connect-protocol-version': '1', 'connect-timeout-ms': String(timeoutMs), ...headers },
      body: encodeSelectMergeProfile({ profileTypeID, labelSelector, start, end }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new SourceError(`profile source ${baseUrl} unreachable: ${why}`);
  }
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) {
    let detail = body.toString('utf8', 0, 300);
    try {
      const err = JSON.parse(detail);
      detail = `${err.code}: ${err.message}`;
    } catch {
      // not a Connect error body (a proxy's page): keep its start
    }
    throw new SourceError(`profile source answered ${res.status}: ${detail.replace(/\s+/g, ' ').trim()}`);
  }
  if (body.length > maxBytes) {
    throw new SourceError(`profile of ${body.length} bytes exceeds the ${maxBytes}-byte limit`);
  }
  const raw = body.length > 1 && body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body;
  let p;
  try {
    p = Profile.decode(raw);
  } catch (e) {
    throw new SourceError(`profile source answered something that is not a pprof: ${e.message}`);
  }
  let total = 0n;
  for (const s of p.sample) {
    for (const v of s.value) {
      total += BigInt(v);
    }
  }
  return { bytes: raw, samples: p.sample.length, total };
}
