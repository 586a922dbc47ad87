/**
 * Colours: by package (a stable hue per package, the way Grafana's flame graph colours), and
 * for diffs by the change of a node's share (each side against its own total): more = red,
 * less = green, or blue/orange-red in the colour-blind palette. Colour strings are computed
 * once per name / per bucket, never per frame.
 */
import { fnv1a } from '@hotpath/profile-core';

export const DIFF_SCHEMES = ['red-green', 'colorblind'] as const;
export type DiffScheme = (typeof DIFF_SCHEMES)[number];

/** Package of a frame name: Go (`github.com/x/y.(*T).M` -> `github.com/x/y`), paths, `::`. */
export function packageOf(name: string): string {
  const slash = name.lastIndexOf('/');
  const dot = name.indexOf('.', slash + 1);
  if (dot > 0) {
    return name.slice(0, dot);
  }
  const colons = name.indexOf('::');
  if (colons > 0) {
    return name.slice(0, colons);
  }
  return slash > 0 ? name.slice(0, slash) : name;
}

/** Warm hues (red .. yellow) as flame graphs traditionally use, spread by package. */
export function packageColor(name: string, dark: boolean): string {
  const h = fnv1a(packageOf(name));
  const hue = 10 + (h % 45);
  const sat = 65 + ((h >>> 8) % 25);
  const light = dark ? 38 + ((h >>> 16) % 14) : 62 + ((h >>> 16) % 14);
  return `hsl(${hue}, ${sat}%, ${light}%)`;
}

/**
 * The colour of a name id, computed the first time it is drawn and kept: a 200k-node profile
 * draws a few thousand frames wide enough to see, so parsing every name's package up front
 * (7 ms for ~195k distinct names) is mostly wasted, and wholly for a diff, coloured by change.
 * A class rather than a closure per tree: drawing then calls one function object, which V8
 * keeps optimized from tree to tree.
 */
export class PackageColors {
  // a map of the names drawn so far, not an array of every name: a draw colours a few thousand
  // nodes, and a string frame has a name per row (allocating 200k empty slots took 0.35 ms of
  // a first render's CPU profile)
  private readonly byId = new Map<number, string>();
  private readonly byPackage = new Map<string, string>();

  constructor(
    private readonly names: string[],
    private readonly dark: boolean
  ) {}

  of(id: number): string {
    let c = this.byId.get(id);
    if (c === undefined) {
      const name = this.names[id];
      const p = packageOf(name);
      c = this.byPackage.get(p);
      if (!c) {
        c = packageColor(name, this.dark);
        this.byPackage.set(p, c);
      }
      this.byId.set(id, c);
    }
    return c;
  }
}

const PALETTES: Record<DiffScheme, [number[], number[], number[]]> = {
  'red-green': [
    [0, 170, 0],
    [148, 142, 142],
    [200, 0, 0],
  ],
  colorblind: [
    [26, 133, 255],
    [148, 142, 142],
    [220, 50, 32],
  ],
};

export const DIFF_BUCKETS = 41;

/** DIFF_BUCKETS colours from "much less" (0) through "same" (middle) to "much more" (last). */
export function diffPalette(scheme: DiffScheme): string[] {
  const [less, same, more] = PALETTES[scheme];
  const out: string[] = [];
  const mid = (DIFF_BUCKETS - 1) / 2;
  for (let b = 0; b < DIFF_BUCKETS; b++) {
    const t = (b - mid) / mid;
    const to = t < 0 ? less : more;
    const a = Math.abs(t);
    const c = same.map((v, k) => Math.round(v + (to[k] - v) * a));
    out.push(`rgb(${c[0]}, ${c[1]}, ${c[2]})`);
  }
  return out;
}

/**
 * Bucket of a node's change: the relative change of its share, (right - left) / left,
 * clamped to [-100%, +100%] as Grafana's diff colouring does; new nodes are "much more".
 */
export function diffBucket(left: number, leftTotal: number, right: number, rightTotal: number): number {
  const mid = (DIFF_BUCKETS - 1) / 2;
  const l = leftTotal > 0 ? left / leftTotal : 0;
  const r = rightTotal > 0 ? right / rightTotal : 0;
  if (l === 0) {
    return r === 0 ? mid : DIFF_BUCKETS - 1;
  }
  const rel = Math.max(-1, Math.min(1, (r - l) / l));
  return Math.round(mid + rel * mid);
}
