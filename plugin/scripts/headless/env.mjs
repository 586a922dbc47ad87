// Paths and module resolution for tests/browser: its npm packages live in plugin/node_modules
// (one lockfile for the plugin and its harness).
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BROWSER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = resolve(BROWSER_DIR, '../..');
export const PLUGIN_DIR = join(ROOT, 'plugin');
export const DIST_DIR = join(PLUGIN_DIR, 'dist');
export const CACHE_DIR = join(ROOT, '.cache', 'browser');
export const SCREENSHOTS_DIR = join(CACHE_DIR, 'screenshots');
export const FIXTURES_DIR = join(ROOT, 'tests', 'fixtures');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const requirePlugin = createRequire(join(PLUGIN_DIR, 'package.json'));
