#!/usr/bin/env node
// Packages plugin/dist as hotpath-overlay-panel-<version>.zip (the layout Grafana's plugin
// installer expects: a folder named after the plugin id), into plugin/. Source maps stay in:
// plugin-validator requires module.js.map next to module.js (the catalogue reviews the source).
// Everything in dist but the browser tests' data bundle (hotpath-data.js).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PLUGIN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST_DIR = join(PLUGIN_DIR, 'dist');
const { zipSync } = createRequire(join(PLUGIN_DIR, 'package.json'))('fflate');
const { version } = JSON.parse(readFileSync(join(PLUGIN_DIR, 'package.json'), 'utf8'));
const id = JSON.parse(readFileSync(join(DIST_DIR, 'plugin.json'), 'utf8')).id;
const files = {};
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
    } else if (!name.startsWith('hotpath-data.js')) {
      // hotpath-data.js is the data layer for the browser tests (src/hotpath-data.ts), not the plugin
      files[`${id}/${relative(DIST_DIR, path)}`] = readFileSync(path);
    }
  }
};
walk(DIST_DIR);
const out = join(PLUGIN_DIR, `${id}-${version}.zip`);
writeFileSync(out, zipSync(files, { level: 9 }));
process.stdout.write(`package: ${relative(process.cwd(), out)} (${Object.keys(files).length} files)\n`);
