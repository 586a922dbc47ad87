#!/usr/bin/env node
// lint-catalogue: fails when code spells a hotpath alert name itself instead of reading the
// catalogue (jsonnet/catalogue.libsonnet in jsonnet, catalogue/catalogue.json elsewhere). A name
// written twice falls behind the day an alert is renamed or added, silently: a dashboard that no
// longer counts it, a receiver that diffs the wrong profile, a playground that expects the old name.
//
// What counts as spelling a name: the name as code uses it, i.e. next to a quote or a `|` (a string
// or a regex alternative: 'X', "X", `X`, "A|X"), after a `.` outside jsonnet (a field, which is
// undefined silently once the name changes), or as an object key at the start of a line (X: ...).
// Not: a jsonnet field (cfg.alertFor.X fails `make generate` once X is gone), a comment line, or
// the name inside a sentence of a string ("X fires at 1.5x"), which reads as documentation.
//
// Scanned: the source trees that consume the catalogue (jsonnet/, notify/, demo/, plugin/src/,
// plugin/scripts/, tools/); not tests, test data, docs or generated files, which name alerts on
// purpose. Allowed, because a name must be written where it is defined: ALLOW below.
//
// The same holds for prose that counts the alerts ("the six alerts"): the count is wrong the day an
// alert is added, and nothing fails. The user-facing docs (README.md, CHANGELOG.md, docs/*.md and
// the other READMEs) may not write one: "every alert of the pack" says the same and stays true,
// and catalogue/catalogue.json lists them.
//
//   node tools/lint-catalogue.mjs            scan the repository (make lint)
//   node tools/lint-catalogue.mjs FILE...    scan these files (.md: counts, others: names)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const catalogue = JSON.parse(readFileSync(join(ROOT, 'catalogue', 'catalogue.json'), 'utf8'));
const NAMES = catalogue.alerts.map((a) => a.name);

const TREES = ['jsonnet', 'notify', 'demo', 'plugin/src', 'plugin/scripts', 'tools'];
const EXTENSIONS = /\.(libsonnet|jsonnet|mjs|js|ts|tsx|go|sh)$/;
// Tests and their data name alerts to assert on them; node_modules and build output are not ours.
const SKIP = /(^|\/)(node_modules|dist|testdata|test|tests|__snapshots__)\/|(_test\.go|\.test\.(mjs|js|ts|tsx))$/;

/** path (relative to the root) -> why it may spell alert names. */
const ALLOW = new Map([
  ['jsonnet/catalogue.libsonnet', 'the catalogue itself'],
  // An alert is defined, with its expression and text, in its area's file; alert-links fails
  // `make generate` for an alert missing from the catalogue, and tests/dashboards checks that the
  // catalogue lists exactly the alerts the rule pack defines.
  ['jsonnet/alerts/efficiency.libsonnet', 'where these alerts are defined'],
  ['jsonnet/alerts/throttling.libsonnet', 'where this alert is defined'],
  ['jsonnet/alerts/functions.libsonnet', 'where this alert is defined'],
  ['jsonnet/alerts/endpoints.libsonnet', 'where this alert is defined'],
  ['tools/lint-catalogue.mjs', 'this lint'],
]);

const commentLine = /^\s*(\/\/|#|\*|\/\*)/;
const nameAlternatives = NAMES.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
// next to a quote or |, after a dot, or a key at the start of a line
const quoted = `(['"\`|](${nameAlternatives})\\b)|(\\b(${nameAlternatives})['"\`|])|(^\\s*(${nameAlternatives})\\s*:)`;
const codeUse = new RegExp(quoted);
const codeUseOrField = new RegExp(`${quoted}|(\\.(${nameAlternatives})\\b)`);
const isJsonnet = (file) => /\.(libsonnet|jsonnet)$/.test(file);

function* walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e);
    const rel = relative(ROOT, p);
    if (SKIP.test(rel + (statSync(p).isDirectory() ? '/' : ''))) {
      continue;
    }
    if (statSync(p).isDirectory()) {
      yield* walk(p);
    } else if (EXTENSIONS.test(e)) {
      yield rel;
    }
  }
}

const DOCS = ['README.md', 'CHANGELOG.md', 'notify/README.md', 'demo/README.md', 'tests/browser/README.md', 'tests/fixtures/README.md'];
const docTree = (dir) => {
  try {
    return readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.md')).map((f) => join(dir, f));
  } catch {
    return [];
  }
};
const args = process.argv.slice(2).map((f) => relative(ROOT, resolve(f)));
const isDoc = (f) => f.endsWith('.md');
const files = args.length > 0 ? args.filter((f) => !isDoc(f)) : TREES.flatMap((t) => [...walk(join(ROOT, t))]);
const docs = args.length > 0 ? args.filter(isDoc) : [...DOCS, ...docTree('docs')].filter((f) => statSafe(join(ROOT, f)));
function statSafe(p) {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

// "the six alerts", "all 7 alerts", "routes the seven alerts": a count of the pack's alerts.
const counted = /\b(the|all|routes?|routing) (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+) alerts\b/i;
const countHits = [];
for (const doc of docs) {
  readFileSync(join(ROOT, doc), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = line.match(counted);
      if (m) {
        countHits.push(`${doc}:${i + 1}: "${m[0]}"`);
      }
    });
}
if (countHits.length > 0) {
  console.error(countHits.join('\n'));
  console.error(
    `lint-catalogue: ${countHits.length} line(s) count the alerts (the catalogue has ${NAMES.length} today); ` +
      'write "every alert of the pack" or name them: a count is wrong the day an alert is added.'
  );
  process.exit(1);
}

const hits = [];
for (const file of files) {
  if (ALLOW.has(file)) {
    continue;
  }
  const use = isJsonnet(file) ? codeUse : codeUseOrField;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!commentLine.test(line) && use.test(line)) {
        hits.push(`${file}:${i + 1}: ${line.trim().slice(0, 200)}`);
      }
    });
}
if (hits.length > 0) {
  console.error(hits.join('\n'));
  console.error(
    `lint-catalogue: ${hits.length} line(s) spell a hotpath alert name; read it from the catalogue instead ` +
      '(jsonnet: import catalogue.libsonnet; elsewhere: catalogue/catalogue.json). docs/architecture.md, "an alert".'
  );
  process.exit(1);
}
console.log(`catalogue: no consumer spells an alert name (${files.length} files, ${NAMES.length} alerts), no doc counts them (${docs.length} docs)`);
