// The compatibility matrix's hosts (tests/browser/hosts/<name>/): each pins the npm releases of
// the modules one Grafana release shares with plugins (package.json + package-lock.json). Each is
// installed once, with `npm ci`, into .cache/browser/hosts/<name>-<hash of its lockfile>, and its
// host page bundled there once per hash of the lockfile and the host sources: a warm run installs
// and bundles nothing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { BROWSER_DIR, CACHE_DIR, DIST_DIR, HEADLESS_DIR, HOST_DIR, requirePlugin, SCREENSHOTS_DIR } from '@hotpath/headless/env.mjs';
import { hostBundleOptions, hostEntry } from '@hotpath/headless/build.mjs';
import { startServer } from '@hotpath/headless/server.mjs';

export const HOSTS_DIR = join(BROWSER_DIR, 'hosts');
/** Every host of the matrix, oldest first: the floor of grafanaDependency, the newest 12.x and 13.x. */
export const HOSTS = ['grafana-11.3', 'grafana-12', 'grafana-13'];

const hash = (...files) => {
  const h = createHash('sha256');
  for (const f of files) {
    h.update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 12);
};

/** Installs a host's pinned packages (npm ci, once per lockfile); returns its install directory. */
export function installHost(name) {
  const src = join(HOSTS_DIR, name);
  const key = hash(join(src, 'package.json'), join(src, 'package-lock.json'), ...(existsSync(join(src, '.npmrc')) ? [join(src, '.npmrc')] : []));
  const dir = join(CACHE_DIR, 'hosts', `${name}-${key}`);
  const stamp = join(dir, 'node_modules', '.hotpath-installed');
  if (existsSync(stamp)) {
    return dir;
  }
  // installs of older lockfiles of this host are stale
  const parent = join(CACHE_DIR, 'hosts');
  mkdirSync(parent, { recursive: true });
  for (const old of readdirSync(parent).filter((d) => d.startsWith(`${name}-`))) {
    rmSync(join(parent, old), { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(src, 'package.json'), join(dir, 'package.json'));
  copyFileSync(join(src, 'package-lock.json'), join(dir, 'package-lock.json'));
  if (existsSync(join(src, '.npmrc'))) {
    // a host's own npm settings (the bench host's legacy-peer-deps)
    copyFileSync(join(src, '.npmrc'), join(dir, '.npmrc'));
  }
  process.stderr.write(`hosts: npm ci for ${name} (once per lockfile) in ${dir}\n`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], timeout: 15 * 60_000 });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return dir;
}

const HOST_SOURCES = [
  join(HOST_DIR, 'host.tsx'),
  join(HOST_DIR, 'options-editor.tsx'),
  join(HEADLESS_DIR, 'build.mjs'),
  ...['hosts/systemjs-loader.ts', 'hosts/not-in-test-host.ts', 'lib/hosts.mjs'].map((f) => join(BROWSER_DIR, f)),
];

/**
 * Bundles a host's page (host/host.tsx with the SystemJS loader and the host's shared-module
 * list) from its own node_modules, React's development build included: its warnings are part of
 * what the matrix checks. Returns the bundle's path. The benchmark's page (`entry` 'bench':
 * host/bench.tsx, with @grafana/flamegraph and the generator) is built in production mode, as
 * Grafana serves React, with the shared-module list of `sharedFrom`, and always rebuilt (it
 * compiles the profile core from its sources).
 */
export async function buildMatrixHost(name, { entry = 'host', sharedFrom = name } = {}) {
  const dir = installHost(name);
  const sharedModules = join(HOSTS_DIR, sharedFrom, 'shared-modules.ts');
  const development = entry === 'host';
  const key = hash(...HOST_SOURCES, sharedModules, hostEntry(entry));
  const out = join(dir, `${entry}-${key}.js`);
  if (development && existsSync(out)) {
    return out;
  }
  // bundles of older host sources are stale
  for (const old of readdirSync(dir).filter((f) => new RegExp(`^${entry}-\\w+\\.js$`).test(f))) {
    rmSync(join(dir, old), { force: true });
  }
  const esbuild = requirePlugin('esbuild');
  // every package, the host's own files' included, from this host's install only
  await esbuild.build(
    hostBundleOptions({
      entry: hostEntry(entry),
      out,
      nodeModules: join(dir, 'node_modules'),
      alias: { 'hotpath-plugin-loader': join(HOSTS_DIR, 'systemjs-loader.ts'), 'hotpath-shared-modules': sharedModules },
      development,
    })
  );
  return out;
}

/** The built plugin the matrix loads: plugin/dist, or HOTPATH_PLUGIN_DIST (e.g. an older build, to see it fail). */
export const MATRIX_DIST = process.env.HOTPATH_PLUGIN_DIST ? resolve(process.env.HOTPATH_PLUGIN_DIST) : DIST_DIR;

/** The React and @grafana/ui versions a host pins (its package.json). */
export function hostVersions(name) {
  const deps = JSON.parse(readFileSync(join(HOSTS_DIR, name, 'package.json'), 'utf8')).dependencies;
  return { react: deps.react, grafanaUi: deps['@grafana/ui'], grafanaData: deps['@grafana/data'], grafanaRuntime: deps['@grafana/runtime'] };
}

/**
 * Opens a matrix host in a new context of a shared Chromium: the host page (built for `name`)
 * loads module.js with SystemJS. Resolves to { page, pageErrors, console, loadError, render,
 * screenshot, close } once the module loaded or failed to load (loadError says why).
 */
export async function openMatrixHost(browser, name, { viewport = { width: 1100, height: 820 }, onQuery, entry, sharedFrom } = {}) {
  const hostJs = await buildMatrixHost(name, { entry, sharedFrom });
  const iconsDir = join(installHost(name), 'node_modules', '@grafana', 'ui', 'dist', 'public', 'img', 'icons');
  const server = await startServer({ hostJs, distDir: MATRIX_DIST, iconsDir });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const pageErrors = [];
  const consoleMessages = [];
  page.on('pageerror', (e) => pageErrors.push(e));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      consoleMessages.push({ type: m.type(), text: m.text(), url: m.location()?.url });
    }
  });
  if (onQuery) {
    await page.exposeFunction('__hotpathQuery', onQuery);
  }
  // generous: a development bundle of @grafana/ui parses slowly on a loaded 2-core machine
  await page.goto(server.url, { waitUntil: 'load', timeout: 90_000 });
  await page.waitForFunction(() => window.hotpathHost && (window.hotpathHost.module !== undefined || window.hotpathHost.loadError !== undefined), null, { timeout: 60_000 });
  const loadError = await page.evaluate(() => window.hotpathHost.loadError);
  const shots = join(SCREENSHOTS_DIR, 'matrix', name);
  return {
    page,
    pageErrors,
    console: consoleMessages,
    loadError,
    /** icons the page asked for that the host's @grafana/ui package does not ship */
    missingIcons: server.missingIcons,
    render: (spec) => page.evaluate((s) => window.hotpathHost.render(s), spec),
    screenshot: async (shot, locator = page.getByTestId('host-panel')) => {
      mkdirSync(shots, { recursive: true });
      await locator.screenshot({ path: join(shots, `${shot}.png`) });
    },
    close: async () => {
      await context.close().catch(() => {});
      await server.close();
    },
  };
}
