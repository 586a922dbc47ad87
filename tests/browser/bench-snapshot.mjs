#!/usr/bin/env node
// npm run bench-snapshot -- [--write] [--nodes 475000]   (make bench-snapshot)
//
// Benchmark (not a test): the snapshot CLI on a large pprof, from file to panel.png and
// summary.json, end to end (the CLI as a user runs it) and stage by stage in Node (decode and
// tree, summary, tree -> flamebearer -> nested-set frame: the frame conversion the panel's
// datasource path shares). The profile is generated: a deterministic call tree grown by walks
// that add --nodes frames, encoded by pprof-format (npm); walks that meet merge, so the default
// 475,000 makes a tree of 426,400 nodes, the size of a real 1.2 MB Go CPU profile (425k).
// --write puts the results into the "snapshot CLI" section of tests/browser/BENCHMARK.md
// (between its markers; make bench-plugin keeps that section).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';

import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { BROWSER_DIR, CACHE_DIR, SNAPSHOT_CLI } from '@hotpath/headless/env.mjs';
import { generatePprof } from './lib/generate-pprof.mjs';

export const SECTION_START = '<!-- snapshot-bench: written by tests/browser/bench-snapshot.mjs -->';
export const SECTION_END = '<!-- /snapshot-bench -->';

const { values: args } = parseArgs({ options: { write: { type: 'boolean', default: false }, nodes: { type: 'string', default: '475000' } } });
const NODES = Number(args.nodes);
const log = (...a) => process.stderr.write(a.join(' ') + '\n');

const time = (fn) => {
  const t0 = performance.now();
  const v = fn();
  return [v, performance.now() - t0];
};

mkdirSync(CACHE_DIR, { recursive: true });
const file = join(CACHE_DIR, `bench-${NODES}.pb.gz`);
if (!existsSync(file)) {
  log(`bench-snapshot: generating a pprof of ~${NODES} nodes`);
  writeFileSync(file, generatePprof(NODES));
}
const d = await dataLayer();
const bytes = new Uint8Array(readFileSync(file));
const [p, decodeMs] = time(() => d.pprofToTree(bytes, 'cpu'));
const [, summaryMs] = time(() => d.summarize(p.tree));
const [fb, fbMs] = time(() => d.treeToFlamebearer(p.tree));
const [frame, frameMs] = time(() => d.flamebearerToFrame(fb, p.unit, { refId: 'A' }));
log(`bench-snapshot: ${p.tree.size} nodes; decode+tree ${decodeMs.toFixed(0)} ms, summary ${summaryMs.toFixed(0)} ms, flamebearer ${fbMs.toFixed(0)} ms, frame ${frameMs.toFixed(0)} ms (${frame.length} rows)`);

// end to end, as a user runs it (Chromium start and the host page included)
const out = mkdtempSync(join(tmpdir(), 'hotpath-bench-snapshot-'));
const load = loadavg()[0];
const t0 = performance.now();
await promisify(execFile)(process.execPath, [SNAPSHOT_CLI, '--profile', file, '--sample-type', 'cpu', '--out', out], { timeout: 300_000 });
const totalMs = performance.now() - t0;
const png = statSync(join(out, 'panel.png')).size;
rmSync(out, { recursive: true, force: true });
log(`bench-snapshot: end to end ${(totalMs / 1000).toFixed(1)} s`);

const goal = 5000;
const section = [
  SECTION_START,
  '## Snapshot CLI: a large pprof to PNG + JSON',
  '',
  `Recorded by \`npm run bench-snapshot -- --write\` (\`make bench-snapshot\`), ${new Date().toISOString().slice(0, 10)}; ${cpus().length} cores, load average ${load.toFixed(1)} at the start.`,
  `Input: a generated CPU profile, ${(bytes.length / 1048576).toFixed(1)} MB gzip, ${p.tree.size.toLocaleString('en-US')} tree nodes (a real 1.2 MB Go CPU profile has 425k).`,
  '',
  '| stage (Node, the plugin\'s data layer) | time |',
  '|---|---|',
  `| pprof decode + validation + tree (pprofToTree) | ${decodeMs.toFixed(0)} ms |`,
  `| summary.json (summarize) | ${summaryMs.toFixed(0)} ms |`,
  `| tree -> flamebearer (treeToFlamebearer, Pyroscope's shape) | ${fbMs.toFixed(0)} ms |`,
  `| flamebearer -> nested-set frame (flamebearerToFrame, Grafana's backend; the panel's path) | ${frameMs.toFixed(0)} ms |`,
  `| **end to end: \`npm run snapshot\`, file to panel.png (${Math.round(png / 1024)} kB) + summary.json, Chromium included** | **${(totalMs / 1000).toFixed(1)} s** |`,
  '',
  `Goal: under ${goal / 1000} s end to end: ${totalMs < goal ? 'met' : 'not met'}. When flamebearerToFrame still re-copied its pending list per node, the same path took 37 s on a real 425k-node profile, 11.4 s of it in that function.`,
  SECTION_END,
].join('\n');
process.stdout.write(section + '\n');
if (args.write) {
  const path = join(BROWSER_DIR, 'BENCHMARK.md');
  const md = readFileSync(path, 'utf8');
  const at = md.indexOf(SECTION_START);
  const next = at >= 0 ? md.slice(0, at) + section + md.slice(md.indexOf(SECTION_END) + SECTION_END.length) : md.trimEnd() + '\n\n' + section + '\n';
  writeFileSync(path, next);
  log('bench-snapshot: wrote the snapshot section of tests/browser/BENCHMARK.md');
}
