// The panel's side of bad profiles: when the datasource stand-in (the sandbox's, which converts
// profile-store's pprof with the plugin's data layer as Grafana's backend would) is answered
// with a profile hotpath refuses, the query's error carries the same one-line message the
// snapshot CLI prints, and the panel shows query errors in its status line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { writeBadInputs } from '../browser/lib/bad-profiles.mjs';
import { createSandbox, overlayPanel } from '../../demo/sandbox/server.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'hotpath-ds-errors-'));
// the inputs a profile store can answer with (a directory and a 1 GiB file are the CLI's own)
const bad = writeBadInputs(tmp).filter((b) => !['a directory', '1 GiB file'].includes(b.name));
let answer = Buffer.alloc(0);
let store;

before(async () => {
  store = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(answer);
  });
  await new Promise((r) => store.listen(0, '127.0.0.1', r));
});
after(async () => {
  await new Promise((r) => store.close(r));
  rmSync(tmp, { recursive: true, force: true });
});

describe('a profile datasource answering a profile hotpath refuses', () => {
  it('returns the refusal as the query error, in one line', async () => {
    const sandbox = createSandbox({ prometheus: 'http://127.0.0.1:9', profiles: `http://127.0.0.1:${store.address().port}` });
    const target = overlayPanel().targets.find((t) => /pyroscope|phlare/.test(t.datasource?.type ?? ''));
    assert.ok(target, 'the service dashboard has a profile query');
    const to = Date.now();
    for (const b of bad) {
      answer = readFileSync(b.file);
      const r = await sandbox.query({ targets: [target], from: to - 600_000, to, service: 'api' });
      assert.deepEqual(r.data, [], b.name);
      assert.equal(r.errors.length, 1, b.name);
      assert.equal(r.errors[0].refId, target.refId);
      assert.doesNotMatch(r.errors[0].message, /\n/, b.name);
      // the CLI's message after "--profile FILE: ", minus what only the CLI knows (the file)
      assert.match(`: ${r.errors[0].message}`, b.message, b.name);
    }
  });
});
