import { createDataFrame, DataFrame, FieldType } from '@grafana/data';

import { checkFrame, checkValues, FRAME_CHECKS, valueContext, VALUE_CHECKS } from './frameChecks';
import { labelsOf, viewOf } from './frameView';
import { readProfileFrame } from './frame';

const TEXT = ['total', 'a', 'b', 'c'];

/** A frame of these fields (types given or inferred; an enum label gets TEXT as its names unless told: null, none). */
function frame(fields: Record<string, unknown[]>, types: Record<string, FieldType> = {}, enumText: string[] | null = TEXT): DataFrame {
  return createDataFrame({
    fields: Object.entries(fields).map(([name, values]) => ({
      name,
      values,
      type: types[name],
      ...(types[name] === FieldType.enum && enumText ? { config: { type: { enum: { text: enumText } } } } : {}),
    })),
  });
}

const good = (): Record<string, unknown[]> => ({ level: [0, 1, 2, 1], value: [10, 6, 4, 4], self: [0, 2, 4, 4], label: ['total', 'a', 'b', 'c'] });
const diff = (): Record<string, unknown[]> => ({ ...good(), valueRight: [10, 6, 4, 4], selfRight: [0, 2, 4, 4] });
const without = (name: string) => {
  const f = good();
  delete f[name];
  return frame(f);
};
const NUMBERS = { level: FieldType.number, value: FieldType.number, self: FieldType.number };

/** One frame for each check of either table, and the message it gets. */
const EXAMPLES: Array<[string, DataFrame | undefined, string]> = [
  ['no frame', undefined, 'No profile frame: the query returned no data frames.'],
  ['no level', without('level'), 'The profile frame is missing field "level": a profile frame needs level, value, self and label (fields present: value, self, label).'],
  ['no value', without('value'), 'The profile frame is missing field "value": a profile frame needs level, value, self and label (fields present: level, self, label).'],
  ['no self', without('self'), 'The profile frame is missing field "self": a profile frame needs level, value, self and label (fields present: level, value, label).'],
  ['no label', without('label'), 'The profile frame is missing field "label": a profile frame needs level, value, self and label (fields present: level, value, self).'],
  ['valueRight alone', frame({ ...good(), valueRight: [1, 1, 1, 1] }), 'Malformed diff frame: it has "valueRight" but no "selfRight"; a diff frame needs both.'],
  ['selfRight alone', frame({ ...good(), selfRight: [1, 1, 1, 1] }), 'Malformed diff frame: it has "selfRight" but no "valueRight"; a diff frame needs both.'],
  ['string levels', frame({ ...good(), level: ['0', '1', '2', '1'] }, { level: FieldType.string }), 'Field "level" has type string, but a profile needs numbers there.'],
  ['a time value field', frame(good(), { value: FieldType.time }), 'Field "value" has type time, but a profile needs numbers there.'],
  ['an enum self field', frame(good(), { self: FieldType.enum }), 'Field "self" has type enum, but a profile needs numbers there.'],
  ['string valueRight', frame({ ...diff(), valueRight: ['10', '6', '4', '4'] }, { valueRight: FieldType.string }), 'Field "valueRight" has type string, but a profile needs numbers there.'],
  ['an other selfRight field', frame(diff(), { selfRight: FieldType.other }), 'Field "selfRight" has type other, but a profile needs numbers there.'],
  ['numeric labels without enum names', frame({ ...good(), label: [0, 1, 2, 3] }), 'Field "label" has type number, but a profile needs string or enum labels.'],
  ['a short value', frame({ ...good(), value: [10, 6, 4] }), 'Field "value" has 3 rows but "level" has 4: all fields of a profile frame have the same length.'],
  ['a long self', frame({ ...good(), self: [0, 2, 4, 4, 0] }), 'Field "self" has 5 rows but "level" has 4: all fields of a profile frame have the same length.'],
  ['a short label', frame({ ...good(), label: ['total'] }), 'Field "label" has 1 rows but "level" has 4: all fields of a profile frame have the same length.'],
  ['a short valueRight', frame({ ...diff(), valueRight: [] }), 'Field "valueRight" has 0 rows but "level" has 4: all fields of a profile frame have the same length.'],
  ['a short selfRight', frame({ ...diff(), selfRight: [0, 2] }), 'Field "selfRight" has 2 rows but "level" has 4: all fields of a profile frame have the same length.'],
  ['no rows', frame({ level: [], value: [], self: [], label: [] }, { ...NUMBERS, label: FieldType.string }), 'The profile is empty: no samples in this time range.'],
  ['an enum without names', frame({ ...good(), label: [0, 1, 2, 3] }, { label: FieldType.enum }, null), 'Field "label" is an enum field without config.type.enum.text: the label names are missing.'],
  ['an enum index past the names', frame({ ...good(), label: [0, 1, 7, 3] }, { label: FieldType.enum }), 'Field "label" row 2: enum index 7 is outside config.type.enum.text (4 names).'],
  ['a level that is not a number', frame({ ...good(), level: [0, 1, 'x', 1] }, NUMBERS), 'Field "level" row 2 ("b"): not a number ("x").'],
  ['an infinite level', frame({ ...good(), level: [0, 1, Infinity, 1] }), 'Field "level" row 2 ("b"): Infinity is not finite.'],
  ['a negative level', frame({ ...good(), level: [0, 1, -2, 1] }), 'Field "level" row 2 ("b"): negative value -2.'],
  ['a fractional level', frame({ ...good(), level: [0, 1, 1.5, 1] }), 'Field "level" row 2 ("b"): 1.5 is not an integer depth.'],
  ['a first row below the root', frame({ ...good(), level: [1, 1, 2, 1] }), 'Field "level" row 0 is 1: the first row must be the root (level 0).'],
  ['a second root', frame({ ...good(), level: [0, 1, 2, 0] }), 'Field "level" row 3 ("c") is a second root (level 0): a profile frame has exactly one root.'],
  ['a depth jump', frame({ ...good(), level: [0, 1, 3, 1] }), 'Field "level" row 2 ("b") jumps from depth 1 to 3: rows must be in depth-first order.'],
  ['a missing value', frame({ ...good(), value: [10, 6, null, 4] }, NUMBERS), 'Field "value" row 2 ("b"): missing value.'],
  ['an infinite value', frame({ ...good(), value: [Infinity, 6, 4, 4] }), 'Field "value" row 0 ("total"): Infinity is not finite.'],
  ['a negative value', frame({ ...good(), value: [10, -6, 4, 4] }), 'Field "value" row 1 ("a"): negative value -6.'],
  ['a NaN self', frame({ ...good(), self: [0, NaN, 4, 4] }), 'Field "self" row 1 ("a"): NaN.'],
  ['an infinite self', frame({ ...good(), self: [0, 2, -Infinity, 4] }), 'Field "self" row 2 ("b"): -Infinity is not finite.'],
  ['a negative self', frame({ ...good(), self: [0, 2, 4, -1] }), 'Field "self" row 3 ("c"): negative value -1.'],
  ['a string in valueRight', frame({ ...diff(), valueRight: [10, '6', 4, 4] }, { valueRight: FieldType.number }), 'Field "valueRight" row 1 ("a"): not a number ("6").'],
  ['an infinite valueRight', frame({ ...diff(), valueRight: [10, 6, Infinity, 4] }), 'Field "valueRight" row 2 ("b"): Infinity is not finite.'],
  ['a negative valueRight', frame({ ...diff(), valueRight: [10, 6, 4, -4] }), 'Field "valueRight" row 3 ("c"): negative value -4.'],
  ['a missing selfRight', frame({ ...diff(), selfRight: [undefined, 2, 4, 4] }, { selfRight: FieldType.number }), 'Field "selfRight" row 0 ("total"): missing value.'],
  ['an infinite selfRight', frame({ ...diff(), selfRight: [0, Infinity, 4, 4] }), 'Field "selfRight" row 1 ("a"): Infinity is not finite.'],
  ['a negative selfRight', frame({ ...diff(), selfRight: [0, 2, -4, 4] }), 'Field "selfRight" row 2 ("b"): negative value -4.'],
  ['self above value', frame({ ...good(), self: [0, 7, 4, 4] }), 'Field "self" row 1 ("a"): self 7 is larger than its value 6.'],
  ['children above their parent', frame({ ...good(), value: [10, 3, 4, 4], self: [0, 0, 4, 4] }), 'Field "value" row 1 ("a"): its children add up to 4, more than its own value 3.'],
  ['selfRight above valueRight', frame({ ...diff(), selfRight: [0, 7, 4, 4] }), 'Field "selfRight" row 1 ("a"): self 7 is larger than its valueRight 6.'],
  [
    'right children above their parent',
    frame({ ...diff(), valueRight: [10, 3, 4, 4], selfRight: [0, 0, 4, 4] }),
    'Field "valueRight" row 1 ("a"): its children add up to 4, more than its own valueRight 3.',
  ],
];

/** The check a frame fails first: of the fields, else of the values. */
function failedCheck(f: DataFrame | undefined) {
  const view = viewOf(f);
  return checkFrame(view)?.check ?? checkValues(valueContext(view, labelsOf(view), ''))?.check;
}

describe('the frame checks', () => {
  it.each(EXAMPLES)('%s: says so', (_name, f, message) => {
    const r = readProfileFrame(f);
    expect(r.ok ? 'read' : r.error.message).toBe(message);
  });

  it('every row of both tables is reachable: each is the first check one of the examples fails, with the message the reader gives', () => {
    const reached = new Set<unknown>();
    for (const [name, f, message] of EXAMPLES) {
      const check = failedCheck(f);
      expect([name, check !== undefined]).toEqual([name, true]);
      reached.add(check);
      const r = readProfileFrame(f);
      expect(!r.ok && r.error.field).toBe(check!.field);
      expect(!r.ok && r.error.kind).toBe(check!.kind);
      expect(!r.ok && r.error.message).toBe(message);
    }
    const unreached = [...FRAME_CHECKS, ...VALUE_CHECKS].filter((c) => !reached.has(c)).map((c) => `${c.kind} ${c.field}: ${c.test}`);
    expect(unreached).toEqual([]);
    expect(reached.size).toBe(FRAME_CHECKS.length + VALUE_CHECKS.length);
  });

  it('a valid frame, a diff and one with enum labels fail no check', () => {
    for (const f of [frame(good()), frame(diff()), frame({ ...good(), label: [0, 1, 2, 3] }, { label: FieldType.enum })]) {
      expect(failedCheck(f)).toBeUndefined();
      expect(readProfileFrame(f).ok).toBe(true);
    }
  });

  it('the value checks name the first row that fails any check of a pass, though a later check of the pass fails earlier rows', () => {
    // row 1 jumps (the pass's last check), row 2 is not an integer (its first)
    const r = readProfileFrame(frame({ ...good(), level: [0, 2, 1.5, 1] }));
    expect(!r.ok && r.error.message).toBe('Field "level" row 1 ("a") jumps from depth 0 to 2: rows must be in depth-first order.');
  });
});
