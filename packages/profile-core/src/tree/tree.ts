/**
 * The compact profile tree: nodes in depth-first (pre-order) order, one root at index 0,
 * columns in typed arrays, labels interned (or one per row until something groups by name:
 * see byName). This is the nested-set layout of Grafana's
 * profile frame plus two derived columns (`parent`, `end`) that make subtree walks O(1).
 *
 * A diff tree carries both sides: `total`/`self` are the baseline, `totalRight`/`selfRight`
 * the comparison (the same convention as Grafana's diff frame: value/self and
 * valueRight/selfRight).
 */
export interface Tree {
  /** number of nodes */
  size: number;
  /** depth of each node, the root is 0 */
  level: Int32Array;
  /** inclusive value (Grafana's `value`) */
  total: Float64Array;
  /** exclusive value (Grafana's `self`) */
  self: Float64Array;
  /** index into `names` */
  nameId: Int32Array;
  /** interned labels; or a string frame's labels one per row (byName interns them) */
  names: string[];
  /** parent index, -1 for the root */
  parent: Int32Array;
  /** exclusive end of the node's subtree: descendants of i are i+1 .. end[i]-1 */
  end: Int32Array;
  /** unit of the values, as Grafana spells it (ns, bytes, short, ...) */
  unit: string;
  totalRight?: Float64Array;
  selfRight?: Float64Array;
}

export const ROOT_NAME = 'total';
export const OTHER_NAME = 'other';

export function isDiff(tree: Tree): tree is Tree & { totalRight: Float64Array; selfRight: Float64Array } {
  return tree.totalRight !== undefined && tree.selfRight !== undefined;
}

/**
 * Completes a tree from its pre-order columns: derives `parent` and `end`. The columns must
 * already be valid (root first, depth-first order); frame.ts validates foreign input first.
 */
export function makeTree(
  level: Int32Array,
  total: Float64Array,
  self: Float64Array,
  nameId: Int32Array,
  names: string[],
  unit: string,
  right?: { total: Float64Array; self: Float64Array }
): Tree {
  const size = level.length;
  const parent = new Int32Array(size);
  const end = new Int32Array(size);
  const stack = new Int32Array(size + 1);
  let sp = 0;
  for (let i = 0; i < size; i++) {
    const l = level[i];
    while (sp > l) {
      end[stack[--sp]] = i;
    }
    parent[i] = sp > 0 ? stack[sp - 1] : -1;
    stack[sp++] = i;
  }
  while (sp > 0) {
    end[stack[--sp]] = size;
  }
  return {
    size,
    level,
    total,
    self,
    nameId,
    names,
    parent,
    end,
    unit,
    totalRight: right?.total,
    selfRight: right?.self,
  };
}

export function nodeName(tree: Tree, i: number): string {
  return tree.names[tree.nameId[i]];
}

/** Calls fn for each child of node i, in order. */
export function forEachChild(tree: Tree, i: number, fn: (child: number) => void) {
  const end = tree.end[i];
  for (let c = i + 1; c < end; c = tree.end[c]) {
    fn(c);
  }
}

export function childrenOf(tree: Tree, i: number): number[] {
  const out: number[] = [];
  forEachChild(tree, i, (c) => out.push(c));
  return out;
}

/** The deepest level in the tree (0 for an empty one). */
export function maxLevelOf(tree: Tree): number {
  let m = 0;
  const { size, level } = tree;
  for (let i = 0; i < size; i++) {
    if (level[i] > m) {
      m = level[i];
    }
  }
  return m;
}

/** Call path of node i from the root (excluded) down to i, as names. */
export function pathOf(tree: Tree, i: number): string[] {
  const out: string[] = [];
  for (let n = i; n > 0; n = tree.parent[n]) {
    out.push(nodeName(tree, n));
  }
  return out.reverse();
}

/** FNV-1a of a string's UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Interns strings to dense ids: an open-addressing table of ids (linear probing, at most half
 * full) over the names. In Node (the snapshot CLI, pprof string tables) twice as fast as a
 * Map<string, number> on 200k distinct labels (20 vs 37 ms); in Chrome, on labels that came
 * through JSON.parse, on par with it (14 vs 13-16 ms in the bench page).
 */
export class Interner {
  readonly names: string[] = [];
  private hashes: Int32Array;
  private slots: Int32Array;
  private mask: number;

  /** `expected`: how many distinct names to make room for up front (a hint: the table grows). */
  constructor(initial: string[] = [], expected = 0) {
    // growing the hashes from 64 by doubling was a tenth of interning ~195k distinct labels
    this.hashes = new Int32Array(Math.max(64, expected));
    let cap = 64;
    while (cap < expected * 2) {
      cap *= 2;
    }
    this.slots = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    initial.forEach((n) => this.id(n));
  }

  id(name: string): number {
    const h = fnv1a(name) | 0;
    let p = h & this.mask;
    for (let id = this.slots[p]; id >= 0; id = this.slots[p]) {
      if (this.hashes[id] === h && this.names[id] === name) {
        return id;
      }
      p = (p + 1) & this.mask;
    }
    const id = this.names.length;
    this.names.push(name);
    if (id === this.hashes.length) {
      this.hashes = growInt(this.hashes, id + 1);
    }
    this.hashes[id] = h;
    this.slots[p] = id;
    if (2 * this.names.length > this.mask) {
      this.rehash();
    }
    return id;
  }

  private rehash() {
    const cap = (this.mask + 1) * 2;
    this.slots = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    for (let id = 0; id < this.names.length; id++) {
      let p = this.hashes[id] & this.mask;
      while (this.slots[p] >= 0) {
        p = (p + 1) & this.mask;
      }
      this.slots[p] = id;
    }
  }
}

/**
 * Names arrays that hold a string frame's labels one per row, as they came (ids = row numbers;
 * equal names may have different ids), with the reader's ids and, once done, their interning.
 * Drawing, hovering and zooming never compare ids, so a first paint skips the interning (a hash
 * and a table probe per row: most of a string frame's read, ~250 ms at 1M rows); whatever
 * groups nodes by name (the tables, search, the sandwich, folding) reads `byName(tree)`.
 */
const perRow = new WeakMap<string[], { rows: Int32Array; ids?: Int32Array; names?: string[] }>();

/** Marks `names` as one per row, `rows` the reader's ids (0 .. n-1). */
export function rowNamed(names: string[], rows: Int32Array) {
  perRow.set(names, { rows });
}

/**
 * Interns a names array marked by rowNamed, once: each row's id among the names kept once.
 * Undefined for names that are interned already.
 */
export function internRows(names: string[]): { rows: Int32Array; ids: Int32Array; names: string[] } | undefined {
  const e = perRow.get(names);
  if (e && !e.ids) {
    const interner = new Interner([], names.length);
    const ids = new Int32Array(names.length);
    for (let i = 0; i < ids.length; i++) {
      ids[i] = interner.id(names[i]);
    }
    e.ids = ids;
    e.names = interner.names;
  }
  return e as { rows: Int32Array; ids: Int32Array; names: string[] } | undefined;
}

/**
 * The tree with each name once: the tree itself when its names are interned, else a tree that
 * shares every column but `names` and `nameId` (the same nodes, in the same order).
 */
export function byName(tree: Tree): Tree {
  const e = internRows(tree.names);
  if (!e) {
    return tree;
  }
  const { ids } = e;
  return { ...tree, nameId: tree.nameId === e.rows ? ids : tree.nameId.map((i) => ids[i]), names: e.names };
}

function hash2(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 13)) >>> 0;
}

function grow(a: Float64Array, n: number): Float64Array {
  if (n <= a.length) {
    return a;
  }
  const b = new Float64Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

function growInt(a: Int32Array, n: number): Int32Array {
  if (n <= a.length) {
    return a;
  }
  const b = new Int32Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Builds a tree by call path: nodes are found or created by (parent, name), values are
 * accumulated on up to two sides (0 = baseline/left, 1 = comparison/right). `build()` emits
 * the pre-order tree with siblings sorted by name, as Pyroscope orders its flamebearer.
 */
export class TreeBuilder {
  readonly interner: Interner;
  private count = 1;
  private parents: Int32Array = new Int32Array(1024);
  private nameIds: Int32Array = new Int32Array(1024);
  private totals: [Float64Array, Float64Array] = [new Float64Array(1024), new Float64Array(1024)];
  private selfs: [Float64Array, Float64Array] = [new Float64Array(1024), new Float64Array(1024)];
  /** open-addressing hash of (parent, nameId) -> node + 1; 0 = empty */
  private slots: Int32Array = new Int32Array(2048);
  private usedRight = false;

  /** `capacity`: expected node count (sizes the arrays and the hash once, no regrowth) */
  constructor(interner = new Interner(), rootName = ROOT_NAME, capacity = 1024) {
    this.interner = interner;
    if (capacity > 1024) {
      capacity = Math.ceil(capacity);
      this.ensure(capacity);
      let slots = 2048;
      while (slots < capacity * 2) {
        slots *= 2;
      }
      this.slots = new Int32Array(slots);
    }
    this.parents[0] = -1;
    this.nameIds[0] = interner.id(rootName);
  }

  /** Index of the child of `parent` named `nameId`, created when missing. */
  child(parent: number, nameId: number): number {
    let mask = this.slots.length - 1;
    let h = hash2(parent, nameId) & mask;
    for (;;) {
      const s = this.slots[h];
      if (s === 0) {
        break;
      }
      if (this.parents[s - 1] === parent && this.nameIds[s - 1] === nameId) {
        return s - 1;
      }
      h = (h + 1) & mask;
    }
    const c = this.count++;
    this.ensure(this.count);
    this.parents[c] = parent;
    this.nameIds[c] = nameId;
    if (this.count * 2 > this.slots.length) {
      this.rehash(this.slots.length * 2);
    } else {
      this.slots[h] = c + 1;
    }
    return c;
  }

  private rehash(size: number) {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let c = 1; c < this.count; c++) {
      let h = hash2(this.parents[c], this.nameIds[c]) & mask;
      while (slots[h] !== 0) {
        h = (h + 1) & mask;
      }
      slots[h] = c + 1;
    }
    this.slots = slots;
  }

  childNamed(parent: number, name: string): number {
    return this.child(parent, this.interner.id(name));
  }

  /** Adds to a node's own values; totals of ancestors are not touched (see addStack). */
  add(node: number, total: number, self: number, side: 0 | 1 = 0) {
    this.totals[side][node] += total;
    this.selfs[side][node] += self;
    if (side === 1) {
      this.usedRight = true;
    }
  }

  /** Adds one sample: `stack` root-first (root excluded) as name ids; value counts on the whole path. */
  addStack(stack: ArrayLike<number>, value: number, side: 0 | 1 = 0) {
    let n = 0;
    this.totals[side][0] += value;
    for (let k = 0; k < stack.length; k++) {
      n = this.child(n, stack[k]);
      this.totals[side][n] += value;
    }
    this.selfs[side][n] += value;
    if (side === 1) {
      this.usedRight = true;
    }
  }

  get size() {
    return this.count;
  }

  build(unit: string, opts: { diff?: boolean } = {}): Tree {
    const n = this.count;
    const names = this.interner.names;
    // children lists by counting sort on parent, then sorted by name
    const childCount = new Int32Array(n + 1);
    for (let i = 1; i < n; i++) {
      childCount[this.parents[i] + 1]++;
    }
    for (let i = 1; i <= n; i++) {
      childCount[i] += childCount[i - 1];
    }
    const firstChild = childCount.slice();
    const children = new Int32Array(Math.max(n - 1, 0));
    const fill = childCount.slice();
    for (let i = 1; i < n; i++) {
      children[fill[this.parents[i]]++] = i;
    }
    // siblings by name: compare precomputed name ranks, not strings
    const order = names.map((_, i) => i).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
    const rank = new Int32Array(names.length);
    order.forEach((id, r) => (rank[id] = r));
    const nameIds = this.nameIds;
    const byName = (a: number, b: number) => rank[nameIds[a]] - rank[nameIds[b]];
    for (let p = 0; p < n; p++) {
      const from = firstChild[p];
      const to = firstChild[p + 1];
      if (to - from > 1) {
        children.subarray(from, to).sort(byName);
      }
    }
    const level = new Int32Array(n);
    const total = new Float64Array(n);
    const self = new Float64Array(n);
    const nameId = new Int32Array(n);
    const diff = opts.diff ?? this.usedRight;
    const totalRight = diff ? new Float64Array(n) : undefined;
    const selfRight = diff ? new Float64Array(n) : undefined;
    // iterative pre-order walk
    const stack: number[] = [0];
    const depth: number[] = [0];
    let out = 0;
    while (stack.length) {
      const b = stack.pop()!;
      const d = depth.pop()!;
      level[out] = d;
      total[out] = this.totals[0][b];
      self[out] = this.selfs[0][b];
      nameId[out] = this.nameIds[b];
      if (totalRight && selfRight) {
        totalRight[out] = this.totals[1][b];
        selfRight[out] = this.selfs[1][b];
      }
      out++;
      for (let k = firstChild[b + 1] - 1; k >= firstChild[b]; k--) {
        stack.push(children[k]);
        depth.push(d + 1);
      }
    }
    return makeTree(
      level,
      total,
      self,
      nameId,
      names.slice(),
      unit,
      totalRight && selfRight ? { total: totalRight, self: selfRight } : undefined
    );
  }

  private ensure(n: number) {
    if (n > this.parents.length) {
      this.parents = growInt(this.parents, n);
      this.nameIds = growInt(this.nameIds, n);
      this.totals = [grow(this.totals[0], n), grow(this.totals[1], n)];
      this.selfs = [grow(this.selfs[0], n), grow(this.selfs[1], n)];
    }
  }
}

/**
 * Copies every node of `tree` into `builder` on `side`, by call path. Returns the builder
 * node of each tree node.
 */
export function addTree(builder: TreeBuilder, tree: Tree, side: 0 | 1 = 0, right = false): Int32Array {
  const map = new Int32Array(tree.size);
  const ids = tree.names.map((n) => builder.interner.id(n));
  const total = right ? tree.totalRight! : tree.total;
  const self = right ? tree.selfRight! : tree.self;
  map[0] = 0;
  builder.add(0, total[0], self[0], side);
  for (let i = 1; i < tree.size; i++) {
    if (total[i] === 0 && self[i] === 0) {
      // a node that exists only on the other side of a diff; its descendants are zero too
      map[i] = -1;
      continue;
    }
    const b = builder.child(map[tree.parent[i]], ids[tree.nameId[i]]);
    map[i] = b;
    builder.add(b, total[i], self[i], side);
  }
  return map;
}
