// The third step of an alert's diff: the picture, drawn from the same profiles and trees as the
// answer, by the warm browser (warm-render.mjs) or the snapshot CLI (render.mjs), when the render
// gate (render-gate.mjs) says it can still be in time. A storm, or a render that fails, gives a
// note instead: the message then carries the same answer as text, saying why there is no picture.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { Degraded } from './render-gate.mjs';
import { renderDiff, RenderError } from './render.mjs';
import { stopwatch } from './stopwatch.mjs';

/**
 * @param {object} r
 * @param {string} r.dir where the picture goes (DIR/panel.png), created when missing
 * @param {object} r.fetched fetchDiffInputs()'s: type, incident and baseline (their bytes)
 * @param {object} r.computed computeDiff()'s: answer (its trees), requests
 * @param {object} r.gate the RenderGate
 * @param {object} [r.warm] the WarmRenderer; without it, the snapshot CLI
 * @param {number} r.receivedAt when the webhook came (the gate's budget counts from there)
 * @param {number} r.timeoutMs a render's bound
 * @param {() => boolean} r.stopping a render that fails while the receiver stops may have been
 *   ended by the stop: it is thrown (the job stays in the journal), not turned into a note
 * @returns {Promise<{ png?, summary?, note?, stagesMs: { render, renderWait?, renderPrepare? } }>}
 */
export async function renderPicture({ dir, fetched, computed, gate, warm, receivedAt, timeoutMs, stopping }) {
  const lap = stopwatch();
  mkdirSync(dir, { recursive: true });
  const args = { dir, incident: fetched.incident.bytes, baseline: fetched.baseline.bytes, sampleType: fetched.type.sampleType, timeoutMs, requests: computed.requests };
  const render = warm ? (o) => warm.render({ ...args, trees: computed.answer.trees, launch: o }) : (o) => renderDiff({ ...args, ...o });
  const r = await gate.run(receivedAt, render).catch((e) => {
    if (e instanceof Degraded || (e instanceof RenderError && !stopping())) {
      return { note: `No picture: ${e.message}. The changes come from the same profiles.` };
    }
    throw e;
  });
  lap('render');
  if (r.waitedMs !== undefined) {
    // the render's own time and, apart, its wait for a free renderer
    lap.stages.renderWait = r.waitedMs;
    lap.stages.render -= r.waitedMs;
  }
  if (r.prepareMs !== undefined) {
    // the warm renderer's frames, made on the receiver's thread before the browser draws
    lap.stages.renderPrepare = r.prepareMs;
    lap.stages.render -= r.prepareMs;
  }
  return { png: r.png, summary: r.summary, note: r.note, stagesMs: lap.stages };
}
