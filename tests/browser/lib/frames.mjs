// Profile frames for the browser: pprof files decoded by the built plugin's own data layer
// (module.js exports it as hotpathData), served the way Grafana serves them: pprof -> tree ->
// flamebearer (Pyroscope) -> nested-set frame (flamebearerToFrame, Grafana's backend).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FIXTURES_DIR } from './env.mjs';

export const fixturePath = (name) => join(FIXTURES_DIR, name);

/** Decodes a pprof file in the page; resolves to { frame, sampleTypes, sampleType, unit } or { error }. */
export function pprofFrame(page, file, { sampleType, refId = 'A' } = {}) {
  const b64 = readFileSync(file).toString('base64');
  return page.evaluate(
    ({ b64, sampleType, refId }) => {
      const d = window.hotpathHost.module.hotpathData;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      try {
        const p = d.pprofToTree(bytes, sampleType || undefined);
        const frame = d.flamebearerToFrame(d.treeToFlamebearer(p.tree), p.unit, { refId });
        return { frame, sampleTypes: p.sampleTypes, sampleType: p.sampleType, unit: p.unit };
      } catch (e) {
        return { error: e.message };
      }
    },
    { b64, sampleType, refId }
  );
}
