// The webhook server: POST /webhook (Alertmanager's webhook_config; answered as soon as the alerts
// are queued), GET /images/<key>.png (the pictures the messages link to), GET /-/healthy.
// Limits: the body size, the content type, an optional bearer token (constant-time compare).
import { createReadStream, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(typeof body === 'string' ? body : JSON.stringify(body));
}

function authorized(req, token) {
  if (!token) {
    return true;
  }
  const got = Buffer.from(req.headers.authorization ?? '');
  const want = Buffer.from(`Bearer ${token}`);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Reads at most max bytes; resolves undefined when the body is larger. */
function readBody(req, max) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > max) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * @param {{ notifier, token?: string, maxBodyBytes?: number, log?: (line) => void }} opts
 * @returns the http.Server (not listening yet)
 */
export function createWebhookServer({ notifier, token, maxBodyBytes = 1 << 20, log = () => {} }) {
  return createServer(async (req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    try {
      if (path === '/-/healthy' && req.method === 'GET') {
        send(res, 200, { ok: true, queued: notifier.queue.waiting.length, running: notifier.queue.running });
        return;
      }
      const image = /^\/images\/([0-9a-f]{1,32}-\d{1,16})\.png$/.exec(path);
      if (image && req.method === 'GET') {
        const file = join(notifier.cfg.imagesDir, image[1], 'panel.png');
        if (!existsSync(file)) {
          send(res, 404, { error: 'no such image' });
          return;
        }
        res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400' });
        createReadStream(file).pipe(res);
        return;
      }
      if (path !== '/webhook') {
        send(res, 404, { error: 'POST /webhook (Alertmanager webhook_config), GET /images/<key>.png, GET /-/healthy' });
        return;
      }
      if (req.method !== 'POST') {
        send(res, 405, { error: 'use POST' });
        return;
      }
      if (!authorized(req, token)) {
        send(res, 401, { error: 'missing or wrong bearer token' });
        return;
      }
      if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
        send(res, 415, { error: 'want Content-Type: application/json (an Alertmanager webhook)' });
        return;
      }
      // a declared length over the limit is refused before reading; an undeclared one is cut off
      const body = Number(req.headers['content-length'] ?? 0) > maxBodyBytes ? undefined : await readBody(req, maxBodyBytes);
      if (body === undefined) {
        res.setHeader('connection', 'close');
        send(res, 413, { error: `body larger than ${maxBodyBytes} bytes` });
        return;
      }
      let payload;
      try {
        payload = JSON.parse(body.toString('utf8'));
      } catch (e) {
        send(res, 400, { error: `not JSON: ${e.message}` });
        return;
      }
      if (!payload || !Array.isArray(payload.alerts)) {
        send(res, 400, { error: 'not an Alertmanager webhook: no alerts array' });
        return;
      }
      const counts = notifier.accept(payload);
      // refused alerts were not remembered: a 503 makes Alertmanager send the group again later
      send(res, counts.refused ? 503 : 200, counts);
    } catch (e) {
      log(`webhook: ${e.message}`);
      if (!res.headersSent) {
        send(res, 500, { error: e.message });
      }
    }
  });
}
