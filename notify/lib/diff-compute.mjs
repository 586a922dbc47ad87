// The second step of an alert's diff: from the decoded profiles and the windows' load that
// diff-fetch.mjs returns, the answer a message leads with (answer.mjs), a fixed cost's numbers,
// and the windows' request counts the answer and the picture divide by. No I/O: everything it
// needs is in its arguments.
import { computeAnswer, fixedCostPath } from './answer.mjs';
import { SourceError } from './pyroscope.mjs';
import { DAY } from './windows.mjs';

const iso = (ms) => new Date(ms).toISOString();

/** The busy loop's numbers: CPU and traffic of both windows, and where the incident's CPU goes. */
export function fixedCostNumbers(tree, windows, load) {
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

/** The windows' request counts (rate x length), when both rates are known and above zero. */
export function requestCounts(windows, rates) {
  const len = (w) => (w.to - w.from) / 1000;
  return rates?.incident.rate > 0 && rates?.baseline.rate > 0 ? { incident: rates.incident.rate * len(windows.incident), baseline: rates.baseline.rate * len(windows.baseline) } : undefined;
}

/**
 * @param {object} subject diff-fetch.mjs's diffSubject(): kind, siblings, fixedCost
 * @param {object} fetched fetchDiffInputs()'s profiles: { windows, selectors, incident, baseline, load }
 * @returns {{ answer, fixed?, requests?, requestsWhy? }} requestsWhy: why the answer is not per request
 * @throws {SourceError} a window without samples; for the baseline's, with `fixed` (a fixed cost
 *   still has its own answer: where the CPU goes now)
 */
export function computeDiff(subject, fetched) {
  const { kind, siblings, fixedCost } = subject;
  const { windows, selectors, incident: inc, baseline: base, load } = fetched;
  if (inc.samples === 0 || inc.total === 0) {
    throw new SourceError(`no ${kind} samples for ${selectors.incident} in the incident window (${iso(windows.incident.from)} to ${iso(windows.incident.to)})`);
  }
  const fixed = fixedCost ? fixedCostNumbers(inc.read.tree, windows, load.value) : undefined;
  if (base.samples === 0 || base.total === 0) {
    throw Object.assign(new SourceError(`no ${kind} samples for ${selectors.baseline} in the baseline window (${iso(windows.baseline.from)} to ${iso(windows.baseline.to)})`), { fixed });
  }
  const requests = requestCounts(windows, load.value);
  const answer = computeAnswer({ incident: inc.read, baseline: base.read, requests, shares: siblings });
  const requestsWhy = siblings ? undefined : requests ? undefined : (load.why ?? 'no request-rate samples in a window');
  return { answer, fixed, requests, requestsWhy };
}
