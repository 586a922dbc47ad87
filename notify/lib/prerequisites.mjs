// What hotpath-notify needs besides its npm packages, each named with the command that supplies
// it: the profile core's build for Node (the root's install makes it; without it nothing that
// reads a profile loads), the built panel that draws the pictures (make plugin) and Chromium
// (tools/install-chromium.sh).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CHROMIUM, DIST_DIR } from '@hotpath/headless/env.mjs';

/** One line when the core's ESM build is missing, else undefined. */
export function coreMissing() {
  let built;
  try {
    built = fileURLToPath(import.meta.resolve('@hotpath/profile-core'));
  } catch {
    return 'the profile core (@hotpath/profile-core) is not installed: run `npm ci` at the repository root';
  }
  return existsSync(built) ? undefined : `the profile core is not built (${built} is missing): run \`npm run build -w @hotpath/profile-core\``;
}

/** One line when the pictures cannot be drawn (no built panel, no Chromium), else undefined. */
export function renderingMissing({ chromium = CHROMIUM, dist = DIST_DIR } = {}) {
  const panel = join(dist, 'module.js');
  if (!existsSync(panel)) {
    return `the built panel is missing (${panel}): run \`make plugin\``;
  }
  if (!existsSync(chromium)) {
    return `no Chromium at ${chromium}: run \`tools/install-chromium.sh\` (or set $CHROMIUM to one)`;
  }
  return undefined;
}
