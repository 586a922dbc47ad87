import { formattedValueToString, getValueFormat } from '@grafana/data';

/** A value in the profile's unit, as Grafana formats it (ns -> "1.20 s", bytes -> "3.4 MiB"). */
export function formatValue(value: number, unit: string): string {
  try {
    return formattedValueToString(getValueFormat(unit || 'short')(value, 2));
  } catch {
    return String(value);
  }
}

export function formatPercent(share: number, digits = 2): string {
  return `${(share * 100).toFixed(digits)}%`;
}

/** A change of share in percentage points, signed. */
export function formatDelta(delta: number): string {
  const pp = delta * 100;
  return `${pp > 0 ? '+' : pp < 0 ? '−' : '±'}${Math.abs(pp).toFixed(2)} pp`;
}
