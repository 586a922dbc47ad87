// The answer a message leads with, computed from the two windows' profiles as the decode worker
// read them, with the panel's own profile core (packages/profile-core): the panel's headline
// (load x per request), the functions that got more expensive per request, each charged to the
// code that asked for its runtime or libc time (attribution.ts), and for a busy loop where its
// fixed cost goes.
import { dataLayer } from '@hotpath/headless/data-node.mjs';

import { TOP_N } from './change-text.mjs';

const d = await dataLayer();

/**
 * @param {object} a
 * @param {object} a.incident  the incident window's profile, as read (the core's pprofToTree result: decode.mjs's `read`)
 * @param {object} a.baseline  the baseline window's, likewise
 * @param {{ incident: number, baseline: number }} [a.requests] the windows' request counts
 * @param {boolean} [a.shares] compare shares (a sibling set has other traffic than one instance)
 * @returns {{ unit, headline?, driver?, changes: object[], rankedBy: string, incidentTotal, baselineTotal, incidentTree, trees }}
 */
export function computeAnswer({ incident: inc, baseline: base, requests, shares = false }) {
  const diff = d.diffTrees(base.tree, inc.tree);
  const attributed = d.attributeSelf(diff);
  const unit = inc.unit;
  const incidentTotal = inc.tree.size ? inc.tree.total[0] : 0;
  const baselineTotal = base.tree.size ? base.tree.total[0] : 0;
  const counts = requests && !shares ? { baseline: d.checkCount(requests.baseline), comparison: d.checkCount(requests.incident) } : undefined;
  const perRequest = Boolean(counts?.baseline.ok && counts?.comparison.ok);
  const rankedBy = perRequest ? 'per-request' : shares ? 'share' : 'absolute';
  let headline;
  let driver;
  if (perRequest) {
    const dec = d.decompose(baselineTotal, incidentTotal, counts);
    if (dec.ok) {
      headline = d.headline(dec, unit);
      driver = dec.driver;
    }
  }
  const rows = d.changesByUnit(attributed.tree, rankedBy, counts);
  const delta = (r) => d.deltaIn(r, rankedBy);
  // what got more expensive is the answer: increases that reach the panel's flag threshold, in
  // the core's order (the service's code first, the biggest first; then the runtime's own work no
  // code called, a GC worker or the scheduler, and the profiler's: not what to change, and the
  // code that causes it is usually among the rows above it); when load drove the change no
  // function is flagged per request
  const up = rows.filter((r) => delta(r) > 0 && r.flagged);
  const changes = up.slice(0, TOP_N).map((r) => {
    const via = d.mainVia(attributed, r.name, r.comparisonSelf - r.baselineSelf - sumVia(attributed, r.name));
    return {
      function: r.name,
      ...(via ? { via } : {}),
      deltaPercent: Math.round(r.shareDelta * 10000) / 100,
      baselineSharePercent: Math.round(r.baselineSelfShare * 10000) / 100,
      incidentSharePercent: Math.round(r.comparisonSelfShare * 10000) / 100,
      absoluteDelta: r.absoluteDelta,
      ...(perRequest ? { baselinePerRequest: r.baselinePerRequest, incidentPerRequest: r.comparisonPerRequest, perRequestDelta: r.perRequestDelta } : {}),
      unit,
    };
  });
  // trees: both profiles as read, for the warm renderer's frames (the picture, from the same trees)
  return { unit, headline, driver, changes, rankedBy, incidentTotal, baselineTotal, incidentTree: inc.tree, trees: { incident: inc, baseline: base } };
}

/** The change moved into a function from plumbing (comparison minus baseline). */
function sumVia(attributed, name) {
  let s = 0;
  for (const [b, c] of attributed.via.get(name)?.from.values() ?? []) {
    s += c - b;
  }
  return s;
}

/**
 * The busy loop's answer from the incident profile: its heaviest self frame's share and the path
 * to the code that calls it. { share, path: [innermost..caller] } or undefined for an empty profile.
 */
export function fixedCostPath(tree) {
  const top = d.topTable(tree).find((r) => r.self > 0 && r.name !== tree.names[tree.nameId[0]]);
  const total = tree.size ? tree.total[0] : 0;
  if (!top || !(total > 0)) {
    return undefined;
  }
  return { share: top.self / total, path: d.callPathOf(tree, top.name) };
}
