// Where renders get their TMPDIR: Chromium cannot start when its singleton socket's path
// (<TMPDIR>/.org.chromium.Chromium.XXXXXX/SingletonSocket) is longer than a unix socket allows.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { it } from 'node:test';

import { renderTmpRoot } from '../lib/render-gate.mjs';

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
