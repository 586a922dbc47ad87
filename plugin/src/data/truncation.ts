/**
 * Trees that Pyroscope already cut. Its answers hold at most `maxNodes` nodes (16384 through
 * Grafana's datasource by default): the lightest are folded into a child named "other" under
 * their parent. A flame graph of such a tree is fine (what was cut is thin); its tables are not:
 * the functions folded away lose their self time to "other", which can rank above every real
 * function of a busy service.
 */
import type { DataFrame } from '@grafana/data';

import { OTHER_NAME } from './tree';

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
const num = (f: Values, i: number) => (f ? Number(f.values[i]) || 0 : 0);

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
  const level = field('level');
  const value = field('value');
  const right = field('valueRight');
  const text = (label?.config?.type as { enum?: { text?: string[] } } | undefined)?.enum?.text;
  const n = frame.length ?? label?.values.length ?? 0;
  const out: Truncation = { truncated: false, other: 0, total: num(value, 0), rows: 0 };
  if (right) {
    out.otherRight = 0;
    out.totalRight = num(right, 0);
  }
  // what a cut row holds: true in the marker field; else the label "other", for an enum field
  // the indexes of that name (none: nothing was cut, and no row need be read)
  const values = (marker ?? label)?.values ?? [];
  const cutIds = !marker && String(label?.type) === 'enum' && text ? text.includes(OTHER_NAME) && Uint8Array.from(text, (t) => +(t === OTHER_NAME)) : undefined;
  const mark = marker ? true : OTHER_NAME;
  // no cut row: answered by indexOf, the engine's own loop (a string frame's 200k labels in a
  // fraction of a millisecond, a tenth of the loop below in V8's baseline tier)
  if (cutIds === false || (!cutIds && Array.prototype.indexOf.call(values, mark) < 0)) {
    return out;
  }
  // rows deeper than an open truncated row are inside it
  let openLevel = Infinity;
  for (let i = 0; i < n; i++) {
    if (openLevel !== Infinity && num(level, i) <= openLevel) {
      openLevel = Infinity;
    }
    const v = values[i];
    if (cutIds ? cutIds[v as number] !== 1 : v !== mark) {
      continue;
    }
    out.truncated = true;
    out.rows++;
    if (openLevel === Infinity) {
      openLevel = num(level, i);
      out.other += num(value, i);
      if (right) {
        out.otherRight! += num(right, i);
      }
    }
  }
  return out;
}

/** The larger share of a truncation's two sides (0..1). */
export function otherShare(t: Truncation): number {
  const s = t.total > 0 ? t.other / t.total : 0;
  const r = t.totalRight ? (t.otherRight ?? 0) / t.totalRight : 0;
  return Math.max(s, r);
}
