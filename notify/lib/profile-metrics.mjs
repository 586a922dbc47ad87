// The profiles-to-metrics bridge: every interval, each service's merged profile of each type is
// read from Pyroscope (one SelectMergeProfile per service and type, with the client and decode
// worker hotpath-notify uses), charged to code as the messages charge it (function-costs.mjs),
// and added to counters per service and function (the top K, functions entering fast, and
// `other`: top-set.mjs), which Prometheus scrapes from /metrics. The windows follow each other without gap or overlap, so a
// counter's increase is the profile's total; a failed query leaves its window to the next one
// (still one query), up to maxCatchUpMs, so a short outage of the source loses nothing.
//
// By endpoint: a second query per service and type, the same window's series grouped by the
// endpoint labels (SelectSeries; Pyroscope keeps each set of pprof sample labels as a series),
// split by the profile core's reader (endpoint-costs.mjs) into each endpoint's cost, and added to
// counters per service and endpoint (the top K endpoints, `other`, and `unlabelled`: the samples
// without an endpoint label), with windows of their own (the two queries fail apart). The same
// query is grouped by the instance label too, and each instance's cost is counted per service and
// instance: the instances that were profiled, whose requests alone an endpoint's cost is divided
// by (a service profiled on one of its pods is not divided by all its pods' requests).
import { bridgeMetrics, COST_METRICS, failureReason, OTHER } from './bridge-metrics.mjs';
import { endpointCosts, ENDPOINT_LABELS, INSTANCE_LABEL, INSTANCE_ROW_LABEL, OTHER_ENDPOINT, UNLABELLED_ENDPOINT } from './endpoint-costs.mjs';
import { functionCosts, rowOrigin } from './function-costs.mjs';
import { PROFILE_TYPES } from './catalogue.mjs';
import { labelValues, selectMergeProfile, selectSeries } from './pyroscope.mjs';
import { matcher, serviceOfName } from './service-names.mjs';
import { DAY_MS, ENTRY_DEFAULTS, StickyTopSet } from './top-set.mjs';

export const BRIDGE_DEFAULTS = {
  intervalMs: 60_000,
  lagMs: 30_000,
  maxCatchUpMs: 10 * 60_000,
  topK: 20,
  ...ENTRY_DEFAULTS,
  // the profile labels that name an endpoint, most specific first ([]: no endpoint rows)
  endpointLabels: ENDPOINT_LABELS,
  endpointTopK: 20,
  // the profile label that names the instance a sample came from ('': no instance rows), its values
  // exported under the rule pack's instanceLabel; an instance without samples for instanceForgetMs
  // loses its series
  instanceLabel: INSTANCE_LABEL,
  instanceForgetMs: 15 * 60_000,
  concurrency: 16,
  maxServices: 2000,
  timeoutMs: 20_000,
  decodeTimeoutMs: 20_000,
  maxBytes: 64 << 20,
  types: ['cpu', 'alloc_space'],
  forgetAfterMs: DAY_MS,
  // the profile label that names a service: service_name (the SDKs', Alloy's eBPF profiler's, the
  // OpenTelemetry profiler's with service.name), or another (k8s.deployment.name) whose values are jobs
  serviceLabel: 'service_name',
};

/**
 * A cost row's labels: job and function, and `origin` on a row that is not the service's own
 * code: "runtime" (the runtime's own work: GC, the scheduler) or "profiler" (the profiler's).
 * Their cost moves with the load's shape, the machine's contention and the profile's size rather
 * than with code the service's owner changes, so the function alert skips them; dashboards still
 * draw them. `other` mixes everything and has none.
 */
export function rowLabels(job, fn) {
  const origin = fn === OTHER ? undefined : rowOrigin(fn);
  return origin ? { job, function: fn, origin } : { job, function: fn };
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
   *   last interval), now() (the clock, ms), select (the profile query, for tests: selectMergeProfile's shape),
   *   selectSeries (the endpoint query, likewise)
   *   A service_name is charged to the job it names (service-names.mjs: "ebpf/shop/api" is job api);
   *   one that names none (Pyroscope's unknown_service:...) is skipped and counted.
   */
  constructor(cfg) {
    this.cfg = { ...BRIDGE_DEFAULTS, now: Date.now, select: selectMergeProfile, selectSeries, ...cfg };
    for (const t of this.cfg.types) {
      if (!PROFILE_TYPES[t]) {
        throw new Error(`unknown profile type ${t}: want ${Object.keys(PROFILE_TYPES).join(' or ')}`);
      }
    }
    this.log = this.cfg.log ?? (() => {});
    Object.assign(this, bridgeMetrics(this.cfg.types, INSTANCE_ROW_LABEL));
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
      this.listed = await labelValues(this.cfg.profilesUrl, { name: this.cfg.serviceLabel, start: end - Math.max(this.cfg.intervalMs, this.cfg.maxCatchUpMs), end }, { timeoutMs: this.cfg.timeoutMs });
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
    const named = names.filter((name) => this.jobOf(name) !== undefined);
    if (named.length < names.length) {
      this.skipped.inc({ reason: 'unnamed' }, names.length - named.length);
      const unnamed = names.filter((n) => !named.includes(n)).join(', ');
      if (this.unnamed !== unnamed) {
        this.log(`no service in ${unnamed}: skipped (point --service-label at a label that names the workload, as k8s.deployment.name)`);
      }
      this.unnamed = unnamed;
    }
    const jobs = named.flatMap((name) => this.cfg.types.map((type) => ({ name, type })));
    for (const { name } of jobs) {
      this.serviceState(name).lastSeen = end;
    }
    await eachLimited(jobs, this.cfg.concurrency, async ({ name, type }) => {
      await this.readOne(name, type, end);
      await this.readEndpoints(name, type, end);
    });
    this.forgetGone(end);
    this.servicesGauge.set(names.length);
    for (const t of this.cfg.types) {
      let n = 0;
      let e = 0;
      for (const s of this.services.values()) {
        n += s.types[t]?.series ?? 0;
        e += s.endpoints?.[t]?.series ?? 0;
      }
      this.seriesGauge.set({ profile_type: t }, n);
      this.endpointSeriesGauge.set({ profile_type: t }, e);
    }
    const done = this.cfg.now();
    this.roundDuration.set((done - started) / 1000);
    this.lastRound.set(done / 1000);
  }

  /** The job a listed name is charged to; undefined when it names no service. */
  jobOf(name) {
    return this.cfg.serviceLabel === 'service_name' ? serviceOfName(name)?.job : name || undefined;
  }

  serviceState(name) {
    let s = this.services.get(name);
    if (!s) {
      s = { types: {}, job: this.jobOf(name) };
      this.services.set(name, s);
    }
    return s;
  }

  /** One query; its answer (or its failure) is counted, never thrown. */
  async readOne(name, type, end) {
    // a service's first window is the last interval; from then on each starts where the last counted one ended
    const st = (this.serviceState(name).types[type] ??= { until: end - this.cfg.intervalMs, set: new StickyTopSet({ k: this.cfg.topK, entryShare: this.cfg.entryShare, entryWindowMs: this.cfg.entryWindowMs }), series: 0, empty: false });
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
      answer = await this.cfg.select(this.cfg.profilesUrl, { profileTypeID: pt.id, labelSelector: `{${matcher(this.cfg.serviceLabel, name)}}`, start, end }, { sampleType: pt.sampleType, timeoutMs: this.cfg.timeoutMs, maxBytes: this.cfg.maxBytes, decodeTimeoutMs: this.cfg.decodeTimeoutMs });
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
    this.addCosts(this.serviceState(name).job, type, st, total, byFunction, end);
  }

  /** Adds the window's costs to the job's counters: each member of the top set its own, `other` the rest of the total. */
  addCosts(name, type, st, total, byFunction, now) {
    const counter = this.cost[type];
    const scale = COST_METRICS[type].scale;
    const { removed } = st.set.update(byFunction, now, total);
    for (const f of removed) {
      counter.remove(rowLabels(name, f));
    }
    let rest = total;
    for (const f of st.set.members.keys()) {
      const v = byFunction.get(f) ?? 0;
      rest -= v;
      // inc(0) creates the series: a member is exported from the interval it enters
      counter.inc(rowLabels(name, f), v * scale);
    }
    counter.inc(rowLabels(name, OTHER), Math.max(0, rest) * scale);
    st.series = st.set.members.size + 1;
  }

  /**
   * The window's cost by endpoint (one SelectSeries grouped by the endpoint labels); its answer,
   * or its failure, is counted, never thrown. Its windows follow each other as readOne's do.
   */
  async readEndpoints(name, type, end) {
    const labels = this.cfg.endpointLabels;
    if (!labels?.length) {
      return;
    }
    const instance = labels.includes(this.cfg.instanceLabel) ? '' : this.cfg.instanceLabel;
    const s = this.serviceState(name);
    s.endpoints ??= {};
    const st = (s.endpoints[type] ??= { until: end - this.cfg.intervalMs, set: new StickyTopSet({ k: this.cfg.endpointTopK, entryShare: this.cfg.entryShare, entryWindowMs: this.cfg.entryWindowMs }), series: 0 });
    const start = Math.max(st.until, end - this.cfg.maxCatchUpMs);
    if (end <= start) {
      return;
    }
    let answer;
    try {
      answer = await this.cfg.selectSeries(this.cfg.profilesUrl, { profileTypeID: PROFILE_TYPES[type].id, labelSelector: `{${matcher(this.cfg.serviceLabel, name)}}`, start, end, groupBy: instance ? [...labels, instance] : labels, stepS: (end - start) / 1000 }, { timeoutMs: this.cfg.timeoutMs });
    } catch (e) {
      this.endpointQueryErrors.inc({ profile_type: type, reason: failureReason(e.message) });
      this.log(`${name} ${type} by endpoint: ${e.message}; its window is asked again next round`);
      return;
    }
    st.until = end;
    const { total, byEndpoint, unlabelled, byInstance } = endpointCosts(answer, labels, instance);
    // a service whose profiles never had samples exports no endpoint rows; one without endpoint
    // labels exports `unlabelled`, its whole profile
    if (total > 0 || st.series > 0) {
      this.addEndpointCosts(s.job, type, st, total, byEndpoint, unlabelled, end);
    }
    this.addInstanceCosts(s.job, type, st, byInstance, end);
  }

  /**
   * Adds the window's cost of each instance with samples to its counter; an instance without
   * samples for instanceForgetMs (a pod gone, a profiler stopped) loses its series, so that a
   * fleet whose pods come and go keeps the live ones only.
   */
  addInstanceCosts(name, type, st, byInstance, now) {
    const counter = this.instanceCost[type];
    const scale = COST_METRICS[type].scale;
    st.instances ??= new Map(); // instance -> the end of the last window it had samples in
    for (const [i, v] of byInstance) {
      counter.inc(this.instanceRow(name, i), v * scale);
      st.instances.set(i, now);
    }
    for (const [i, seen] of st.instances) {
      if (now - seen >= this.cfg.instanceForgetMs) {
        counter.remove(this.instanceRow(name, i));
        st.instances.delete(i);
      }
    }
  }

  instanceRow(job, instance) {
    return { job, [INSTANCE_ROW_LABEL]: instance };
  }

  /** Adds the window's endpoint costs to the job's counters: each member of the top set its own, `unlabelled`, and `other` the rest. */
  addEndpointCosts(name, type, st, total, byEndpoint, unlabelled, now) {
    const counter = this.endpointCost[type];
    const scale = COST_METRICS[type].scale;
    const { removed } = st.set.update(byEndpoint, now, total);
    for (const e of removed) {
      counter.remove({ job: name, endpoint: e });
    }
    let rest = total - unlabelled;
    for (const e of st.set.members.keys()) {
      const v = byEndpoint.get(e) ?? 0;
      rest -= v;
      counter.inc({ job: name, endpoint: e }, v * scale);
    }
    counter.inc({ job: name, endpoint: OTHER_ENDPOINT }, Math.max(0, rest) * scale);
    counter.inc({ job: name, endpoint: UNLABELLED_ENDPOINT }, unlabelled * scale);
    st.series = st.set.members.size + 2;
  }

  /** A service no longer listed for forgetAfterMs loses its series (and its state). */
  forgetGone(now) {
    for (const [name, s] of this.services) {
      if (now - s.lastSeen < this.cfg.forgetAfterMs) {
        continue;
      }
      for (const [type, st] of Object.entries(s.types)) {
        for (const f of [...st.set.members.keys(), OTHER]) {
          this.cost[type].remove(rowLabels(s.job, f));
        }
      }
      for (const [type, st] of Object.entries(s.endpoints ?? {})) {
        for (const e of [...st.set.members.keys(), OTHER_ENDPOINT, UNLABELLED_ENDPOINT]) {
          this.endpointCost[type].remove({ job: s.job, endpoint: e });
        }
        for (const i of st.instances?.keys() ?? []) {
          this.instanceCost[type].remove(this.instanceRow(s.job, i));
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
