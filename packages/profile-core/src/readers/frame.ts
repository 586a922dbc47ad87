import type { DataFrame, Field, FieldType } from '@grafana/data';

import { Tree } from '../tree/tree';
import { ProfileError } from './errors';
import { checkFrame, checkValues, fits, valueContext } from './frameChecks';
import { Labels, labelsOf, viewOf } from './frameView';

// the error type lives with the other readers' errors; frame.ts stays the place most callers import it from
export { PROFILE_ERROR_KINDS, ProfileError, type ProfileErrorKind } from './errors';
export { truncate } from './frameChecks';

/**
 * Reading and writing the nested-set profile frame of Grafana's Pyroscope datasource:
 * fields `level`, `value`, `self`, `label` (a string or an enum field whose
 * `config.type.enum.text` holds the names), rows depth-first with one root; diff frames add
 * `valueRight` and `selfRight` (both or neither).
 *
 * Only types are imported from @grafana/data, so this module runs anywhere (Node, the
 * browser host page, the demo's stand-in datasource).
 */

export type ReadResult = { ok: true; tree: Tree } | { ok: false; error: ProfileError };

/** Is this frame a profile frame (has level/value/self/label or says it is a flame graph)? */
export function isProfileFrame(frame: DataFrame): boolean {
  const names = new Set(frame.fields.map((f) => f.name));
  const meta = frame.meta as { preferredVisualisationType?: string } | undefined;
  return meta?.preferredVisualisationType === 'flamegraph' || (names.has('level') && names.has('label'));
}

/**
 * Validates a nested-set profile frame and builds the tree. Says exactly what is wrong:
 * which field, which row, and why.
 */
export function readProfileFrame(frame: DataFrame | undefined | null): ReadResult {
  try {
    return { ok: true, tree: readOrThrow(frame) };
  } catch (e) {
    if (e instanceof ProfileError) {
      return { ok: false, error: e };
    }
    throw e;
  }
}

/**
 * The tree of a profile frame, or the ProfileError of the first check it fails (frameChecks.ts):
 * the fields' checks, then one pass over the rows that reads a valid profile; only when that pass
 * finds something wrong, the value checks one by one, which say what and where.
 */
export function readOrThrow(frame: DataFrame | undefined | null): Tree {
  const view = viewOf(frame);
  const bad = checkFrame(view);
  if (bad) {
    throw bad.error;
  }
  const labels = labelsOf(view);
  const unit = view.fields.get('value')!.config?.unit ?? '';
  const diff = view.fields.has('valueRight');
  const column = (name: string) => view.columns.get(name)!;
  const valid = readValidProfile(
    column('level'),
    { total: column('value'), self: column('self') },
    diff ? { total: column('valueRight'), self: column('selfRight') } : undefined,
    labels,
    unit
  );
  if (valid) {
    return valid;
  }
  const context = valueContext(view, labels, unit);
  const wrong = checkValues(context);
  if (wrong) {
    throw wrong.error;
  }
  return context.tree(); // not reached: readValidProfile accepts exactly what the value checks accept
}

/** The values of one side of a profile as the frame holds them: value (total) and self. */
interface RawSide {
  total: ArrayLike<unknown>;
  self: ArrayLike<unknown>;
}


/**
 * A valid profile in one pass over its rows: the levels' order, the numbers, the enum indexes,
 * self within value and the children within their parent on each side (VALUE_CHECKS' sums)
 * while the parents are found; then the subtree ends, in a pass backwards. Returns undefined at
 * the first thing wrong; the caller then runs VALUE_CHECKS one by one, which say what it is. (Six
 * passes over the rows took ~2x as long.)
 *
 * No loop per row: a row's parent is the last row one level up, and its value is added to its
 * siblings' sum so far and checked against the parent there and then (values are not negative,
 * so the sum only grows: checked at each child, it fails exactly when the whole sum fails). The
 * walk that kept the path on a stack closed the subtrees a row ends in a loop of varying length,
 * and that branch, mispredicted about once a row, was two thirds of the pass (200k rows in Node:
 * 2.5 ms against 0.9 ms this way, ends included).
 */
function readValidProfile(levelSrc: ArrayLike<unknown>, left: RawSide, right: RawSide | undefined, labels: Labels, unit: string): Tree | undefined {
  const n = levelSrc.length;
  const level = new Int32Array(n);
  const parent = new Int32Array(n);
  const end = new Int32Array(n);
  // per level: the last row read at it (the open path) and the values of its open node's children
  // so far; sized by the depth and grown when a path gets deeper, not one entry per row: the first
  // write to each fresh page of memory costs ~2 us here (a page fault), so every array a read
  // allocates costs by its size
  let lastAt = new Int32Array(PATH_START);
  let sums = new Float64Array(PATH_START);
  const total = new Float64Array(n);
  const self = new Float64Array(n);
  // the right side's arrays only for a diff frame (a loop over "sides" cost a quarter more)
  const r = right && { total: new Float64Array(n), self: new Float64Array(n), sums: new Float64Array(PATH_START) };
  const { ids, enumIndexes } = labels;
  const count = labels.names.length;
  // in locals, not looked up per row: V8's baseline tier, where a first read runs much of this
  // loop, looks up a property (and the global Number) at every use
  const values = left.total;
  const selfs = left.self;
  const max = Number.MAX_VALUE;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    // the value checks' tests (amounts, fits, depths, enum indexes) spelled out: a first render
    // runs this loop in V8's baseline and mid tiers, which do not inline calls (a fifth faster
    // there, in Node's Maglev; the same once optimized)
    const l = levelSrc[i] as number;
    const v = values[i] as number;
    const s = selfs[i] as number;
    if (typeof l !== 'number' || (l | 0) !== l || (i === 0 ? l !== 0 : l < 1 || l > prev + 1)) {
      return undefined;
    }
    if (typeof v !== 'number' || !(v >= 0 && v <= max) || typeof s !== 'number' || !(s >= 0 && s <= max && s <= v + 1e-6 * (v > 1 ? v : 1))) {
      return undefined;
    }
    if (enumIndexes) {
      const id = enumIndexes[i] as number;
      const u = id >>> 0;
      if (u !== id || u >= count) {
        return undefined;
      }
      ids[i] = u;
    }
    if (l + 2 > lastAt.length) {
      lastAt = grown(lastAt, new Int32Array(2 * (l + 2)));
      sums = grown(sums, new Float64Array(2 * (l + 2)));
      if (r) {
        r.sums = grown(r.sums, new Float64Array(2 * (l + 2)));
      }
    }
    level[i] = l;
    total[i] = v;
    self[i] = s;
    lastAt[l] = i;
    sums[l + 1] = 0; // row i's children, none yet
    let p = -1;
    if (i > 0) {
      p = lastAt[l - 1];
      const sum = (sums[l] += v);
      const t = total[p];
      if (!(sum <= t + 1e-6 * (t > 1 ? t : 1))) {
        return undefined;
      }
    }
    parent[i] = p;
    prev = l;
    if (r) {
      const vr = right!.total[i];
      const sr = right!.self[i];
      if (!isAmount(vr) || !isAmount(sr) || !fits(sr, vr)) {
        return undefined;
      }
      r.total[i] = vr;
      r.self[i] = sr;
      r.sums[l + 1] = 0;
      if (p >= 0 && !fits((r.sums[l] += vr), r.total[p])) {
        return undefined;
      }
    }
  }
  subtreeEnds(parent, end);
  return { size: n, level, total, self, nameId: ids, names: labels.names, parent, end, unit, totalRight: r?.total, selfRight: r?.self };
}

/**
 * Each node's subtree end from the parents, backwards: a node's size is one more than its
 * children's, added to its parent's before the parent is reached (a parent comes before its
 * children). `end` holds the sizes found so far (zeros to begin with) until a node is reached.
 */
function subtreeEnds(parent: Int32Array, end: Int32Array) {
  for (let i = parent.length - 1; i > 0; i--) {
    const size = end[i] + 1;
    end[i] = i + size;
    end[parent[i]] += size;
  }
  if (parent.length > 0) {
    end[0] = parent.length;
  }
}

/** A finite, non-negative number (NaN fails every comparison). */
function isAmount(v: unknown): v is number {
  return typeof v === 'number' && v >= 0 && v <= Number.MAX_VALUE;
}

/** The path arrays' first size: deeper than most profiles, so most reads never grow them. */
const PATH_START = 256;

/** `to` (twice the size) holding `from`. */
function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

const NUMBER = 'number' as FieldType;
const ENUM = 'enum' as FieldType;

/**
 * The nested-set frame of a tree, as Grafana's Pyroscope datasource builds it: level, value,
 * self (with the unit), label as an enum field; diff trees add valueRight/selfRight.
 */
export function treeToFrame(tree: Tree, opts: { refId?: string; name?: string } = {}): DataFrame {
  const fields: Field[] = [
    { name: 'level', type: NUMBER, config: {}, values: Array.from(tree.level) },
    { name: 'value', type: NUMBER, config: { unit: tree.unit }, values: Array.from(tree.total) },
    { name: 'self', type: NUMBER, config: { unit: tree.unit }, values: Array.from(tree.self) },
    {
      name: 'label',
      type: ENUM,
      config: { type: { enum: { text: tree.names.slice() } } },
      values: Array.from(tree.nameId),
    },
  ];
  if (tree.totalRight && tree.selfRight) {
    fields.push(
      { name: 'valueRight', type: NUMBER, config: { unit: tree.unit }, values: Array.from(tree.totalRight) },
      { name: 'selfRight', type: NUMBER, config: { unit: tree.unit }, values: Array.from(tree.selfRight) }
    );
  }
  return {
    name: opts.name ?? 'response',
    refId: opts.refId,
    meta: { preferredVisualisationType: 'flamegraph' },
    fields,
    length: tree.size,
  };
}
