// The command line: flags are checked before anything starts; durations in Go's form (the
// playground passes the rules' for: as 2m0s) are accepted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ROOT } from '@hotpath/headless/env.mjs';

import { coreMissing, renderingMissing } from '../lib/prerequisites.mjs';

/** Runs hotpath-notify (of `root`) until it exits or says it listens (then stops it); resolves { code, out }. */
function run(args, env = {}, root = ROOT) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(root, 'notify', 'hotpath-notify.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    // A start on a busy machine takes seconds; a minute without exit or "listening on" is a hang,
    // said in the output the assertions print.
    const timer = setTimeout(() => {
      out += '\n[test: no exit and no "listening on" within 60s: killed]';
      p.kill('SIGKILL');
    }, 60_000);
    const take = (d) => {
      out += d;
      if (out.includes('listening on')) {
        p.kill('SIGTERM');
      }
    };
    p.stdout.on('data', take);
    p.stderr.on('data', take);
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const emptyFile = join(mkdtempSync(join(tmpdir(), 'hotpath-notify-cli-')), 'empty');
writeFileSync(emptyFile, '\n');
const base = ['--profiles', 'http://127.0.0.1:9190', '--out-dir', '/tmp/hotpath-notify-cli-test', '--listen', '127.0.0.1:0'];

describe('hotpath-notify flags', () => {
  it('starts with Go-style and short durations', async () => {
    const r = await run([...base, '--pending', '2m0s', '--min-window', '90s', '--max-window', '1h30m']);
    assert.match(r.out, /listening on http:\/\/127\.0\.0\.1:0\/webhook; profiles from http:\/\/127\.0\.0\.1:9190/);
  });

  it('never runs open: an empty token file or an empty $HOTPATH_NOTIFY_TOKEN stops the start', async () => {
    for (const [args, env] of [[[...base, '--token-file', emptyFile], {}], [base, { HOTPATH_NOTIFY_TOKEN: '' }], [base, { HOTPATH_NOTIFY_TOKEN: ' ' }]]) {
      const r = await run(args, env);
      assert.equal(r.code, 2, r.out);
      assert.doesNotMatch(r.out, /listening on/);
      assert.match(r.out, /empty/);
    }
  });

  it('shows no more of the Slack webhook URL than its host', async () => {
    const r = await run([...base, '--slack-webhook', 'https://hooks.slack.com/services/T000/B000/s3cretPath']);
    assert.match(r.out, /messages to .* and https:\/\/hooks\.slack\.com\/…/);
    assert.doesNotMatch(r.out, /s3cretPath/);
  });

  it('refuses bad flags with exit 2 and says which', async () => {
    for (const [args, msg] of [
      [[...base, '--pending', '5'], /--pending 5: want a duration/],
      [[...base, '--concurrency', '0'], /--concurrency 0: want a whole number >= 1/],
      [[...base, '--renderer', 'hot'], /--renderer hot: want cli or warm/],
      [['--out-dir', '/tmp/x'], /--profiles URL is required/],
      [['--profiles', 'http://x'], /say where messages go/],
      [[...base.slice(0, 4), '--listen', 'nowhere'], /--listen nowhere: want HOST:PORT/],
      [[...base, '--token-file', emptyFile], /--token-file .* is empty: refusing to start/],
      [[...base, '--slack-webhook-file', emptyFile], /--slack-webhook-file .* is empty: refusing to start/],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, msg);
    }
  });
});

describe('what hotpath-notify needs besides its packages', () => {
  it('says in one line what it cannot draw without, and the command that supplies it; --help needs none of it', async () => {
    const r = await run(base, { CHROMIUM: '/nonexistent/chromium' });
    assert.equal(r.code, 1, r.out);
    assert.equal(r.out, 'hotpath-notify: no Chromium at /nonexistent/chromium: run `tools/install-chromium.sh` (or set $CHROMIUM to one)\n');
    const help = await run(['--help'], { CHROMIUM: '/nonexistent/chromium' });
    assert.equal(help.code, 0, help.out);
    assert.match(help.out, /^usage: hotpath-notify --profiles URL/);
  });

  it('without the core\'s build, even --help says so in one line, with the command that builds it', async () => {
    // a checkout whose core was installed but never built: notify/ and a core package without dist/
    const root = mkdtempSync(join(tmpdir(), 'hotpath-notify-unbuilt-'));
    cpSync(join(ROOT, 'notify', 'hotpath-notify.mjs'), join(root, 'notify', 'hotpath-notify.mjs'));
    cpSync(join(ROOT, 'notify', 'lib'), join(root, 'notify', 'lib'), { recursive: true });
    mkdirSync(join(root, 'node_modules', '@hotpath', 'profile-core'), { recursive: true });
    cpSync(join(ROOT, 'packages', 'profile-core', 'package.json'), join(root, 'node_modules', '@hotpath', 'profile-core', 'package.json'));
    symlinkSync(join(ROOT, 'packages', 'headless'), join(root, 'node_modules', '@hotpath', 'headless'));
    const r = await run(['--help'], {}, root).finally(() => rmSync(root, { recursive: true, force: true }));
    assert.equal(r.code, 1, r.out);
    const missing = join(root, 'node_modules', '@hotpath', 'profile-core', 'dist', 'index.mjs');
    assert.equal(r.out, `hotpath-notify: the profile core is not built (${missing} is missing): run \`npm run build -w @hotpath/profile-core\`\n`);
  });

  it('names make plugin when the built panel is missing, and nothing when all is there', () => {
    const empty = mkdtempSync(join(tmpdir(), 'hotpath-notify-dist-'));
    assert.equal(renderingMissing({ dist: empty, chromium: process.execPath }), `the built panel is missing (${join(empty, 'module.js')}): run \`make plugin\``);
    assert.equal(renderingMissing({ dist: join(ROOT, 'plugin', 'dist'), chromium: process.execPath }), undefined);
    assert.equal(coreMissing(), undefined);
  });
});
