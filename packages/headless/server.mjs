// A static server on 127.0.0.1 (ephemeral port) for the host page and the built plugin.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

import { CACHE_DIR, DIST_DIR, HOST_DIR } from './env.mjs';

const TYPES = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json', '.svg': 'image/svg+xml', '.map': 'application/json', '.png': 'image/png' };

/**
 * The files of a host page by URL path: its `index` page, its bundle `hostJs` at /host.js, the data
 * layer and the built plugin (`distDir`) under /plugin/; undefined for any other path. The demo's
 * sandbox serves its own page with the same routes.
 */
export function hostFiles({ index = join(HOST_DIR, 'index.html'), hostJs, distDir = DIST_DIR }) {
  return (path) => {
    if (path === '/' || path === '/index.html') {
      return index;
    }
    if (path === '/host.js') {
      return hostJs;
    }
    if (path === '/hotpath-data.js') {
      // the data layer the tests build frames with, which host.tsx loads after module.js: always
      // this checkout's build, also when the matrix loads another module.js (HOTPATH_PLUGIN_DIST)
      return join(DIST_DIR, 'hotpath-data.js');
    }
    if (path.startsWith('/plugin/')) {
      const file = normalize(join(distDir, path.slice('/plugin/'.length)));
      return file.startsWith(distDir) ? file : undefined;
    }
    return undefined;
  };
}

/**
 * `hostJs`: another host bundle (the matrix's, lib/hosts.mjs); `distDir`: another built plugin;
 * `iconsDir`: where Grafana's icons are (@grafana/ui's dist/public/img/icons), served at the
 * `public/build/img/icons/` path @grafana/ui 12+ fetches them from (Grafana serves them there).
 */
export function startServer({ bundle = 'host', hostJs, distDir = DIST_DIR, iconsDir } = {}) {
  const missingIcons = new Set();
  const page = hostFiles({ hostJs: hostJs ?? join(CACHE_DIR, `${bundle}.js`), distDir });
  const routes = (path) => {
    const icon = iconsDir && /\/public\/(?:build\/)?img\/icons\/([\w/.-]+\.svg)$/.exec(path);
    if (icon) {
      const file = normalize(join(iconsDir, icon[1]));
      return file.startsWith(iconsDir) ? file : undefined;
    }
    return page(path);
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const icon = iconsDir && /\/public\/(?:build\/)?img\/icons\/([\w/.-]+\.svg)$/.exec(path);
    if (icon && !existsSync(join(iconsDir, icon[1]))) {
      // an icon Grafana serves from its own public/ that @grafana/ui's npm package lacks (11.3 to
      // 13.2: unicons/spinner.svg, which their Spinner asks for): an empty one, and it is counted
      missingIcons.add(icon[1]);
      res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"></svg>');
      return;
    }
    const file = routes(path);
    if (!file || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, missingIcons, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
