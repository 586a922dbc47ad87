// The profiles-to-metrics bridge: every interval, each service's merged profile of each type is
// read from Pyroscope (one SelectMergeProfile per service and type, with the client and decode
// worker hotpath-notify uses), charged to code as the messages charge it (function-costs.mjs),
// and added to counters per service and function (top K and `other`, top-set.mjs), which
// Prometheus scrapes from /metrics. The windows follow each other without gap or overlap, so a
// counter's increase is the profile's total; a failed query leaves its window to the next one
// (still one query), up to maxCatchUpMs, so a short outage of the source loses nothing.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

import { functionCosts } from './function-costs.mjs';
import { PROFILE_TYPES, quote, selectMergeProfile } from './pyroscope.mjs';
import { labelValues } from './pyroscope-labels.mjs';
import { DAY_MS, StickyTopSet } from './top-set.mjs';

/** The exported counters: per profile type, its name, help and the factor from the profile's unit. */
export const COST_METRICS = {
  cpu: { name: 'hotpath_profile_cpu_seconds_total', help: 'CPU seconds in the service profile, self time by function (runtime, libc and allocator time charged to the calling code); the top K functions by the last day of cost and `other`, which add up to the profile total', scale: 1e-9 },
  alloc_space: { name: 'hotpath_profile_alloc_bytes_total', help: 'Bytes allocated in the service profile, by function (allocator frames charged to the calling code); the top K functions by the last day of allocations and `other`, which add up to the profile total', scale: 1 },
};

/** The row of everything not in the top set. */
export const OTHER = 'other';

export const BRIDGE_DEFAULTS = {
  intervalMs: 60_000,
  lagMs: 30_000,
  maxCatchUpMs: 10 * 60_000,
  topK: 20,
  concurrency: 16,
  maxServices: 2000,
  timeoutMs: 20_000,
  decodeTimeoutMs: 20_000,
  maxBytes: 64 << 20,
  types: ['cpu', 'alloc_space'],
  forgetAfterMs: DAY_MS,
};

/** A one-word reason for a failed query, the errors counter's `reason` label. */
export function failureReason(message) {
  if (/no answer within|took longer than/.test(message)) {
    return 'timeout';
  }
  if (/unreachable/.test(message)) {
    return 'unreachable';
  }
  if (/answered \d{3}/.test(message)) {
    return 'error_answer';
  }
  if (/exceeds|above the [\d.]+ MiB|more than \d+ MiB/.test(message)) {
    return 'too_large';
  }
  return 'unusable';
}

/** Runs fn over items with at most `limit` at once. */
export async function eachLimited(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export class ProfileMetrics {
  /**
   * @param {object} cfg BRIDGE_DEFAULTS plus profilesUrl, log(line), and services (a fixed list of
   *   service_name values; without it they are Pyroscope's LabelValues of service_name over the
   *   last interval), now() (the clock, ms), select (the profile query, for tests: selectMergeProfile's shape)
   */
  constructor(cfg) {
    this.cfg = { ...BRIDGE_DEFAULTS, now: Date.now, select: selectMergeProfile, ...cfg };
    for (const t of this.cfg.types) {
      if (!PROFILE_TYPES[t]) {
        throw new Error(`unknown profile type ${t}: want ${Object.keys(PROFILE_TYPES).join(' or ')}`);
      }
    }
    this.log = this.cfg.log ?? (() => {});
    this.registry = new Registry();
    const r = [this.registry];
    this.cost = Object.fromEntries(this.cfg.types.map((t) => [t, new Counter({ name: COST_METRICS[t].name, help: COST_METRICS[t].help, labelNames: ['job', 'function'], registers: r })]));
    this.queryDuration = new Histogram({ name: 'hotpath_profile_metrics_query_duration_seconds', help: 'Time of one profile query to Pyroscope, answer decoded, by profile type', labelNames: ['profile_type'], buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20], registers: r });
    this.queryErrors = new Counter({ name: 'hotpath_profile_metrics_query_errors_total', help: 'Profile queries that failed, by profile type and reason (timeout, unreachable, error_answer, too_large, unusable); the window is asked again with the next one', labelNames: ['profile_type', 'reason'], registers: r });
    this.emptyAnswers = new Counter({ name: 'hotpath_profile_metrics_empty_answers_total', help: 'Profile queries answered without samples (an idle service, or one that stopped sending profiles)', labelNames: ['profile_type'], registers: r });
    this.gapSeconds = new Counter({ name: 'hotpath_profile_metrics_lost_window_seconds_total', help: 'Seconds of profile windows never counted: failures for longer than the catch-up limit', labelNames: ['profile_type'], registers: r });
    this.discoveryErrors = new Counter({ name: 'hotpath_profile_metrics_discovery_errors_total', help: 'Failed LabelValues calls listing the services (the last list is kept)', registers: r });
    this.skipped = new Counter({ name: 'hotpath_profile_metrics_services_skipped_total', help: 'Services not read in a round, by reason: cap (more services than --max-services), overrun (the previous round was still running)', labelNames: ['reason'], registers: r });
    this.servicesGauge = new Gauge({ name: 'hotpath_profile_metrics_services', help: 'Services read in the last round', registers: r });
    this.seriesGauge = new Gauge({ name: 'hotpath_profile_metrics_series', help: 'Cost series exported (service x function rows, `other` included), by profile type', labelNames: ['profile_type'], registers: r });
    this.roundDuration = new Gauge({ name: 'hotpath_profile_metrics_round_duration_seconds', help: 'How long the last round took (all services, all types)', registers: r });
    this.lastRound = new Gauge({ name: 'hotpath_profile_metrics_last_round_timestamp_seconds', help: 'When the last round ended (unix seconds)', registers: r });
    this.services = new Map(); // service_name -> { lastSeen, types: { [type]: { until, set, empty } } }
    this.listed = [];
    this.running = undefined;
  }

  /** The services of this round: the fixed list, else Pyroscope's; the last list when the call fails. */
  async discover(end) {
    if (this.cfg.services) {
      return this.cfg.services;
    }
    try {
      this.listed = await labelValues(this.cfg.profilesUrl, { name: 'service_name', start: end - Math.max(this.cfg.intervalMs, this.cfg.maxCatchUpMs), end }, { timeoutMs: this.cfg.timeoutMs });
    } catch (e) {
      this.discoveryErrors.inc();
      this.log(`listing services failed, keeping the last list of ${this.listed.length}: ${e.message}`);
    }
    return this.listed;
  }

  /** One round: every service (up to the cap), every type, at most `concurrency` queries at once. */
  async round() {
    const started = this.cfg.now();
    const end = started - this.cfg.lagMs;
    const all = await this.discover(end);
    const names = all.slice(0, this.cfg.maxServices);
    if (all.length > names.length) {
      this.skipped.inc({ reason: 'cap' }, all.length - names.length);
      if (this.capped !== all.length) {
        this.log(`${all.length} services, reading the first ${names.length} (--max-services); ${all.length - names.length} skipped`);
      }
    }
    this.capped = all.length > names.length ? all.length : undefined;
    const jobs = names.flatMap((name) => this.cfg.types.map((type) => ({ name, type })));
    for (const { name } of jobs) {
      this.serviceState(name).lastSeen = end;
    }
    await eachLimited(jobs, this.cfg.concurrency, ({ name, type }) => this.readOne(name, type, end));
    this.forgetGone(end);
    this.servicesGauge.set(names.length);
    for (const t of this.cfg.types) {
      let n = 0;
      for (const s of this.services.values()) {
        n += s.types[t]?.series ?? 0;
      }
      this.seriesGauge.set({ profile_type: t }, n);
    }
    const done = this.cfg.now();
    this.roundDuration.set((done - started) / 1000);
    this.lastRound.set(done / 1000);
  }

  serviceState(name) {
    let s = this.services.get(name);
    if (!s) {
      s = { types: {} };
      this.services.set(name, s);
    }
    return s;
  }

  /** One query; its answer (or its failure) is counted, never thrown. */
  async readOne(name, type, end) {
    // a service's first window is the last interval; from then on each starts where the last counted one ended
    const st = (this.serviceState(name).types[type] ??= { until: end - this.cfg.intervalMs, set: new StickyTopSet({ k: this.cfg.topK }), series: 0, empty: false });
    let start = st.until;
    if (end - start > this.cfg.maxCatchUpMs) {
      this.gapSeconds.inc({ profile_type: type }, (end - this.cfg.maxCatchUpMs - start) / 1000);
      start = end - this.cfg.maxCatchUpMs;
    }
    if (end <= start) {
      return;
    }
    const t0 = performance.now();
    const pt = PROFILE_TYPES[type];
    let answer;
    try {
      answer = await this.cfg.select(this.cfg.profilesUrl, { profileTypeID: pt.id, labelSelector: `{service_name=${quote(name)}}`, start, end }, { sampleType: pt.sampleType, timeoutMs: this.cfg.timeoutMs, maxBytes: this.cfg.maxBytes, decodeTimeoutMs: this.cfg.decodeTimeoutMs });
    } catch (e) {
      this.queryDuration.observe({ profile_type: type }, (performance.now() - t0) / 1000);
      this.queryErrors.inc({ profile_type: type, reason: failureReason(e.message) });
      this.log(`${name} ${type}: ${e.message}; its window is asked again next round`);
      return;
    }
    this.queryDuration.observe({ profile_type: type }, (performance.now() - t0) / 1000);
    st.until = end;
    const { total, byFunction } = functionCosts(answer.read);
    if (!(total > 0)) {
      this.emptyAnswers.inc({ profile_type: type });
      // an idle service answers empty every round: one line when it goes quiet, not one a round
      if (!st.empty) {
        this.log(`${name} ${type}: no samples from ${new Date(start).toISOString()} to ${new Date(end).toISOString()}`);
      }
      st.empty = true;
    } else {
      st.empty = false;
    }
    this.addCosts(name, type, st, total, byFunction, end);
  }

  /** Adds the window's costs: each member of the top set its own, `other` the rest of the total. */
  addCosts(name, type, st, total, byFunction, now) {
    const counter = this.cost[type];
    const scale = COST_METRICS[type].scale;
    const { removed } = st.set.update(byFunction, now);
    for (const f of removed) {
      counter.remove({ job: name, function: f });
    }
    let rest = total;
    for (const f of st.set.members.keys()) {
      const v = byFunction.get(f) ?? 0;
      rest -= v;
      // inc(0) creates the series: a member is exported from the interval it enters
      counter.inc({ job: name, function: f }, v * scale);
    }
    counter.inc({ job: name, function: OTHER }, Math.max(0, rest) * scale);
    st.series = st.set.members.size + 1;
  }

  /** A service no longer listed for forgetAfterMs loses its series (and its state). */
  forgetGone(now) {
    for (const [name, s] of this.services) {
      if (now - s.lastSeen < this.cfg.forgetAfterMs) {
        continue;
      }
      for (const [type, st] of Object.entries(s.types)) {
        for (const f of [...st.set.members.keys(), OTHER]) {
          this.cost[type].remove({ job: name, function: f });
        }
      }
      this.services.delete(name);
    }
  }

  /** Runs a round now and then every intervalMs; a round still running when the next is due makes that one skip. */
  start() {
    const tick = () => {
      if (this.running) {
        this.skipped.inc({ reason: 'overrun' }, this.services.size);
        this.log(`a round is still running after ${this.cfg.intervalMs / 1000}s: this one is skipped (its windows go to the next)`);
        return;
      }
      this.running = this.round()
        .catch((e) => this.log(`round failed: ${e.stack ?? e.message}`))
        .finally(() => (this.running = undefined));
    };
    tick();
    this.timer = setInterval(tick, this.cfg.intervalMs);
  }

  async stop() {
    clearInterval(this.timer);
    await this.running;
  }

  metrics() {
    return this.registry.metrics();
  }
}
