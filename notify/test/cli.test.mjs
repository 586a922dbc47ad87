// The command line: flags are checked before anything starts; durations in Go's form (the
// playground passes the rules' for: as 2m0s) are accepted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ROOT } from '../../plugin/scripts/headless/env.mjs';

/** Runs hotpath-notify until it exits or says it listens (then stops it); resolves { code, out }. */
function run(args) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(ROOT, 'notify', 'hotpath-notify.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => p.kill('SIGKILL'), 15_000);
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

const base = ['--profiles', 'http://127.0.0.1:9190', '--out-dir', '/tmp/hotpath-notify-cli-test', '--listen', '127.0.0.1:0'];

describe('hotpath-notify flags', () => {
  it('starts with Go-style and short durations', async () => {
    const r = await run([...base, '--pending', '2m0s', '--min-window', '90s', '--max-window', '1h30m']);
    assert.match(r.out, /listening on http:\/\/127\.0\.0\.1:0\/webhook; profiles from http:\/\/127\.0\.0\.1:9190/);
  });

  it('refuses bad flags with exit 2 and says which', async () => {
    for (const [args, msg] of [
      [[...base, '--pending', '5'], /--pending 5: want a duration/],
      [[...base, '--concurrency', '0'], /--concurrency 0: want a whole number >= 1/],
      [['--out-dir', '/tmp/x'], /--profiles URL is required/],
      [['--profiles', 'http://x'], /say where messages go/],
      [[...base.slice(0, 4), '--listen', 'nowhere'], /--listen nowhere: want HOST:PORT/],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, msg);
    }
  });
});
