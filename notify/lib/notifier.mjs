// The receiver's work for each alert of an Alertmanager webhook: decide (announce, update on
// resolve, or skip a repeat), then, off the request path, fetch the two windows' profiles, render
// the diff, build the message and deliver it. Every step has a bound; every failure becomes the
// message's one-line reason.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { alertTitle, fingerprintOf } from './alert-identity.mjs';
import { baselineOf, profileKind } from './catalogue.mjs';
import { writeDeliveryOutcome, writeToDirectory } from './deliver.mjs';
import { computeDiff } from './diff-compute.mjs';
import { diffSubject, fetchDiffInputs } from './diff-fetch.mjs';
import { renderPicture } from './diff-render.mjs';
import { Intake } from './intake.mjs';
import { buildMessage } from './message.mjs';
import { changeCost } from './cost.mjs';
import { endpointCost, endpointLeadLines, endpointSplit, endpointSubject, splitLines } from './endpoint-lead.mjs';
import { functionCost, functionLeadLines, functionNeighbours, functionSubject } from './function-lead.mjs';
import { regressionOutcome } from './outcome.mjs';
import { PrometheusError } from './prometheus.mjs';
import { SourceError } from './pyroscope.mjs';
import { withNote } from './note.mjs';
import { Outbox } from './outbox.mjs';
import { RenderGate } from './render-gate.mjs';
import { RenderError } from './render.mjs';
import { fitForSlack } from './slack-limits.mjs';
import { stopwatch } from './stopwatch.mjs';
import { throttlingAnswer } from './throttling.mjs';
import { WarmRenderer } from './warm-render.mjs';
import { MINUTE } from './windows.mjs';

// profileKind and baselineOf are part of this module's surface since before the catalogue had them.
export { baselineOf, profileKind };

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
    mkdirSync(this.cfg.imagesDir, { recursive: true });
    const stateDir = this.cfg.stateDir ?? join(this.cfg.imagesDir, '.state');
    // first: the journal's lock, before the render gate ends the renders an earlier process left
    this.intake = new Intake({
      stateDir,
      workers: this.cfg.workers,
      queueMax: this.cfg.queueMax,
      now: this.now,
      log: this.log,
      work: { run: (job) => this.work(job), fallback: (job, reason) => this.sendWithoutDiff(job, reason), stopping: () => Boolean(this.stopping) },
    });
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
        journal: this.intake.journal, // parked deliveries live in the same journal
        log: this.log,
        now: this.now,
        post: { attempts: this.cfg.deliveryAttempts, baseDelayMs: this.cfg.deliveryBaseDelayMs, timeoutMs: this.cfg.deliveryTimeoutMs },
        retryEveryMs: this.cfg.retryEveryMs,
        firstBackoffMs: this.cfg.retryBackoffMs,
        giveUpMs: this.cfg.giveUpMs,
        onSettled: (record) => this.cfg.outDir && writeDeliveryOutcome(this.cfg.outDir, record),
      });
    }
    if (this.renders.orphansKilled) {
      this.log(`ended ${this.renders.orphansKilled} render process(es) left by an earlier process`);
    }
    if (this.renders.leftBehind) {
      this.log(`could not remove the renders' folder an earlier process left (${this.renders.leftBehind}): the next start tries again`);
    }
    this.resumed = this.intake.restore();
  }

  /**
   * Starts no more work and stops the Slack retries; what is unfinished stays in the journal.
   * Resolves once a Slack retry under way has its outcome in the journal (bounded: outbox.mjs).
   */
  stop() {
    this.stopping = true;
    this.intake.stop();
    return this.outbox?.stop() ?? Promise.resolve(true);
  }

  /** Resolves when no alert is being worked on (and, unless stopped, none waits). */
  idle() {
    return this.intake.idle();
  }

  /** GET /-/healthy's answer: { ok, queued, running, retrying } (alerts waiting, running, Slack deliveries kept for later). */
  health() {
    return { ok: true, ...this.intake.health() };
  }

  /** The alerts being worked on now (a shutdown logs the ones it interrupts). */
  running() {
    return this.intake.running();
  }

  /** Where the picture of an alert's key is (it may not exist): GET /images/<key>.png. */
  imagePath(key) {
    return join(this.cfg.imagesDir, key, 'panel.png');
  }

  /**
   * stop() (which waits for a Slack retry under way), and closes the warm browser (killed if it
   * does not close within closeGraceMs); resolves when both are done. Renders still under way fail: drain first (idle()) to let them end.
   */
  async close() {
    await Promise.all([this.stop(), this.warm?.close()]);
  }

  /**
   * Takes a webhook payload (already parsed); returns { accepted, skipped, refused } once the
   * accepted alerts are on disk (intake.mjs). Refused alerts (queue full) are not remembered, so
   * Alertmanager's retry brings them again.
   */
  accept(payload) {
    return this.intake.accept(payload);
  }

  /**
   * The diff (or the reason there is none) for a firing alert, in three steps: fetch the windows'
   * profiles and load (diff-fetch.mjs), compute the answer (diff-compute.mjs), render the picture
   * (diff-render.mjs). An alert without a profile kind has no code path to diff.
   */
  async diffFor(alert, key, receivedAt = this.now()) {
    const subject = diffSubject(alert, this.cfg.profileLabels);
    if (!subject.kind) {
      const throttling = await throttlingAnswer(alert, this.cfg, this.now());
      return { windows: undefined, reason: 'no profile for this alert: throttling comes from the CPU quota, not from a code path', throttling };
    }
    const lap = stopwatch();
    const fetched = await fetchDiffInputs(alert, subject, this.cfg, { now: this.now(), lap });
    if (fetched.reason) {
      return { windows: fetched.windows, reason: fetched.reason };
    }
    const { windows } = fetched;
    try {
      if (fetched.failure) {
        throw fetched.failure; // said below, as every other step's failure is
      }
      const computed = computeDiff(subject, fetched);
      const fn = functionSubject(alert);
      const neighbours = fn && functionNeighbours(fn.name, fetched.incident.read?.tree, fetched.baseline.read?.tree, computed.requests);
      lap('answer');
      const picture = await renderPicture({ dir: join(this.cfg.imagesDir, key), fetched, computed, gate: this.renders, warm: this.warm, receivedAt, timeoutMs: this.cfg.renderTimeoutMs, stopping: () => Boolean(this.stopping) });
      const { answer, fixed, requestsWhy } = computed;
      return { windows, answer, fixed, requestsWhy, neighbours, note: picture.note, png: picture.png, summary: picture.summary, stagesMs: { ...lap.stages, ...picture.stagesMs } };
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

  /** A journalled job's work: a firing alert's message with its diff, or a resolve's update. */
  work({ alert, key, status, receivedAt }) {
    return status === 'firing' ? this.announce(alert, key, receivedAt) : this.resolve(alert, key, receivedAt);
  }

  /** The message of a job whose work threw, all the same: a firing one without its diff, saying why. */
  sendWithoutDiff({ alert, key, status, receivedAt }, reason) {
    const payload = status === 'firing' ? buildMessage({ alert, status, reason }) : buildMessage({ alert, status });
    return this.deliver(alert, key, status, receivedAt, payload, { reason });
  }

  async announce(alert, key, receivedAt) {
    const queuedMs = this.now() - receivedAt;
    const [d, cost, fnCost, epCost, split] = await Promise.all([
      this.diffFor(alert, key, receivedAt),
      this.fromPrometheus(changeCost, alert),
      this.fromPrometheus(functionCost, alert),
      this.fromPrometheus(endpointCost, alert),
      this.fromPrometheus(endpointSplit, alert),
    ]);
    const fn = functionSubject(alert);
    const ep = endpointSubject(alert);
    // an endpoint alert leads with its endpoint, every alert of a service with endpoint rows with
    // the split of its change (one endpoint, all of them, or the mix), then a function alert's function
    const lead = [...(ep ? endpointLeadLines({ ...ep, cost: epCost }) : []), ...splitLines(split), ...(fn ? functionLeadLines({ ...fn, cost: fnCost, neighbours: d.neighbours }) : [])];
    const imageUrl = d.png ? `${this.cfg.publicUrl.replace(/\/$/, '')}/images/${key}.png` : undefined;
    const windows = d.windows && (({ fallback, ...w }) => w)(d.windows);
    const payload = withNote(buildMessage({ alert, status: 'firing', lead: lead.length ? lead : undefined, windows, answer: d.answer, fixed: d.fixed, requestsWhy: d.requestsWhy, reason: d.reason, imageUrl, throttling: d.throttling, cost }), d.note);
    const changes = (d.answer?.changes ?? []).map(({ unit, ...c }) => ({ ...c, unit: d.answer.rankedBy === 'per-request' ? `${unit}/req` : unit }));
    const answer = d.answer ? { headline: d.answer.headline, driver: d.answer.driver, rankedBy: d.answer.rankedBy } : undefined;
    await this.deliver(alert, key, 'firing', receivedAt, payload, { png: d.png, summary: d.summary, windows, reason: d.reason, imageUrl, changes, answer, fixedCost: d.fixed, throttling: d.throttling, cost, endpoints: split && !split.why ? split : undefined, stagesMs: { queued: queuedMs, ...d.stagesMs }, note: d.note });
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
      ...(extra.throttling ? { throttling: extra.throttling } : {}),
      ...(extra.outcome ? { outcome: extra.outcome } : {}),
      ...(extra.cost ? { cost: extra.cost } : {}),
      ...(extra.endpoints ? { endpoints: extra.endpoints } : {}),
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
      const r = await this.outbox.send({ id: `${key}:${status}`, fp: fingerprintOf(key), record, title: alertTitle(alert) });
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
