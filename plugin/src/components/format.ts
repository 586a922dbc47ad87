import { formattedValueToString, getValueFormat } from '@grafana/data';

import type { ValueUnit } from '@hotpath/profile-core';

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

/** A node's value in a view's unit: per request (the value is already divided), absolute, or share of its side's total. */
export function formatIn(unit: ValueUnit, value: number, sideTotal: number, profileUnit: string): string {
  if (unit === 'share') {
    return formatPercent(sideTotal > 0 ? value / sideTotal : 0);
  }
  return unit === 'per-request' ? `${formatValue(value, profileUnit)}/req` : formatValue(value, profileUnit);
}

/** A signed change in a view's unit: "+1.20 ms/req", "−3.40 s", "+2.50 pp". */
export function formatDeltaIn(unit: ValueUnit, delta: number, profileUnit: string): string {
  if (unit === 'share') {
    return formatDelta(delta);
  }
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `${sign}${formatValue(Math.abs(delta), profileUnit)}${unit === 'per-request' ? '/req' : ''}`;
}

export const UNIT_LABELS: Record<ValueUnit, string> = { 'per-request': 'Per request', absolute: 'Absolute', share: 'Share' };
