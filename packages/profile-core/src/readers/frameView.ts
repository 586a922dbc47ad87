import type { DataFrame, Field } from '@grafana/data';

import { rowNamed } from '../tree/tree';

// A profile frame as its reader and its checks (frameChecks.ts) read it: the fields by name,
// their values as lists, the labels.

/** A frame as the checks read it: its fields by name and their values as indexable lists. */
export interface FrameView {
  /** false when there is no frame or its fields are not a list */
  readonly hasFields: boolean;
  /** every field's name, in the frame's order */
  readonly names: string[];
  readonly fields: Map<string, Field>;
  readonly columns: Map<string, ArrayLike<unknown>>;
  /** the number of rows: the length of "level" */
  readonly rows: number;
  /** the label field's names when it is an enum (config.type.enum.text), as the frame gives them */
  readonly enumText: unknown;
  /** labels are enum indexes: an enum field, or numbers with enum names */
  readonly isEnum: boolean;
}

/** The view of a frame; of no fields when there is no frame or its fields are not a list (FRAME_CHECKS refuse it first). */
export function viewOf(frame: DataFrame | undefined | null): FrameView {
  const hasFields = !!frame && Array.isArray(frame.fields);
  const list = hasFields ? frame!.fields : [];
  const fields = new Map<string, Field>();
  const columns = new Map<string, ArrayLike<unknown>>();
  for (const f of list) {
    fields.set(f.name, f);
    columns.set(f.name, valuesOf(f));
  }
  const enumText = fields.get('label')?.config?.type?.enum?.text;
  const labelType = typeOf(fields, columns, 'label');
  return {
    hasFields,
    names: list.map((f) => f.name),
    fields,
    columns,
    rows: columns.get('level')?.length ?? 0,
    enumText,
    isEnum: labelType === 'enum' || (labelType === 'number' && !!enumText),
  };
}

/** A profile's labels: name ids into `names`; for an enum field, `enumIndexes` are its raw values, checked and copied into `ids` as the rows are read. */
export interface Labels {
  ids: Int32Array;
  names: string[];
  enumIndexes?: ArrayLike<unknown>;
}

/**
 * A frame's labels: the enum's names (its indexes are checked as the rows are read), or the
 * strings themselves, one name per row as they came (a copy: the frame stays the datasource's),
 * interned only when something groups by name (byName): a string frame draws without hashing a
 * label.
 */
export function labelsOf(view: FrameView): Labels {
  const raw = view.columns.get('label')!;
  const ids = new Int32Array(view.rows);
  if (view.isEnum) {
    const names = (view.enumText as unknown[]).map((t) => (typeof t === 'string' ? t : String(t)));
    return { ids, names, enumIndexes: raw };
  }
  const names: string[] = Array.prototype.slice.call(raw);
  for (let i = 0; i < ids.length; i++) {
    const name = names[i];
    if (typeof name !== 'string') {
      names[i] = name === null || name === undefined ? '' : String(name);
    }
    ids[i] = i;
  }
  rowNamed(names, ids);
  return { ids, names };
}

/** Values of a field as an indexable list (arrays, typed arrays, or legacy Vectors). */
function valuesOf(field: Field): ArrayLike<unknown> {
  const v = field.values as unknown as { toArray?: () => unknown[] } & ArrayLike<unknown>;
  if (v && typeof v.length === 'number') {
    return v;
  }
  return v && typeof v.toArray === 'function' ? v.toArray() : [];
}

/** A field's type: as the frame says, else inferred from its first value; 'unknown' for an empty column without one. */
export function typeOf(fields: Map<string, Field>, columns: Map<string, ArrayLike<unknown>>, name: string): string {
  const field = fields.get(name);
  const values = columns.get(name) ?? [];
  if (!field || (values.length === 0 && (!field.type || field.type === 'other'))) {
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
