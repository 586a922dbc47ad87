// Points the panel's imports of 'react', '@emotion/css', '@grafana/ui' and '@grafana/data' at src/bindings.ts (local bindings of
// the functions it calls most; the file says why) and gives each .tsx file JSX's factory, `h`.
// Runs after swc (loaders run last to first), on JavaScript: type-only imports are gone by then.
//
// The call tree (src/components/CallTree) is a chunk of its own, loaded when its pane is first shown.
// A module of module.js that the chunk imports too can no longer be concatenated into module.js's
// one scope: webpack keeps it as a module of its own, each use of it a property read. Shared,
// bindings.ts, styles.ts, format.ts and the test ids cost module.js 5.5 KB (bindings.ts: every
// `h(...)` and hook call). So the chunk's modules, and the panel's modules they import, import
// their own copies (the `?call-tree` query makes each a module of the chunk): 1 KB of the chunk.
// The four hold no state; a module of the panel with state would have to stay shared.
// The profile core stays shared (tree.ts keeps state, the interned names of string frames): 0.4 KB
// of module.js.
const path = require('path');

const SOURCE_DIR = path.join(__dirname, '../src');
const BINDINGS = path.join(SOURCE_DIR, 'bindings.ts');
const CHUNK_DIR = path.join(SOURCE_DIR, 'components/CallTree/');
const COPY = '?call-tree';

module.exports = function bindingsLoader(source) {
  const inChunkDir = this.resourcePath.startsWith(CHUNK_DIR);
  const inChunk = inChunkDir || this.resourceQuery === COPY;
  let out = source;
  if (inChunk) {
    // relative imports out of the chunk's folder: the chunk's copies
    out = out.replace(/from\s*(["'])(\.\.?\/[^"']*)\1/g, (all, q, spec) =>
      inChunkDir && path.resolve(path.dirname(this.resourcePath), spec).startsWith(CHUNK_DIR) ? all : `from ${q}${spec}${COPY}${q}`
    );
  }
  if (this.resourcePath === BINDINGS) {
    return out;
  }
  const bindings = JSON.stringify(inChunk ? `${BINDINGS}${COPY}` : BINDINGS);
  out = out.replace(/from\s*(["'])(react|@emotion\/css|@grafana\/ui|@grafana\/data)\1/g, `from ${bindings}`);
  return this.resourcePath.endsWith('.tsx') ? `import { h, Fragment } from ${bindings};\n${out}` : out;
};
