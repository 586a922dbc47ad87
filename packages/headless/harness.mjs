// Opens the host page in headless Debian chromium through playwright-core, with a fresh
// user-data-dir, and renders the built panel. Every wait is bounded.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { buildHost } from './build.mjs';
import { CHROMIUM, SCREENSHOTS_DIR } from './env.mjs';
import { removeTree } from './remove-tree.mjs';
import { startServer } from './server.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The executable Playwright starts: Chromium itself, or, with a `launcher` (an argv prefix such as
 * setpriv) or a `nice`, a shell script beside the user-data-dir that execs Chromium under them, so
 * Chromium and every process it starts keep that priority.
 */
function executable(userDataDir, launcher, nice) {
  if (launcher.length === 0 && !nice) {
    return CHROMIUM;
  }
  const q = (a) => `'${String(a).replace(/'/g, `'\\''`)}'`;
  const script = `${userDataDir}.launch.sh`;
  const niceArgs = nice ? ['nice', '-n', String(nice)] : [];
  writeFileSync(script, `#!/bin/sh\nexec ${[...launcher, ...niceArgs, CHROMIUM].map(q).join(' ')} "$@"\n`);
  chmodSync(script, 0o755);
  return script;
}

/** Opens the host page in `page` (a new tab of the context when undefined): { page, pageErrors }. */
async function openPage(context, page, url, { onQuery, onCancel } = {}) {
  page ??= await context.newPage();
  // A page load on a machine busy with other work took over 20s; the renders
  // that open pages have a budget of their own (90s by default) around this.
  page.setDefaultTimeout(60_000);
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e));
  if (onQuery) {
    await page.exposeFunction('__hotpathQuery', onQuery);
  }
  if (onCancel) {
    // the stand-in datasource reports queries unsubscribed before they answered
    await page.exposeFunction('__hotpathCancel', onCancel);
  }
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.hotpathHost && window.hotpathHost.module !== undefined, null, { timeout: 60_000 });
  return { page, pageErrors };
}

/**
 * Starts server + browser and opens the host page. Returns { page, pageErrors, context,
 * newPage, render, screenshot, close }; newPage() opens the host page again in another tab of the
 * same browser ({ page, pageErrors }), for renders side by side.
 * `bundle`: 'host' (the plugin alone) or 'bench' (plus @grafana/flamegraph and a generator).
 * `launch`: how Chromium runs: `env` added to its environment (its TMPDIR also holds its
 * user-data-dir), `nice` and `launcher` as in executable() above; `handleSignals: false` leaves
 * SIGINT, SIGTERM and SIGHUP to the caller (by default Playwright closes the browser on them, and
 * exits on SIGINT, which would cut short a receiver that drains its work first). Chromium is still
 * killed when the process exits.
 */
export async function openHost({ bundle = 'host', viewport = { width: 1100, height: 760 }, extraArgs = [], onQuery, onCancel, launch = {} } = {}) {
  await buildHost(bundle);
  const server = await startServer({ bundle });
  const tmp = launch.env?.TMPDIR ?? tmpdir();
  mkdirSync(tmp, { recursive: true });
  const userDataDir = mkdtempSync(join(tmp, 'hotpath-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: executable(userDataDir, launch.launcher ?? [], launch.nice ?? 0),
      ...(launch.env ? { env: { ...process.env, ...launch.env } } : {}),
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs],
      viewport,
      timeout: 60_000,
      ...(launch.handleSignals === false ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {}),
    });
  } catch (e) {
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
    throw new Error(`could not start ${CHROMIUM} (run tools/install-chromium.sh): ${e.message}`);
  }
  const close = async () => {
    await context.close().catch(() => {});
    await server.close();
    // a folder that cannot be removed is left in the temp folder
    await removeTree(userDataDir);
    rmSync(`${userDataDir}.launch.sh`, { force: true });
  };
  let first;
  try {
    first = await openPage(context, context.pages()[0], server.url, { onQuery, onCancel });
  } catch (e) {
    await close();
    throw e;
  }
  const { page, pageErrors } = first;
  return {
    page,
    pageErrors,
    context,
    newPage: () => openPage(context, undefined, server.url, { onQuery, onCancel }),
    close,
    /** renders the panel; spec = { series, options, width, height, theme } */
    render: (spec) => page.evaluate((s) => window.hotpathHost.render(s), spec),
    screenshot: async (name, locator = page.getByTestId('host-panel')) => {
      mkdirSync(SCREENSHOTS_DIR, { recursive: true });
      const path = join(SCREENSHOTS_DIR, `${name}.png`);
      await locator.screenshot({ path });
      return path;
    },
  };
}
