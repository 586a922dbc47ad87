// The data layer (pprof import, trees, frames, diffs) as its own bundle, dist/hotpath-data.js,
// for the browser tests and benchmarks that build frames inside the page. module.js is what
// Grafana loads with every dashboard and exports the panel only: the pprof decoder and fflate
// stay out of it (the snapshot CLI and the sandbox read pprof in Node with the profile core's
// ESM build, packages/profile-core/dist).
// Not packaged: scripts/package-plugin.mjs leaves it out of the zip. Being for tests only, it
// holds the core's test aids too (synthetic profiles, Pyroscope's truncation reproduced).
import * as core from '@hotpath/profile-core';
import * as testing from '@hotpath/profile-core/testing';

export const hotpathData = { ...core, ...testing };
