// Opens the host page in headless Debian chromium through playwright-core, with a fresh
// user-data-dir, and renders the built panel. Every wait is bounded.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildHost } from './build.mjs';
import { CHROMIUM, requirePlugin, SCREENSHOTS_DIR } from './env.mjs';
import { startServer } from './server.mjs';

const { chromium } = requirePlugin('playwright-core');

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
 * Starts server + browser and opens the host page. Returns { page, render, screenshot, close }.
 * `bundle`: 'host' (the plugin alone) or 'bench' (plus @grafana/flamegraph and a generator).
 */
export async function openHost({ bundle = 'host', viewport = { width: 1100, height: 760 }, extraArgs = [], onQuery, onCancel } = {}) {
  await buildHost(bundle);
  const server = await startServer({ bundle });
  const userDataDir = mkdtempSync(join(tmpdir(), 'hotpath-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs],
      viewport,
      timeout: 60_000,
    });
  } catch (e) {
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
    throw new Error(`could not start ${CHROMIUM} (run tools/install-chromium.sh): ${e.message}`);
  }
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(20_000);
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e));
  if (onQuery) {
    await page.exposeFunction('__hotpathQuery', onQuery);
  }
  if (onCancel) {
    // the stand-in datasource reports queries unsubscribed before they answered
    await page.exposeFunction('__hotpathCancel', onCancel);
  }
  await page.goto(server.url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.hotpathHost && window.hotpathHost.module !== undefined, null, { timeout: 20_000 });
  const close = async () => {
    await context.close().catch(() => {});
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return {
    page,
    pageErrors,
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
