// The panel's own window rules (plugin/src/windows/windows.ts: windowAt, baselineFor), bundled
// for Node with esbuild, so an alert's message compares exactly the windows the panel would
// show for that alert's link. Rebuilt when windows.ts is newer than the bundle.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { PLUGIN_DIR, ROOT, requirePlugin } from '../../plugin/scripts/headless/env.mjs';

const SRC = join(PLUGIN_DIR, 'src', 'windows', 'windows.ts');
const OUT = join(ROOT, '.cache', 'notify', 'windows.mjs');

async function load() {
  if (!existsSync(OUT) || statSync(OUT).mtimeMs < statSync(SRC).mtimeMs) {
    mkdirSync(join(ROOT, '.cache', 'notify'), { recursive: true });
    await requirePlugin('esbuild').build({
      entryPoints: [SRC],
      bundle: true,
      outfile: OUT,
      format: 'esm',
      platform: 'node',
      target: 'node18',
      logLevel: 'error',
      legalComments: 'none',
    });
  }
  return import(pathToFileURL(OUT).href);
}

/** { windowAt, baselineFor, formatDuration, MIN_WINDOW_MS, ... } of plugin/src/windows/windows.ts */
export const panelWindows = await load();
