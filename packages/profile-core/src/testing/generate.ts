import { Interner, ROOT_NAME, Tree, TreeBuilder } from '../tree/tree';

/**
 * Deterministic synthetic profiles for tests and the benchmark: about `nodes` nodes, Go-like
 * names from a few packages, a skewed fan-out (some hot paths, a long tail), depth up to
 * `maxDepth`. `seed` changes the shape; `perturb` scales the values of one subtree family
 * (a comparison profile for diffs).
 */
export function generateTree(nodes: number, seed = 1, opts: { maxDepth?: number; perturb?: number } = {}): Tree {
  let s = seed >>> 0 || 1;
  const rand = () => {
    // xorshift32
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  const maxDepth = opts.maxDepth ?? 40;
  const packages = ['main', 'net/http', 'runtime', 'encoding/json', 'compress/flate', 'github.com/golang/protobuf/proto', 'fmt', 'syscall', 'sync', 'database/sql'];
  const interner = new Interner([ROOT_NAME]);
  const fnNames: number[] = [];
  const distinct = Math.max(50, Math.floor(nodes / 20));
  for (let i = 0; i < distinct; i++) {
    const pkg = packages[Math.floor(rand() * packages.length)];
    fnNames.push(interner.id(`${pkg}.fn${i.toString(36)}`));
  }
  const builder = new TreeBuilder(interner, ROOT_NAME);
  // grow the tree node by node, attaching each new node under a random existing one
  // biased towards recent nodes (deep stacks) and towards the first children (hot paths)
  const depth: number[] = [0];
  const ids: number[] = [0];
  while (builder.size < nodes) {
    const r = rand();
    const at = r < 0.6 ? ids.length - 1 - Math.floor(rand() * Math.min(ids.length, 8)) : Math.floor(rand() * rand() * ids.length);
    const parent = ids[at];
    if (depth[at] >= maxDepth) {
      continue;
    }
    const before = builder.size;
    const child = builder.child(parent, fnNames[Math.floor(rand() * rand() * fnNames.length)]);
    if (builder.size > before) {
      ids.push(child);
      depth.push(depth[at] + 1);
      // heavy-tailed self values
      const v = Math.floor(1 + 1000 * Math.pow(rand(), 6));
      const scaled = opts.perturb && child % 7 === 0 ? Math.floor(v * opts.perturb) : v;
      builder.add(child, 0, scaled, 0);
    }
  }
  const raw = builder.build('ns', { diff: false });
  // totals = self + children, computed bottom-up (pre-order reversed)
  for (let i = raw.size - 1; i > 0; i--) {
    raw.total[i] += raw.self[i];
    raw.total[raw.parent[i]] += raw.total[i];
  }
  raw.total[0] += raw.self[0];
  return raw;
}
