// The snapshot picture's headline, for the snapshot CLI and hotpath-notify's warm renderer alike:
// what was profiled, against what, the total, and (with the windows' request counts) the change
// split into load and per request.

/** A headline's amount: seconds for ns, MiB for bytes, else the number and its unit. */
export function amount(v, unit) {
  const n = (x, digits) => x.toLocaleString('en-US', { maximumFractionDigits: digits });
  if (unit === 'ns') {
    return `${n(v / 1e9, 2)} s`;
  }
  if (unit === 'bytes') {
    return `${n(v / 1048576, 1)} MiB`;
  }
  return `${n(v, 0)}${unit && unit !== 'short' ? ` ${unit}` : ''}`;
}

/**
 * "cpu (ns) · A against B · total 2.04 s · CPU +618% = load … × per request …".
 * @param {{ sampleType: string, unit: string, sides: string, total: number, decomposition?: { headline: string } }} h
 */
export function pictureHeadline({ sampleType, unit, sides, total, decomposition }) {
  return [`${sampleType} (${unit})`, sides, `total ${amount(total, unit)}`, ...(decomposition ? [decomposition.headline] : [])].join(' · ');
}
