// The panel on one incident per runtime beyond Go (tests/fixtures/runtimes: CPython under py-spy
// with its native frames, the JVM under async-profiler with its own threads, Node.js under
// @datadog/pprof): the built module.js draws each diff, and the first row of its changes table
// that grew is the incident's culprit, the runtime's time charged to it, never with the runtime's own work.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ROOT } from '@hotpath/headless/env.mjs';
import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { openSnapshotHost, renderSnapshot } from '@hotpath/headless/snapshot-render.mjs';

const d = await dataLayer();
const tree = (f) => d.pprofToTree(new Uint8Array(readFileSync(join(ROOT, 'tests', 'fixtures', 'runtimes', f))), 'cpu');
const frame = (t, refId) => d.flamebearerToFrame(d.treeToFlamebearer(t.tree), t.unit, { refId });

describe('the panel on each runtime\'s incident', () => {
  for (const [runtime, files, culprit, runtimeRow] of [
    ['CPython', 'python/orders', 'log_order_debug (orders.py)', undefined],
    ['JVM', 'java/orders', 'Orders.signResponse', 'CompileBroker::compiler_thread_loop'],
    ['Node.js', 'node/orders', 'validateEveryField', 'Garbage Collection'],
  ]) {
    it(`${runtime}: the diff is drawn and its changes table names ${culprit} first`, async () => {
      const spec = { width: 900, height: 520, theme: 'dark', diff: true, headline: `${runtime} · incident against baseline` };
      const series = [frame(tree(`${files}-baseline.cpu.pb.gz`), 'B'), frame(tree(`${files}-incident.cpu.pb.gz`), 'A')];
      const { png, text, close } = await renderSnapshot(openSnapshotHost(spec), { ...spec, series });
      await close();
      assert.ok(png.length > 10_000, `${runtime}: a picture of ${png.length} bytes`);
      // the table ranks by the size of the change either way: the first that grew is the answer
      const rows = text.split('Function (biggest changes)')[1].split('\n').slice(1).filter(Boolean);
      const grew = rows.filter((r) => r.split('\t')[3]?.startsWith('+'));
      assert.ok(grew[0]?.startsWith(`${culprit}\t`), `${runtime}: ${rows.slice(0, 4).join(' | ')}`);
      if (runtimeRow) {
        assert.ok(!grew[0].startsWith(runtimeRow), `${runtime}: ${runtimeRow} leads`);
      }
    });
  }
});
