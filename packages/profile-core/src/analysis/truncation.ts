/**
 * Trees that Pyroscope already cut. Its answers hold at most `maxNodes` nodes (16384 through
 * Grafana's datasource by default): the lightest are folded into a child named "other" under
 * their parent. A flame graph of such a tree is fine (what was cut is thin); its tables are not:
 * the functions folded away lose their self time to "other", which can rank above every real
 * function of a busy service.
 */
import type { DataFrame } from '@grafana/data';

import { OTHER_NAME } from '../tree/tree';

/** How much of a profile Pyroscope folded into "other". */
export interface Truncation {
  truncated: boolean;
  /** value of the outermost truncated rows (the "other" nodes), baseline/single side */
  other: number;
  total: number;
  /** the comparison side of a diff frame */
  otherRight?: number;
  totalRight?: number;
  /** truncated rows */
  rows: number;
}

export const NOT_TRUNCATED: Truncation = { truncated: false, other: 0, total: 0, rows: 0 };

type Values = { values: ArrayLike<unknown> } | undefined;
/** A field's values; none when the frame lacks it (every row then reads 0). */
const column = (f: Values): ArrayLike<unknown> => f?.values ?? [];
const at = (values: ArrayLike<unknown>, i: number) => Number(values[i]) || 0;

/**
 * Whether a profile frame was truncated, by the rule of Grafana 13's flame graph
 * (`isProfileTruncated`): a boolean field `truncated` marks the rows that stand for cut nodes
 * when the frame has one (then a real function named "other" is just a function); without it,
 * a row labelled exactly "other" (the name Pyroscope reserves; not "Other") marks truncation.
 * Also sums what those rows hold, outermost rows only (nested ones are inside their total).
 */
export function frameTruncation(frame: DataFrame): Truncation {
  const field = (name: string) => frame.fields.find((f) => f.name === name);
  const marker = frame.fields.find((f) => f.name === 'truncated' && String(f.type) === 'boolean');
  const label = field('label');
  const value = field('value');
  const right = field('valueRight');
  const out: Truncation = { truncated: false, other: 0, total: at(column(value), 0), rows: 0 };
  if (right) {
    out.otherRight = 0;
    out.totalRight = at(column(right), 0);
  }
  const cut = cutMark(marker, label);
  // no cut row: answered by indexOf, the engine's own loop (a string frame's 200k labels in a
  // fraction of a millisecond); else the scan starts at the first cut row
  const first = cut ? Array.prototype.indexOf.call(cut.values, cut.mark) : -1;
  if (cut && first >= 0) {
    const n = frame.length ?? label?.values.length ?? 0;
    const columns = { cut: cut.values, mark: cut.mark, level: column(field('level')), value: column(value), right: right && column(right) };
    sumCutRows(out, columns, first, n);
  }
  return out;
}

/**
 * What a cut row holds: `mark` in `values`. True in the marker field; else the label "other",
 * for an enum field the index of that name (undefined when the enum does not name it: nothing
 * was cut, and no row need be read). An enum that names "other" twice gets a column of its own
 * marking the rows of either index (no real answer has one; a single mark keeps the scan a
 * plain comparison, which in V8 is several times faster than a lookup per row).
 */
function cutMark(marker: Values, label: (Values & { type?: unknown; config?: { type?: unknown } }) | undefined): { values: ArrayLike<unknown>; mark: unknown } | undefined {
  if (marker) {
    return { values: marker.values, mark: true };
  }
  const values = label?.values ?? [];
  const text = (label?.config?.type as { enum?: { text?: string[] } } | undefined)?.enum?.text;
  if (String(label?.type) !== 'enum' || !text) {
    return { values, mark: OTHER_NAME };
  }
  const id = text.indexOf(OTHER_NAME);
  if (id < 0) {
    return undefined;
  }
  if (text.indexOf(OTHER_NAME, id + 1) < 0) {
    return { values, mark: id };
  }
  return { values: Array.from(values, (v) => text[v as number] === OTHER_NAME), mark: true };
}

interface CutColumns {
  cut: ArrayLike<unknown>;
  mark: unknown;
  level: ArrayLike<unknown>;
  value: ArrayLike<unknown>;
  right: ArrayLike<unknown> | undefined;
}

/**
 * Counts the cut rows from `first` on and sums the outermost ones. Rows deeper than a cut row
 * are inside it: its subtree is walked at once (only to count cut rows nested in it), so a row
 * outside every cut subtree costs one comparison. Pyroscope's "other" rows are leaves and can
 * be 40% of a truncated answer's rows; a loop that read every row's level as well (through a
 * function call) took 2.5-3 ms of 165k rows in Node, this one 0.7-1.4 ms.
 */
function sumCutRows(out: Truncation, c: CutColumns, first: number, n: number) {
  const { cut, mark, level, value, right } = c;
  let rows = 0;
  let other = 0;
  let otherRight = 0;
  for (let i = first; i < n; i++) {
    if (cut[i] !== mark) {
      continue;
    }
    rows++;
    other += at(value, i);
    if (right) {
      otherRight += at(right, i);
    }
    const depth = at(level, i);
    while (i + 1 < n && at(level, i + 1) > depth) {
      i++;
      if (cut[i] === mark) {
        rows++;
      }
    }
  }
  out.truncated = rows > 0;
  out.rows = rows;
  out.other = other;
  if (right) {
    out.otherRight = otherRight;
  }
}

/** The larger share of a truncation's two sides (0..1). */
export function otherShare(t: Truncation): number {
  const s = t.total > 0 ? t.other / t.total : 0;
  const r = t.totalRight ? (t.otherRight ?? 0) / t.totalRight : 0;
  return Math.max(s, r);
}
