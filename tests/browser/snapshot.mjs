#!/usr/bin/env node
// npm run snapshot -- --profile A.pb.gz [--baseline B.pb.gz] [--sample-type T] --out DIR
//
// Renders the built panel (plugin/dist/module.js) in headless Chromium with a pprof profile
// (and its diff against a baseline) and writes DIR/panel.png and DIR/summary.json:
// { total, unit, top: [{ function, self, selfPercent, total, totalPercent }],
//   diff: { top: [{ function, baselineSelfPercent, comparisonSelfPercent, deltaPercent }] } }
// A post-mortem tool: the before/after of an incident in one picture.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { cli } from './lib/cli.mjs';
import { openHost } from './lib/harness.mjs';

const USAGE = 'usage: npm run snapshot -- --profile A.pb.gz [--baseline B.pb.gz] [--sample-type T] --out DIR [--width 1200] [--height 800] [--theme dark|light]';

const { args, fail } = cli('snapshot', USAGE, {
  profile: { type: 'string' },
  baseline: { type: 'string' },
  'sample-type': { type: 'string' },
  out: { type: 'string' },
  width: { type: 'string', default: '1200' },
  height: { type: 'string', default: '800' },
  theme: { type: 'string', default: 'dark' },
});
if (!args.profile || !args.out) {
  fail('--profile and --out are required');
}
// npm runs scripts from the package's folder; paths are relative to where the user typed them
const cwd = process.env.INIT_CWD || process.cwd();
const at = (p) => resolve(cwd, p);
const read = (label, p) => {
  const file = at(p);
  if (!existsSync(file)) {
    fail(`${label} file not found: ${file}`);
  }
  return readFileSync(file).toString('base64');
};
const profile = read('--profile', args.profile);
const baseline = args.baseline ? read('--baseline', args.baseline) : undefined;
const width = Number(args.width);
const height = Number(args.height);

const h = await openHost({ viewport: { width: width + 40, height: height + 40 } });
try {
  const result = await h.page.evaluate(
    ({ profile, baseline, sampleType }) => {
      const d = window.hotpathHost.module.hotpathData;
      const decode = (b64, label) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        try {
          return d.pprofToTree(bytes, sampleType);
        } catch (e) {
          throw new Error(`${label}: ${e.message}`);
        }
      };
      try {
        const p = decode(profile, '--profile');
        const b = baseline ? decode(baseline, '--baseline') : undefined;
        if (b && b.unit !== p.unit) {
          throw new Error(`--baseline is a ${b.sampleType} profile (${b.unit}) but --profile a ${p.sampleType} profile (${p.unit})`);
        }
        // served as Grafana serves them: flamebearer -> nested-set frame
        const frame = (t, refId) => d.flamebearerToFrame(d.treeToFlamebearer(t.tree), t.unit, { refId });
        return {
          series: b ? [frame(b, 'B'), frame(p, 'A')] : [frame(p, 'A')],
          summary: d.summarize(p.tree, b?.tree),
          sampleType: p.sampleType,
        };
      } catch (e) {
        return { error: e.message };
      }
    },
    { profile, baseline, sampleType: args['sample-type'] }
  );
  if (result.error) {
    fail(result.error);
  }
  await h.render({
    series: result.series,
    options: baseline ? { baselineRefId: 'B' } : {},
    width,
    height,
    theme: args.theme === 'light' ? 'light' : 'dark',
  });
  await h.page.getByTestId('hotpath-flamegraph-canvas').waitFor({ timeout: 20_000 });
  if (h.pageErrors.length) {
    fail(`the panel failed: ${h.pageErrors[0].message}`);
  }
  const out = at(args.out);
  mkdirSync(out, { recursive: true });
  await h.page.getByTestId('host-panel').screenshot({ path: `${out}/panel.png` });
  writeFileSync(`${out}/summary.json`, JSON.stringify(result.summary, null, 2) + '\n');
  process.stdout.write(`snapshot: ${result.sampleType} profile -> ${out}/panel.png, ${out}/summary.json\n`);
} finally {
  await h.close();
}
