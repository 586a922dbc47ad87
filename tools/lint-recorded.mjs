#!/usr/bin/env node
// lint-recorded: fails when a recording rule in jsonnet/rules has no comment saying what it
// records. The recorded series are public names that users alert and build dashboards on; the
// comment is where a reader of the rule learns what the series means and why it exists.
//
// A rule is `{ ... record: ... }`; its comment is a `//` line directly above `record:` inside the
// object, or directly above the object's `{`.
//
//   node tools/lint-recorded.mjs            jsonnet/rules/*.libsonnet (make lint)
//   node tools/lint-recorded.mjs FILE...    those files (the lint's own test)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(join(ROOT, 'jsonnet/rules'))
        .filter((f) => f.endsWith('.libsonnet'))
        .map((f) => join(ROOT, 'jsonnet/rules', f));

const comment = (l) => /^\s*\/\//.test(l);
const blank = (l) => /^\s*$/.test(l);
const problems = [];
let rules = 0;
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!/^\s*record:/.test(line)) {
      return;
    }
    rules++;
    let j = i - 1;
    while (j >= 0 && blank(lines[j])) j--;
    if (j >= 0 && comment(lines[j])) {
      return;
    }
    // above the object's `{`
    if (j >= 0 && /^\s*\{\s*$/.test(lines[j])) {
      let k = j - 1;
      while (k >= 0 && blank(lines[k])) k--;
      if (k >= 0 && comment(lines[k])) {
        return;
      }
    }
    problems.push(`${relative(process.cwd(), file)}:${i + 1}: a recording rule without a comment on what it records`);
  });
}
if (problems.length > 0) {
  console.error(problems.map((p) => `lint-recorded: ${p}`).join('\n'));
  process.exit(1);
}
console.log(`lint-recorded: ${rules} recording rules, each with its comment`);
