#!/usr/bin/env node
// lint-architecture: fails when a folder that holds code is not named in docs/architecture.md.
// That page is how a newcomer finds the file to change; a folder it never names is code nobody is
// led to. Code is what git tracks (or would: untracked, not ignored) with a source ending, a
// Makefile or Dockerfile, or the executable bit; not the generated folders (rules/, dashboards/,
// catalogue/, deploy/kubernetes/, deploy/grafana/), the vendored schemas (tests/deploy/schemas/)
// or node_modules.
//
// A folder is named when the page holds, in backquotes, its path from the repository's top
// (`demo/playground/` or a file in it, `demo/playground/world.go`), or a path of two or more
// folders that ends it (`src/data/` for plugin/src/data, `components/Overlay/OverlayPanel.tsx`
// for plugin/src/components/Overlay). A `testdata` folder is reached through the folder above it,
// where its test is.
//
//   node tools/lint-architecture.mjs              the repository (make lint)
//   node tools/lint-architecture.mjs DOC DIR...   DOC against those folders (the lint's own test)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(go|ts|tsx|mjs|cjs|js|jsonnet|libsonnet|sh|py|rb|rs)$|(^|\/)(Makefile|Dockerfile)$/;
const LEFT_OUT = /^(rules|dashboards|catalogue|deploy\/kubernetes|deploy\/grafana|tests\/deploy\/schemas)\/|(^|\/)node_modules\//;

/** Every folder of the repository that holds code, from git's index and its untracked files. */
function codeFolders() {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const files = new Map(); // path -> executable
  for (const line of git('ls-files', '-s').split('\n').filter(Boolean)) {
    const [meta, path] = line.split('\t');
    files.set(path, meta.startsWith('100755'));
  }
  for (const path of git('ls-files', '--others', '--exclude-standard').split('\n').filter(Boolean)) {
    files.set(path, false);
  }
  const folders = new Set();
  for (const [path, executable] of files) {
    if (LEFT_OUT.test(path) || !(SOURCE.test(path) || executable)) {
      continue;
    }
    let dir = posix.dirname(path);
    while (posix.basename(dir) === 'testdata') {
      dir = posix.dirname(dir);
    }
    if (dir !== '.') {
      folders.add(dir);
    }
  }
  return [...folders].sort();
}

/** The folders a page names: each backquoted path, as written and without its file name. */
function named(doc) {
  const paths = new Set();
  for (const [, code] of doc.matchAll(/`([^`\n]+)`/g)) {
    for (const token of code.match(/[\w.@<>{}-]+(\/[\w.@<>{}-]*)+/g) ?? []) {
      const path = token.replace(/^\.\//, '').replace(/\/+$/, '');
      paths.add(path);
      // a file's folder: a last part with an extension is a file
      if (/\.[a-z]+$/i.test(posix.basename(path)) && path.includes('/')) {
        paths.add(posix.dirname(path));
      }
    }
  }
  return paths;
}

function reached(folder, paths) {
  for (const p of paths) {
    if (p === folder || p.startsWith(folder + '/')) {
      return true;
    }
    if (p.split('/').length >= 2 && folder.endsWith('/' + p)) {
      return true;
    }
  }
  return false;
}

const [docPath, ...given] = process.argv.length > 2 ? process.argv.slice(2) : [join(ROOT, 'docs/architecture.md')];
const folders = given.length > 0 ? given : codeFolders();
const paths = named(readFileSync(docPath, 'utf8'));
const missing = folders.filter((f) => !reached(f, paths));
if (missing.length > 0) {
  console.error(missing.map((f) => `lint-architecture: ${f}/ holds code that docs/architecture.md does not name`).join('\n'));
  console.error('  -> say in docs/architecture.md what the folder holds and when to change it, naming it in backquotes');
  process.exit(1);
}
console.log(`lint-architecture: ${folders.length} folders with code, each named in docs/architecture.md`);
