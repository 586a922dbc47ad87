// hotpath-notify's modules import one another without a cycle: each module can be read, loaded
// and tested on its own, and none sees another half-initialised. The graph is read from the
// sources' static imports and re-exports (and dynamic import()s of a literal path).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const NOTIFY = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const IMPORT = /(?:^|[;\s])(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The relative imports of one source, resolved to absolute paths. */
export function importsOf(file) {
  const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1] ?? m[2]));
}

/** The .mjs sources of dir and its folders (test and node_modules apart). */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      return ['node_modules', 'test'].includes(e.name) ? [] : sources(p);
    }
    return e.name.endsWith('.mjs') ? [p] : [];
  });
}

/** Every import cycle among dir's sources, each as the paths (relative to dir) around it, the first repeated last. */
export function importCycles(dir) {
  const files = sources(dir);
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => known.has(t))]));
  const cycles = [];
  const state = new Map(); // file -> 'open' while on the path, 'done' after
  const path = [];
  const visit = (f) => {
    state.set(f, 'open');
    path.push(f);
    for (const t of graph.get(f)) {
      if (state.get(t) === 'open') {
        cycles.push([...path.slice(path.indexOf(t)), t].map((p) => relative(dir, p)));
      } else if (!state.has(t)) {
        visit(t);
      }
    }
    path.pop();
    state.set(f, 'done');
  };
  for (const f of files) {
    if (!state.has(f)) {
      visit(f);
    }
  }
  return cycles;
}

describe('import graph', () => {
  it('no cycle among hotpath-notify\'s modules', () => {
    assert.deepEqual(importCycles(NOTIFY), []);
  });

  it('reads every form of import, and finds a cycle when there is one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hotpath-notify-graph-'));
    writeFileSync(join(dir, 'a.mjs'), "// import { x } from './c.mjs';\nimport {\n  b,\n} from './b.mjs';\nexport const a = 1;\n");
    writeFileSync(join(dir, 'b.mjs'), "export { a as b } from './c.mjs';\n");
    writeFileSync(join(dir, 'c.mjs'), "import './d.mjs';\nexport const a = () => import('./a.mjs');\n");
    writeFileSync(join(dir, 'd.mjs'), "import { a } from 'node:fs'; const s = 'import x from \"./a.mjs\"';\n");
    assert.deepEqual(importsOf(join(dir, 'a.mjs')), [join(dir, 'b.mjs')], 'a commented import is not one');
    assert.deepEqual(importsOf(join(dir, 'c.mjs')), [join(dir, 'd.mjs'), join(dir, 'a.mjs')]);
    assert.deepEqual(importCycles(dir), [['a.mjs', 'b.mjs', 'c.mjs', 'a.mjs']]);
    writeFileSync(join(dir, 'c.mjs'), "export const a = 2;\n");
    assert.deepEqual(importCycles(dir), []);
  });
});
