// What jsdom lacks and the tests' imports need when loaded: TextEncoder/TextDecoder (the pprof
// reader, react-dom/server) and matchMedia (uPlot, loaded by @grafana/flamegraph, which
// flamebearer.test.ts compares with).
const { TextDecoder, TextEncoder } = require('node:util');

const noop = () => {};
const matchMedia = (media) => ({ matches: false, media, addListener: noop, removeListener: noop, addEventListener: noop, removeEventListener: noop });

Object.assign(global, { TextDecoder, TextEncoder, matchMedia });
