// hotpath-notify's image recipe, run outside a container: deploy/notify/assemble.sh (the step
// deploy/notify/Dockerfile RUNs: an npm install of the notify package) assembles the runtime
// tree into a temporary folder, and the receiver is started from there as the image's
// ENTRYPOINT starts it, with no checkout on its path: it must answer /-/healthy, refuse a
// webhook without its token, and turn an alert into a message with the diff picture rendered
// by the built panel in Debian's Chromium, delivered to the out-dir and to the Slack webhook
// taken from $HOTPATH_SLACK_WEBHOOK_URL. The tree must be left as assembled (the Deployment
// mounts it read-only).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';

import { alert, downUrl, listen, post, readJSON, startSink, waitFor, webhook } from '../../notify/test/helpers.mjs';
import { SELECT_MERGE_PROFILE } from '../../notify/lib/pyroscope.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOCKERFILE = readFileSync(join(ROOT, 'deploy/notify/Dockerfile'), 'utf8');

/** The image's layout, read from the Dockerfile: where assemble.sh writes, what ENTRYPOINT runs. */
function recipe() {
  const assemble = /^RUN (deploy\/notify\/assemble\.sh) (\S+)$/m.exec(DOCKERFILE);
  const entry = /^ENTRYPOINT \["node", "([^"]+)"\]$/m.exec(DOCKERFILE);
  assert.ok(assemble, 'the Dockerfile RUNs deploy/notify/assemble.sh OUT');
  assert.ok(entry, 'the Dockerfile has an ENTRYPOINT ["node", SCRIPT]');
  assert.ok(entry[1].startsWith(`${assemble[2]}/`), `ENTRYPOINT ${entry[1]} is inside ${assemble[2]}`);
  return { script: assemble[1], entry: relative(assemble[2], entry[1]) };
}

/** Every file and folder of dir with its size and time, to tell whether anything wrote there. */
function snapshot(dir, out = new Map()) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const s = lstatSync(p);
    out.set(p, `${s.size} ${s.mtimeMs}`);
    if (e.isDirectory()) {
      snapshot(p, out);
    }
  }
  return out;
}

/**
 * A stand-in for Pyroscope's SelectMergeProfile: the println incident for one instance, the
 * baseline for its siblings (the outlier alert's two selectors), from tests/fixtures.
 */
async function startPyroscope() {
  const capture = (name) => gunzipSync(readFileSync(join(ROOT, 'tests/fixtures', `println-${name}.cpu.pb.gz`)));
  const seen = [];
  const s = await listen(async (req, res) => {
    const body = (await readJSON(req)).toString('latin1');
    seen.push(req.url);
    if (req.url !== SELECT_MERGE_PROFILE) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/proto' }).end(capture(body.includes('instance!=') ? 'baseline' : 'incident'));
  });
  return { ...s, seen };
}

describe('the image recipe (deploy/notify)', () => {
  const work = mkdtempSync(join(tmpdir(), 'hotpath-notify-image-'));
  const tree = join(work, 'opt', 'hotpath-notify');
  const out = join(work, 'out');
  let receiver;
  let url;
  let sink;
  let pyro;
  let logs = '';
  let before_;

  before(async () => {
    const { script } = recipe();
    const r = spawnSync(join(ROOT, script), [tree], { encoding: 'utf8', timeout: 300_000 });
    assert.equal(r.status, 0, `${script} failed:\n${r.stdout}\n${r.stderr}`);
    before_ = snapshot(tree);
    sink = await startSink();
    pyro = await startPyroscope();
  });

  after(async () => {
    if (receiver && receiver.exitCode === null) {
      receiver.kill('SIGTERM');
      await waitFor(() => receiver.exitCode !== null || receiver.signalCode !== null, 10_000, 'the receiver to stop').catch(() => receiver.kill('SIGKILL'));
    }
    await sink?.close();
    await pyro?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('holds the runtime alone: no link into the checkout, no tests, none of the build packages', () => {
    for (const p of before_.keys()) {
      const s = lstatSync(p);
      if (s.isSymbolicLink()) {
        const target = resolve(dirname(p), readlinkSync(p));
        assert.ok(target.startsWith(tree), `${relative(tree, p)} links outside the tree, to ${target}`);
      }
    }
    const files = [...before_.keys()].map((p) => relative(tree, p));
    assert.ok(!files.some((f) => f.startsWith('notify/test')), 'no receiver tests in the image');
    // npm's install of the notify package: the workspaces and their run-time dependencies only
    const installed = (dir) => readdirSync(join(tree, dir)).filter((n) => !n.startsWith('.'));
    assert.deepEqual(installed('node_modules').sort(), ['@esbuild', '@hotpath', '@opentelemetry', 'bintrees', 'esbuild', 'fflate', 'fzstd', 'hotpath-notify', 'playwright-core', 'prom-client', 'tdigest']);
    assert.deepEqual(installed('node_modules/@hotpath').sort(), ['headless', 'profile-core']);
    assert.ok(!files.some((f) => f.startsWith('plugin/node_modules') || f.startsWith('plugin/src/components')), 'none of the plugin sources or packages');
    assert.ok(files.includes('packages/profile-core/dist/index.mjs'), "the core's build");
    assert.ok(files.includes('plugin/dist/module.js'), 'the built panel');
  });

  it('refuses to assemble into the checkout', () => {
    const r = spawnSync(join(ROOT, recipe().script), [join(ROOT, '.cache', 'image-tree')], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /outside the checkout/);
  });

  it('starts from the tree, with no checkout on its path, and answers /-/healthy', async () => {
    const home = join(work, 'home');
    mkdirSync(home);
    const token = join(work, 'token');
    writeFileSync(token, 'sekret\n');
    url = await downUrl();
    const listenAddr = url.replace('http://', '');
    // the Deployment's arguments (deploy/kubernetes/notify/deployment.yaml), with test windows
    receiver = spawn(process.execPath, [join(tree, recipe().entry), `--listen=${listenAddr}`, `--profiles=${pyro.url}`, `--out-dir=${out}`, `--token-file=${token}`, '--pending=1m', '--min-window=1m', '--concurrency=1'], {
      cwd: work,
      env: { PATH: '/usr/bin:/bin', HOME: home, HOTPATH_SLACK_WEBHOOK_URL: sink.url, CHROMIUM: process.env.CHROMIUM || '/usr/bin/chromium' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout.on('data', (d) => (logs += d));
    receiver.stderr.on('data', (d) => (logs += d));
    const health = await waitFor(async () => {
      assert.equal(receiver.exitCode, null, `the receiver exited:\n${logs}`);
      const res = await fetch(`${url}/-/healthy`).catch(() => undefined);
      return res?.ok && res.json();
    }, 30_000, `/-/healthy (logs: ${logs})`);
    assert.equal(health.ok, true);
    assert.match(logs, /bearer token required/);
  });

  it('refuses a webhook without its token', async () => {
    const res = await post(url, webhook([alert()]));
    assert.equal(res.status, 401);
  });

  it('turns an alert into a message with the rendered diff, to the out-dir and to Slack', async () => {
    const a = alert({ alertname: 'CPUPerRequestOutlier', fingerprint: '0a1b2c3d4e5f6071', labels: { instance: 'api-2' } });
    const res = await post(url, webhook([a]), { authorization: 'Bearer sekret' });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { accepted: 1, skipped: 0, refused: 0 });
    const line = await waitFor(() => {
      try {
        return readFileSync(join(out, 'messages.jsonl'), 'utf8').trim();
      } catch {
        return undefined;
      }
    }, 180_000, `messages.jsonl (logs: ${logs})`);
    const m = JSON.parse(line.split('\n')[0]);
    assert.equal(m.alertname, 'CPUPerRequestOutlier');
    assert.equal(m.reason, undefined, `no diff: ${m.reason}`);
    assert.equal(m.changes[0].function, 'google.golang.org/protobuf/internal/encoding/text.appendString');
    assert.ok(m.changes[0].deltaPercent > 5, `top change ${m.changes[0].deltaPercent}`);
    assert.deepEqual([...new Set(pyro.seen)], [SELECT_MERGE_PROFILE]);
    // the Slack-compatible webhook from $HOTPATH_SLACK_WEBHOOK_URL got it, with the picture's URL
    await waitFor(() => sink.received.length >= 1, 10_000, 'the Slack sink');
    const image = sink.received[0].blocks.find((b) => b.type === 'image');
    assert.ok(image, 'an image block');
    assert.ok(image.image_url.startsWith(`${url}/images/`), image.image_url);
    const png = await fetch(image.image_url);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    assert.deepEqual([...bytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
    assert.ok(bytes.length > 10_000, `a picture, not a blank: ${bytes.length} bytes`);
  });

  it('left its tree as assembled (it runs read-only in the cluster)', () => {
    const now = snapshot(tree);
    const changed = [...new Set([...now.keys(), ...before_.keys()])].filter((p) => now.get(p) !== before_.get(p)).map((p) => relative(tree, p));
    assert.deepEqual(changed, []);
  });
});
