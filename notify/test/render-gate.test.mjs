// The render gate: where renders get their TMPDIR, and how long a render takes.
// Where renders get their TMPDIR: Chromium cannot start when its singleton socket's path
// (<TMPDIR>/.org.chromium.Chromium.XXXXXX/SingletonSocket) is longer than a unix socket allows.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { RenderGate, renderTmpRoot } from '../lib/render-gate.mjs';

it('a deep state directory gets its render TMPDIRs under the temp folder, the same name every start', () => {
  const deep = '/work/checkouts/hotpath/.cache/demo-test/notify/messages/.state/render-tmp';
  const root = renderTmpRoot(deep);
  assert.ok(root.startsWith(tmpdir() + '/hotpath-render-'), root);
  assert.equal(renderTmpRoot(deep), root);
  assert.ok((root + '/NNNNNNNN/.org.chromium.Chromium.XXXXXX/SingletonSocket').length <= 107);
});

it('a shallow one keeps its own', () => {
  assert.equal(renderTmpRoot('/tmp/n/out/.state/render-tmp'), '/tmp/n/out/.state/render-tmp');
});

// The gate on a clock of its own: a render's length is measured from when it draws.
describe('the render gate measures drawing, not a browser start', () => {
  const gate = (clock) => new RenderGate({ slots: 2, budgetMs: 300_000, initialRenderMs: 2000, tmpRoot: mkdtempSync(join(tmpdir(), 'gate-')), now: () => clock.t });

  it('the wait for the browser to start is not in the average render', async () => {
    const clock = { t: 0 };
    const g = gate(clock);
    await g.run(0, async ({ starting, drawing }) => {
      starting();
      clock.t += 5000; // Chromium starting
      drawing();
      clock.t += 200;
      return {};
    });
    assert.equal(g.avgMs, Math.round(0.7 * 2000 + 0.3 * 200));
  });

  it('a render waiting for its browser does not make every render look that long', async () => {
    const clock = { t: 0 };
    const g = gate(clock);
    let open;
    const opened = new Promise((r) => (open = r));
    const running = g.run(0, async ({ starting, drawing }) => {
      starting();
      await opened;
      drawing();
      return {};
    });
    clock.t += 60_000;
    assert.equal(g.renderMs(), 2000);
    open();
    await running;
  });

  it('a render that never said it waits for a browser counts from its start (the snapshot CLI)', async () => {
    const clock = { t: 0 };
    const g = gate(clock);
    let finish;
    const done = new Promise((r) => (finish = r));
    const running = g.run(0, async () => {
      await done;
      return {};
    });
    clock.t += 60_000;
    assert.equal(g.renderMs(), 60_000);
    finish();
    await running;
    assert.equal(g.avgMs, Math.round(0.7 * 2000 + 0.3 * 60_000));
  });
});
