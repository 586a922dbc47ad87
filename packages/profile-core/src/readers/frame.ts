import type { DataFrame, Field, FieldType } from '@grafana/data';

import { ProfileError } from './errors';
import { makeTree, rowNamed, Tree } from '../tree/tree';

// the error type lives with the other readers' errors; frame.ts stays the place most callers import it from
export { PROFILE_ERROR_KINDS, ProfileError, type ProfileErrorKind } from './errors';

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

const REQUIRED = ['level', 'value', 'self', 'label'] as const;
const NUMERIC = ['level', 'value', 'self', 'valueRight', 'selfRight'] as const;

/** Values of a field as an indexable list (arrays, typed arrays, or legacy Vectors). */
function valuesOf(field: Field): ArrayLike<unknown> {
  const v = field.values as unknown as { toArray?: () => unknown[] } & ArrayLike<unknown>;
  if (v && typeof v.length === 'number') {
    return v;
  }
  return v && typeof v.toArray === 'function' ? v.toArray() : [];
}

/** Is this frame a profile frame (has level/value/self/label or says it is a flame graph)? */
export function isProfileFrame(frame: DataFrame): boolean {
  const names = new Set(frame.fields.map((f) => f.name));
  const meta = frame.meta as { preferredVisualisationType?: string } | undefined;
  return meta?.preferredVisualisationType === 'flamegraph' || (names.has('level') && names.has('label'));
}

function fieldType(field: Field, values: ArrayLike<unknown>): string {
  if (values.length === 0 && (!field.type || field.type === 'other')) {
    return 'unknown'; // an empty column says nothing about its type
  }
  if (field.type) {
    return field.type;
  }
  // DataFrameDTOs may omit types: infer from the first value
  if (values.length === 0) {
    return 'unknown';
  }
  const first = values[0];
  return typeof first === 'number' ? 'number' : typeof first === 'string' ? 'string' : 'other';
}

function describeRow(labels: (i: number) => string, row: number) {
  const name = labels(row);
  return `row ${row}${name !== undefined ? ` ("${truncate(name, 60)}")` : ''}`;
}

export function truncate(s: string, n: number): string {
  const chars = Array.from(s);
  return chars.length > n ? chars.slice(0, n - 1).join('') + '…' : s;
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

export function readOrThrow(frame: DataFrame | undefined | null): Tree {
  if (!frame || !Array.isArray(frame.fields)) {
    throw new ProfileError('no-data', 'No profile frame: the query returned no data frames.');
  }
  const byName = new Map<string, Field>();
  frame.fields.forEach((f) => byName.set(f.name, f));
  const missing = REQUIRED.filter((n) => !byName.has(n));
  if (missing.length) {
    const have = frame.fields.map((f) => f.name).join(', ') || 'none';
    throw new ProfileError(
      'missing-field',
      `The profile frame is missing field${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}: ` +
        `a profile frame needs level, value, self and label (fields present: ${have}).`,
      missing[0]
    );
  }
  const hasVR = byName.has('valueRight');
  const hasSR = byName.has('selfRight');
  if (hasVR !== hasSR) {
    throw new ProfileError(
      'missing-field',
      `Malformed diff frame: it has "${hasVR ? 'valueRight' : 'selfRight'}" but no "${hasVR ? 'selfRight' : 'valueRight'}"; ` +
        'a diff frame needs both.',
      hasVR ? 'selfRight' : 'valueRight'
    );
  }
  const diff = hasVR && hasSR;
  const columns = new Map<string, ArrayLike<unknown>>();
  for (const [name, field] of byName) {
    columns.set(name, valuesOf(field));
  }
  for (const name of NUMERIC) {
    const field = byName.get(name);
    if (!field) {
      continue;
    }
    const t = fieldType(field, columns.get(name)!);
    if (t !== 'number' && t !== 'unknown') {
      throw new ProfileError('wrong-type', `Field "${name}" has type ${t}, but a profile needs numbers there.`, name);
    }
  }
  const labelField = byName.get('label')!;
  const labelType = fieldType(labelField, columns.get('label')!);
  const enumText = labelField.config?.type?.enum?.text;
  if (labelType !== 'string' && labelType !== 'enum' && labelType !== 'unknown' && !(labelType === 'number' && enumText)) {
    throw new ProfileError(
      'wrong-type',
      `Field "label" has type ${labelType}, but a profile needs string or enum labels.`,
      'label'
    );
  }
  const n = columns.get('level')!.length;
  for (const [name, values] of columns) {
    if ((REQUIRED as readonly string[]).includes(name) || name === 'valueRight' || name === 'selfRight') {
      if (values.length !== n) {
        throw new ProfileError(
          'length',
          `Field "${name}" has ${values.length} rows but "level" has ${n}: all fields of a profile frame have the same length.`,
          name
        );
      }
    }
  }
  if (n === 0) {
    throw new ProfileError('empty', 'The profile is empty: no samples in this time range.');
  }

  // labels: the enum's names directly (its indexes are checked as the rows are read), or
  // the strings themselves
  const rawLabels = columns.get('label')!;
  let names: string[];
  const nameId = new Int32Array(n);
  const isEnum = labelType === 'enum' || (labelType === 'number' && !!enumText);
  if (isEnum) {
    if (!Array.isArray(enumText)) {
      throw new ProfileError(
        'wrong-type',
        'Field "label" is an enum field without config.type.enum.text: the label names are missing.',
        'label'
      );
    }
    names = enumText.map((t) => (typeof t === 'string' ? t : String(t)));
  } else {
    // one name per row, as they came (a copy: the frame stays the datasource's), interned only
    // when something groups by name (byName): a string frame draws without hashing a label
    names = Array.prototype.slice.call(rawLabels);
    for (let i = 0; i < n; i++) {
      const raw = names[i];
      if (typeof raw !== 'string') {
        names[i] = raw === null || raw === undefined ? '' : String(raw);
      }
      nameId[i] = i;
    }
    rowNamed(names, nameId);
  }
  const label = (i: number) => names[nameId[i]];
  const unit = byName.get('value')!.config?.unit ?? '';
  const valid = readValidProfile(
    columns.get('level')!,
    { total: columns.get('value')!, self: columns.get('self')! },
    diff ? { total: columns.get('valueRight')!, self: columns.get('selfRight')! } : undefined,
    { ids: nameId, names, enumIndexes: isEnum ? rawLabels : undefined },
    unit
  );
  if (valid) {
    return valid;
  }

  // Something is wrong: the checks one by one, in the order a reader meets the fields, say
  // what and where (each loop has one test per value; a value that fails it gets the detail).
  if (isEnum) {
    readEnumIndexes(rawLabels, names, nameId);
  }
  const num = (name: string): Float64Array => {
    const src = columns.get(name)!;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = src[i];
      if (isAmount(v)) {
        out[i] = v;
      } else {
        throw invalidNumber(name, v, label, i);
      }
    }
    return out;
  };
  const levelSrc = columns.get('level')!;
  const level = new Int32Array(n);
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const l = levelSrc[i];
    if (isNextLevel(l, i, prev + 1)) {
      level[i] = l;
      prev = l;
    } else {
      throw invalidLevels(levelSrc, n, label);
    }
  }
  const total = num('value');
  const self = num('self');
  const right = diff ? { total: num('valueRight'), self: num('selfRight') } : undefined;
  const tree = makeTree(level, total, self, nameId, names, unit, right);
  checkSums(tree, label, { valueName: 'value', selfName: 'self', total: tree.total, self: tree.self });
  if (right) {
    checkSums(tree, label, { valueName: 'valueRight', selfName: 'selfRight', total: right.total, self: right.self });
  }
  return tree; // not reached: readValidProfile accepts exactly what these checks accept
}

/** The values of one side of a profile as the frame holds them: value (total) and self. */
interface RawSide {
  total: ArrayLike<unknown>;
  self: ArrayLike<unknown>;
}

/** A finite, non-negative number (NaN fails every comparison). */
function isAmount(v: unknown): v is number {
  return typeof v === 'number' && v >= 0 && v <= Number.MAX_VALUE;
}

/**
 * Row i's level in depth-first order: row 0 the root (0), every other row 1 .. `deepest` (one
 * deeper than the row before).
 */
function isNextLevel(l: unknown, i: number, deepest: number): l is number {
  return typeof l === 'number' && (l | 0) === l && (i === 0 ? l === 0 : l >= 1 && l <= deepest);
}

/** Within `limit` and a little slack for floats (the slack every sum check allows). */
function fits(v: number, limit: number): boolean {
  return v <= limit + 1e-6 * (limit > 1 ? limit : 1);
}

/** A profile's labels: name ids into `names`; for an enum field, `enumIndexes` are its raw values, checked and copied into `ids` as the rows are read. */
interface Labels {
  ids: Int32Array;
  names: string[];
  enumIndexes?: ArrayLike<unknown>;
}

/** An enum field's indexes into its names, each an integer within them; throws at the first that is not. */
function readEnumIndexes(raw: ArrayLike<unknown>, names: string[], ids: Int32Array) {
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    if (!isEnumIndex(v, names.length)) {
      throw new ProfileError(
        'invalid-value',
        `Field "label" row ${i}: enum index ${String(v)} is outside config.type.enum.text (${names.length} names).`,
        'label',
        i
      );
    }
    ids[i] = v;
  }
}

/** One test per row: an integer index below `count` (strings, -1, 1.5, null all differ from v >>> 0). */
function isEnumIndex(v: unknown, count: number): v is number {
  const u = (v as number) >>> 0;
  return u === v && u < count;
}

/**
 * A valid profile in one pass over its rows: the levels' order, the numbers, the enum indexes,
 * self within value and the children within their parent on each side (as `checkSums` does)
 * while the parents are found; then the subtree ends, in a pass backwards. Returns undefined at
 * the first thing wrong; the caller then runs the checks one by one, which say what it is. (Six
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
    // isNextLevel, isAmount, fits and isEnumIndex spelled out: a first render runs this loop in
    // V8's baseline and mid tiers, which do not inline calls (a fifth faster there, in Node's
    // Maglev; the same once optimized)
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

/** The path arrays' first size: deeper than most profiles, so most reads never grow them. */
const PATH_START = 256;

/** `to` (twice the size) holding `from`. */
function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** What is wrong with value v of a numeric field (v failed the hot path's test). */
function invalidNumber(name: string, v: unknown, label: (i: number) => string, i: number): ProfileError {
  if (typeof v !== 'number' || Number.isNaN(v)) {
    return new ProfileError(
      'invalid-value',
      `Field "${name}" ${describeRow(label, i)}: ${v === null || v === undefined ? 'missing value' : typeof v === 'number' ? 'NaN' : `not a number (${JSON.stringify(v)})`}.`,
      name,
      i
    );
  }
  if (!Number.isFinite(v)) {
    return new ProfileError('invalid-value', `Field "${name}" ${describeRow(label, i)}: ${v} is not finite.`, name, i);
  }
  return new ProfileError('invalid-value', `Field "${name}" ${describeRow(label, i)}: negative value ${v}.`, name, i);
}

/**
 * The first thing wrong with the level column, in the order a reader meets it: a value that is
 * not a number anywhere, then the first row that is not an integer or breaks the depth-first order.
 */
function invalidLevels(src: ArrayLike<unknown>, n: number, label: (i: number) => string): ProfileError {
  for (let i = 0; i < n; i++) {
    const v = src[i];
    if (!isAmount(v)) {
      return invalidNumber('level', v, label, i);
    }
  }
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const l = src[i] as number;
    if (!Number.isInteger(l)) {
      return new ProfileError('invalid-value', `Field "level" ${describeRow(label, i)}: ${l} is not an integer depth.`, 'level', i);
    }
    if (i === 0 && l !== 0) {
      return new ProfileError('order', `Field "level" row 0 is ${l}: the first row must be the root (level 0).`, 'level', 0);
    }
    if (i > 0 && l === 0) {
      return new ProfileError(
        'order',
        `Field "level" ${describeRow(label, i)} is a second root (level 0): a profile frame has exactly one root.`,
        'level',
        i
      );
    }
    if (i > 0 && l > prev + 1) {
      return new ProfileError(
        'order',
        `Field "level" ${describeRow(label, i)} jumps from depth ${prev} to ${l}: rows must be in depth-first order.`,
        'level',
        i
      );
    }
    prev = l;
  }
  return new ProfileError('invalid-value', 'Field "level" is not a depth-first order of integer depths.', 'level');
}

/** One side of a profile: its value and self fields, read. */
interface Side {
  valueName: string;
  selfName: string;
  total: Float64Array;
  self: Float64Array;
}

/** self <= value, and the children's values fit in their parent's value; names the first row that breaks either. */
function checkSums(tree: Tree, label: (i: number) => string, { valueName, selfName, total, self }: Side) {
  const childSum = new Float64Array(tree.size);
  for (let i = 1; i < tree.size; i++) {
    childSum[tree.parent[i]] += total[i];
  }
  for (let i = 0; i < tree.size; i++) {
    if (!fits(self[i], total[i])) {
      throw new ProfileError(
        'invalid-value',
        `Field "${selfName}" ${describeRow(label, i)}: self ${self[i]} is larger than its ${valueName} ${total[i]}.`,
        selfName,
        i
      );
    }
    if (!fits(childSum[i], total[i])) {
      throw new ProfileError(
        'invalid-value',
        `Field "${valueName}" ${describeRow(label, i)}: its children add up to ${childSum[i]}, more than its own ${valueName} ${total[i]}.`,
        valueName,
        i
      );
    }
  }
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
