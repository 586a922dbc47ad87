// TEST_IDS shared with the unit tests: read from plugin/src/constants/testIds.ts (one source).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PLUGIN_DIR } from './env.mjs';

const src = readFileSync(join(PLUGIN_DIR, 'src', 'constants', 'testIds.ts'), 'utf8');
export const TEST_IDS = Object.fromEntries([...src.matchAll(/^\s+(\w+): '([^']+)',$/gm)].map((m) => [m[1], m[2]]));
