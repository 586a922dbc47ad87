#!/usr/bin/env node
// npm run snapshot -- --profile A.pb.gz [--baseline B.pb.gz] [--sample-type T] --out DIR
//
// Renders the built panel (plugin/dist/module.js) in headless Chromium with a pprof profile
// (and its diff against a baseline) and writes DIR/panel.png and DIR/summary.json:
// { total, unit, top: [{ function, self, selfPercent, total, totalPercent }],
//   diff: { top: [{ function, baselineSelfPercent, comparisonSelfPercent, deltaPercent }] } }
// A post-mortem tool: the before/after of an incident in one picture.
//
// Every input is read and validated with the panel's own profile core (packages/profile-core) before
// Chromium starts, so a bad file fails in well under a second with one line on stderr and no
// output files. Exit codes: 0 written; 2 the command line is wrong (the usage follows);
// 3 an input cannot be used (missing, a directory, above MAX_PPROF_BYTES, not a pprof
// profile, no samples of the type...); 1 anything else (Chromium, the panel).
// --requests N [--baseline-requests M]: the windows' request counts: summary.json gains
// `perRequest` (values per request, the load x per-request split, functions by per-request
// change; data/perRequest.ts perRequestSummary) and the picture's headline the split.
// --profile may be a diff written by `go tool pprof -proto -diff_base=B A`: it renders as the
// diff of its two sides, as --profile A --baseline B would.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

import { cli } from '@hotpath/headless/cli.mjs';
import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { pictureHeadline } from '@hotpath/headless/headline.mjs';

const USAGE =
  'usage: npm run snapshot -- --profile A.pb.gz [--baseline B.pb.gz] [--sample-type T] [--requests N [--baseline-requests M]] --out DIR [--width 1200] [--height 800] [--theme dark|light]';
export const EXIT_BAD_INPUT = 3;

// Flags: add new ones here (and to USAGE); values are strings, parsed where they are used.
const { args, fail } = cli('snapshot', USAGE, {
  profile: { type: 'string' },
  baseline: { type: 'string' },
  'sample-type': { type: 'string' },
  out: { type: 'string' },
  width: { type: 'string', default: '1200' },
  height: { type: 'string', default: '800' },
  theme: { type: 'string', default: 'dark' },
  requests: { type: 'string' },
  'baseline-requests': { type: 'string' },
});
if (!args.profile || !args.out) {
  fail('--profile and --out are required');
}
const width = Number(args.width);
const height = Number(args.height);
if (!(width >= 200 && height >= 150)) {
  fail('--width and --height are pixels (at least 200 x 150)');
}
const badInput = (message) => fail(message, EXIT_BAD_INPUT);

// npm runs scripts from the package's folder; paths are relative to where the user typed them
const cwd = process.env.INIT_CWD || process.cwd();
const at = (p) => resolve(cwd, p);
const d = await dataLayer();

/** Reads and decodes one pprof file, or exits with one line naming the flag, the file and what is wrong. */
function load(flag, path) {
  const file = at(path);
  const say = (why) => badInput(`${flag} ${file}: ${why}`);
  let st;
  try {
    st = statSync(file);
  } catch (e) {
    say(e.code === 'ENOENT' ? 'file not found' : e.message);
  }
  if (st.isDirectory()) {
    say('is a directory, not a pprof file');
  }
  if (st.size > d.MAX_PPROF_BYTES) {
    say(`${Math.round(st.size / 1048576)} MiB, above the ${d.MAX_PPROF_BYTES / 1048576} MiB hotpath reads (MAX_PPROF_BYTES)`);
  }
  try {
    return d.pprofToTree(new Uint8Array(readFileSync(file)), args['sample-type']);
  } catch (e) {
    if (e.name === 'ProfileError') {
      say(e.message);
    }
    throw e;
  }
}

const p = load('--profile', args.profile);
let b = args.baseline ? load('--baseline', args.baseline) : undefined;
if (p.baseline) {
  if (b) {
    badInput(`--profile ${at(args.profile)} is already a diff (written by go tool pprof -diff_base): drop --baseline`);
  }
  b = { ...p, tree: p.baseline };
}
if (b && b.unit !== p.unit) {
  badInput(`--baseline is a ${b.sampleType} profile (${b.unit}) but --profile a ${p.sampleType} profile (${p.unit})`);
}
// every input is valid: start Chromium now, while Node converts (it runs in its own processes)
const { openSnapshotHost, renderSnapshot } = await import('@hotpath/headless/snapshot-render.mjs');
const opening = openSnapshotHost({ width, height });
// served as Grafana serves them: flamebearer (Pyroscope) -> nested-set frame (Grafana's backend)
const frame = (t, refId) => d.flamebearerToFrame(d.treeToFlamebearer(t.tree), t.unit, { refId });
const series = b ? [frame(b, 'B'), frame(p, 'A')] : [frame(p, 'A')];
const summary = d.summarize(p.tree, b?.tree);
// per request: counts are positive numbers, and a baseline needs its own
const count = (flag) => {
  const n = Number(args[flag]);
  return Number.isFinite(n) && n > 0 ? n : fail(`--${flag} is the window's request count (a number > 0), not ${args[flag]}`);
};
if (args['baseline-requests'] && !args.requests) {
  fail('--baseline-requests needs --requests');
}
if (args.requests) {
  if (b && !args['baseline-requests']) {
    fail('--requests with a baseline needs --baseline-requests (the baseline window\'s count)');
  }
  summary.perRequest = d.perRequestSummary(p.tree, b?.tree, count('requests'), b ? count('baseline-requests') : undefined);
}
const headline = pictureHeadline({
  sampleType: p.sampleType,
  unit: p.unit,
  sides: b ? `${basename(args.profile)} against ${args.baseline ? basename(args.baseline) : 'its -diff_base'}` : basename(args.profile),
  total: summary.total,
  decomposition: summary.perRequest?.decomposition,
});

let png;
let close;
try {
  ({ png, close } = await renderSnapshot(opening, { series, diff: !!b, headline, width, height, theme: args.theme === 'light' ? 'light' : 'dark' }));
} catch (e) {
  fail(`the panel failed: ${e.message.split('\n')[0]}`, 1);
}
// nothing is written before everything succeeded: a DIR with panel.png means a real picture
const out = at(args.out);
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/panel.png`, png);
writeFileSync(`${out}/summary.json`, JSON.stringify(summary, null, 2) + '\n');
process.stdout.write(`snapshot: ${p.sampleType} profile -> ${out}/panel.png, ${out}/summary.json\n`);
await close();
