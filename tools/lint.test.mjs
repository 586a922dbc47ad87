// The repository's lints fail on a seeded violation and pass on the repository itself: a lint
// that cannot fail checks nothing. `make lint` runs this file after the lints.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(join(tmpdir(), 'hotpath-lint-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}
function seeded(name, text) {
  const file = join(tmp, name);
  writeFileSync(file, text);
  return file;
}

describe('lint-runbook', () => {
  const runbook = readFileSync(join(ROOT, 'docs/runbook.md'), 'utf8');
  const alerts = join(ROOT, 'rules/hotpath-alerts.yaml');

  it('passes on the repository', () => {
    assert.equal(run('node', ['tools/lint-runbook.mjs']).status, 0);
  });
  it('names an alert whose section is gone', () => {
    const r = run('node', ['tools/lint-runbook.mjs', seeded('runbook.md', runbook.replace(/^## CPUNotTrackingLoad$/m, '## Busy loops')), alerts]);
    assert.equal(r.status, 1);
    assert.match(r.out, /missing runbook section for: CPUNotTrackingLoad/);
  });
  it('names a runbook_url whose anchor is gone', () => {
    const yaml = readFileSync(alerts, 'utf8').replace('runbook.md#cputhrottlingsustained', 'runbook.md#throttling');
    const r = run('node', ['tools/lint-runbook.mjs', join(ROOT, 'docs/runbook.md'), seeded('alerts.yaml', yaml)]);
    assert.equal(r.status, 1);
    assert.match(r.out, /runbook_url \S+#throttling points at no heading/);
  });
});

describe('lint-recorded', () => {
  it('passes on the repository', () => {
    assert.equal(run('node', ['tools/lint-recorded.mjs']).status, 0);
  });
  it('names a recording rule without its comment', () => {
    const src = readFileSync(join(ROOT, 'jsonnet/rules/requests-cpu.libsonnet'), 'utf8').replace(/^\s*\/\/ Requests per second per service\.\n/m, '');
    const r = run('node', ['tools/lint-recorded.mjs', seeded('requests-cpu.libsonnet', src)]);
    assert.equal(r.status, 1);
    assert.match(r.out, /requests-cpu\.libsonnet:\d+: a recording rule without a comment/);
  });
});

describe('lint-references', () => {
  it('passes on the repository', () => {
    assert.equal(run('tools/lint-references.sh', []).status, 0);
  });
  it('fails on a design document, an issue number and a narrated CI run', () => {
    const file = seeded('notes.md', 'As DESIGN.md says.\nFixed in issue 12.\nCI at 02:44 failed.\n');
    const r = run('tools/lint-references.sh', [file]);
    assert.notEqual(r.status, 0);
    for (const line of [1, 2, 3]) {
      assert.match(r.out, new RegExp(`notes\\.md:${line}`));
    }
  });
});

describe('lint-catalogue', () => {
  it('passes on the repository', () => {
    assert.equal(run('node', ['tools/lint-catalogue.mjs']).status, 0);
  });
  it('fails on code that spells an alert name', () => {
    const file = seeded('kind.mjs', "export const kind = (name) => (name === 'AllocationsPerRequestRegression' ? 'alloc' : 'cpu');\n");
    const r = run('node', ['tools/lint-catalogue.mjs', file]);
    assert.notEqual(r.status, 0);
    assert.match(r.out, /AllocationsPerRequestRegression/);
  });
  it('fails on a doc that counts the alerts', () => {
    const doc = seeded('notes.md', 'Ships ready to route.\nThe AlertmanagerConfig routes the six alerts to the receiver.\n');
    const r = run('node', ['tools/lint-catalogue.mjs', doc]);
    assert.notEqual(r.status, 0);
    assert.match(r.out, /notes\.md:2: "the six alerts"/);
    assert.equal(run('node', ['tools/lint-catalogue.mjs', seeded('ok.md', 'It routes every alert of the pack, and the two regression alerts hold.\n')]).status, 0);
  });
});

describe('lint-architecture', () => {
  it('passes on the repository', () => {
    assert.equal(run('node', ['tools/lint-architecture.mjs']).status, 0);
  });
  it('names a folder with code that the page does not name', () => {
    const doc = seeded('architecture.md', '- `src/data/` and `demo/playground/world.go`; not `overlay/` alone\n');
    const r = run('node', ['tools/lint-architecture.mjs', doc, 'plugin/src/data', 'demo/playground', 'plugin/src/components/overlay']);
    assert.equal(r.status, 1);
    assert.match(r.out, /plugin\/src\/components\/overlay\/ holds code/);
    assert.doesNotMatch(r.out, /plugin\/src\/data\/ holds|demo\/playground\/ holds/);
  });
});

describe('lint-knobs', () => {
  // A copy of jsonnet/ to seed a violation into: the lint reads a whole folder.
  const copy = (name) => {
    const dir = join(tmp, name);
    execFileSync('cp', ['-r', join(ROOT, 'jsonnet'), dir]);
    return dir;
  };

  it('passes on the repository', () => {
    assert.equal(run('node', ['tools/lint-knobs.mjs']).status, 0);
  });
  it('names a knob declared in two area files', () => {
    const dir = copy('knobs-twice');
    const file = join(dir, 'config/dashboards.libsonnet');
    writeFileSync(file, readFileSync(file, 'utf8').replace('  _config+:: {\n', "  _config+:: {\n    minRequestRate: 5,\n"));
    const r = run('node', ['tools/lint-knobs.mjs', dir]);
    assert.equal(r.status, 1);
    assert.match(r.out, /knob minRequestRate is declared in config\/dashboards\.libsonnet and config\/requests-cpu\.libsonnet/);
  });
  it('names an area file left out and a knob declared in config.libsonnet', () => {
    const dir = copy('knobs-outside');
    const file = join(dir, 'config.libsonnet');
    const text = readFileSync(file, 'utf8').replace("+ (import 'config/money.libsonnet')\n", '');
    writeFileSync(file, `${text}+ { _config+:: { stray: 1 } }\n`);
    const r = run('node', ['tools/lint-knobs.mjs', dir]);
    assert.equal(r.status, 1);
    assert.match(r.out, /config\/money\.libsonnet is not composed by config\.libsonnet/);
    assert.match(r.out, /knob currency of config\/money\.libsonnet is not in the composed _config/);
    assert.match(r.out, /knob stray is declared outside jsonnet\/config\//);
  });
});

// The command itself exists and is executable (the Makefile calls it by path).
execFileSync('test', ['-x', join(ROOT, 'tools/lint-references.sh')]);
