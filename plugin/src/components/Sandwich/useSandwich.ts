import { useCallback, useMemo, useState } from 'react';

import { nodeName, sandwich as sandwichOf, Tree } from '@hotpath/profile-core';

import { Pane } from '../types';

/**
 * The sandwich toggle and its function: the one picked in a table, else the focused frame's.
 * The call tree pane shows its callers and callees (computed only while that pane shows).
 */
export function useSandwich(tree: Tree, focus: number, selectedFn: string | undefined, main: Pane, second: Pane | undefined) {
  const [on, setOn] = useState(false);
  const name = selectedFn !== undefined && tree.names.includes(selectedFn) ? selectedFn : focus > 0 ? nodeName(tree, focus) : undefined;
  const show = on && name !== undefined;
  const onToggle = useCallback(() => setOn((was) => !was), []);
  const trees = useMemo(() => (show && (main === 'tree' || second === 'tree') ? sandwichOf(tree, name!) : undefined), [show, main, second, tree, name]);
  return { name, on, show, onToggle, trees };
}
