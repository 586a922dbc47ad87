// The panel on one incident per runtime beyond Go (tests/fixtures/runtimes: CPython under py-spy
// with its native frames, the JVM under async-profiler with its own threads, Node.js under
// @datadog/pprof, Ruby under rbspy, .NET under perf): the built module.js draws each diff, and the
// first row of its changes table is the incident's culprit, the runtime's time charged to it; the
// runtime's own work comes after the code.
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
  for (const [runtime, files, culprit, runtimeRows] of [
    ['CPython', 'python/orders', 'log_order_debug (orders.py)', []],
    ['JVM', 'java/orders', 'Orders.signResponse', ['CompileBroker::compiler_thread_loop']],
    ['Node.js', 'node/orders', 'validateEveryField', ['(idle)', 'Non JS threads activity', 'Garbage Collection']],
    ['Ruby', 'ruby/records', 'parse_every_field', []],
    ['.NET', 'dotnet/orders', 'Orders::SignResponse(uint8[])', ['TieredCompilationManager::StaticOptimizeMethodsCallback (libcoreclr.so)']],
  ]) {
    it(`${runtime}: the diff is drawn and its changes table names ${culprit} first`, async () => {
      const spec = { width: 900, height: 520, theme: 'dark', diff: true, headline: `${runtime} · incident against baseline` };
      const base = tree(`${files}-baseline.cpu.pb.gz`);
      const inc = tree(`${files}-incident.cpu.pb.gz`);
      const series = [frame(base, 'B'), frame(inc, 'A')];
      const { png, text, close } = await renderSnapshot(openSnapshotHost(spec), { ...spec, series });
      await close();
      assert.ok(png.length > 10_000, `${runtime}: a picture of ${png.length} bytes`);
      // the table leads with the service's code, whichever way a row changed: its first row is the
      // culprit; the runtime's own rows ((idle) that fell by half the profile, the JIT compiler's
      // thread) come after every row of code (the top table follows the changes table)
      const table = text.split('Function (biggest changes)')[1].split('\nFunction\t')[0];
      const rows = table.split('\n').slice(1).filter(Boolean);
      const names = rows.map((r) => r.split('\t')[0].replace(/ \(via .*\)$/, ''));
      assert.equal(names[0], culprit, `${runtime}: ${rows.slice(0, 4).join(' | ')}`);
      assert.match(rows[0].split('\t').at(-1), /^\+/, `${runtime}: the culprit grew`);
      // the picture charges the runtime's time to the calling code, as the messages do
      const code = d.serviceCodeNames(d.attributeSelf(d.diffTrees(base.tree, inc.tree)).tree);
      const lastCode = names.map((n) => code.has(n)).lastIndexOf(true);
      assert.deepEqual(names.slice(0, lastCode + 1).filter((n) => !code.has(n)), [], `${runtime}: the runtime's own work among the code`);
      for (const n of runtimeRows) {
        assert.ok(names.indexOf(n) > lastCode, `${runtime}: ${n} at ${names.indexOf(n)}, the last row of code at ${lastCode}`);
      }
    });
  }
});
