// One profile's cost by function, charged as the messages charge it: self time in the runtime,
// libc or an allocator is moved to its nearest caller outside them (the profile core's
// attributeSelf), then summed by function name (functionRows, as Pyroscope's top table does).
import { dataLayer } from '@hotpath/headless/data-node.mjs';

const d = await dataLayer();

/**
 * @param {object} read decode.mjs's `read` (the core's pprofToTree result); undefined for no samples
 * @returns {{ total: number, byFunction: Map<string, number> }} the profile's total and each
 *   function's attributed self (only functions with self > 0; they add up to at most the total,
 *   the rest is self on the root: samples without a stack)
 */
export function functionCosts(read) {
  const tree = read?.tree;
  const byFunction = new Map();
  if (!tree?.size) {
    return { total: 0, byFunction };
  }
  const root = tree.names[tree.nameId[0]];
  for (const r of d.functionRows(d.attributeSelf(tree).tree)) {
    if (r.self > 0 && r.name !== root) {
      byFunction.set(r.name, r.self);
    }
  }
  return { total: Math.max(0, tree.total[0]), byFunction };
}

/**
 * Whose work a function's row is when it is not the service's own code: 'runtime' for a row named
 * by runtime, libc or allocator plumbing (after attributeSelf it holds only work with no calling
 * code to charge: a GC worker, the scheduler), 'profiler' for the profiler's own frames; else
 * undefined.
 */
export function rowOrigin(name) {
  return d.originOf(name);
}
