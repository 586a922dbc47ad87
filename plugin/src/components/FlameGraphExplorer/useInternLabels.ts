import { useEffect } from 'react';

import { internRows, Tree } from '@hotpath/profile-core';

/**
 * A string frame's labels are drawn before they are interned (data/tree.ts, byName): intern
 * them once the graph is on screen (a frame later), before a search, table or sandwich asks.
 */
export function useInternLabels(tree: Tree, tableTree: Tree) {
  useEffect(() => {
    let timer = 0;
    const f = requestAnimationFrame(() => (timer = window.setTimeout(() => [tree, tableTree].forEach((t) => internRows(t.names)))));
    return () => {
      cancelAnimationFrame(f);
      clearTimeout(timer);
    };
  }, [tree, tableTree]);
}
