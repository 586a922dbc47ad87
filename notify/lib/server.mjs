// The webhook server: POST /webhook (Alertmanager's webhook_config; answered as soon as the alerts
// are on disk), GET /images/<key>.png (the pictures the messages link to), GET /-/healthy.
// Limits: the body size (declared or chunked), the content type, the time to send the request,
// an optional bearer token (constant-time compare). No request, however malformed, reaches past
// a 4xx: the receiver holds pages that are not delivered yet.
import { createReadStream, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(typeof body === 'string' ? body : JSON.stringify(body));
}

function authorized(req, token) {
  if (token === undefined) {
    return true;
  }
  const got = Buffer.from(req.headers.authorization ?? '');
  const want = Buffer.from(`Bearer ${token}`);
  return got.length === want.length && timingSafeEqual(got, want);
}

/**
 * The path of a request target, or undefined when it is not one (`//[`, `http://a:99999/`, `%zz`):
 * origin-form (`/webhook?x`) is taken as is; absolute-form (a proxy's `http://host/webhook`) is parsed.
 */
export function requestPath(target) {
  if (typeof target !== 'string') {
    return undefined;
  }
  let raw;
  if (target.startsWith('/')) {
    raw = target.split(/[?#]/)[0];
  } else {
    try {
      raw = new URL(target).pathname;
    } catch {
      return undefined;
    }
  }
  try {
    decodeURIComponent(raw);
    return raw;
  } catch {
    return undefined; // a malformed %-escape
  }
}

/**
 * Reads at most max bytes; resolves undefined when the body is larger. The rest of a larger body
 * is read and thrown away (up to drainMax bytes) so the client gets the 413 instead of a
 * connection reset while it is still sending.
 */
function readBody(req, max, drainMax = 16 * max) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > max) {
        if (chunks.length || size - c.length <= max) {
          chunks.length = 0;
          resolve(undefined); // answered now; the rest is drained
        }
        if (size > drainMax) {
          req.destroy(); // a client that sends without end: stop listening
        }
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(size > max ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * @param {{ notifier, token?: string, maxBodyBytes?: number, log?: (line) => void }} opts
 *   token: when given (it must not be empty), every POST needs "Authorization: Bearer <token>"
 * @returns the http.Server (not listening yet)
 */
export function createWebhookServer({ notifier, token, maxBodyBytes = 1 << 20, log = () => {} }) {
  if (token !== undefined && token !== null && !String(token).trim()) {
    throw new Error('the bearer token is empty: an empty token would let anyone post alerts');
  }
  token = token ?? undefined;
  const server = createServer(async (req, res) => {
    try {
      const path = requestPath(req.url);
      if (path === undefined) {
        res.setHeader('connection', 'close');
        send(res, 400, { error: 'malformed request target' });
        return;
      }
      if (path === '/-/healthy' && req.method === 'GET') {
        send(res, 200, notifier.health());
        return;
      }
      const image = /^\/images\/([0-9a-f]{1,32}-\d{1,16})\.png$/.exec(path);
      if (image && req.method === 'GET') {
        const file = notifier.imagePath(image[1]);
        if (!existsSync(file)) {
          send(res, 404, { error: 'no such image' });
          return;
        }
        res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400' });
        createReadStream(file).on('error', () => res.destroy()).pipe(res);
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
      if (notifier.stopping) {
        send(res, 503, { error: 'shutting down: send again (Alertmanager retries)' });
        return;
      }
      if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
        send(res, 415, { error: 'want Content-Type: application/json (an Alertmanager webhook)' });
        return;
      }
      // a declared length over the limit is refused before reading; an undeclared one (chunked) when it passes it
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
      } else {
        res.destroy();
      }
    }
  });
  // a request line or header the HTTP parser refuses: answer 400 when the socket still can
  server.on('clientError', (e, socket) => {
    if (socket.writable && !socket.destroyed) {
      socket.end(`HTTP/1.1 ${e.code === 'HPE_HEADER_OVERFLOW' ? 431 : e.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400} Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    } else {
      socket.destroy();
    }
  });
  server.headersTimeout = 10_000; // a client that trickles its headers (slowloris)
  server.requestTimeout = 60_000; // the whole request, body included
  return server;
}
