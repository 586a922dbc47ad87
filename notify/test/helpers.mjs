// Test helpers: HTTP servers on 127.0.0.1 (ephemeral ports), Alertmanager-shaped payloads,
// bounded waits.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Notifier } from '../lib/notifier.mjs';
import { createWebhookServer } from '../lib/server.mjs';

export function listen(handler) {
  const server = createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      // closing also ends the open connections: a stalled or kept-alive request must not hold the test open
      const close = () =>
        new Promise((r) => {
          server.close(r);
          server.closeAllConnections();
        });
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close, server });
    });
  });
}

export function readJSON(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** A Slack-compatible incoming webhook that records what it receives; answers `statuses` in turn, then 200. */
export async function startSink(statuses = []) {
  const received = [];
  let calls = 0;
  const s = await listen(async (req, res) => {
    const body = await readJSON(req);
    const status = statuses[calls++] ?? 200;
    if (status === 200) {
      received.push(JSON.parse(body.toString('utf8')));
    }
    res.writeHead(status).end(status === 200 ? 'ok' : 'try again');
  });
  return { ...s, received, calls: () => calls };
}

/** A Notifier behind the real webhook server; cfg overrides the defaults. */
export async function startNotifier(cfg) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-notify-test-'));
  const logs = [];
  // no browser at start unless asked: most tests render nothing, or once
  const notifier = new Notifier({ outDir: join(dir, 'out'), imagesDir: join(dir, 'images'), publicUrl: '', deliveryBaseDelayMs: 20, log: (l) => logs.push(l), warmAtStart: false, ...cfg });
  const server = createWebhookServer({ notifier, token: cfg.token, maxBodyBytes: cfg.maxBodyBytes });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  notifier.cfg.publicUrl = url;
  // closing the notifier closes the warm renderer's Chromium, which would keep the test alive
  const close = async () => {
    await new Promise((r) => server.close(r));
    await notifier.close();
  };
  return { url, close, notifier, logs, dir };
}

export const T0 = Date.now();

export function alert({ alertname = 'CPUPerRequestRegression', job = 'api', status = 'firing', fingerprint = 'a1b2c3d4e5f60708', startsAt = new Date(T0 - 60_000).toISOString(), labels = {}, annotations = {} } = {}) {
  return {
    status,
    labels: { alertname, job, severity: 'warning', ...labels },
    annotations: { summary: 'A service uses more CPU than its own cost model predicts at its current traffic.', dashboard_url: 'http://localhost:3000/d/hotpath-service?var-job=api', ...annotations },
    startsAt,
    endsAt: status === 'resolved' ? new Date().toISOString() : '0001-01-01T00:00:00Z',
    generatorURL: 'http://127.0.0.1:9090/graph',
    fingerprint,
  };
}

/** An Alertmanager webhook (version 4) carrying the alerts. */
export function webhook(alerts) {
  return { version: '4', groupKey: '{}:{alertname="x"}', truncatedAlerts: 0, status: alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved', receiver: 'hotpath-notify', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://127.0.0.1:9093', alerts };
}

export function post(url, body, headers = {}) {
  return fetch(`${url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** Polls fn until it returns a truthy value or timeoutMs passes (then throws). */
export async function waitFor(fn, timeoutMs = 30_000, what = 'condition') {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The URL of a port nothing listens on (it was free a moment ago): a profile source that is down. */
export async function downUrl() {
  const s = await listen(() => {});
  await s.close();
  return s.url;
}
