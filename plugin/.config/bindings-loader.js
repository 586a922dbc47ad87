// Points the panel's imports of 'react' and '@emotion/css' at src/bindings.ts (local bindings of
// the functions it calls most; the file says why) and gives each .tsx file JSX's factory, `h`.
// Runs after swc (loaders run last to first), on JavaScript: type-only imports are gone by then.
const path = require('path');

const BINDINGS = path.join(__dirname, '../src/bindings.ts');

module.exports = function bindingsLoader(source) {
  if (this.resourcePath === BINDINGS) {
    return source;
  }
  const out = source.replace(/from\s*(["'])(react|@emotion\/css)\1/g, `from ${JSON.stringify(BINDINGS)}`);
  return this.resourcePath.endsWith('.tsx') ? `import { h, Fragment } from ${JSON.stringify(BINDINGS)};\n${out}` : out;
};
