import type { SelectableValue } from '@grafana/data';

/**
 * The options of a radio group or select for a closed set, in the set's order. The set is
 * written once (an `as const` array and the type derived from it); the text is keyed by its
 * members, so a member added without a label does not compile, and a label for a member that
 * is gone does not either.
 */
export function choices<K extends string>(values: readonly K[], text: Record<K, { label: string; description?: string }>): Array<SelectableValue<K>> {
  return values.map((value) => ({ value, ...text[value] }));
}
