// The reference: `go tool pprof` (the Go toolchain's copy of google/pprof), run on a corpus
// file, its -top output parsed into { total, rows: [{ name, flat, flatPct, cum, cumPct }] }.
// Values are parsed back from pprof's scaled labels ("1.50s", "5038.60kB"): good to 3-4
// digits, so totals are compared with a relative tolerance and rows by their percentages.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

// pprof's scaled units (internal/measurement): times to ns, sizes to bytes (1024-based)
const SCALE = {
  ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9, mins: 60e9, hrs: 3600e9, days: 86400e9,
  B: 1, kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4, PB: 1024 ** 5,
};

export function parseValue(label) {
  const m = /^(-?[\d.]+(?:e[+-]?\d+)?)([A-Za-zµ]*)$/.exec(label);
  if (!m) {
    throw new Error(`pprof value "${label}" not understood`);
  }
  return Number(m[1]) * (SCALE[m[2]] ?? 1);
}

const PCT = '(-?[\\d.]+(?:e[+-]?\\d+)?)%';
const ROW = new RegExp(`^\\s*(\\S+)\\s+${PCT}\\s+${PCT}\\s+(\\S+)\\s+${PCT}\\s+(.*)$`);

// a value in a sample type's unit, in the base unit pprof's scaled labels are parsed to
const UNIT = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9, bytes: 1, kilobytes: 1024, megabytes: 1024 ** 2 };
export const toBase = (v, unit) => v * (UNIT[unit] ?? 1);

/**
 * Does our percentage agree with the one pprof printed? pprof prints "100%" from 99.95%,
 * two decimals from 1%, two significant digits below (internal/measurement.Percentage).
 */
export function samePercent(ours, printed) {
  const a = Math.abs(ours);
  const b = Math.abs(printed);
  if (b === 100) {
    return a >= 99.95 && a <= 100.05;
  }
  if (b >= 1) {
    return Math.abs(a - b) < 0.0051;
  }
  // half a unit of the second significant digit
  const unit = b > 0 ? 10 ** (Math.floor(Math.log10(b)) - 1) : 1e-12;
  return Math.abs(a - b) <= unit * 0.51;
}

/**
 * `go tool pprof -top` of `file` (sample type `type`); `cum` sorts by cumulative; `base` diffs
 * against it (-normalize); `nodecount` 0: every node.
 */
export async function pprofTop(file, { type, cum = false, base, nodecount = 10 }) {
  const args = ['tool', 'pprof', '-top', '-symbolize=none', '-nodefraction=0', '-edgefraction=0', `-sample_index=${type}`];
  if (nodecount) {
    args.push(`-nodecount=${nodecount}`);
  }
  if (cum) {
    args.push('-cum');
  }
  if (base) {
    args.push(`-diff_base=${base}`, '-normalize');
  }
  args.push(file);
  const { stdout } = await run('go', args, { timeout: 60_000, env: { ...process.env, PPROF_BINARY_PATH: '/nonexistent', PPROF_TMPDIR: process.env.TMPDIR ?? '/tmp' } });
  const totalLine = /Showing nodes accounting for .*? of (\S+) total/.exec(stdout);
  const rows = [];
  let inTable = false;
  for (const line of stdout.split('\n')) {
    if (/^\s+flat\s+flat%/.test(line)) {
      inTable = true;
      continue;
    }
    const m = inTable && ROW.exec(line);
    if (m) {
      rows.push({ name: m[6], flat: parseValue(m[1]), flatPct: Number(m[2]), cum: parseValue(m[4]), cumPct: Number(m[5]) });
    }
  }
  return { total: totalLine ? parseValue(totalLine[1]) : 0, rows, raw: stdout };
}

/** `go tool pprof -proto -diff_base=base file` into `out`: the diff profile pprof writes. */
export async function pprofDiffProto(file, base, out) {
  await run('sh', ['-c', `go tool pprof -proto -symbolize=none -diff_base="$1" "$2" > "$3"`, 'sh', base, file, out], { timeout: 60_000 });
}
