/**
 * The changes table with attribution: the panel's "Charge runtime time to the calling code" and
 * the pictures of alert messages. Apart from attribution.ts, which changesByUnit reads to rank the
 * service's code first. Pure: no React, no DOM.
 */
import { attributeSelf, mainVia } from './attribution';
import { changesByUnit, RequestCounts, UnitChangeRow, ValueUnit } from './perRequest';
import { isDiff, Tree } from '../tree/tree';

/**
 * The changes table with attribution: rows of the attributed tree (changesByUnit) and, per
 * function that received runtime or libc time, the frame it came through.
 */
export function attributedChanges(diff: Tree, unit: ValueUnit, requests?: RequestCounts): { rows: UnitChangeRow[]; via: Map<string, string> } {
  const a = attributeSelf(diff);
  const rows = changesByUnit(a.tree, unit, requests);
  const via = new Map<string, string>();
  for (const r of rows) {
    if (!a.via.has(r.name)) {
      continue;
    }
    let moved = 0;
    for (const [b, c] of a.via.get(r.name)!.from.values()) {
      moved += isDiff(diff) ? c - b : b;
    }
    const own = (isDiff(diff) ? r.comparisonSelf - r.baselineSelf : r.baselineSelf) - moved;
    const v = mainVia(a, r.name, own);
    if (v) {
      via.set(r.name, v);
    }
  }
  return { rows, via };
}
