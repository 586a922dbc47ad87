// Shared by the data layer's property tests: random trees and a form to compare them by.
import fc from 'fast-check';

import { pathOf, Tree, TreeBuilder } from '../tree/tree';

/** path -> [total, self] of every node with a non-zero total (canonical form for comparisons). */
export function canonical(tree: Tree): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (let i = 0; i < tree.size; i++) {
    if (tree.total[i] > 0) {
      out.set(pathOf(tree, i).join(';'), [tree.total[i], tree.self[i]]);
    }
  }
  return out;
}

const NAMES = ['main', 'fmt.Println', 'write', 'runtime.mallocgc', 'json.Marshal', 'io.Copy'];

/** Random profiles: lists of (stack, value) samples over a small alphabet (recursion happens). */
export const arbTree = fc
  .array(fc.tuple(fc.array(fc.constantFrom(...NAMES), { minLength: 0, maxLength: 6 }), fc.integer({ min: 1, max: 1000 })), {
    minLength: 1,
    maxLength: 40,
  })
  .map((samples) => {
    const b = new TreeBuilder();
    for (const [stack, value] of samples) {
      b.addStack(
        stack.map((n) => b.interner.id(n)),
        value
      );
    }
    return b.build('short');
  });
