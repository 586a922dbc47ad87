// A change of a message as text: the function (and the runtime frame it was charged through),
// its size per request in a unit people read, and its share as a column. Pure.

/** How many changes a message lists. */
export const TOP_N = 5;

// The recorded series' units as the messages print them (formatAmount's units).
const SERIES_UNITS = { seconds: { unit: 'ns', scale: 1e9 }, bytes: { unit: 'bytes', scale: 1 } };

/**
 * Values of a recorded series (seconds, bytes) in the messages' units: { ...values scaled, unit }.
 * Pure; a unit of no conversion stays as it is.
 */
export function inMessageUnits(values, seriesUnit) {
  const u = SERIES_UNITS[seriesUnit] ?? { unit: seriesUnit, scale: 1 };
  return { ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v * u.scale])), unit: u.unit };
}

/**
 * A per-request amount in a unit people read: 349 µs, 1.2 ms, 2.1 s for ns; B, KiB, MiB for bytes.
 */
export function formatAmount(v, unit) {
  const a = Math.abs(v);
  if (a === 0) {
    return unit === 'bytes' ? '0 B' : unit === 'ns' ? '0 s' : '0';
  }
  const num = (x) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
  if (unit === 'ns') {
    if (a >= 1e9) return `${num(v / 1e9)} s`;
    if (a >= 1e6) return `${num(v / 1e6)} ms`;
    if (a >= 1e3) return `${num(v / 1e3)} µs`;
    return `${num(v)} ns`;
  }
  if (unit === 'bytes') {
    if (a >= 1 << 30) return `${num(v / (1 << 30))} GiB`;
    if (a >= 1 << 20) return `${num(v / (1 << 20))} MiB`;
    if (a >= 1 << 10) return `${num(v / (1 << 10))} KiB`;
    return `${num(v)} B`;
  }
  return num(v);
}

const signed = (v, unit) => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${formatAmount(Math.abs(v), unit)}`;

/** The last element of a function's package path: golang.org/x/sys/unix.EpollWait -> unix.EpollWait. */
export function shortName(name) {
  const paren = name.indexOf('(');
  const head = paren >= 0 ? name.slice(0, paren) : name;
  const slash = head.lastIndexOf('/');
  return slash >= 0 ? name.slice(slash + 1) : name;
}

/** One change as a message line (without its number): the function, via, its size per request. */
export function changeText(c, { alloc, rankedBy }) {
  const fn = `\`${c.function}\`${c.via ? ` (via \`${c.via}\`)` : ''}`;
  const share = `${c.deltaPercent > 0 ? '+' : ''}${c.deltaPercent.toFixed(1)} pts of ${alloc ? 'allocated bytes' : 'CPU'} (${c.baselineSharePercent.toFixed(1)}% → ${c.incidentSharePercent.toFixed(1)}%)`;
  if (c.perRequestDelta !== undefined) {
    return `${fn} ${signed(c.perRequestDelta, c.unit)}/req (${formatAmount(c.baselinePerRequest, c.unit)} → ${formatAmount(c.incidentPerRequest, c.unit)} per request) · ${share}`;
  }
  if (rankedBy === 'share') {
    return `${fn} ${share}`;
  }
  return `${fn} ${signed(c.absoluteDelta, c.unit)} over the window · ${share}`;
}

