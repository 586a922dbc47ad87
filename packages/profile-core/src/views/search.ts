/** Search over a tree's labels: which nodes match, and the share of samples under them. */
import { byName, Tree } from '../tree/tree';

export interface SearchQuery {
  text: string;
  regex?: boolean;
}

export interface SearchResult {
  /** 1 where the node's own label matches */
  matches: Uint8Array;
  /** 1 where the node or an ancestor matches: the node's samples are matched samples */
  covered: Uint8Array;
  matchCount: number;
  /**
   * Matched samples: the samples whose stack holds at least one matching frame. Equals the
   * sum of `self` over covered nodes, and the sum of `total` over matching nodes that have no
   * matching ancestor.
   */
  matchedValue: number;
  /** matchedValue / root total: "the share of samples matched" (0..1) */
  share: number;
  /** samples spent in a matching function itself: sum of self over matching nodes */
  selfValue: number;
  /** selfValue / root total */
  selfShare: number;
  /** comparison side of a diff tree */
  matchedValueRight?: number;
  shareRight?: number;
}

export type SearchOutcome = { ok: true; result: SearchResult | undefined } | { ok: false; error: string };

/**
 * Search by substring (case-insensitive) or regular expression over the labels. The label
 * test runs once per distinct name, not per node.
 */
export function searchTree(tree: Tree, query: SearchQuery): SearchOutcome {
  const text = query.text;
  if (!text) {
    return { ok: true, result: undefined };
  }
  let test: (s: string) => boolean;
  if (query.regex) {
    let re: RegExp;
    try {
      re = new RegExp(text);
    } catch (e) {
      return { ok: false, error: `Invalid regular expression: ${(e as Error).message}` };
    }
    test = (s) => re.test(s);
  } else {
    const needle = text.toLowerCase();
    test = (s) => s.toLowerCase().includes(needle);
  }
  tree = byName(tree);
  const nameMatch = new Uint8Array(tree.names.length);
  tree.names.forEach((n, id) => (nameMatch[id] = test(n) ? 1 : 0));
  const matches = new Uint8Array(tree.size);
  const covered = new Uint8Array(tree.size);
  let matchCount = 0;
  let matchedValue = 0;
  let selfValue = 0;
  let matchedValueRight = 0;
  for (let i = 0; i < tree.size; i++) {
    const m = nameMatch[tree.nameId[i]];
    matches[i] = m;
    const p = tree.parent[i];
    const parentCovered = p >= 0 ? covered[p] : 0;
    covered[i] = m | parentCovered;
    if (m) {
      matchCount++;
      selfValue += tree.self[i];
      if (!parentCovered) {
        matchedValue += tree.total[i];
        if (tree.totalRight) {
          matchedValueRight += tree.totalRight[i];
        }
      }
    }
  }
  const root = tree.size ? tree.total[0] : 0;
  const rootR = tree.totalRight ? tree.totalRight[0] : 0;
  return {
    ok: true,
    result: {
      matches,
      covered,
      matchCount,
      matchedValue,
      share: root > 0 ? matchedValue / root : 0,
      selfValue,
      selfShare: root > 0 ? selfValue / root : 0,
      matchedValueRight: tree.totalRight ? matchedValueRight : undefined,
      shareRight: tree.totalRight ? (rootR > 0 ? matchedValueRight / rootR : 0) : undefined,
    },
  };
}
