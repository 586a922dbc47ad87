#!/usr/bin/env node
// lint-knobs: fails when the knobs stop being one `_config` split by area. Each area declares its
// knobs in jsonnet/config/<area>.libsonnet and jsonnet/config.libsonnet only composes those files.
// Jsonnet lets a later `_config+::` replace an earlier field without a word, so a knob declared in
// two area files would take the later file's default while the reader of the earlier one trusts
// its own; a file left out of the composition would drop its knobs, and a knob declared in
// config.libsonnet itself would be found in no area. The shipped `_config` is the union of the
// area files, each knob declared once.
//
//   node tools/lint-knobs.mjs         jsonnet/ (make lint)
//   node tools/lint-knobs.mjs DIR     a copy of jsonnet/ (the lint's own test)
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2] ?? join(ROOT, 'jsonnet');
const areas = readdirSync(join(dir, 'config'))
  .filter((f) => f.endsWith('.libsonnet'))
  .sort();

// One jsonnet run: each area's knob names, and the composed config's. Fields are listed
// without being evaluated, so a knob's value cannot hide another knob's name.
const fields = (path) => `std.objectFieldsAll((import '${path}')._config)`;
const expr = `{ areas: { ${areas.map((a) => `'${a}': ${fields(`config/${a}`)}`).join(', ')} }, composed: ${fields('config.libsonnet')} }`;
const { areas: declared, composed } = JSON.parse(
  execFileSync(join(ROOT, '.tools/bin/jsonnet'), ['-J', dir, '-e', expr], { encoding: 'utf8' }),
);

const problems = [];
const where = new Map();
for (const area of areas) {
  for (const knob of declared[area]) {
    where.set(knob, [...(where.get(knob) ?? []), area]);
  }
}
for (const [knob, files] of where) {
  if (files.length > 1) {
    problems.push(`knob ${knob} is declared in ${files.map((f) => `config/${f}`).join(' and ')}: the last one composed wins silently; keep it in its area's file only`);
  }
}
const composedSet = new Set(composed);
for (const [knob, files] of where) {
  if (!composedSet.has(knob)) {
    problems.push(`knob ${knob} of config/${files[0]} is not in the composed _config: list the file in config.libsonnet`);
  }
}
for (const knob of composed) {
  if (!where.has(knob)) {
    problems.push(`knob ${knob} is declared outside jsonnet/config/: move it to its area's file`);
  }
}
const text = readFileSync(join(dir, 'config.libsonnet'), 'utf8');
for (const area of areas) {
  if (!text.includes(`import 'config/${area}'`)) {
    problems.push(`config/${area} is not composed by config.libsonnet`);
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(`lint-knobs: ${p}`);
  process.exit(1);
}
console.log(`lint-knobs: ${composed.length} knobs in ${areas.length} area files, each declared once`);
