// A static server on 127.0.0.1 (ephemeral port) for the host page and the built plugin.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

import { BROWSER_DIR, CACHE_DIR, DIST_DIR } from './env.mjs';

const TYPES = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json', '.svg': 'image/svg+xml', '.map': 'application/json', '.png': 'image/png' };

export function startServer({ bundle = 'host' } = {}) {
  const routes = (path) => {
    if (path === '/' || path === '/index.html') {
      return join(BROWSER_DIR, 'host', 'index.html');
    }
    if (path === '/host.js') {
      return join(CACHE_DIR, `${bundle}.js`);
    }
    if (path.startsWith('/plugin/')) {
      const file = normalize(join(DIST_DIR, path.slice('/plugin/'.length)));
      return file.startsWith(DIST_DIR) ? file : undefined;
    }
    return undefined;
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
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
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
