// The first step of an alert's diff: which windows to compare (alert-windows.mjs), the two
// windows' profiles from the profile source, already decoded (the next windows in turn when the
// first have no baseline profiles), and the windows' load from Prometheus. Nothing is computed
// here: diff-compute.mjs makes the answer from what this returns.
import { dataLayer } from '@hotpath/headless/data-node.mjs';

import { chooseWindows } from './alert-windows.mjs';
import { profileLabels } from './alert-identity.mjs';
import { ebpfSelector } from './service-names.mjs';
import { baselineOf, catalogueEndpoints, profileKind } from './catalogue.mjs';
import { endpointSubject } from './endpoint-lead.mjs';
import { functionProfileKind } from './function-lead.mjs';
import { PrometheusError, windowLoad } from './prometheus.mjs';
import { labelSelector, PROFILE_TYPES, selectMergeProfile } from './pyroscope.mjs';
import { selectSeries } from './pyroscope-labels.mjs';

const d = await dataLayer();

/**
 * What an alert's diff is about: its profile kind (undefined: no code path to show, e.g. a CPU
 * quota), the labels its profiles are selected by, and what its firing window is compared with:
 * `siblings` (the outlier instance against the others, the panel's `siblings` baseline, when the
 * profiles carry the instance) or `fixedCost` (the same window a day earlier); otherwise the
 * service's own past; `endpoint`, an endpoint alert's route, whose samples alone are compared.
 */
export function diffSubject(alert, copyLabels) {
  const alertname = alert.labels?.alertname;
  const labels = profileLabels(alert.labels ?? {}, copyLabels);
  return {
    kind: endpointSubject(alert)?.kind ?? functionProfileKind(alert, profileKind(alertname)),
    labels,
    endpoint: endpointSubject(alert)?.name,
    siblings: baselineOf(alertname) === 'siblings' && Boolean(labels.instance),
    fixedCost: baselineOf(alertname) === 'dayEarlier',
  };
}

/** The windows' request rates (and CPU for a fixed cost) from Prometheus: { value } or { why }. */
export async function loadOf(alert, windows, siblings, cfg) {
  if (!cfg.prometheusUrl) {
    return { why: 'no Prometheus (--prometheus) to count the requests of each window' };
  }
  try {
    return { value: await windowLoad(cfg.prometheusUrl, alert, windows, { siblings, timeoutMs: cfg.fetchTimeoutMs }) };
  } catch (e) {
    if (e instanceof PrometheusError) {
      return { why: e.message };
    }
    throw e;
  }
}

/**
 * @param {object} alert the normalised alert
 * @param {object} subject diffSubject()'s, with a kind
 * @param {object} cfg { profilesUrl, prometheusUrl?, fetchTimeoutMs, decodeTimeoutMs, and chooseWindows' pendingMs, minWindowMs, maxWindowMs }
 * @param {{ now: number, lap?: (stage: string) => void }} opts lap: called after 'windows' and after 'profiles'
 * @returns {Promise<object>} one of
 *   { windows, reason }: the alert cannot select profiles (no job label);
 *   { windows, failure }: a fetch failed (a SourceError says why in one line); windows are the last asked for;
 *   { windows, type, selectors, incident, baseline, load }: incident and baseline as selectMergeProfile
 *   returns them ({ bytes, samples, total, read }), load as loadOf().
 *   chooseWindows' own errors are thrown.
 */
export async function fetchDiffInputs(alert, subject, cfg, { now, lap = () => {} }) {
  const { kind, labels, siblings } = subject;
  let windows = await chooseWindows(alert, cfg, now);
  lap('windows');
  if (!labels.service_name) {
    return { windows, reason: 'the alert has no job label to select its profiles by' };
  }
  const { instance, ...service } = labels;
  let selectors = { incident: labelSelector(labels), baseline: siblings ? labelSelector(service, { instance }) : labelSelector(labels) };
  if (subject.endpoint) {
    // an endpoint alert compares its endpoint's samples: its raw label values, from the windows'
    // profile grouped by the endpoint labels (the whole profile when it has none of them)
    const span = { from: Math.min(windows.incident.from, windows.baseline.from), to: Math.max(windows.incident.to, windows.baseline.to) };
    const m = await endpointMatcher(cfg, labelSelector(labels), PROFILE_TYPES[kind], span, subject.endpoint).catch(() => '');
    selectors.incident = d.withMatcher(selectors.incident, m);
    selectors.baseline = d.withMatcher(selectors.baseline, m);
  }
  const type = PROFILE_TYPES[kind];
  const q = (w, selector) =>
    selectMergeProfile(cfg.profilesUrl, { profileTypeID: type.id, labelSelector: selector, start: w.from, end: w.to }, { sampleType: type.sampleType, timeoutMs: cfg.fetchTimeoutMs, decodeTimeoutMs: cfg.decodeTimeoutMs });
  const round = () => Promise.all([q(windows.incident, selectors.incident), q(windows.baseline, selectors.baseline), loadOf(alert, windows, siblings, cfg)]);
  try {
    let [incident, baseline, load] = await round();
    // no profiles under the job's own name: the eBPF profilers' ("ebpf/<namespace>/<container>");
    // their profiles carry no instance, so an instance's alert keeps its own selectors
    if (!(incident.samples > 0) && !(baseline.samples > 0) && !instance) {
      const ebpf = ebpfSelector(labels.service_name, labels.namespace);
      const tried = selectors;
      selectors = { incident: ebpf, baseline: ebpf };
      [incident, baseline, load] = await round();
      if (!(incident.samples > 0) && !(baseline.samples > 0)) {
        selectors = tried;
      }
    }
    // no profiles a day earlier (a profile source that keeps less): the next windows in turn
    const first = windows.reason.split(':')[0];
    for (const f of windows.fallback ?? []) {
      if (baseline.samples > 0 && baseline.total > 0) {
        break;
      }
      windows = { ...f, reason: `no profiles ${first}, so ${f.reason}` };
      [incident, baseline, load] = await round();
    }
    lap('profiles');
    return { windows, type, selectors, incident, baseline, load };
  } catch (e) {
    return { windows, failure: e };
  }
}

/**
 * The label matcher of one endpoint's samples over `span` (the profile core's split of the
 * profile grouped by the endpoint labels, catalogue/catalogue.json's), '' when the profile has
 * no samples of it. Throws the source's errors.
 */
export async function endpointMatcher(cfg, selector, type, span, endpoint) {
  const labels = catalogueEndpoints().profileLabels;
  const answer = await selectSeries(cfg.profilesUrl, { profileTypeID: type.id, labelSelector: selector, start: span.from, end: span.to, groupBy: labels, stepS: (span.to - span.from) / 1000 }, { timeoutMs: cfg.fetchTimeoutMs });
  const e = d.splitByEndpoint(d.seriesGroups(answer), labels).endpoints.find((x) => x.endpoint === endpoint);
  return (e && d.endpointMatcher(e)) ?? '';
}
