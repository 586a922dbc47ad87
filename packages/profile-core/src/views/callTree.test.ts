import { fromAscii } from '../testing/ascii';
import { ChildOrder, expandToDepth, expandToMatches, visibleRows, withPathTo } from './callTree';
import { generateTree } from '../testing/generate';
import { searchTree } from './search';
import { nodeName, Tree } from '../tree/tree';

const tree = () =>
  fromAscii(`
total 100
└─ main.main 100
   ├─ a.small 10
   │  └─ a.leaf 10
   ├─ b.big 60
   │  ├─ b.one 20
   │  └─ b.two 40
   └─ c.mid 30
`);

const names = (t: Tree, rows: Int32Array) => Array.from(rows, (n) => `${'  '.repeat(t.level[n])}${nodeName(t, n)}`);

describe('call tree rows', () => {
  it('shows the root and the children of expanded nodes only, heaviest first', () => {
    const t = tree();
    const order = new ChildOrder(t);
    const main = 1; // pre-order: the root's only child
    expect(names(t, visibleRows(order, 0, new Set([0])))).toEqual(['total', '  main.main']);
    expect(names(t, visibleRows(order, 0, new Set([0, main])))).toEqual(['total', '  main.main', '    b.big', '    c.mid', '    a.small']);
  });

  it('expands to a depth below the root', () => {
    const t = tree();
    const order = new ChildOrder(t);
    expect(names(t, visibleRows(order, 0, expandToDepth(order, 0, 3)))).toEqual([
      'total',
      '  main.main',
      '    b.big',
      '      b.two',
      '      b.one',
      '    c.mid',
      '    a.small',
      '      a.leaf',
    ]);
    expect(visibleRows(order, 0, expandToDepth(order, 0, 1))).toHaveLength(2);
    expect(visibleRows(order, 0, expandToDepth(order, 0, 0))).toHaveLength(1);
  });

  it('opens the path to a node (the flame graph focus) and to search matches', () => {
    const t = tree();
    const order = new ChildOrder(t);
    const leaf = t.names.indexOf('a.leaf');
    const node = Array.from({ length: t.size }, (_, i) => i).find((i) => t.nameId[i] === leaf)!;
    const open = withPathTo(t, new Set([0]), 0, node);
    expect(names(t, visibleRows(order, 0, open))).toContain('      a.leaf');
    const s = searchTree(t, { text: 'b.one' });
    const rows = names(t, visibleRows(order, 0, expandToMatches(t, 0, s.ok ? s.result!.matches : new Uint8Array())));
    expect(rows).toContain('      b.one');
    expect(rows).not.toContain('      a.leaf');
  });

  it('touches only the expanded nodes of a large tree: a 200k-node tree opened two levels deep sorts only those levels', () => {
    const big = generateTree(200_000, 3);
    const order = new ChildOrder(big);
    const sorted = jest.spyOn(order, 'of');
    const rows = visibleRows(order, 0, expandToDepth(order, 0, 2));
    // the root and its children were sorted, nothing else
    const calls = sorted.mock.calls.map((c) => c[0]);
    calls.forEach((n) => expect(big.level[n]).toBeLessThan(2));
    expect(calls.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(big.size / 10);
  });
});
