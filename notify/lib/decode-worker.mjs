// The worker side of decode.mjs: reads each profile answer once, with the profile core's reader
// (packages/profile-core: gzip or zstd inflated within maxBytes, int64 values signed, a
// truncated or malformed message refused in pprof's words), into the tree the answer and the
// picture are both made from, away from the receiver's event loop, one task at a time. The
// parent bounds its heap (resourceLimits) and each task's time (terminate); the inflated size
// is bounded here.
import { parentPort } from 'node:worker_threads';

import { decodePprof, pprofBytes, profileToTree } from '@hotpath/profile-core';

/** The typed arrays of trees, moved to the parent rather than copied (each buffer once). */
function buffersOf(...trees) {
  const columns = trees.filter(Boolean).flatMap((t) => [t.level, t.total, t.self, t.nameId, t.parent, t.end, t.totalRight, t.selfRight]);
  return [...new Set(columns.filter(Boolean).map((a) => a.buffer))];
}

function decodeProfile({ body, maxBytes, sampleType }) {
  // Pyroscope answers an empty window with an empty message: no samples, nothing to read
  if (body.length === 0) {
    return { value: { bytes: body, samples: 0 }, transfer: [] };
  }
  const raw = pprofBytes(body, maxBytes);
  const profile = decodePprof(raw, { maxBytes });
  const samples = profile.sampleCount;
  // a window without samples has no tree to read (and maybe no sample type to pick)
  const read = samples ? profileToTree(profile, sampleType) : undefined;
  // the inflated bytes go along for the snapshot CLI renderer, which reads pprof files
  const transfer = [...new Set([...buffersOf(read?.tree, read?.baseline), raw.buffer])];
  return { value: { bytes: raw, samples, read }, transfer };
}

parentPort.on('message', (task) => {
  try {
    const { value, transfer } = decodeProfile(task);
    parentPort.postMessage({ ok: true, value }, transfer);
  } catch (e) {
    parentPort.postMessage({ ok: false, message: e.message });
  }
});
