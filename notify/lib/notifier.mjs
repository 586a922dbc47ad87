// The receiver's work for each alert of an Alertmanager webhook: decide (announce, update on
// resolve, or skip a repeat), then, off the request path, fetch the two windows' profiles, render
// the diff, build the message and deliver it. Every step has a bound; every failure becomes the
// message's one-line reason.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { Dedupe } from './dedupe.mjs';
import { postWebhook, writeToDirectory } from './deliver.mjs';
import { alertTitle, buildMessage, topChanges } from './message.mjs';
import { labelSelector, PROFILE_TYPES, selectMergeProfile, SourceError } from './pyroscope.mjs';
import { Queue } from './queue.mjs';
import { renderDiff, RenderError } from './render.mjs';
import { alertWindows, MINUTE, siblingWindows } from './windows.mjs';

/** Which profile an alert is about (undefined: no code path to show). */
export function profileKind(alertname) {
  switch (alertname) {
    case 'AllocationsPerRequestRegression':
      return 'alloc_space';
    case 'CPUThrottlingSustained':
      return undefined; // throttling is the cgroup's quota, not a code path
    default:
      return 'cpu';
  }
}

/**
 * The profile labels of an alert: Pyroscope's service_name is the Prometheus job; the alert's
 * other identity labels (`copy`: namespace and instance by default) are copied when present.
 */
export function profileLabels(labels, copy = ['namespace', 'instance']) {
  const out = {};
  if (labels.job) {
    out.service_name = labels.job;
  }
  for (const k of copy) {
    if (labels[k]) {
      out[k] = labels[k];
    }
  }
  return out;
}

/** A key safe for paths and URLs: Alertmanager's fingerprint (hex), or a hash of the labels. */
export function alertKey(alert) {
  const fp = /^[0-9a-f]{1,32}$/.test(alert.fingerprint ?? '') ? alert.fingerprint : createHash('sha256').update(JSON.stringify(Object.entries(alert.labels ?? {}).sort())).digest('hex').slice(0, 16);
  return `${fp}-${Date.parse(alert.startsAt)}`;
}

export const DEFAULTS = {
  pendingMs: 15 * MINUTE, // the rule pack's for:
  minWindowMs: 5 * MINUTE,
  maxWindowMs: 60 * MINUTE,
  concurrency: 2,
  queueMax: 100,
  fetchTimeoutMs: 20_000,
  renderTimeoutMs: 90_000,
  deliveryAttempts: 5,
  deliveryBaseDelayMs: 500,
  maxAlertsPerWebhook: 200,
  profileLabels: ['namespace', 'instance'],
};

export class Notifier {
  /**
   * @param {object} cfg { profilesUrl, outDir?, slackUrl?, publicUrl, imagesDir, log?, now?, ...DEFAULTS }
   */
  constructor(cfg) {
    this.cfg = { ...DEFAULTS, ...cfg };
    this.log = cfg.log ?? ((line) => process.stderr.write(`hotpath-notify: ${line}\n`));
    this.now = cfg.now ?? Date.now;
    this.dedupe = new Dedupe({ now: this.now });
    this.queue = new Queue({ concurrency: this.cfg.concurrency, max: this.cfg.queueMax });
    mkdirSync(this.cfg.imagesDir, { recursive: true });
  }

  /**
   * Takes a webhook payload (already parsed); returns { accepted, skipped, refused } at once.
   * Refused alerts (queue full) are not remembered, so Alertmanager's retry brings them again.
   */
  accept(payload) {
    const counts = { accepted: 0, skipped: 0, refused: 0 };
    const receivedAt = this.now();
    for (const alert of (payload.alerts ?? []).slice(0, this.cfg.maxAlertsPerWebhook)) {
      if (!alert || typeof alert !== 'object' || !Number.isFinite(Date.parse(alert.startsAt))) {
        counts.skipped++;
        this.log(`an alert without a valid startsAt: skipped`);
        continue;
      }
      const status = alert.status === 'resolved' ? 'resolved' : 'firing';
      const key = alertKey(alert);
      const fp = key.split('-')[0];
      const action = this.dedupe.action(fp, status, alert.startsAt);
      if (action === 'skip') {
        counts.skipped++;
        this.log(`${alertTitle(alert)} ${status}: skipped (${status === 'firing' ? 'already announced' : 'never announced here'})`);
        continue;
      }
      const job = action === 'fire' ? () => this.announce(alert, key, receivedAt) : () => this.resolve(alert, key, receivedAt);
      if (!this.queue.push(job)) {
        counts.refused++;
        this.log(`${alertTitle(alert)} ${status}: refused, the queue holds ${this.cfg.queueMax} alerts`);
        continue;
      }
      this.dedupe.commit(fp, status, alert.startsAt);
      counts.accepted++;
    }
    return counts;
  }

  /** The diff (or the reason there is none) for a firing alert. */
  async diffFor(alert, key) {
    const kind = profileKind(alert.labels?.alertname);
    const labels = profileLabels(alert.labels ?? {}, this.cfg.profileLabels);
    // The outlier instance against its siblings (the panel's `siblings` baseline), when the
    // profiles carry the instance; every other alert against the service's own past.
    const siblings = alert.labels?.alertname === 'CPUPerRequestOutlier' && Boolean(labels.instance);
    const windows = (siblings ? siblingWindows : alertWindows)({ startsAt: Date.parse(alert.startsAt) }, { ...this.cfg, now: this.now() });
    if (!kind) {
      return { windows: undefined, reason: 'no profile for this alert: throttling comes from the CPU quota, not from a code path' };
    }
    if (!labels.service_name) {
      return { windows, reason: 'the alert has no job label to select its profiles by' };
    }
    const { instance, ...service } = labels;
    const selectors = { incident: labelSelector(labels), baseline: siblings ? labelSelector(service, { instance }) : labelSelector(labels) };
    const type = PROFILE_TYPES[kind];
    const q = (w, selector) =>
      selectMergeProfile(this.cfg.profilesUrl, { profileTypeID: type.id, labelSelector: selector, start: w.from, end: w.to }, { timeoutMs: this.cfg.fetchTimeoutMs });
    try {
      const [inc, base] = await Promise.all([q(windows.incident, selectors.incident), q(windows.baseline, selectors.baseline)]);
      for (const [p, name, w] of [[inc, 'incident', windows.incident], [base, 'baseline', windows.baseline]]) {
        if (p.samples === 0 || p.total === 0n) {
          throw new SourceError(`no ${kind} samples for ${selectors[name]} in the ${name} window (${new Date(w.from).toISOString()} to ${new Date(w.to).toISOString()})`);
        }
      }
      const dir = join(this.cfg.imagesDir, key);
      mkdirSync(dir, { recursive: true });
      const r = await renderDiff({ dir, incident: inc.bytes, baseline: base.bytes, sampleType: type.sampleType, timeoutMs: this.cfg.renderTimeoutMs });
      return { windows, summary: r.summary, png: r.png };
    } catch (e) {
      if (e instanceof SourceError || e instanceof RenderError) {
        return { windows, reason: e.message };
      }
      return { windows, reason: `unexpected error: ${e.message}` };
    }
  }

  async announce(alert, key, receivedAt) {
    const d = await this.diffFor(alert, key);
    const imageUrl = d.png ? `${this.cfg.publicUrl.replace(/\/$/, '')}/images/${key}.png` : undefined;
    const payload = buildMessage({ alert, status: 'firing', windows: d.windows, summary: d.summary, reason: d.reason, imageUrl });
    const changes = topChanges(d.summary).map((r) => ({ function: r.function, deltaPercent: r.deltaPercent }));
    await this.deliver(alert, key, 'firing', receivedAt, payload, { png: d.png, summary: d.summary, windows: d.windows, reason: d.reason, imageUrl, changes });
  }

  async resolve(alert, key, receivedAt) {
    const payload = buildMessage({ alert, status: 'resolved' });
    await this.deliver(alert, key, 'resolved', receivedAt, payload, {});
  }

  async deliver(alert, key, status, receivedAt, payload, extra) {
    const record = {
      key,
      status,
      alertname: alert.labels?.alertname,
      labels: alert.labels,
      startsAt: alert.startsAt,
      receivedAt: new Date(receivedAt).toISOString(),
      reason: extra.reason,
      imageUrl: extra.imageUrl,
      windows: extra.windows,
      changes: extra.changes,
      payload,
    };
    const errors = [];
    if (this.cfg.slackUrl) {
      try {
        record.attempts = await postWebhook(this.cfg.slackUrl, payload, { attempts: this.cfg.deliveryAttempts, baseDelayMs: this.cfg.deliveryBaseDelayMs });
      } catch (e) {
        errors.push(e.message);
      }
    }
    record.deliveredAt = new Date(this.now()).toISOString();
    record.latencyMs = this.now() - receivedAt;
    if (this.cfg.outDir) {
      try {
        writeToDirectory(this.cfg.outDir, key, record, extra);
      } catch (e) {
        errors.push(`writing to ${this.cfg.outDir}: ${e.message}`);
      }
    }
    const what = extra.reason ? `no diff: ${extra.reason}` : extra.changes?.length ? `top change ${extra.changes[0].function} ${extra.changes[0].deltaPercent > 0 ? '+' : ''}${extra.changes[0].deltaPercent}%` : status;
    this.log(`${alertTitle(alert)} ${status}: ${errors.length ? `NOT delivered (${errors.join('; ')})` : 'delivered'} in ${(record.latencyMs / 1000).toFixed(1)}s, ${what}`);
  }
}
