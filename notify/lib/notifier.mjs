// The receiver's work for each alert of an Alertmanager webhook: decide (announce, update on
// resolve, or skip a repeat), then, off the request path, fetch the two windows' profiles, render
// the diff, build the message and deliver it. Every step has a bound; every failure becomes the
// message's one-line reason.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { Dedupe } from './dedupe.mjs';
import { writeDeliveryOutcome, writeToDirectory } from './deliver.mjs';
import { chooseWindows } from './alert-windows.mjs';
import { baselineOf, profileKind } from './catalogue.mjs';
import { computeAnswer, fixedCostPath } from './answer.mjs';
import { acceptWebhook, restore } from './intake.mjs';
import { Journal } from './journal.mjs';
import { alertTitle, buildMessage } from './message.mjs';
import { changeCost } from './cost.mjs';
import { regressionOutcome } from './outcome.mjs';
import { PrometheusError, windowLoad } from './prometheus.mjs';
import { labelSelector, PROFILE_TYPES, selectMergeProfile, SourceError } from './pyroscope.mjs';
import { withNote } from './note.mjs';
import { Outbox } from './outbox.mjs';
import { Queue } from './queue.mjs';
import { Degraded, RenderGate } from './render-gate.mjs';
import { renderDiff, RenderError } from './render.mjs';
import { fitForSlack } from './slack-limits.mjs';
import { WarmRenderer } from './warm-render.mjs';
import { DAY, MINUTE } from './windows.mjs';

// profileKind and baselineOf are part of this module's surface since before the catalogue had them.
export { baselineOf, profileKind };

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

/** lap(name) records the ms since the previous lap under name; lap.stages holds them (where an alert's time goes). */
function stopwatch() {
  let last = performance.now();
  const lap = (name) => {
    const t = performance.now();
    lap.stages[name] = Math.round(t - last);
    last = t;
  };
  lap.stages = {};
  return lap;
}

/** The renderers a picture can come from: see DEFAULTS.renderer. */
export const RENDERERS = ['cli', 'warm'];

export const DEFAULTS = {
  pendingMs: 15 * MINUTE, // the rule pack's for:
  minWindowMs: 5 * MINUTE,
  maxWindowMs: 60 * MINUTE,
  concurrency: 2, // renders at once: tabs of the warm browser, or snapshot CLIs
  workers: 8, // alerts worked on at once (profiles, decoding, messages without a picture, delivery)
  queueMax: 1000, // alerts waiting (on disk, in the journal)
  fetchTimeoutMs: 20_000,
  decodeTimeoutMs: 20_000,
  renderTimeoutMs: 90_000,
  // 'warm': one Chromium kept open for every picture (warm-render.mjs: restarted after a crash or
  // a hang, killed when it does not close); 'cli': the snapshot CLI per picture (a Node process
  // and a Chromium each, ended with it), seconds slower a message
  renderer: 'warm',
  closeGraceMs: 5000, // a warm browser that has not closed after this is killed
  warmAtStart: true, // the warm browser and its tabs open when the receiver starts, not at the first alert
  deliverWithinMs: 5 * MINUTE, // a message later than this after its webhook goes without its picture
  deliveryAttempts: 5,
  deliveryBaseDelayMs: 500,
  deliveryTimeoutMs: 30_000,
  retryEveryMs: 15_000, // Slack deliveries kept for later are looked at this often,
  retryBackoffMs: 30_000, // ... retried this long after a failure, doubling up to 10 minutes
  giveUpMs: 24 * 60 * MINUTE, // ... for this long after their first failure
  profileLabels: ['namespace', 'instance'],
};

export class Notifier {
  /**
   * @param {object} cfg { profilesUrl, prometheusUrl?, outDir?, slackUrl?, publicUrl, imagesDir, log?, now?, ...DEFAULTS }
   */
  constructor(cfg) {
    this.cfg = { ...DEFAULTS, ...cfg };
    if (!RENDERERS.includes(this.cfg.renderer)) {
      throw new Error(`renderer ${this.cfg.renderer}: want ${RENDERERS.join(' or ')}`);
    }
    this.log = cfg.log ?? ((line) => process.stderr.write(`hotpath-notify: ${line}\n`));
    this.now = cfg.now ?? Date.now;
    this.dedupe = new Dedupe({ now: this.now });
    this.queue = new Queue({ concurrency: this.cfg.workers, max: this.cfg.queueMax, onError: (e) => this.log(`a job failed: ${e.stack ?? e.message}`) });
    mkdirSync(this.cfg.imagesDir, { recursive: true });
    const stateDir = this.cfg.stateDir ?? join(this.cfg.imagesDir, '.state');
    this.journal = new Journal(stateDir);
    this.inFlight = new Map(); // job id -> job, while it runs
    const warm = this.cfg.renderer === 'warm';
    // the gate's first estimate of a render, until renders are measured: a warm tab's picture
    // takes under a second, a snapshot CLI's several
    this.renders = new RenderGate({ slots: this.cfg.concurrency, budgetMs: this.cfg.deliverWithinMs, initialRenderMs: warm ? 2000 : 10_000, tmpRoot: join(stateDir, 'render-tmp'), now: this.now });
    // the warm browser outlives a render: its TMPDIR is one of its own under the gate's root, so
    // a start after the receiver was killed still finds and ends it
    this.warm = warm ? new WarmRenderer({ tmpRoot: this.renders.tmpRoot, pages: this.cfg.concurrency, closeGraceMs: this.cfg.closeGraceMs, log: this.log }) : undefined;
    // the browser runs at the renders' priority (render-gate.mjs), like one a render opens
    this.warmedUp = this.warm && this.cfg.warmAtStart ? this.warm.warmUp({ launch: { nice: this.renders.nice, launcher: this.renders.launcher } }) : Promise.resolve();
    if (this.cfg.slackUrl) {
      this.outbox = new Outbox({
        url: this.cfg.slackUrl,
        journal: this.journal,
        log: this.log,
        now: this.now,
        post: { attempts: this.cfg.deliveryAttempts, baseDelayMs: this.cfg.deliveryBaseDelayMs, timeoutMs: this.cfg.deliveryTimeoutMs },
        retryEveryMs: this.cfg.retryEveryMs,
        firstBackoffMs: this.cfg.retryBackoffMs,
        giveUpMs: this.cfg.giveUpMs,
        onSettled: (record) => this.cfg.outDir && writeDeliveryOutcome(this.cfg.outDir, record),
      });
    }
    this.resumed = restore(this);
  }

  /** Starts no more work and stops the Slack retries' timer; what is unfinished stays in the journal. */
  stop() {
    this.stopping = true;
    this.outbox?.stop();
    this.queue.stop();
  }

  /**
   * stop(), then closes the warm browser (killed if it does not close within closeGraceMs);
   * resolves when it is gone. Renders still under way fail: drain first (queue.idle()) to let them end.
   */
  close() {
    this.stop();
    return this.warm?.close() ?? Promise.resolve();
  }

  /**
   * Takes a webhook payload (already parsed); returns { accepted, skipped, refused } once the
   * accepted alerts are on disk (intake.mjs). Refused alerts (queue full) are not remembered, so
   * Alertmanager's retry brings them again.
   */
  accept(payload) {
    return acceptWebhook(this, payload);
  }

  /** The diff (or the reason there is none) for a firing alert. */
  async diffFor(alert, key, receivedAt = this.now()) {
    const kind = profileKind(alert.labels?.alertname);
    const labels = profileLabels(alert.labels ?? {}, this.cfg.profileLabels);
    // The outlier instance against its siblings (the panel's `siblings` baseline), when the
    // profiles carry the instance; every other alert against the service's own past.
    const siblings = baselineOf(alert.labels?.alertname) === 'siblings' && Boolean(labels.instance);
    const fixedCost = baselineOf(alert.labels?.alertname) === 'dayEarlier';
    if (!kind) {
      return { windows: undefined, reason: 'no profile for this alert: throttling comes from the CPU quota, not from a code path' };
    }
    const lap = stopwatch();
    let windows = await chooseWindows(alert, this.cfg, this.now());
    lap('windows');
    if (!labels.service_name) {
      return { windows, reason: 'the alert has no job label to select its profiles by' };
    }
    const { instance, ...service } = labels;
    const selectors = { incident: labelSelector(labels), baseline: siblings ? labelSelector(service, { instance }) : labelSelector(labels) };
    const type = PROFILE_TYPES[kind];
    const q = (w, selector) =>
      selectMergeProfile(this.cfg.profilesUrl, { profileTypeID: type.id, labelSelector: selector, start: w.from, end: w.to }, { sampleType: type.sampleType, timeoutMs: this.cfg.fetchTimeoutMs, decodeTimeoutMs: this.cfg.decodeTimeoutMs });
    try {
      let [inc, base, load] = await Promise.all([q(windows.incident, selectors.incident), q(windows.baseline, selectors.baseline), this.loadOf(alert, windows, siblings)]);
      // no profiles a day earlier (a profile source that keeps less): the next windows in turn
      const first = windows.reason.split(':')[0];
      for (const f of windows.fallback ?? []) {
        if (base.samples > 0 && base.total > 0) {
          break;
        }
        windows = { ...f, reason: `no profiles ${first}, so ${f.reason}` };
        [inc, base, load] = await Promise.all([q(windows.incident, selectors.incident), q(windows.baseline, selectors.baseline), this.loadOf(alert, windows, siblings)]);
      }
      lap('profiles');
      if (inc.samples === 0 || inc.total === 0) {
        throw new SourceError(`no ${kind} samples for ${selectors.incident} in the incident window (${new Date(windows.incident.from).toISOString()} to ${new Date(windows.incident.to).toISOString()})`);
      }
      const fixed = fixedCost ? this.fixedCost(inc.read.tree, windows, load.value) : undefined;
      if (base.samples === 0 || base.total === 0) {
        // a fixed cost still has its own answer: where the CPU goes now
        throw Object.assign(new SourceError(`no ${kind} samples for ${selectors.baseline} in the baseline window (${new Date(windows.baseline.from).toISOString()} to ${new Date(windows.baseline.to).toISOString()})`), { fixed });
      }
      const len = (w) => (w.to - w.from) / 1000;
      const rates = load.value;
      const requests = rates?.incident.rate > 0 && rates?.baseline.rate > 0 ? { incident: rates.incident.rate * len(windows.incident), baseline: rates.baseline.rate * len(windows.baseline) } : undefined;
      const answer = computeAnswer({ incident: inc.read, baseline: base.read, requests, shares: siblings });
      const requestsWhy = siblings ? undefined : requests ? undefined : (load.why ?? 'no request-rate samples in a window');
      lap('answer');
      const dir = join(this.cfg.imagesDir, key);
      mkdirSync(dir, { recursive: true });
      const args = { dir, incident: inc.bytes, baseline: base.bytes, sampleType: type.sampleType, timeoutMs: this.cfg.renderTimeoutMs, requests };
      const render = this.warm ? (o) => this.warm.render({ ...args, trees: answer.trees, launch: o }) : (o) => renderDiff({ ...args, ...o });
      // a storm (Degraded) or a render that failed: the same answer as text, saying why
      // (a render that fails while the receiver stops may have been ended by the stop: the job
      // stays in the journal, and the next start draws its picture)
      const r = await this.renders.run(receivedAt, render).catch((e) => {
        if (e instanceof Degraded || (e instanceof RenderError && !this.stopping)) {
          return { note: `No picture: ${e.message}. The changes come from the same profiles.` };
        }
        throw e;
      });
      lap('render');
      if (r.waitedMs !== undefined) {
        // the render's own time and, apart, its wait for a free renderer
        lap.stages.renderWait = r.waitedMs;
        lap.stages.render -= r.waitedMs;
      }
      if (r.prepareMs !== undefined) {
        // the warm renderer's frames, made on the receiver's thread before the browser draws
        lap.stages.renderPrepare = r.prepareMs;
        lap.stages.render -= r.prepareMs;
      }
      return { windows, answer, fixed, requestsWhy, note: r.note, png: r.png, summary: r.summary, stagesMs: lap.stages };
    } catch (e) {
      if (this.stopping && e instanceof RenderError) {
        throw e;
      }
      if (e instanceof SourceError || e instanceof RenderError) {
        return { windows, reason: e.message, fixed: e.fixed, stagesMs: lap.stages };
      }
      return { windows, reason: `unexpected error: ${e.message}`, stagesMs: lap.stages };
    }
  }

  /** The windows' request rates (and CPU for a fixed cost) from Prometheus: { value } or { why }. */
  async loadOf(alert, windows, siblings) {
    if (!this.cfg.prometheusUrl) {
      return { why: 'no Prometheus (--prometheus) to count the requests of each window' };
    }
    try {
      return { value: await windowLoad(this.cfg.prometheusUrl, alert, windows, { siblings, timeoutMs: this.cfg.fetchTimeoutMs }) };
    } catch (e) {
      if (e instanceof PrometheusError) {
        return { why: e.message };
      }
      throw e;
    }
  }

  /** The busy loop's numbers: CPU and traffic of both windows, and where the incident's CPU goes. */
  fixedCost(tree, windows, load) {
    const path = fixedCostPath(tree);
    const secs = (windows.incident.to - windows.incident.from) / 1000;
    // without Prometheus, the profile's CPU over the window (a CPU profile covers all of it)
    const cores = load?.incident.cores ?? (tree.size ? tree.total[0] / 1e9 / secs : undefined);
    const day = windows.baseline.to === windows.incident.to - DAY;
    return {
      incident: { cores, rate: load?.incident.rate },
      baseline: load?.baseline.cores !== undefined ? { cores: load.baseline.cores, rate: load.baseline.rate } : undefined,
      baselineName: day ? 'the same hour a day earlier' : 'before the onset',
      share: path?.share,
      path: path?.path,
    };
  }

  async announce(alert, key, receivedAt) {
    const queuedMs = this.now() - receivedAt;
    const [d, cost] = await Promise.all([this.diffFor(alert, key, receivedAt), this.fromPrometheus(changeCost, alert)]);
    const imageUrl = d.png ? `${this.cfg.publicUrl.replace(/\/$/, '')}/images/${key}.png` : undefined;
    const windows = d.windows && (({ fallback, ...w }) => w)(d.windows);
    const payload = withNote(buildMessage({ alert, status: 'firing', windows, answer: d.answer, fixed: d.fixed, requestsWhy: d.requestsWhy, reason: d.reason, imageUrl, cost }), d.note);
    const changes = (d.answer?.changes ?? []).map(({ unit, ...c }) => ({ ...c, unit: d.answer.rankedBy === 'per-request' ? `${unit}/req` : unit }));
    const answer = d.answer ? { headline: d.answer.headline, driver: d.answer.driver, rankedBy: d.answer.rankedBy } : undefined;
    await this.deliver(alert, key, 'firing', receivedAt, payload, { png: d.png, summary: d.summary, windows, reason: d.reason, imageUrl, changes, answer, fixedCost: d.fixed, cost, stagesMs: { queued: queuedMs, ...d.stagesMs }, note: d.note });
  }

  async resolve(alert, key, receivedAt) {
    const outcome = await this.outcomeOf(alert);
    const payload = buildMessage({ alert, status: 'resolved', outcome });
    await this.deliver(alert, key, 'resolved', receivedAt, payload, outcome ? { outcome } : {});
  }

  /** A resolved regression's outcome (outcome.mjs), { why } when Prometheus cannot say, undefined for other alerts. */
  outcomeOf(alert) {
    return this.fromPrometheus(regressionOutcome, alert);
  }

  /** read(prometheusUrl, alert, opts) (outcome.mjs, cost.mjs): its answer, { why } when Prometheus cannot say. */
  async fromPrometheus(read, alert) {
    try {
      return await read(this.cfg.prometheusUrl, alert, { timeoutMs: this.cfg.fetchTimeoutMs, nowMs: this.now() });
    } catch (e) {
      if (e instanceof PrometheusError) {
        return { why: e.message };
      }
      throw e;
    }
  }

  async deliver(alert, key, status, receivedAt, payload, extra) {
    payload = fitForSlack(payload); // the last step: Slack's limits, after every escape
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
      ...(extra.answer ? { answer: extra.answer } : {}),
      ...(extra.fixedCost ? { fixedCost: extra.fixedCost } : {}),
      ...(extra.outcome ? { outcome: extra.outcome } : {}),
      ...(extra.cost ? { cost: extra.cost } : {}),
      ...(extra.stagesMs ? { stagesMs: extra.stagesMs } : {}),
      payload,
    };
    if (extra.note) {
      record.note = extra.note;
    }
    // deliveryFailures: every failed attempt, { target, at, attempt, error }; slack: delivered, retrying (kept on disk) or failed
    const errors = [];
    record.deliveryFailures = [];
    if (this.outbox) {
      const r = await this.outbox.send({ id: `${key}:${status}`, fp: key.split('-')[0], record, title: alertTitle(alert) });
      Object.assign(record, { slack: r.slack, attempts: r.attempts });
      record.deliveryFailures.push(...r.deliveryFailures.map((f) => ({ target: 'slack', ...f })));
      if (r.slack !== 'delivered') {
        errors.push(r.slack === 'retrying' ? `Slack: kept on disk, retried every ${this.cfg.retryEveryMs / 1000}s (${r.error ?? 'an earlier message of this alert is waiting'})` : r.error);
      }
    }
    record.deliveredAt = new Date(this.now()).toISOString();
    record.latencyMs = this.now() - receivedAt;
    if (this.cfg.outDir) {
      try {
        writeToDirectory(this.cfg.outDir, key, record, extra);
      } catch (e) {
        errors.push(`writing to ${this.cfg.outDir}: ${e.message}`);
        record.deliveryFailures.push({ target: 'out-dir', at: new Date(this.now()).toISOString(), attempt: 1, error: e.message });
      }
    }
    const what = extra.reason ? `no diff: ${extra.reason}` : extra.changes?.length ? `top change ${extra.changes[0].function} ${extra.changes[0].deltaPercent > 0 ? '+' : ''}${extra.changes[0].deltaPercent}%` : status;
    this.log(`${alertTitle(alert)} ${status}: ${errors.length ? `NOT delivered (${errors.join('; ')})` : 'delivered'} in ${(record.latencyMs / 1000).toFixed(1)}s, ${what}`);
  }
}
