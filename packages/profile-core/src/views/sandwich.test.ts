import fc from 'fast-check';

import { fromAscii, toAscii } from '../testing/ascii';
import { diffTrees } from '../analysis/mergeDiff';
import { topTable } from '../analysis/topTable';
import { sandwich } from './sandwich';
import { printlnAfter, printlnBefore, recursive } from '../testing/trees';
import { TreeBuilder } from '../tree/tree';

/** the canonical ASCII form of a tree drawn by hand */
const ascii = (art: string) => toAscii(fromAscii(art));

const profile = () =>
  fromAscii(`
total 100
├─ main.a 60
│  └─ util.hash 40
│     └─ crypto.sha 30
└─ main.b 40
   ├─ util.hash 25
   │  ├─ crypto.sha 5
   │  └─ runtime.mallocgc 15
   └─ main.c 15
`);

describe('sandwich', () => {
  it('callers above and callees below, merged from every place the function occurs', () => {
    const s = sandwich(profile(), 'util.hash')!;
    expect(s.occurrences).toBe(2);
    expect(toAscii(s.callers)).toBe(
      ascii(`util.hash 65
├─ main.a 40
│  └─ total 40
└─ main.b 25
   └─ total 25`)
    );
    expect(toAscii(s.callees)).toBe(
      ascii(`util.hash 65
├─ crypto.sha 35
└─ runtime.mallocgc 15`)
    );
  });

  it('recursion counts the outermost call only', () => {
    const s = sandwich(recursive(), 'main.walk')!;
    expect(s.callees.total[0]).toBe(10);
    expect(s.callers.total[0]).toBe(10);
    expect(s.occurrences).toBe(1);
  });

  it('in a diff, each caller carries both sides', () => {
    const s = sandwich(diffTrees(printlnBefore(), printlnAfter()), 'main.handler')!;
    expect(s.callees.totalRight![0]).toBe(400);
    expect(s.callees.total[0]).toBe(100);
    const println = s.callees.names.indexOf('fmt.Println');
    const node = Array.from(s.callees.nameId).indexOf(println);
    expect([s.callees.total[node], s.callees.totalRight![node]]).toEqual([0, 300]);
  });

  it('an unknown function has no sandwich', () => {
    expect(sandwich(profile(), 'nope')).toBeUndefined();
  });

  it("property: the function's total in the sandwich equals its total in the top table, on both halves", () => {
    const NAMES = ['a', 'b', 'c', 'd'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(fc.constantFrom(...NAMES), { maxLength: 6 }), fc.integer({ min: 1, max: 100 })), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(...NAMES),
        (samples, name) => {
          const b = new TreeBuilder();
          samples.forEach(([st, v]) => b.addStack(st.map((n) => b.interner.id(n)), v));
          const t = b.build('short');
          const row = topTable(t).find((r) => r.name === name);
          const s = sandwich(t, name);
          if (!row) {return s === undefined;}
          return s!.callers.total[0] === row.total && s!.callees.total[0] === row.total;
        }
      )
    );
  });
});
