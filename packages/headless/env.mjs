// Paths and module resolution of the headless host (packages/headless: the built panel in a
// page that stands in for Grafana, in headless Chromium), shared by the snapshot CLI,
// hotpath-notify, the demo's sandbox and the browser tests. The npm packages of the workspace
// (one lockfile at the root for the core, this package, the plugin and hotpath-notify) are
// installed in the root's node_modules.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HEADLESS_DIR = dirname(fileURLToPath(import.meta.url));
/** the host page: host.tsx (the panel in a stand-in for Grafana), index.html */
export const HOST_DIR = join(HEADLESS_DIR, 'host');
export const ROOT = resolve(HEADLESS_DIR, '../..');
export const PLUGIN_DIR = join(ROOT, 'plugin');
/** the workspace's installed packages: the host page is bundled from its React and @grafana/* */
export const NODE_MODULES = join(ROOT, 'node_modules');
export const DIST_DIR = join(PLUGIN_DIR, 'dist');
/** the snapshot CLI (npm run snapshot) */
export const SNAPSHOT_CLI = join(PLUGIN_DIR, 'scripts', 'snapshot.mjs');
/** the browser tests and benchmarks, with their own pages (host/bench.tsx) and Grafana hosts (hosts/) */
export const BROWSER_DIR = join(ROOT, 'tests', 'browser');
export const CACHE_DIR = join(ROOT, '.cache', 'browser');
export const SCREENSHOTS_DIR = join(CACHE_DIR, 'screenshots');
export const FIXTURES_DIR = join(ROOT, 'tests', 'fixtures');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
/** require() of the workspace's packages (CommonJS ones: pprof-format, playwright-core) */
export const requirePlugin = createRequire(join(PLUGIN_DIR, 'package.json'));
