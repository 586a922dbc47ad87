import { makeTree, Tree } from '../tree/tree';
import { ProfileError, ProfileErrorKind } from './errors';
import { FrameView, Labels, typeOf } from './frameView';

/**
 * What a nested-set profile frame must be, as two tables of checks, each row a check with the
 * field it is about, its test and the message of a frame that fails it (as @grafana/flamegraph's
 * `checkFields` lists each field with the types it accepts). A frame is checked row by row, in
 * the tables' order; the first row it fails is its error, naming the field and, for a value, the
 * row of the frame.
 *
 * FRAME_CHECKS: the fields (present, typed, one length) and the frame as a whole.
 * VALUE_CHECKS: every value of a field, once the fields pass.
 */

/** The fields every profile frame has; a diff frame adds both of DIFF_FIELDS. */
const PROFILE_FIELDS = ['level', 'value', 'self', 'label'] as const;
const DIFF_FIELDS = ['valueRight', 'selfRight'] as const;
const NUMBER_FIELDS = ['level', 'value', 'self', 'valueRight', 'selfRight'] as const;

const typeIn = (v: FrameView, name: string) => typeOf(v.fields, v.columns, name);

/** One check of the fields. `field` is what the error names (none: the frame as a whole). */
export interface FrameCheck {
  field?: string;
  kind: ProfileErrorKind;
  /** true when the frame passes */
  test: (v: FrameView) => boolean;
  message: (v: FrameView) => string;
}

/** The one message of every missing field: it names all of them, and the fields the frame has. */
function missingMessage(v: FrameView): string {
  const names = PROFILE_FIELDS.filter((n) => !v.fields.has(n));
  return (
    `The profile frame is missing field${names.length > 1 ? 's' : ''} ${names.map((m) => `"${m}"`).join(', ')}: ` +
    `a profile frame needs level, value, self and label (fields present: ${v.names.join(', ') || 'none'}).`
  );
}

/** `field` present, or a diff frame's other half absent too. */
const diffPair = (field: string, other: string): FrameCheck => ({
  field,
  kind: 'missing-field',
  test: (v) => v.fields.has(field) || !v.fields.has(other),
  message: () => `Malformed diff frame: it has "${other}" but no "${field}"; a diff frame needs both.`,
});

/** Numbers, or an empty column of no type. */
const numberType = (field: string): FrameCheck => ({
  field,
  kind: 'wrong-type',
  test: (v) => !v.fields.has(field) || ['number', 'unknown'].includes(typeIn(v, field)),
  message: (v) => `Field "${field}" has type ${typeIn(v, field)}, but a profile needs numbers there.`,
});

const sameLength = (field: string): FrameCheck => ({
  field,
  kind: 'length',
  test: (v) => !v.columns.has(field) || v.columns.get(field)!.length === v.rows,
  message: (v) => `Field "${field}" has ${v.columns.get(field)!.length} rows but "level" has ${v.rows}: all fields of a profile frame have the same length.`,
});

export const FRAME_CHECKS: readonly FrameCheck[] = [
  { kind: 'no-data', test: (v) => v.hasFields, message: () => 'No profile frame: the query returned no data frames.' },
  ...PROFILE_FIELDS.map((field): FrameCheck => ({ field, kind: 'missing-field', test: (v) => v.fields.has(field), message: missingMessage })),
  diffPair('selfRight', 'valueRight'),
  diffPair('valueRight', 'selfRight'),
  ...NUMBER_FIELDS.map(numberType),
  {
    field: 'label',
    kind: 'wrong-type',
    test: (v) => ['string', 'enum', 'unknown'].includes(typeIn(v, 'label')) || v.isEnum,
    message: (v) => `Field "label" has type ${typeIn(v, 'label')}, but a profile needs string or enum labels.`,
  },
  // against "level", whose length is the frame's
  ...(['value', 'self', 'label', ...DIFF_FIELDS] as const).map(sameLength),
  { kind: 'empty', test: (v) => v.rows > 0, message: () => 'The profile is empty: no samples in this time range.' },
  {
    field: 'label',
    kind: 'wrong-type',
    test: (v) => !v.isEnum || Array.isArray(v.enumText),
    message: () => 'Field "label" is an enum field without config.type.enum.text: the label names are missing.',
  },
];

/** The first of FRAME_CHECKS the frame fails, with its error; undefined when it passes them all. */
export function checkFrame(v: FrameView): { check: FrameCheck; error: ProfileError } | undefined {
  const check = FRAME_CHECKS.find((c) => !c.test(v));
  return check && { check, error: new ProfileError(check.kind, check.message(v), check.field) };
}

/** What the value checks read beyond the frame: each row's name, and the tree once its numbers are known good. */
export interface ValueContext {
  view: FrameView;
  /** how many names an enum label indexes */
  names: number;
  /** row i's name (for an enum, once its indexes are checked) */
  label: (i: number) => string;
  /** the tree of the checked levels and numbers, for the sums */
  tree: () => Tree;
  /** per side: the sum of each node's children's values */
  childSums: (valueField: string) => Float64Array;
}

/**
 * One check of each value of `field`. Checks of the same `pass` run row by row together (a
 * frame's first row that fails any of them is named, by the first of them it fails); the passes
 * one after another. `diff`: only for a diff frame; `enumLabels`: only for enum labels.
 */
export interface ValueCheck {
  pass: string;
  field: string;
  kind: ProfileErrorKind;
  diff?: boolean;
  enumLabels?: boolean;
  test: (value: unknown, row: number, c: ValueContext) => boolean;
  message: (value: unknown, row: number, c: ValueContext) => string;
}

export function truncate(s: string, n: number): string {
  const chars = Array.from(s);
  return chars.length > n ? chars.slice(0, n - 1).join('') + '…' : s;
}

function describeRow(c: ValueContext, row: number) {
  const name = c.label(row);
  return `row ${row}${name !== undefined ? ` ("${truncate(name, 60)}")` : ''}`;
}

/** Within `limit` and a little slack for floats (the slack every sum check allows). */
export function fits(v: number, limit: number): boolean {
  return v <= limit + 1e-6 * (limit > 1 ? limit : 1);
}

/** A number field's values: each a number, finite, not negative (one pass: a row's first failure names it). */
function amounts(field: string, diff = false): ValueCheck[] {
  const at = (c: ValueContext, i: number) => `Field "${field}" ${describeRow(c, i)}`;
  return [
    {
      pass: field,
      field,
      kind: 'invalid-value',
      diff,
      test: (v) => typeof v === 'number' && !Number.isNaN(v),
      message: (v, i, c) => `${at(c, i)}: ${v === null || v === undefined ? 'missing value' : typeof v === 'number' ? 'NaN' : `not a number (${JSON.stringify(v)})`}.`,
    },
    { pass: field, field, kind: 'invalid-value', diff, test: (v) => Number.isFinite(v), message: (v, i, c) => `${at(c, i)}: ${v} is not finite.` },
    { pass: field, field, kind: 'invalid-value', diff, test: (v) => (v as number) >= 0, message: (v, i, c) => `${at(c, i)}: negative value ${v}.` },
  ];
}

/** self within value, and the children within their parent, row by row on one side. */
function sums(valueField: string, selfField: string, diff = false): ValueCheck[] {
  const pass = `${valueField} sums`;
  const value = (c: ValueContext, i: number) => c.view.columns.get(valueField)![i] as number;
  return [
    {
      pass,
      field: selfField,
      kind: 'invalid-value',
      diff,
      test: (s, i, c) => fits(s as number, value(c, i)),
      message: (s, i, c) => `Field "${selfField}" ${describeRow(c, i)}: self ${s} is larger than its ${valueField} ${value(c, i)}.`,
    },
    {
      pass,
      field: valueField,
      kind: 'invalid-value',
      diff,
      test: (v, i, c) => fits(c.childSums(valueField)[i], v as number),
      message: (v, i, c) => `Field "${valueField}" ${describeRow(c, i)}: its children add up to ${c.childSums(valueField)[i]}, more than its own ${valueField} ${v}.`,
    },
  ];
}

const depth = (check: Omit<ValueCheck, 'pass' | 'field'>): ValueCheck => ({ pass: 'depth', field: 'level', ...check });
const previous = (c: ValueContext, i: number) => c.view.columns.get('level')![i - 1] as number;

export const VALUE_CHECKS: readonly ValueCheck[] = [
  {
    pass: 'label',
    field: 'label',
    kind: 'invalid-value',
    enumLabels: true,
    // an integer index below the count: strings, -1, 1.5, null all differ from v >>> 0
    test: (v, _i, c) => (v as number) >>> 0 === v && (v as number) < c.names,
    message: (v, i, c) => `Field "label" row ${i}: enum index ${String(v)} is outside config.type.enum.text (${c.names} names).`,
  },
  // every level a number before any order: a value that is not one is named first
  ...amounts('level'),
  depth({
    kind: 'invalid-value',
    test: (l) => Number.isInteger(l),
    message: (l, i, c) => `Field "level" ${describeRow(c, i)}: ${l} is not an integer depth.`,
  }),
  depth({
    kind: 'order',
    test: (l, i) => i > 0 || l === 0,
    message: (l) => `Field "level" row 0 is ${l}: the first row must be the root (level 0).`,
  }),
  depth({
    kind: 'order',
    test: (l, i) => i === 0 || l !== 0,
    message: (_l, i, c) => `Field "level" ${describeRow(c, i)} is a second root (level 0): a profile frame has exactly one root.`,
  }),
  depth({
    kind: 'order',
    test: (l, i, c) => i === 0 || (l as number) <= previous(c, i) + 1,
    message: (l, i, c) => `Field "level" ${describeRow(c, i)} jumps from depth ${previous(c, i)} to ${l}: rows must be in depth-first order.`,
  }),
  ...amounts('value'),
  ...amounts('self'),
  ...amounts('valueRight', true),
  ...amounts('selfRight', true),
  ...sums('value', 'self'),
  ...sums('valueRight', 'selfRight', true),
];

/** The first of VALUE_CHECKS a frame that passed FRAME_CHECKS fails, the row and the error; undefined when it passes them all. */
export function checkValues(c: ValueContext): { check: ValueCheck; row: number; error: ProfileError } | undefined {
  const diff = c.view.fields.has('valueRight');
  const applies = (check: ValueCheck) => (!check.diff || diff) && (!check.enumLabels || c.view.isEnum);
  for (let start = 0; start < VALUE_CHECKS.length; ) {
    let end = start;
    while (end < VALUE_CHECKS.length && VALUE_CHECKS[end].pass === VALUE_CHECKS[start].pass) {
      end++;
    }
    const pass = VALUE_CHECKS.slice(start, end).filter(applies);
    for (let row = 0; row < c.view.rows && pass.length > 0; row++) {
      for (const check of pass) {
        const value = c.view.columns.get(check.field)![row];
        if (!check.test(value, row, c)) {
          return { check, row, error: new ProfileError(check.kind, check.message(value, row, c), check.field, row) };
        }
      }
    }
    start = end;
  }
  return undefined;
}

/** The context of the value checks of a frame that passed FRAME_CHECKS, read with its labels (labelsOf). */
export function valueContext(view: FrameView, labels: Labels, unit: string): ValueContext {
  const { names, enumIndexes } = labels;
  // an enum's indexes as ids once the label checks passed (the one-pass reader copies only those it reached)
  const nameId = enumIndexes ? Int32Array.from(enumIndexes as ArrayLike<number>) : labels.ids;
  const numbers = (field: string) => Float64Array.from(view.columns.get(field) as ArrayLike<number>);
  let tree: Tree | undefined;
  const childSums = new Map<string, Float64Array>();
  const c: ValueContext = {
    view,
    names: names.length,
    label: (i) => names[nameId[i]],
    tree: () => {
      if (!tree) {
        const right = view.fields.has('valueRight') ? { total: numbers('valueRight'), self: numbers('selfRight') } : undefined;
        tree = makeTree(Int32Array.from(view.columns.get('level') as ArrayLike<number>), numbers('value'), numbers('self'), nameId, names, unit, right);
      }
      return tree;
    },
    childSums: (valueField) => {
      let sum = childSums.get(valueField);
      if (!sum) {
        const t = c.tree();
        const values = valueField === 'value' ? t.total : t.totalRight!;
        sum = new Float64Array(t.size);
        for (let i = 1; i < t.size; i++) {
          sum[t.parent[i]] += values[i];
        }
        childSums.set(valueField, sum);
      }
      return sum;
    },
  };
  return c;
}
