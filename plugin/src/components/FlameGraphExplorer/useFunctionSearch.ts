import { useCallback, useMemo, useState } from 'react';

import { searchTree, Tree } from '@hotpath/profile-core';

/**
 * The toolbar's search over the shown tree (text or regex), and the function picked in a
 * table: picking one searches for exactly its name.
 */
export function useFunctionSearch(shown: Tree) {
  const [search, setSearch] = useState('');
  const [regex, setRegex] = useState(false);
  const [selectedFn, setSelectedFn] = useState<string | undefined>(undefined);
  const searched = useMemo(() => searchTree(shown, { text: search, regex }), [shown, search, regex]);
  const onSelectFunction = useCallback((name: string) => {
    setSelectedFn(name);
    setRegex(true);
    setSearch(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  }, []);
  return { search, setSearch, regex, setRegex, searched, result: searched.ok ? searched.result : undefined, selectedFn, onSelectFunction };
}
