#!/usr/bin/env node
// demo-check: opens the panel sandbox in Chromium, selects an incident's window by dragging
// on the strip (like a user), switches to the diff and checks that the biggest change is the
// incident's function. Saves screenshots; prints one verdict line per check; exit 0 when all
// pass, 1 when one fails, 2 for bad usage.
//
// One check:
//   node demo/sandbox/demo-check.mjs --sandbox URL --service api --from MS --to MS
//        [--baseline-from MS --baseline-to MS] [--type cpu] --expect REGEX [--top 1] [--rank increase|abs]
//        [--driver load|"per request"] --out DIR
// --driver: what the diff's headline must blame for the change (the panel's load / per-request
// split; the println story: per request, demo-test's traffic step: load).
// The biggest change is the function whose share of the profile grew most (--rank increase,
// the default): an incident adds work, and everything else's share shrinks by as much, so the
// largest absolute change can be a dilution (--rank abs: the table's own order).
// Every incident of a demo-test run (the file `hotpath-demo test -browser-check` writes):
//   node demo/sandbox/demo-check.mjs --incidents FILE --sandbox URL --out DIR
//   (defaults: $HOTPATH_INCIDENTS, $HOTPATH_SANDBOX_URL, .cache/demo-test/browser-check)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { cli } from '@hotpath/headless/cli.mjs';
import { CHROMIUM, ROOT, requirePlugin, SNAPSHOT_CLI } from '@hotpath/headless/env.mjs';
import { CHROMIUM_ARGS } from '@hotpath/headless/harness.mjs';
import { dragWindow, showView, shownWindows, stripGeometry, topChanges, waitForWindows } from '@hotpath/headless/overlay.mjs';
import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { TEST_IDS } from '@hotpath/headless/test-ids.mjs';

const USAGE = `usage:
  node demo/sandbox/demo-check.mjs --sandbox URL --service NAME --from MS --to MS [--baseline-from MS --baseline-to MS]
       [--type cpu|alloc_space|alloc_objects] --expect REGEX [--top N] [--rank increase|abs] [--driver load|"per request"] --out DIR
  node demo/sandbox/demo-check.mjs --incidents FILE --sandbox URL --out DIR`;

/**
 * What each playground story must show: its profile type, a regex of the function its incident
 * adds and, where the check looks at it, what the diff's headline must blame; all from the
 * catalogue (catalogue/catalogue.json). A story without a profile (cfs: throttling is a property
 * of the cgroup, not of a code path) has no profile signal to check.
 */
const CATALOGUE = JSON.parse(readFileSync(join(ROOT, 'catalogue', 'catalogue.json'), 'utf8'));
const STORIES = Object.fromEntries(
  CATALOGUE.incidents.map((i) => [i.story, i.profile ? { type: i.profile, expect: i.culprit, ...(i.driver ? { driver: i.driver } : {}) } : null])
);
// demo-test's benign step: the control's traffic doubled, nothing regressed. No function to
// find; the headline must blame load (CPU that follows a traffic doubling is "load").
STORIES.traffic = { type: 'cpu', driver: 'load' };

const { args, fail: usage } = cli('demo-check', USAGE, {
  sandbox: { type: 'string', default: process.env.HOTPATH_SANDBOX_URL },
  service: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  'baseline-from': { type: 'string' },
  'baseline-to': { type: 'string' },
  type: { type: 'string', default: 'cpu' },
  expect: { type: 'string' },
  top: { type: 'string', default: '1' },
  rank: { type: 'string', default: 'increase' },
  driver: { type: 'string' },
  incidents: { type: 'string', default: process.env.HOTPATH_INCIDENTS },
  out: { type: 'string' },
  timeout: { type: 'string', default: '90' },
});
if (!['increase', 'abs'].includes(args.rank)) {
  usage(`--rank ${args.rank}: want increase or abs`);
}
if (!args.sandbox) {
  usage('--sandbox is required (or $HOTPATH_SANDBOX_URL)');
}
const cwd = process.env.INIT_CWD || process.cwd();
const outDir = resolve(cwd, args.out ?? join(ROOT, '.cache', 'demo-test', 'browser-check'));
const ms = (name, v) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) {
    usage(`--${name} ${v}: want unix milliseconds`);
  }
  return n;
};

/** The checks to run: one from the flags, or one per story of an incidents file. */
function checks() {
  if (args.service || !args.incidents) {
    if (!args.service || !args.from || !args.to || !args.expect) {
      usage('--service, --from, --to and --expect are required (or --incidents FILE)');
    }
    if (args.driver && !['load', 'per request'].includes(args.driver)) {
      usage(`--driver ${args.driver}: want load or "per request"`);
    }
    const c = { name: args.service, service: args.service, from: ms('from', args.from), to: ms('to', args.to), type: args.type, expect: args.expect, driver: args.driver, top: Number(args.top) || 1 };
    if (c.to <= c.from) {
      usage('--to must be after --from');
    }
    if (args['baseline-from'] || args['baseline-to']) {
      c.baseline = { from: ms('baseline-from', args['baseline-from']), to: ms('baseline-to', args['baseline-to']) };
    }
    return [c];
  }
  let list;
  try {
    list = JSON.parse(readFileSync(resolve(cwd, args.incidents), 'utf8'));
  } catch (e) {
    usage(`--incidents ${args.incidents}: ${e.message}`);
  }
  return list.map((i) => {
    const story = STORIES[i.Story];
    if (story === undefined) {
      return { name: `${i.Story}/${i.Service}`, skip: `unknown incident ${i.Story}` };
    }
    if (story === null) {
      return { name: `${i.Story}/${i.Service}`, skip: 'CFS throttling is a property of the cgroup, not of a code path: no profile to check' };
    }
    return { name: `${i.Story}/${i.Service}`, service: i.Service, from: i.FromMs, to: i.ToMs, type: story.type, expect: story.expect, driver: story.driver, top: Number(args.top) || 1 };
  });
}

const iso = (t) => new Date(t).toISOString().replace('.000Z', 'Z');

/**
 * The snapshot CLI's verdict on the same two windows: their profiles from the profile store,
 * their request counts from the request-rate series (job:requests:rate5m, counted as the panel
 * counts it: profile-core's requestsInWindow), and summary.json's split. Needs
 * $HOTPATH_PROMETHEUS_URL and $HOTPATH_PROFILES_URL (demo-test sets them); undefined without.
 */
async function snapshotSplit(c, shown, dir) {
  const prom = process.env.HOTPATH_PROMETHEUS_URL;
  const store = process.env.HOTPATH_PROFILES_URL;
  if (!prom || !store || !shown.baseline) {
    return undefined;
  }
  mkdirSync(dir, { recursive: true });
  const side = async (name, w) => {
    const res = await fetch(`${store}/profile?${new URLSearchParams({ service: c.service, type: c.type, from: String(w.from), to: String(w.to) })}`);
    if (!res.ok) {
      throw new Error(`profile store: HTTP ${res.status} for the ${name} window`);
    }
    const file = join(dir, `${name}.pb.gz`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const query = `job:requests:rate5m{job="${c.service}"}`;
    const q = new URLSearchParams({ query, start: String(w.from / 1000), end: String(w.to / 1000), step: '15' });
    const body = await (await fetch(`${prom}/api/v1/query_range?${q}`)).json();
    const points = body.data?.result?.[0]?.values ?? [];
    const d = await dataLayer();
    const count = d.requestsInWindow(points.map(([t]) => t * 1000), points.map(([, v]) => Number(v)), w.from, w.to, d.rateRangeMs(query));
    if (!count.ok) {
      throw new Error(`${c.service}'s ${name} window: ${count.message} (${query})`);
    }
    return { file, requests: Math.round(count.count) };
  };
  const sel = await side('selection', shown.selection);
  const base = await side('baseline', shown.baseline);
  const out = join(dir, 'snapshot');
  const argv = [SNAPSHOT_CLI, '--profile', sel.file, '--baseline', base.file, '--sample-type', c.type,
    '--requests', String(sel.requests), '--baseline-requests', String(base.requests), '--out', out];
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) {
    throw new Error(`the snapshot CLI failed: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  }
  const d = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).perRequest?.decomposition;
  return { driver: d?.driver, headline: d?.headline, requests: [base.requests, sel.requests] };
}

/** Runs one check in an open page; returns { ok, line, details }. */
async function run(page, c) {
  let re;
  try {
    re = c.expect === undefined ? undefined : new RegExp(c.expect);
  } catch (e) {
    usage(`--expect ${c.expect}: ${e.message}`);
  }
  const len = c.to - c.from;
  const baseline = c.baseline ?? { from: c.from - len, to: c.from };
  // the strip: the baseline and the window with a margin, never past now
  const pad = Math.max(30_000, Math.round(len * 0.1));
  const range = { from: Math.min(baseline.from, c.from) - pad, to: Math.min(Date.now(), Math.max(c.to, baseline.to) + pad) };
  const slug = c.name.replace(/[^\w.-]+/g, '-');
  const shot = async (n, what) => {
    const path = join(outDir, `${slug}-${n}-${what}.png`);
    await page.screenshot({ path });
    return path;
  };
  const url = new URL(args.sandbox);
  url.search = new URLSearchParams({ service: c.service, type: c.type, from: String(range.from), to: String(range.to) }).toString();
  await page.goto(url.href, { waitUntil: 'load' });
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout: 60_000 });
  if ((await page.evaluate(() => document.body.dataset.state)) === 'error') {
    return { ok: false, line: `the sandbox page failed: ${await page.getByTestId('sandbox-status').innerText()}` };
  }
  const g = await stripGeometry(page);
  if (!(g.to > g.from)) {
    return { ok: false, line: 'the panel shows no strip to select on' };
  }
  const screenshots = [await shot(1, 'strip')];
  await dragWindow(page, c.from, c.to);
  if (c.baseline) {
    await dragWindow(page, c.baseline.from, c.baseline.to, { shift: true });
  }
  const w = await waitForWindows(page, { timeout: Number(args.timeout) * 1000 });
  const shown = await shownWindows(page);
  screenshots.push(await shot(2, 'selected'));
  const windows = `selection ${iso(shown.selection?.from)}..${iso(shown.selection?.to)}, baseline ${shown.baseline ? `${iso(shown.baseline.from)}..${iso(shown.baseline.to)}` : 'none'}`;
  for (const [what, s] of [['selected window', w.comparison], ['baseline', w.baseline]]) {
    if (s.status !== 'done') {
      const title = await page.getByTestId(what === 'baseline' ? TEST_IDS.statusBaseline : TEST_IDS.statusComparison).getAttribute('title');
      return { ok: false, line: `the ${what}'s profile: ${s.status}: ${title || s.text} (${windows})`, screenshots };
    }
  }
  await showView(page, 'Diff');
  // the table's rows: by |change|; the check ranks them by growth unless --rank abs
  const rows = await topChanges(page, 100);
  const delta = (r) => Number(r.change.replace('\u2212', '-').replace(/[^\d.+-]/g, ''));
  const top = args.rank === 'abs' ? rows : rows.filter((r) => delta(r) > 0).sort((a, b) => delta(b) - delta(a));
  const what = args.rank === 'abs' ? 'change' : 'increase';
  screenshots.push(await shot(3, 'diff'));
  await showView(page, 'Side by side');
  await page.getByTestId(TEST_IDS.sideBySide).waitFor();
  screenshots.push(await shot(4, 'side-by-side'));
  await showView(page, 'Diff');
  // the headline's split of the change: load or per request (the panel's per-request unit)
  const headline = page.getByTestId(TEST_IDS.headline);
  const split = (await headline.count()) ? { driver: await headline.getAttribute('data-driver'), text: (await headline.innerText()).replace(/\s+/g, ' ').trim() } : undefined;
  const details = { ...c, rank: args.rank, windows: shown, top: top.slice(0, 10), headline: split, screenshots };
  if (c.driver && split?.driver !== c.driver) {
    return { ok: false, line: `the headline should blame ${c.driver}, it says ${split ? `${split.driver}: "${split.text}"` : 'nothing (no headline)'} (${windows})`, details, screenshots };
  }
  let says = c.driver ? `; the headline blames ${c.driver}: "${split.text}"` : '';
  if (c.driver) {
    // the snapshot CLI on the same windows must say the same (summary.json)
    let snap;
    try {
      snap = await snapshotSplit(c, shown, join(outDir, `${slug}-snapshot`));
    } catch (e) {
      return { ok: false, line: `summary.json: ${e.message} (${windows})`, details, screenshots };
    }
    if (snap) {
      details.snapshot = snap;
      if (snap.driver !== c.driver) {
        return { ok: false, line: `the panel blames ${c.driver} but summary.json says ${snap.driver}: "${snap.headline}" (${windows})`, details, screenshots };
      }
      says += `; summary.json too (${snap.requests[0]} -> ${snap.requests[1]} requests)`;
    }
  }
  if (!re) {
    return { ok: true, line: `no function to find${says} (${windows})`, details, screenshots };
  }
  const hit = top.slice(0, c.top).find((r) => re.test(r.name));
  const first = top[0];
  if (!first) {
    return { ok: false, line: `the diff has no ${what}s (${windows})`, details, screenshots };
  }
  if (!hit) {
    return {
      ok: false,
      line: `the biggest ${what} is ${first.name} (${first.change}), which does not match /${c.expect}/${c.top > 1 ? ` (nor do the next ${c.top - 1})` : ''} (${windows})`,
      details,
      screenshots,
    };
  }
  return { ok: true, line: `the biggest ${what}${hit === first ? '' : ` among the top ${c.top}`} is ${hit.name} (${hit.change}), matching /${c.expect}/${says} (${windows})`, details, screenshots };
}

const list = checks();
mkdirSync(outDir, { recursive: true });
const { chromium } = requirePlugin('playwright-core');
const userDataDir = mkdtempSync(join(tmpdir(), 'hotpath-demo-check-'));
let context;
let failed = 0;
const results = [];
const deadline = setTimeout(() => {
  process.stdout.write(`demo-check: FAIL: gave up after ${args.timeout}s per check\n`);
  process.exit(1);
}, Number(args.timeout) * 1000 * (list.length + 1));
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
    timeout: 60_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  for (const c of list) {
    if (c.skip) {
      results.push({ name: c.name, ok: true, skipped: c.skip });
      process.stdout.write(`demo-check: SKIP ${c.name}: ${c.skip}\n`);
      continue;
    }
    let r;
    try {
      r = await run(page, c);
    } catch (e) {
      r = { ok: false, line: `${e.message.split('\n')[0]}` };
      await page.screenshot({ path: join(outDir, `${c.name.replace(/[^\w.-]+/g, '-')}-error.png`) }).catch(() => {});
    }
    if (errors.length) {
      r = { ...r, ok: false, line: `${r.line}; page errors: ${errors.splice(0).join('; ')}` };
    }
    failed += r.ok ? 0 : 1;
    results.push({ name: c.name, ok: r.ok, verdict: r.line, ...(r.details ?? {}), screenshots: r.screenshots });
    process.stdout.write(`demo-check: ${r.ok ? 'PASS' : 'FAIL'} ${c.name} (${c.type}): ${r.line}\n`);
  }
} catch (e) {
  failed++;
  process.stdout.write(`demo-check: FAIL: could not run Chromium (${CHROMIUM}; tools/install-chromium.sh installs it): ${e.message.split('\n')[0]}\n`);
} finally {
  clearTimeout(deadline);
  await context?.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
}
writeFileSync(join(outDir, 'result.json'), `${JSON.stringify(results, null, 2)}\n`);
const checked = results.filter((r) => !r.skipped).length;
process.stdout.write(
  failed === 0
    ? `demo-check: PASS: ${checked} check${checked === 1 ? '' : 's'} passed${results.length > checked ? `, ${results.length - checked} skipped` : ''}; screenshots and result.json in ${outDir}\n`
    : `demo-check: FAIL: ${failed} of ${results.length} failed; screenshots and result.json in ${outDir}\n`
);
process.exit(failed === 0 ? 0 : 1);
