// The worker side of decode.mjs: inflates and decodes profile answers (or summarizes two
// profiles for a message without a picture) away from the receiver's event loop, one task at a
// time. The parent bounds its heap (resourceLimits) and each task's time (terminate); the
// inflated size is bounded here.
import { parentPort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { requirePlugin } from '@hotpath/headless/env.mjs';

const { Profile } = requirePlugin('pprof-format');
const isGzip = (b) => b.length > 1 && b[0] === 0x1f && b[1] === 0x8b;

function inflate(body, maxBytes) {
  if (!isGzip(body)) {
    return body;
  }
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch (e) {
    throw new Error(e.code === 'ERR_BUFFER_TOO_LARGE' ? `inflates past the ${maxBytes}-byte limit` : `gzip: ${e.message}`);
  }
}

function decodeProfile({ body, maxBytes }) {
  const raw = inflate(Buffer.from(body.buffer, body.byteOffset, body.byteLength), maxBytes);
  let p;
  try {
    p = Profile.decode(raw);
  } catch (e) {
    throw new Error(`not a pprof: ${e.message}`);
  }
  let total = 0n;
  for (const s of p.sample) {
    for (const v of s.value) {
      total += BigInt(v);
    }
  }
  const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  const whole = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength;
  return { value: { bytes, samples: p.sample.length, total: String(total) }, transfer: whole ? [raw.buffer] : [] };
}

async function summarize({ incident, baseline, sampleType }) {
  const d = await dataLayer();
  return { value: d.summarize(d.pprofToTree(incident, sampleType).tree, d.pprofToTree(baseline, sampleType).tree), transfer: [] };
}

parentPort.on('message', async (task) => {
  try {
    const { value, transfer } = task.task === 'summary' ? await summarize(task) : decodeProfile(task);
    parentPort.postMessage({ ok: true, value }, transfer);
  } catch (e) {
    parentPort.postMessage({ ok: false, message: e.message });
  }
});
