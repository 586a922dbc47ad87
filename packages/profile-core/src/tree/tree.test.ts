import { fromAscii, toAscii } from '../testing/ascii';
import { childrenOf, Interner, nodeName, pathOf, TreeBuilder } from './tree';

describe('tree model', () => {
  it('reads and writes ASCII art', () => {
    const art = `
total 100
└─ main.main 100
   ├─ fmt.Println 60
   └─ main.handler 40`;
    const tree = fromAscii(art);
    expect(tree.size).toBe(4);
    expect(Array.from(tree.level)).toEqual([0, 1, 2, 2]);
    expect(Array.from(tree.self)).toEqual([0, 0, 60, 40]);
    expect(toAscii(tree)).toBe('total 100\n  main.main 100\n    fmt.Println 60\n    main.handler 40');
  });

  it('derives parents, subtree ends and paths', () => {
    const tree = fromAscii(`
total 10
  a 6
    b 4
  c 4`);
    expect(Array.from(tree.parent)).toEqual([-1, 0, 1, 0]);
    expect(Array.from(tree.end)).toEqual([4, 3, 3, 4]);
    expect(childrenOf(tree, 0).map((i) => nodeName(tree, i))).toEqual(['a', 'c']);
    expect(pathOf(tree, 2)).toEqual(['a', 'b']);
  });

  it('interns labels: one name id per distinct name', () => {
    const b = new TreeBuilder();
    const ids = ['x', 'y', 'x'].map((n) => b.interner.id(n));
    b.addStack(ids, 5);
    b.addStack([ids[0]], 1);
    const tree = b.build('short');
    expect(tree.names).toEqual(['total', 'x', 'y']);
    expect(toAscii(tree)).toBe('total 6\n  x 6\n    y 5\n      x 5');
  });

  it('sorts siblings by name, as Pyroscope does', () => {
    const b = new TreeBuilder();
    b.addStack([b.interner.id('zeta')], 1);
    b.addStack([b.interner.id('alpha')], 1);
    expect(toAscii(b.build('short'))).toBe('total 2\n  alpha 1\n  zeta 1');
  });

  it('rejects malformed art', () => {
    expect(() => fromAscii('total 1\nno-number-here')).toThrow(/line 2/);
    expect(() => fromAscii('total 1\ntotal 1')).toThrow(/second root/);
  });
});

describe('Interner', () => {
  it('gives one dense id per distinct name, through every growth of its table', () => {
    const interner = new Interner(['total']);
    const names = Array.from({ length: 5000 }, (_, i) => `pkg${i % 37}.fn${i}`);
    const ids = names.map((n) => interner.id(n));
    expect(ids).toEqual(names.map((_, i) => i + 1));
    // the same names again, as other string objects (built, not the literals above): the same ids
    expect(names.map((n) => interner.id(n.split('').join('')))).toEqual(ids);
    expect(interner.names.length).toBe(5001);
    expect(interner.id('total')).toBe(0);
    expect(interner.id('')).toBe(5001);
  });

  it('keeps names whose hashes collide apart (and presized tables work the same)', () => {
    // every table starts small enough (64 slots) that some of these share a slot
    for (const expected of [0, 100_000]) {
      const interner = new Interner([], expected);
      const got = ['a', 'b', 'a', 'c', 'b', 'é', '日本', 'a'].map((n) => interner.id(n));
      expect(got).toEqual([0, 1, 0, 2, 1, 3, 4, 0]);
      expect(interner.names).toEqual(['a', 'b', 'c', 'é', '日本']);
    }
  });
});
